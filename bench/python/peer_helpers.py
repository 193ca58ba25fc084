"""Shared pieces of the benchmark peers (peers.py): the library names, and how each library is fed.

A factory maps the batch x (uint8, (B, C, H, W), on the benchmark device) to a zero-argument callable
that runs one augmentation of the whole batch, parameter sampling included, through that library's
own random-augmentation API; it returns None where a library cannot run on the device.
"""

import importlib

import numpy as np
import torch

LIBRARIES = [
    "u8aug",
    "u8aug compiled",
    "u8aug fast",  # fidelity="fast" where the op or class has that tier
    "u8aug fast compiled",  # the pipelines' fast tier under torch.compile(fullgraph=True)
    "u8aug kernels alone",  # the pipeline row: its u8aug ops one after another, kornia's draws made once
    "u8aug fast kernels alone",  # the same in the fast tier
    "u8aug stacked batch",  # the ragged row: the same recipe on a stacked batch of one size
    "kornia float",
    "kornia float compiled",
    "torchvision v2",
    "albumentations",
    "OpenCV",
    "torchvision decode_jpeg alone",  # the per_sample_decode row: each side's decode on its own
    "OpenCV imdecode alone",
    "memcpy",
]
# Columns that are references, not peers: never "the fastest peer"
REFERENCES = {"memcpy", "torchvision decode_jpeg alone", "OpenCV imdecode alone"}


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


def is_ours(library: str) -> bool:
    return library.startswith("u8aug")


def is_peer(library: str) -> bool:
    return not is_ours(library) and library not in REFERENCES


def _memcpy(x):
    return lambda: x.clone()


def _optional(module: str):
    """A peer library, or None where it is not installed (the GPU machine has no albumentations)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None
