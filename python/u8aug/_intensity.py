"""Intensity ops of kornia's noise and illumination classes and of auto-contrast, on ``img / 255``,
quantized. Part of :mod:`u8aug.ops` (re-exported there)."""

import torch

__all__ = ["add_offset", "auto_contrast"]


def add_offset(img: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
    """``clamp(img / 255 + offset, 0, 1)``, quantized: kornia's RandomGaussianNoise (``x + noise``) and
    its illumination classes (``clamp(x + gradient, 0, 1)``) given kornia's own drawn tensor.
    ``offset``: float32 of shape (B, C, H, W), or (1, C, H, W) for the whole batch ((C, H, W) for a
    (C, H, W) image), any strides, on the image's device. One float32 addition per element, so the
    bytes are kornia's (fidelity: exact)."""
    return torch.ops.u8aug.add_offset(img, offset)


def auto_contrast(img: torch.Tensor) -> torch.Tensor:
    """``kornia.enhance.normalize_min_max`` on each (sample, channel) plane (RandomAutoContrast):
    ``(x - min) / ((max - min) + 1e-6)`` on ``img / 255``, clamped; a constant plane becomes 0. Each
    plane is a 256-entry table of its min and max, so the bytes are kornia's (fidelity: exact)."""
    return torch.ops.u8aug.auto_contrast(img)
