"""kornia's plasma fractal (``kornia.contrib.diamond_square`` as the plasma classes draw it), the same
numbers at a fraction of the cost.

kornia grows the map level by level: each level doubles the grid, sets the new cells from two
``filter2d`` calls (a 3 x 3 convolution of the whole grid, of which a quarter of the taps are
non-zero and a quarter of the outputs are kept) and torch.rand draws. torch's CPU convolution sums a
cell's taps as a chain of fused multiply-adds in tap order, and with taps of 0.25 and 0 each product
is exact, so a kept cell is the neighbours' quarters added in tap order (north, west, east, south for
the square step; the four corners row by row for the diamond step). This module adds exactly those
quarters on the kept cells only, with the same torch.rand calls in the same order, in kornia's
float32 order for the rest (the ``1 - s`` mix, the 4 / 3 border compensation): the map is kornia's,
bit for bit (tests/python/test_intensity.py compares whole maps), and a RandomPlasma* class draws
about 5x faster. On the CPU the draws themselves, torch.rand's numbers, come from ``u8aug.rand``
(the same numbers from the same generator state, ``u8aug/_rng.py``), about 9x faster than torch.rand
for a batch's maps. Float32 maps only; other dtypes run kornia's own ``diamond_square``.
"""

import math
from typing import Optional, Tuple

import torch
from kornia.augmentation._2d.intensity.plasma import _generate_plasma
from kornia.contrib.diamond_square import _diamond_square_seed

_BORDER = 1.0 / 0.75  # kornia's pad_compencate on the first and last rows and columns


def _level(img: torch.Tensor, scale: torch.Tensor, rand: torch.Tensor) -> torch.Tensor:
    """kornia's _one_diamond_one_square on (N, 1, h, w) with this level's draws (N, 1, 2h - 1, 2w - 1).
    (Slices assigned, not ``out=`` views: dynamo refuses a non-contiguous ``out``.)"""
    n, _, h, w = img.shape
    keep = 1 - scale
    out = torch.empty(n, 1, 2 * h - 1, 2 * w - 1, dtype=img.dtype, device=img.device)
    out[..., ::2, ::2] = img
    q = img * 0.25
    # diamond step, odd rows and odd columns: rand * scale + keep * (the four corners in tap order)
    corners = ((q[..., :-1, :-1] + q[..., :-1, 1:]) + q[..., 1:, :-1]) + q[..., 1:, 1:]
    diamond = rand[..., 1::2, 1::2] * scale + keep * corners
    out[..., 1::2, 1::2] = diamond
    qd = diamond * 0.25
    # square step, even rows and odd columns: north (a diamond), west and east (corners), south (a
    # diamond); the first and last rows lack one diamond (a zero tap, which adds nothing) and take
    # the border compensation
    west, east = q[..., :, :-1], q[..., :, 1:]
    sums = torch.empty_like(west)
    sums[..., 1:-1, :] = ((qd[..., :-1, :] + west[..., 1:-1, :]) + east[..., 1:-1, :]) + qd[..., 1:, :]
    sums[..., :1, :] = ((west[..., :1, :] + east[..., :1, :]) + qd[..., :1, :]) * _BORDER
    sums[..., -1:, :] = ((qd[..., -1:, :] + west[..., -1:, :]) + east[..., -1:, :]) * _BORDER
    out[..., ::2, 1::2] = rand[..., ::2, 1::2] * scale + keep * sums
    # odd rows and even columns: north (a corner), west and east (diamonds), south (a corner); the
    # first and last columns lack one diamond and take the compensation
    north, south = q[..., :-1, :], q[..., 1:, :]
    sums = torch.empty_like(north)
    sums[..., :, 1:-1] = ((north[..., :, 1:-1] + qd[..., :, :-1]) + qd[..., :, 1:]) + south[..., :, 1:-1]
    sums[..., :, :1] = ((north[..., :, :1] + qd[..., :, :1]) + south[..., :, :1]) * _BORDER
    sums[..., :, -1:] = ((north[..., :, -1:] + qd[..., :, -1:]) + south[..., :, -1:]) * _BORDER
    out[..., 1::2, ::2] = rand[..., 1::2, ::2] * scale + keep * sums
    return out


def _rand(shape, device=None, dtype=None) -> torch.Tensor:
    """``torch.rand(shape, device=device, dtype=dtype)``: u8aug's on the CPU in float32 (the same
    numbers, faster), torch's elsewhere."""
    if device is not None and torch.device(device).type == "cpu" and dtype == torch.float32:
        return torch.ops.u8aug.rand(list(shape))
    return torch.rand(shape, device=device, dtype=dtype)


def diamond_square(output_size: Tuple[int, int, int, int], roughness: torch.Tensor, device, dtype) -> torch.Tensor:
    """``kornia.contrib.diamond_square(output_size, roughness, device=device, dtype=dtype)`` with a
    (B,) roughness tensor and kornia's other defaults (random_scale 1, torch.rand, no normalization)."""
    if dtype != torch.float32:
        from kornia.contrib import diamond_square as kornia_diamond_square

        return kornia_diamond_square(output_size, roughness, device=device, dtype=dtype)
    batch, channels, height, width = output_size
    count = batch * channels
    scale = torch.ones(count, 1, 1, 1, device=device, dtype=dtype)
    roughness = roughness.to(device=device, dtype=dtype).view(-1, 1, 1, 1).expand(batch, channels, 1, 1)
    roughness = roughness.reshape(-1, 1, 1, 1)
    # kornia's names: its "width" is the height and its "height" the width
    p2_rows = 2 ** math.ceil(math.log2(max(height, 3) - 1)) + 1
    p2_cols = 2 ** math.ceil(math.log2(max(width, 3) - 1)) + 1
    depth = int(min(math.log2(p2_rows - 1) - 1, math.log2(p2_cols - 1) - 1))
    img = _diamond_square_seed(
        count, (p2_rows - 1) // 2**depth + 1, (p2_cols - 1) // 2**depth + 1, _rand, device, dtype
    )
    for _ in range(depth):
        scale = scale * roughness
        n, _, h, w = img.shape
        draws = _rand([n, 1, 2 * h - 1, 2 * w - 1], device=device, dtype=dtype)
        native = img.device.type in ("cpu", "cuda")
        img = torch.ops.u8aug.plasma_level(img, scale, draws) if native else _level(img, scale, draws)
    return img[..., :height, :width].view(output_size)


def generate_plasma(
    shape: Tuple[int, ...],
    roughness: torch.Tensor,
    device: torch.device,
    dtype: torch.dtype,
    channels: Optional[int] = None,
    same_on_batch: bool = False,
) -> torch.Tensor:
    """kornia's _generate_plasma (one map per sample and channel, or one for the batch with
    same_on_batch) through :func:`diamond_square`."""
    if len(shape) not in (3, 4):
        return _generate_plasma(shape, roughness, device, dtype, channels, same_on_batch)  # kornia's error
    batch, height, width = shape[0], shape[-2], shape[-1]
    num_channels = (shape[1] if len(shape) == 4 else 1) if channels is None else channels
    share = same_on_batch and batch > 1
    plasma = diamond_square(
        (1 if share else batch, num_channels, height, width), roughness[:1] if share else roughness, device, dtype
    )
    return plasma.expand(batch, -1, -1, -1) if share else plasma


def generate_parameters(aug, kornia_cls, shape, channels=None):
    """kornia's generate_parameters of a plasma class: its base class's draws, then the map."""
    params = super(kornia_cls, aug).generate_parameters(shape)
    roughness = params["roughness"].to(device=aug.device, dtype=aug.dtype)
    params["plasma"] = generate_plasma(shape, roughness, aug.device, aug.dtype, channels, aug.same_on_batch)
    return params
