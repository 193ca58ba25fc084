"""Who runs each benchmarked op, and how each library is fed (../shared/BENCH.md).

Every entry maps a library name to a factory: factory(x) -> zero-argument callable that runs one
augmentation of the whole batch x (uint8, (B, C, H, W), on the benchmark device), parameter sampling
included, through that library's own random-augmentation API. Factories return None where a
library cannot run on the device.
"""

import importlib

import numpy as np
import torch

import u8aug

LIBRARIES = [
    "u8aug", "u8aug compiled", "kornia float", "kornia float compiled",
    "torchvision v2", "albumentations", "OpenCV", "memcpy",
]


def _hwc_list(x):
    """The batch as albumentations and OpenCV take it: a list of uint8 HWC numpy arrays."""
    return [np.ascontiguousarray(img.permute(1, 2, 0).cpu().numpy()) for img in x]


def _kornia(cls, compiled, **kwargs):
    def factory(x):
        aug = cls(**kwargs).to(x.device)
        xf = x.float() / 255  # kornia's float path is fed float: conversion is outside the timing
        fn = torch.compile(aug) if compiled else aug
        return lambda: fn(xf)

    return factory


def _compiled(fn):
    def factory(x):
        c = torch.compile(fn, fullgraph=True)
        return lambda: c(x)

    return factory


def _per_image(make):
    def factory(x):
        if x.device.type != "cpu":
            return None
        images = _hwc_list(x)
        one = make()
        return lambda: [one(img) for img in images]

    return factory


def _memcpy(x):
    return lambda: x.clone()


def _optional(module: str):
    """A peer library, or None where it is not installed (the GPU machine has no albumentations)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def _flip_peers(u8aug_fn, kornia_name, tv_name, albu_name, cv2_code):
    K = _optional("kornia.augmentation")
    v2 = _optional("torchvision.transforms.v2")
    A = _optional("albumentations")
    cv2 = _optional("cv2")

    def albu():
        t = getattr(A, albu_name)(p=1.0)
        return lambda img: t(image=img)["image"]

    def torchvision(x):
        t = getattr(v2, tv_name)(p=1.0)
        return lambda: t(x)

    peers = {
        "u8aug": lambda x: (lambda: u8aug_fn(x)),
        "u8aug compiled": _compiled(u8aug_fn),
        "kornia float": K and _kornia(getattr(K, kornia_name), False, p=1.0),
        "kornia float compiled": K and _kornia(getattr(K, kornia_name), True, p=1.0),
        "torchvision v2": v2 and torchvision,
        "albumentations": A and _per_image(albu),
        "OpenCV": cv2 and _per_image(lambda: (lambda img: cv2.flip(img, cv2_code))),
        "memcpy": _memcpy,
    }
    return {name: f for name, f in peers.items() if f}


def peers_for(op: str) -> dict:
    if op == "hflip":
        return _flip_peers(u8aug.hflip, "RandomHorizontalFlip", "RandomHorizontalFlip", "HorizontalFlip", 1)
    if op == "vflip":
        return _flip_peers(u8aug.vflip, "RandomVerticalFlip", "RandomVerticalFlip", "VerticalFlip", 0)
    raise KeyError(f"no benchmark peers defined for op {op!r}")


OPS = ["hflip", "vflip"]
# Ops whose speed is bounded by memory: also reported as GB/s and as a fraction of memcpy.
MEMORY_BOUND = {"hflip", "vflip"}
