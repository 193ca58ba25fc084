"""Intensity ops of kornia's noise, illumination, plasma, rain and snow classes and of auto-contrast, on ``img / 255``,
quantized. Part of :mod:`u8aug.ops` (re-exported there)."""

import torch

from ._params import samples

__all__ = [
    "add_offset",
    "auto_contrast",
    "clahe",
    "erase_boxes",
    "plasma_brightness",
    "plasma_contrast",
    "plasma_shadow",
    "rain",
    "snow",
]


def add_offset(img: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
    """``clamp(img / 255 + offset, 0, 1)``, quantized: kornia's RandomGaussianNoise (``x + noise``) and
    its illumination classes (``clamp(x + gradient, 0, 1)``) given kornia's own drawn tensor.
    ``offset``: float32 of shape (B, C, H, W), or (1, C, H, W) for the whole batch ((C, H, W) for a
    (C, H, W) image), any strides, on the image's device. One float32 addition per element, so the
    bytes are kornia's (fidelity: exact)."""
    return torch.ops.u8aug.add_offset(img, offset)


def plasma_brightness(img: torch.Tensor, plasma: torch.Tensor, intensity) -> torch.Tensor:
    """kornia's RandomPlasmaBrightness given its fractal map: ``clamp(img / 255 + (2 * plasma - 1) *
    intensity, 0, 1)``, quantized, each step in kornia's float32 order (fidelity: exact). ``plasma``:
    float32 (B or 1, C or 1, H, W) (kornia's ``params["plasma"]`` cropped to the image), any strides;
    ``intensity``: a number or float32 tensor of 1 or B values."""
    return torch.ops.u8aug.plasma_brightness(img, plasma, samples(intensity, img))


def plasma_contrast(img: torch.Tensor, plasma: torch.Tensor) -> torch.Tensor:
    """kornia's RandomPlasmaContrast given its fractal map: ``clamp((img / 255 - 0.5) * 4 * plasma +
    0.5, 0, 1)``, quantized, in kornia's float32 order (fidelity: exact). ``plasma`` as in
    :func:`plasma_brightness`."""
    return torch.ops.u8aug.plasma_contrast(img, plasma)


def plasma_shadow(img: torch.Tensor, plasma: torch.Tensor, shade_intensity, shade_quantity) -> torch.Tensor:
    """kornia's RandomPlasmaShadow given its fractal map: ``img / 255 + shade_intensity`` where
    ``plasma < shade_quantity``, clamped, quantized (fidelity: exact). ``plasma`` as in
    :func:`plasma_brightness` (kornia's has one channel, shared by all); ``shade_intensity`` and
    ``shade_quantity``: numbers or float32 tensors of 1 or B values."""
    return torch.ops.u8aug.plasma_shadow(img, plasma, samples(shade_intensity, img), samples(shade_quantity, img))


def rain(
    img: torch.Tensor, coordinates: torch.Tensor, drops: torch.Tensor, heights: torch.Tensor, widths: torch.Tensor
) -> torch.Tensor:
    """kornia's RandomRain given its draws: sample b gets ``drops[b]`` drops, each a line ``heights[b]``
    pixels down and ``widths[b]`` across (signed), started at ``coordinates[b, j]`` (row, column in
    [0, 1), scaled to the positions that keep the line inside); every pixel a drop covers is set to 200
    in every channel (kornia's 200 / 255), the rest is the input's (fidelity: exact: kornia's
    rasterisation, its linspace and float32 starts). ``coordinates``: float32 (B, N, 2), kornia's
    ``coordinates_factor``; ``drops``, ``heights``, ``widths``: int64 (B,), its
    ``number_of_drops_factor``, ``drop_height_factor``, ``drop_width_factor``. Heights must be in
    [1, H) and widths in (-W, W) (kornia's checks; the CPU raises, CUDA does not read them back)."""
    return torch.ops.u8aug.rain(img, coordinates, drops, heights, widths)


def snow(img: torch.Tensor, coefficient, brightness) -> torch.Tensor:
    """kornia's RandomSnow given its draws: each RGB pixel through kornia's rgb_to_hls, its lightness,
    where below ``coefficient``, multiplied by ``brightness`` and clamped, then hls_to_rgb and a clamp,
    each step in kornia's float32 order (fidelity: exact; the whole colour cube checked). 3-channel
    images; ``coefficient`` and ``brightness``: numbers or float32 tensors of 1 or B values."""
    return torch.ops.u8aug.snow(img, samples(coefficient, img), samples(brightness, img))


def clahe(img: torch.Tensor, clip_limit=40.0, grid_size=(8, 8)) -> torch.Tensor:
    """``kornia.enhance.equalize_clahe`` (RandomClahe) on ``img / 255``, quantized: each (sample,
    channel) plane cut into ``grid_size`` = (rows, columns) tiles of ``ceil(H / rows)`` x
    ``ceil(W / columns)`` pixels (reflected past the bottom and right edges), each tile's histogram
    clipped at ``max(floor(clip_limit * pixels / 256), 1)`` with the excess spread back as OpenCV
    does, made a table, and every pixel blended from the tables of the tiles around it, in kornia's
    float32 order (fidelity: exact). ``clip_limit``: a number or float32 tensor of 1 or B values; 0 or
    less turns clipping off. The image must be larger than the grid on both axes, as kornia requires."""
    return torch.ops.u8aug.clahe(img, samples(clip_limit, img), [int(g) for g in grid_size])


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
