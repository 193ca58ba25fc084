"""The functional API: thin, documented wrappers over ``torch.ops.u8aug``.

Every op takes a uint8 image of shape (C, H, W) or (B, C, H, W), contiguous or channels_last, on
CPU or CUDA, and returns a new uint8 tensor in the same memory format; the input is never
modified. Each is byte-for-byte the kornia function named in its docstring applied to
``img.float() / 255``, quantized back with round-half-to-even (see the README's fidelity section).

Per-sample parameters are float32 tensors of 1 or B values on the image's device (a Python number
is accepted for convenience and becomes a one-value tensor; under torch.compile prefer tensors,
since a changing Python number recompiles).
"""

from typing import Optional, Union

import torch

from . import _filters, _geometry, _intensity, _mix
from ._filters import *  # noqa: F401,F403  (the filters: kornia.filters' ops)
from ._geometry import *  # noqa: F401,F403  (warps, resizes, crops, grid_sample)
from ._geometry import _channels_last  # noqa: F401  (the drop-ins read the layout rule)
from ._intensity import *  # noqa: F401,F403  (noise, illumination, auto-contrast)
from ._mix import *  # noqa: F401,F403  (MixUp, CutMix)
from ._params import Param
from ._params import samples as _samples

__all__ = [
    "hflip",
    "vflip",
    "adjust_brightness",
    "adjust_brightness_accumulative",
    "adjust_contrast",
    "adjust_gamma",
    "solarize",
    "posterize",
    "invert",
    "normalize",
    "to_float",
    "rgb_to_grayscale",
    "grayscale",
    "adjust_saturation",
    "adjust_hue",
    "color_jiggle",
    "color_jitter",
    "equalize",
    "adjust_contrast_with_mean_subtraction",
    "adjust_contrast_with_mean",
    "image_mean",
    "adjust_saturation_with_gray_subtraction",
    "select_samples",
    *_geometry.__all__,
    *_filters.__all__,
    *_intensity.__all__,
    *_mix.__all__,
    "pipeline",
]


def hflip(img: torch.Tensor) -> torch.Tensor:
    """Mirror left-right: ``out[..., y, x] = img[..., y, W - 1 - x]``.

    Byte-for-byte ``kornia.geometry.transform.hflip``.
    """
    return torch.ops.u8aug.hflip(img)


def vflip(img: torch.Tensor) -> torch.Tensor:
    """Mirror top-bottom: ``out[..., y, x] = img[..., H - 1 - y, x]``.

    Byte-for-byte ``kornia.geometry.transform.vflip``.
    """
    return torch.ops.u8aug.vflip(img)


def adjust_brightness(img: torch.Tensor, factor: Param) -> torch.Tensor:
    """Add ``factor`` (in units of the [0, 1] range, any sign) and clip: ``kornia.enhance.adjust_brightness``,
    as ColorJiggle and RandomBrightness use it (they pass ``brightness_factor - 1``)."""
    return torch.ops.u8aug.adjust_brightness(img, _samples(factor, img))


def adjust_brightness_accumulative(img: torch.Tensor, factor: Param) -> torch.Tensor:
    """Multiply by ``factor`` and clip: ``kornia.enhance.adjust_brightness_accumulative``, as
    ColorJitter uses it."""
    return torch.ops.u8aug.adjust_brightness_accumulative(img, _samples(factor, img))


def adjust_contrast(img: torch.Tensor, factor: Param) -> torch.Tensor:
    """Multiply by ``factor`` (>= 0) and clip: ``kornia.enhance.adjust_contrast``."""
    return torch.ops.u8aug.adjust_contrast(img, _samples(factor, img))


def adjust_gamma(img: torch.Tensor, gamma: Param, gain: Param = 1.0) -> torch.Tensor:
    """``gain * x ** gamma``, clipped (gamma, gain >= 0): ``kornia.enhance.adjust_gamma``."""
    return torch.ops.u8aug.adjust_gamma(img, _samples(gamma, img), _samples(gain, img))


def solarize(img: torch.Tensor, thresholds: Param = 0.5, additions: Optional[Param] = None) -> torch.Tensor:
    """Add ``additions`` (in [-0.5, 0.5]) and clip, then replace values ``>= thresholds`` by
    ``1 - value``: ``kornia.enhance.solarize``. ``additions=None`` adds nothing."""
    return torch.ops.u8aug.solarize(
        img, _samples(thresholds, img), _samples(0.0 if additions is None else additions, img)
    )


def posterize(img: torch.Tensor, bits: Union[int, torch.Tensor]) -> torch.Tensor:
    """Keep ``bits`` (an integer 0..8) high bits, through kornia's own steps: ``kornia.enhance.posterize``.
    Integer tensors are accepted, as kornia's RandomPosterize makes them."""
    if isinstance(bits, torch.Tensor) and not bits.is_floating_point():
        bits = bits.to(torch.float32)
    return torch.ops.u8aug.posterize(img, _samples(bits, img))


def invert(img: torch.Tensor) -> torch.Tensor:
    """``1 - x``, i.e. ``255 - x``: ``kornia.enhance.invert`` with its default ``max_val`` of 1."""
    return torch.ops.u8aug.invert(img)


def _per_channel(value, img: torch.Tensor) -> torch.Tensor:
    if isinstance(value, torch.Tensor):
        return value
    values = [float(v) for v in value] if isinstance(value, (list, tuple)) else [float(value)]
    return torch.tensor(values, dtype=torch.float32, device=img.device)


def normalize(img: torch.Tensor, mean, std) -> torch.Tensor:
    """uint8 in, float32 out: ``(img / 255 - mean[c]) / std[c]``, equal as float32 to
    ``kornia.enhance.normalize(img.float() / 255, mean, std)`` (and kornia's Normalize).

    ``mean``, ``std``: float32 tensors of 1 or C values on the image's device, or numbers or
    sequences of numbers; finite, ``std`` nonzero. The output keeps the input's memory format.
    """
    return torch.ops.u8aug.normalize(img, _per_channel(mean, img), _per_channel(std, img))


def to_float(img: torch.Tensor) -> torch.Tensor:
    """uint8 in, float32 out: ``img.float() / 255``, in the input's memory format."""
    return torch.ops.u8aug.to_float(img)


def rgb_to_grayscale(img: torch.Tensor) -> torch.Tensor:
    """3 channels in, 1 out: ``kornia.color.rgb_to_grayscale`` of the float image (weights 0.299,
    0.587, 0.114), quantized back to uint8. Shape (.., 1, H, W)."""
    return torch.ops.u8aug.rgb_to_grayscale(img)


def grayscale(img: torch.Tensor) -> torch.Tensor:
    """What ``kornia.augmentation.RandomGrayscale`` does to an image it picks: the grey of
    ``rgb_to_grayscale`` for 3 channels, the equal-weight channel mean for other counts, repeated to
    every channel. Same shape as the input."""
    return torch.ops.u8aug.grayscale(img)


def adjust_saturation(img: torch.Tensor, factor: Param, fidelity: str = "exact") -> torch.Tensor:
    """Scale the saturation by ``factor`` (>= 0): ``kornia.enhance.adjust_saturation`` on RGB.

    ``fidelity``: ``"exact"`` (default) or ``"fast"``, accepted for symmetry with :func:`adjust_hue`:
    kornia's saturation is already a direct RGB formula, so both tiers give its exact bytes.
    """
    return torch.ops.u8aug.adjust_saturation(img, _samples(factor, img), fidelity)


def adjust_hue(img: torch.Tensor, factor: Param, fidelity: str = "exact") -> torch.Tensor:
    """Rotate the hue by ``factor`` radians (in [-pi, pi]): ``kornia.enhance.adjust_hue`` on RGB.

    ``fidelity``: ``"exact"`` (default: kornia's bytes) or ``"fast"``, the opt-in fast class (every
    byte at most 1 from kornia's, at least 99% identical; see the README's Fidelity section).
    """
    return torch.ops.u8aug.adjust_hue(img, _samples(factor, img), fidelity)


def _jiggle_arguments(img, brightness, contrast, saturation, hue, order) -> tuple:
    """ColorJiggle's and ColorJitter's op arguments: per-sample tensors and an int64 order."""
    if not isinstance(order, torch.Tensor):
        order = torch.tensor(list(order), dtype=torch.int64, device=img.device)
    factors = [_samples(f, img) for f in (brightness, contrast, saturation, hue)]
    return (img, *factors, order)


def color_jiggle(
    img: torch.Tensor,
    brightness: Param = 1.0,
    contrast: Param = 1.0,
    saturation: Param = 1.0,
    hue: Param = 0.0,
    order=(0, 1, 2, 3),
    fidelity: str = "exact",
) -> torch.Tensor:
    """kornia's ColorJiggle applied with its generated parameters, in one pass over the image.

    ``brightness``, ``contrast``, ``saturation``: kornia's ``*_factor`` params (neutral 1; brightness
    adds ``factor - 1``); ``hue``: ``hue_factor`` in turns (neutral 0); ``order``: the steps' order
    (0 brightness, 1 contrast, 2 saturation, 3 hue) as a sequence or int64 tensor. As in kornia, a
    step runs only if some sample has a non-neutral factor for it, and the result is clipped.
    ``fidelity="fast"``: 16-bit fixed point (every byte within 1 of the default, at least 95%
    identical; samples whose factors it cannot follow keep the float steps): see docs/fast-tier.md.
    """
    return torch.ops.u8aug.color_jiggle(*_jiggle_arguments(img, brightness, contrast, saturation, hue, order), fidelity)


def equalize(img: torch.Tensor) -> torch.Tensor:
    """Histogram equalisation of every (sample, channel) plane: ``kornia.enhance.equalize``
    (kornia's PIL-style table, computed from the plane's own histogram). Planes of at most 2^24
    pixels."""
    return torch.ops.u8aug.equalize(img)


def color_jitter(
    img: torch.Tensor,
    brightness: Param = 1.0,
    contrast: Param = 1.0,
    saturation: Param = 1.0,
    hue: Param = 0.0,
    order=(0, 1, 2, 3),
    fidelity: str = "exact",
) -> torch.Tensor:
    """kornia's ColorJitter applied with its generated parameters: multiplicative brightness, contrast
    blended with each sample's mean grey, saturation blended with each pixel's grey, hue (in turns).
    Same arguments and skip rule as :func:`color_jiggle`.

    Fidelity class "near": the mean grey is summed exactly here, while torch sums in float32 in an
    order of its own, so a byte can differ by 1 where the two means differ in their last bit.
    ``fidelity="fast"``: 16-bit fixed point (every byte within 1 of the default, at least 95%
    identical; samples whose factors it cannot follow keep the float steps): see docs/fast-tier.md.
    """
    return torch.ops.u8aug.color_jitter(*_jiggle_arguments(img, brightness, contrast, saturation, hue, order), fidelity)


def adjust_contrast_with_mean_subtraction(img: torch.Tensor, factor: Param) -> torch.Tensor:
    """``x * factor + mean * (1 - factor)``, clipped: ``kornia.enhance.adjust_contrast_with_mean_subtraction``.
    The mean is each sample's mean grey for 3 channels (ColorJitter's contrast step) and its mean
    over all channels otherwise, as kornia takes them ("near": see :func:`color_jitter` and
    :func:`image_mean`; a neutral factor leaves the image as it is, exactly as kornia's arithmetic
    does)."""
    f = _samples(factor, img)
    if img.dim() in (3, 4) and img.shape[-3] != 3:
        return torch.ops.u8aug.adjust_contrast_with_mean(img, f, image_mean(img).reshape(-1))
    one, zero = torch.ones_like(f[:1]), torch.zeros_like(f[:1])
    return torch.ops.u8aug.color_jitter(img, one, f, one, zero, torch.ones(1, dtype=torch.int64, device=img.device))


def adjust_contrast_with_mean(img: torch.Tensor, factor: Param, mean: Param) -> torch.Tensor:
    """``x * factor + mean * (1 - factor)``, clipped, with a given per-sample ``mean`` in [0, 1]
    units: the blend of ``kornia.enhance.adjust_contrast_with_mean_subtraction``, exact for a given
    mean (``factor`` >= 0)."""
    return torch.ops.u8aug.adjust_contrast_with_mean(img, _samples(factor, img), _samples(mean, img))


def image_mean(img: torch.Tensor) -> torch.Tensor:
    """Each sample's mean of ``x / 255`` over channels and pixels, float32, shape (B,) (or () for a
    3-D image): ``(img.float() / 255).mean((-3, -2, -1))``, summed exactly in integers and rounded
    once, so it can differ from torch's float32 sum in the last bit ("near")."""
    return torch.ops.u8aug.image_mean(img)


def adjust_saturation_with_gray_subtraction(img: torch.Tensor, factor: Param) -> torch.Tensor:
    """``(1 - factor) * grey + factor * x``, clipped: ``kornia.enhance.adjust_saturation_with_gray_subtraction``
    on RGB images (exact: ColorJitter's saturation step)."""
    f = _samples(factor, img)
    one, zero = torch.ones_like(f[:1]), torch.zeros_like(f[:1])
    return torch.ops.u8aug.color_jitter(
        img, one, one, f, zero, torch.full((1,), 2, dtype=torch.int64, device=img.device)
    )


def select_samples(take: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Per sample, ``a`` where ``take`` else ``b``: ``torch.where(take[:, None, None, None], a, b)``
    for uint8 batches, as one copy per sample (torch.where on uint8 runs at about 1 GB/s on CPU).
    ``take``: bool, (B,); ``a``, ``b``: uint8 images of one shape. The output takes ``a``'s layout."""
    return torch.ops.u8aug.select_samples(take, a, b)


# --- Fused pipelines -----------------------------------------------------------------------------


def pipeline(img: torch.Tensor, steps, tensors) -> torch.Tensor:
    """A chain of the ops above in one op: on the CPU each sample goes through every step in
    cache-resident scratch images (one read of the batch, one write of the output); on CUDA the
    steps run one after another on the stream. The bytes are the step-by-step chain's.

    ``steps``: strings, each an op's name and then that op's arguments after ``img`` in its
    schema's order (``torch.ops.u8aug.<name>.default._schema``): every tensor argument taken from
    ``tensors`` in turn (an empty tensor for an absent optional one, such as a warp's ``fill``),
    every other argument written as a word (``int[2]``: two integers; ``bool``: 0 or 1). A gated
    step takes kornia's gate before its tensors: a bool (B,) tensor, or an empty one for all. The
    steps and whether each is gated: ``u8aug._C.pipeline_steps()`` (bindings/pipeline_steps.h):

    ====================================================================  =================
    step (its words)                                                      tensors
    ====================================================================  =================
    ``hflip``, ``vflip``, ``invert``, ``grayscale``, ``equalize``,        take
    ``auto_contrast``
    ``adjust_brightness``, ``adjust_brightness_accumulative``,            take, factor
    ``adjust_contrast``, ``sharpness``, ``posterize`` (bits)
    ``adjust_gamma``, ``solarize``                                        take, gamma, gain / thresholds, additions
    ``adjust_saturation F``, ``adjust_hue F``                             take, factor
    ``color_jiggle F``, ``color_jitter F``                                take, brightness, contrast, saturation, hue, order
    ``warp_affine H W mode padding_mode align_corners F``,                take, M, fill (empty: none)
    ``warp_perspective ...``
    ``filter2d_separable border_type F``                                  take, kernel_x, kernel_y
    ``filter2d border_type F``                                            take, kernel
    ``median_blur KH KW border_type``                                     take
    ``box_blur_pooled KH KW border_type separable``                       take
    ``resize H W mode align_corners F``                                   (none)
    ``crop_and_resize H W mode align_corners F``                          boxes
    ``pad left right top bottom mode value``                              (none)
    ``normalize`` (last only: the output is float32)                      mean, std
    ====================================================================  =================

    F is the step's fidelity (``exact`` or ``fast``); the arguments mean what the op's own do. A
    step that skips samples must keep the shape. u8aug.kornia's AugmentationSequential writes these
    plans from kornia's draws.
    """
    return torch.ops.u8aug.pipeline(img, list(steps), list(tensors))
