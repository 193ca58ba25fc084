"""The functional API: thin, documented wrappers over ``torch.ops.u8aug``."""

import torch

__all__ = ["hflip", "vflip"]


def hflip(img: torch.Tensor) -> torch.Tensor:
    """Mirror left-right: ``out[..., y, x] = img[..., y, W - 1 - x]``.

    Byte-for-byte ``kornia.geometry.transform.hflip`` on uint8. ``img``: uint8, (C, H, W) or
    (B, C, H, W), on CPU or CUDA. Returns a new tensor in the input's memory format.
    """
    return torch.ops.u8aug.hflip(img)


def vflip(img: torch.Tensor) -> torch.Tensor:
    """Mirror top-bottom: ``out[..., y, x] = img[..., H - 1 - y, x]``.

    Byte-for-byte ``kornia.geometry.transform.vflip`` on uint8. ``img``: uint8, (C, H, W) or
    (B, C, H, W), on CPU or CUDA. Returns a new tensor in the input's memory format.
    """
    return torch.ops.u8aug.vflip(img)
