"""Sampling at a given grid (torch.nn.functional.grid_sample on ``img / 255``, quantized): the op
under kornia's elastic, thin-plate-spline and fisheye classes. Part of :mod:`u8aug.ops`."""

import torch

__all__ = ["grid_sample"]


def grid_sample(
    img: torch.Tensor,
    grid: torch.Tensor,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool = False,
) -> torch.Tensor:
    """``torch.nn.functional.grid_sample(img / 255, grid, mode, padding_mode, align_corners)``,
    quantized: ``grid`` float32 (B, H', W', 2) or (1, H', W', 2) for the whole batch, (x, y) in
    [-1, 1], any strides; the output is (B, C, H', W'). ``mode`` "bilinear" or "nearest",
    ``padding_mode`` "zeros", "border" or "reflection". Each output is grid_sample's own float32
    arithmetic (its unnormalisation, padding and the fused sum of the four corners, as the warps
    compute them), so the bytes are torch's (fidelity: exact)."""
    return torch.ops.u8aug.grid_sample(img, grid, mode, padding_mode, bool(align_corners))
