"""Benchmark peers of the auto-augment policies (see peer_helpers.py). kornia's policies (and u8aug's)
and torchvision v2's draw one sub-policy for the whole batch; albumentations has none, and its
nearest equivalent is SomeOf / OneOf over the same kinds of operations at comparable strengths, drawn
per image."""

import torch

from peer_helpers import _memcpy, _optional, _per_image

# op: (kornia / u8aug.kornia.auto class, its arguments, torchvision v2 class and arguments, ops drawn)
POLICIES = {
    "rand_augment": ("RandAugment", dict(n=2, m=10), ("RandAugment", dict(num_ops=2, magnitude=10)), 2),
    "trivial_augment": ("TrivialAugment", dict(), ("TrivialAugmentWide", dict()), 1),
}


def _albumentations_policy(A, n):
    ops = [
        A.Affine(rotate=(-30, 30), p=1.0),
        A.Affine(shear={"x": (-17, 17), "y": (0, 0)}, p=1.0),
        A.Affine(shear={"x": (0, 0), "y": (-17, 17)}, p=1.0),
        A.Affine(translate_percent={"x": (-0.1, 0.1), "y": (0, 0)}, p=1.0),
        A.Affine(translate_percent={"x": (0, 0), "y": (-0.1, 0.1)}, p=1.0),
        A.Solarize(threshold_range=(0.0, 1.0), p=1.0),
        A.Posterize(num_bits=(4, 8), p=1.0),
        A.Equalize(p=1.0),
        A.AutoContrast(p=1.0),
        A.Sharpen(p=1.0),
        A.RandomBrightnessContrast(brightness_limit=0.3, contrast_limit=0, p=1.0),
        A.RandomBrightnessContrast(brightness_limit=0, contrast_limit=0.3, p=1.0),
        A.ColorJitter(brightness=0, contrast=0, saturation=0.3, hue=0, p=1.0),
        A.InvertImg(p=1.0),
    ]
    return A.SomeOf(ops, n=n, p=1.0) if n > 1 else A.OneOf(ops, p=1.0)


def _auto_peers(op):
    K = _optional("kornia.augmentation")
    UA = _optional("u8aug.kornia.auto")
    v2 = _optional("torchvision.transforms.v2")
    A = _optional("albumentations")
    name, kwargs, (tv_name, tv_kwargs), n = POLICIES[op]

    def ours(x):
        torch.manual_seed(0)
        aug = getattr(UA, name)(**kwargs)
        return lambda: aug(x)

    def kornia(x):
        torch.manual_seed(0)
        aug, xf = getattr(K.auto, name)(**kwargs), x.float() / 255
        return lambda: aug(xf)

    def torchvision(x):
        t = getattr(v2, tv_name)(**tv_kwargs)
        return lambda: t(x)

    def albu():
        t = _albumentations_policy(A, n)
        return lambda img: t(image=img)["image"]

    # no compiled rows: the host-side choice of sub-policy holds no single graph (u8aug.kornia.auto)
    peers = {
        "u8aug": UA and K and ours,
        "kornia float": K and kornia,
        "torchvision v2": v2 and torchvision,
        "albumentations": A and _per_image(albu),
        "memcpy": _memcpy,
    }
    return {n_: f for n_, f in peers.items() if f}
