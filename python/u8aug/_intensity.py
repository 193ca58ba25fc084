"""Intensity ops of kornia's noise and illumination classes and of auto-contrast, on ``img / 255``,
quantized. Part of :mod:`u8aug.ops` (re-exported there)."""

import torch

from ._params import samples

__all__ = ["add_offset", "auto_contrast", "erase_boxes"]


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


def erase_boxes(img: torch.Tensor, boxes: torch.Tensor, values) -> torch.Tensor:
    """kornia's RandomErasing on the bytes: each sample's box, ``boxes`` float32 (B, 4) or (1, 4) as
    (x_min, y_min, x_max, y_max) inclusive (kornia's ``bbox_to_mask`` comparisons with the pixels'
    indices, so fractional bounds cover the integers inside them), set in every channel to the byte of
    ``values`` (kornia's fill in [0, 1] units: a number or float32 tensor of 1 or B values,
    quantized as the oracle does); every other byte is copied. Exact."""
    return torch.ops.u8aug.erase_boxes(img, boxes, samples(values, img))
