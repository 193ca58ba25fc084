"""Every two-dimensional augmentation class kornia exports takes uint8 through u8aug.kornia, or is
listed here with the reason it does not: a new kornia class fails this test until it is either."""

import inspect

import kornia.augmentation as K
import pytest
import torch
from kornia.augmentation._2d.base import AugmentationBase2D

import u8aug.kornia as UK

# Not (yet) taking uint8, and why; each still importable from u8aug.kornia where noted.
WITHOUT_UINT8 = {
    "RandomDissolving": "a Stable Diffusion model in float: u8aug.kornia.RandomDissolving refuses uint8 by name",
    "Denormalize": "its input is a normalized float image, never uint8: u8aug.kornia.Denormalize is kornia's",
}


def kornia_2d_classes():
    return sorted(
        name
        for name, cls in vars(K).items()
        if inspect.isclass(cls) and issubclass(cls, AugmentationBase2D) and not name.endswith("Base2D")
    )


def test_every_kornia_2d_class_has_a_uint8_dropin_or_a_stated_reason():
    names = kornia_2d_classes()
    assert len(names) >= 56, names
    missing = [n for n in names if n not in UK.__all__ and n not in WITHOUT_UINT8]
    assert not missing, f"kornia classes with neither a u8aug.kornia drop-in nor a reason here: {missing}"
    stale = [n for n in WITHOUT_UINT8 if n not in names]
    assert not stale, f"listed without uint8 but not exported by kornia: {stale}"
    dropins = [n for n in names if n in UK.__all__ and n not in WITHOUT_UINT8]
    # every drop-in's uint8 path is one of u8aug's (KERNELS) or a mix's own forward
    assert all(n in UK.KERNELS or issubclass(getattr(UK, n), K.MixAugmentationBaseV2) for n in dropins)


def test_dissolving_refuses_uint8_by_name():
    # kornia's constructor loads a Stable Diffusion checkpoint; the refusal is before any of it
    aug = UK.RandomDissolving.__new__(UK.RandomDissolving)
    K.IntensityAugmentationBase2D.__init__(aug, p=1.0, same_on_batch=True)
    with pytest.raises(NotImplementedError, match="RandomDissolving: no uint8 path"):
        aug(torch.zeros(1, 3, 8, 8, dtype=torch.uint8))


def test_denormalize_is_kornias():
    assert UK.Denormalize is K.Denormalize
