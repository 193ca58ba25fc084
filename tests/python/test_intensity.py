"""The noise, illumination and auto-contrast ops against kornia on x / 255 (FIDELITY.md's oracle),
byte for byte, and their errors. Their classes run in test_kornia_dropin.py."""

import pytest
import torch
from kornia.enhance import normalize_min_max

import u8aug
from conftest import random_image, to_u8


def _layouts(x):
    return (x, x.contiguous(memory_format=torch.channels_last)) if x.dim() == 4 else (x,)


@pytest.mark.parametrize("shape", [(4, 3, 31, 45), (2, 1, 7, 130), (3, 17, 19)])
def test_add_offset_is_korninas_sum_clamped(shape):
    x = random_image(shape, seed=shape[-1])
    g = torch.Generator().manual_seed(1)
    offset = torch.randn(shape, generator=g) * 0.4
    expected = to_u8((x.float() / 255 + offset).clamp(0, 1))
    for img in _layouts(x):
        for off in _layouts(offset):
            assert torch.equal(u8aug.add_offset(img, off), expected)
    if x.dim() == 4:  # one offset image for the batch
        one = offset[:1]
        assert torch.equal(u8aug.add_offset(x, one), to_u8((x.float() / 255 + one).clamp(0, 1)))
        assert torch.equal(u8aug.add_offset(x, one.expand_as(x)), u8aug.add_offset(x, one))


def test_add_offset_errors():
    x = random_image((2, 3, 4, 5))
    with pytest.raises(
        RuntimeError, match=r"add_offset: expected offset of dtype torch.float32, got (torch.float64|Double)"
    ):
        u8aug.add_offset(x, torch.zeros(2, 3, 4, 5, dtype=torch.float64))
    with pytest.raises(RuntimeError, match=r"expected offset of shape \(B or 1, C, H, W\) = \(2 or 1, 3, 4, 5\)"):
        u8aug.add_offset(x, torch.zeros(2, 3, 5, 4))
    with pytest.raises(RuntimeError, match=r"expected offset of shape"):
        u8aug.add_offset(x, torch.zeros(3, 4, 5))


@pytest.mark.parametrize("shape", [(4, 3, 31, 45), (2, 2, 3, 200), (3, 17, 19)])
def test_auto_contrast_is_kornias_normalize_min_max(shape):
    x = random_image(shape, seed=3)
    x = (x // 3 + 60).to(torch.uint8)  # planes spanning [60, 145]: a real stretch
    if x.dim() == 4:
        x[0, 0] = 77  # a constant plane: kornia gives 0
    expected = to_u8(normalize_min_max(x.float() / 255))
    for img in _layouts(x):
        got = u8aug.auto_contrast(img)
        assert torch.equal(got, expected)
    if x.dim() == 4:
        assert int(got[0, 0].max()) == 0
    assert int(got.amax()) == 255 and int(got.amin()) == 0
