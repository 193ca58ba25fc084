"""Intensity ops of kornia's noise, illumination, plasma, rain and snow classes and of auto-contrast, on ``img / 255``,
quantized. Part of :mod:`u8aug.ops` (re-exported there)."""

import torch

from ._params import samples

__all__ = [
    "add_offset",
    "auto_contrast",
    "clahe",
    "erase_boxes",
    "jpeg",
    "jpeg_tables",
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


# kornia's standard JPEG quantization tables (luma, chroma), [u][v].
JPEG_TABLE_Y = (
    (16, 11, 10, 16, 24, 40, 51, 61),
    (12, 12, 14, 19, 26, 58, 60, 55),
    (14, 13, 16, 24, 40, 57, 69, 56),
    (14, 17, 22, 29, 51, 87, 80, 62),
    (18, 22, 37, 56, 68, 109, 103, 77),
    (24, 35, 55, 64, 81, 104, 113, 92),
    (49, 64, 78, 87, 103, 121, 120, 101),
    (72, 92, 95, 98, 112, 100, 103, 99),
)
JPEG_TABLE_C = (
    (17, 18, 24, 47, 99, 99, 99, 99),
    (18, 21, 26, 66, 99, 99, 99, 99),
    (24, 26, 56, 99, 99, 99, 99, 99),
    (47, 66, 99, 99, 99, 99, 99, 99),
) + ((99,) * 8,) * 4


def _polynomial_floor(x: torch.Tensor) -> torch.Tensor:
    floor = x.floor()
    return floor + (x - 0.5 - floor) ** 3


def _soft_clip(x: torch.Tensor, lo: float, hi: float, scale: float = 0.02) -> torch.Tensor:
    over = x - hi
    x = torch.where(over > 0, -scale * (torch.exp(-over.clamp(min=0)) - 1.0) + hi, x)
    under = x - lo
    return torch.where(under < 0, scale * (torch.exp(under.clamp(max=0)) - 1.0) + lo, x)


def jpeg_tables(quality: torch.Tensor, table_y=None, table_c=None) -> torch.Tensor:
    """The quantization steps kornia's ``jpeg_codec_differentiable`` divides by: each quality (float32, 1-D,
    in [0, 100]; 0 is taken as 1, as libjpeg does) made a scale, ``floor(5000 / q)`` below 50 and
    ``floor(200 - 2q)`` from 50 (kornia's polynomial floor), the base tables (kornia's standard ones,
    or float32 (8, 8) / (N, 8, 8) of your own) scaled by it as ``floor(soft_clip((t * scale + 50) / 100,
    1, 255))``, all in kornia's float32 ops. Returns float32 (N, 2, 8, 8), luma then chroma: what
    ``jpeg`` takes as its ``quality`` for tables of your own."""
    q = quality.to(torch.float32)
    dev = q.device
    ty = (
        torch.tensor(JPEG_TABLE_Y, dtype=torch.float32, device=dev)
        if table_y is None
        else table_y.to(dev, torch.float32)
    )
    tc = (
        torch.tensor(JPEG_TABLE_C, dtype=torch.float32, device=dev)
        if table_c is None
        else table_c.to(dev, torch.float32)
    )
    strength = torch.where(q == 0.0, torch.ones_like(q), q)
    scale = _polynomial_floor(torch.where(strength < 50, 5000.0 / strength, 200.0 - 2.0 * strength))
    steps = []
    for t in (ty, tc):
        t = t.unsqueeze(0) if t.dim() == 2 else t
        scaled = t[:, None] * scale[:, None, None, None]
        steps.append(_polynomial_floor(_soft_clip((scaled + 50.0) / 100.0, 1, 255))[:, 0])
    return torch.stack(steps, 1)


def jpeg(img: torch.Tensor, quality=50.0) -> torch.Tensor:
    """``kornia.enhance.jpeg_codec_differentiable`` (RandomJPEG) on ``img / 255``, quantized: RGB images
    padded to multiples of 16, made YCbCr, the chroma blurred and halved as kornia's antialiased
    rescale does, each 8x8 block through kornia's DCT, quantized with its polynomial rounding by the
    quality's steps, transformed back, the chroma doubled, made RGB; every step in kornia's float32
    order (fidelity: exact). ``quality``: a number or float32 tensor of 1 or B qualities in [0, 100]
    (kornia's standard tables), or quantization steps of your own as ``jpeg_tables`` makes them,
    float32 (1 or B, 2, 8, 8). A number outside [0, 100] raises; a tensor's qualities are not read
    on the host (kornia's range check reads them, which a CUDA tensor or a compiled graph cannot):
    outside [0, 100] they give the steps kornia's formula gives, and steps that are not positive and
    finite raise on the CPU."""
    if isinstance(quality, torch.Tensor) and quality.dim() == 4:
        return torch.ops.u8aug.jpeg(img, quality)
    if isinstance(quality, (int, float)):
        if not 0.0 <= float(quality) <= 100.0:
            raise ValueError(f"u8aug.jpeg: quality must be in [0, 100], got {quality}")
        quality = torch.tensor([float(quality)], device=img.device)
    return torch.ops.u8aug.jpeg(img, jpeg_tables(quality.reshape(-1)).to(img.device))


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
