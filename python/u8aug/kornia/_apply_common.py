"""Helpers shared by the drop-ins' uint8 apply functions (_apply.py and its family files)."""

import torch


def f32(params, key, x):
    return params[key].to(device=x.device, dtype=torch.float32)


def fidelity(aug) -> str:
    """The drop-in's tier (its ``fidelity`` keyword; kornia's own classes after install() take
    ``aug.fidelity = "fast"``): "exact" unless set."""
    return getattr(aug, "fidelity", "exact")
