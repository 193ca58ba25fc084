"""The uint8 apply functions of the drop-in classes: what each kornia class's apply_transform does
on a uint8 batch, through u8aug's kernels, from kornia's own generated parameters and flags. The
intensity and colour classes' functions live here with the tables (KERNELS, WARP_CLASSES,
FAST_CLASSES, FUSED_CLASSES); the geometric and filter classes' in _apply_geometry.py and
_apply_filters.py."""

import math
from typing import Callable, Dict

import torch

from .. import ops
from ._apply_common import derived, fidelity
from ._apply_common import f32 as _f32
from ._apply_filters import _box_blur, _gaussian_blur, _median_blur, _motion_blur, _sharpness
from ._apply_geometry import (
    _center_crop,
    _crop,
    _elastic,
    _fisheye,
    _pad_to,
    _perspective,
    _resize,
    _resized_crop,
    _thin_plate_spline,
    _warp_affine,
)


def _invert(aug, x, params, flags, transform, run=ops):
    max_val = flags.get("max_val", 1.0)
    if not (isinstance(max_val, (int, float)) and float(max_val) == 1.0):
        raise NotImplementedError(f"u8aug.kornia.RandomInvert: uint8 images need max_val=1.0, got {max_val!r}")
    return run.invert(x)


def _grayscale(aug, x, params, flags, transform, run=ops):
    if getattr(aug, "rgb_weights", None) is not None:
        raise NotImplementedError("u8aug.kornia.RandomGrayscale: custom rgb_weights are not supported for uint8 images")
    return run.grayscale(x)


def _normalize(aug, x, params, flags, transform, run=ops):
    if aug.p != 1.0 or aug.p_batch != 1.0:
        raise NotImplementedError("u8aug.kornia.Normalize: uint8 images need p=1 (a skipped sample would stay uint8)")
    mean, std = (flags[k].to(device=x.device, dtype=torch.float32).flatten() for k in ("mean", "std"))
    return run.normalize(x, mean, std)


def _jiggle(name):
    def apply(aug, x, params, flags, transform, run=ops):
        return getattr(run, name)(
            x,
            _f32(params, "brightness_factor", x),
            _f32(params, "contrast_factor", x),
            _f32(params, "saturation_factor", x),
            _f32(params, "hue_factor", x),
            params["order"].to(device=x.device, dtype=torch.int64),
            fidelity=fidelity(aug),
        )

    return apply


def _rgb_shift(aug, x, params, flags, transform, run=ops):
    # kornia's shift_rgb: clamp(x + shift[channel], 0, 1), each channel its own per-sample shift;
    # u8aug's adjust_brightness is that formula (clamp_unit(v + a)) on one channel's plane
    if x.shape[1] != 3:
        raise ValueError(f"u8aug.kornia.RandomRGBShift: expected 3 (RGB) channels, got {x.shape[1]}")
    shifts = [_f32(params, key, x) for key in ("r_shift", "g_shift", "b_shift")]
    planes = [run.adjust_brightness(x[:, c : c + 1], shifts[c]) for c in range(3)]
    out = torch.cat(planes, dim=1)
    return out.contiguous(memory_format=torch.channels_last) if ops._channels_last(x) else out


def _planckian_jitter(aug, x, params, flags, transform, run=ops):
    # kornia's clamp(x * coefficient, 0, 1) on red and blue (green untouched), each sample the
    # coefficients of its drawn illuminant: adjust_contrast's formula on those planes
    from kornia.core.check import KORNIA_CHECK_SHAPE

    KORNIA_CHECK_SHAPE(x, ["*", "3", "H", "W"])
    coeffs = aug.pl.to(device=x.device, dtype=torch.float32)[params["idx"].long().to(x.device)]
    batched = x if x.dim() == 4 else x.unsqueeze(0)
    red = run.adjust_contrast(batched[:, 0:1], coeffs[:, 0].contiguous())
    blue = run.adjust_contrast(batched[:, 2:3], coeffs[:, 1].contiguous())
    out = torch.cat([red, batched[:, 1:2], blue], dim=1)
    out = out.contiguous(memory_format=torch.channels_last) if ops._channels_last(x) else out
    return out if x.dim() == 4 else out[0]


def _channel_dropout(aug, x, params, flags, transform, run=ops):
    # kornia overwrites the drawn (sample, channel) planes with fill_value: the byte the oracle makes of it
    fill = (aug.fill_value.detach().to(device=x.device, dtype=torch.float32) * 255).round().clamp(0, 255)
    out = x.clone(memory_format=torch.channels_last if ops._channels_last(x) else torch.contiguous_format)
    out[params["batch_idx"].to(x.device), params["channel_idx"].to(x.device), ...] = fill.to(torch.uint8)
    return out


def _erasing(aug, x, params, flags, transform, run=ops):
    # kornia's rectangles and fill on the bytes: bbox_generator's inclusive corners (its float32
    # arithmetic), or, with same_on_batch, the slice kornia takes of its truncated first box
    fill = _f32(params, "values", x).reshape(-1)
    if aug.same_on_batch:
        x0, y0, w, h = (params[k][:1].to(device=x.device).long() for k in ("xs", "ys", "widths", "heights"))
        boxes = torch.stack([x0, y0, x0 + w - 1, y0 + h - 1], dim=-1).to(torch.float32)
        return run.erase_boxes(x, boxes, fill)
    from kornia.geometry.bbox import bbox_generator

    corners = bbox_generator(params["xs"], params["ys"], params["widths"], params["heights"]).to(x.device)
    boxes = torch.stack([corners[:, 0, 0], corners[:, 0, 1], corners[:, 2, 0], corners[:, 2, 1]], dim=-1)
    return run.erase_boxes(x, boxes.to(torch.float32).contiguous(), fill)


def _clahe(aug, x, params, flags, transform, run=ops):
    clip = params["clip_limit_factor"].to(device=x.device, dtype=torch.float32)
    if not flags["slow_and_differentiable"]:
        return run.clahe(x, clip, flags["grid_size"])
    # the soft histogram of the differentiable path has no u8aug kernel: kornia's own float CLAHE on
    # x / 255, quantized as the oracle quantizes (exact by construction, kornia's speed)
    from kornia.enhance.equalization import _equalize_clahe

    out = _equalize_clahe(x.float() / 255, clip, flags["grid_size"], True)
    out = (out * 255).round().clamp(0, 255).to(torch.uint8)
    return out.contiguous(memory_format=torch.channels_last) if ops._channels_last(x) else out.contiguous()


def _gaussian_noise(aug, x, params, flags, transform, run=ops):
    # kornia's drawn noise ((B or 1, C, H, W): one for the batch when same_on_batch) added to x / 255
    noise = _f32(params, "gaussian_noise", x)
    return run.add_offset(x, noise if x.dim() == 4 else noise.reshape(x.shape))


def _illumination(aug, x, params, flags, transform, run=ops):
    # kornia's gradient (its own draws and float arithmetic) added to x / 255, clamped
    gradient = _f32(params, "gradient", x)
    return run.add_offset(x, gradient if x.dim() == 4 else gradient.reshape(x.shape))


def _plasma_map(params, x):
    # kornia's _plasma_for_input: the drawn map cropped to the image (a view; the op takes its strides)
    return _f32(params, "plasma", x)[..., : x.shape[-2], : x.shape[-1]]


def _plasma_brightness(aug, x, params, flags, transform, run=ops):
    return run.plasma_brightness(x, _plasma_map(params, x), _f32(params, "intensity", x))


def _plasma_contrast(aug, x, params, flags, transform, run=ops):
    return run.plasma_contrast(x, _plasma_map(params, x))


def _plasma_shadow(aug, x, params, flags, transform, run=ops):
    shade_intensity, shade_quantity = (_f32(params, k, x) for k in ("shade_intensity", "shade_quantity"))
    return run.plasma_shadow(x, _plasma_map(params, x), shade_intensity, shade_quantity)


def _rain(aug, x, params, flags, transform, run=ops):
    # kornia's drops from its draws; its checks of the channel count here, of the drop sizes in the op
    if x.shape[-3] not in (1, 3):
        raise ValueError(f"u8aug.kornia.RandomRain: expected 1 or 3 channels, got {x.shape[-3]}")
    counts = (
        params[k].to(device=x.device, dtype=torch.int64)
        for k in ("number_of_drops_factor", "drop_height_factor", "drop_width_factor")
    )
    return run.rain(x, _f32(params, "coordinates_factor", x), *counts)


def _snow(aug, x, params, flags, transform, run=ops):
    from kornia.core.check import KORNIA_CHECK

    KORNIA_CHECK(x.shape[-3] == 3, "Number of color channels should be 3.")
    return run.snow(x, _f32(params, "snow_coefficient", x), _f32(params, "brightness", x))


def _jpeg(aug, x, params, flags, transform, run=ops):
    # kornia's codec on each sample's drawn quality (its quantization steps made in kornia's float32
    # ops, then the jpeg op)
    return run.jpeg(x, _f32(params, "jpeg_quality", x))


def _salt_and_pepper(aug, x, params, flags, transform, run=ops):
    # kornia's masks, salt (1.0: 255) first, then pepper (0.0: 0), as kornia writes them
    if x.shape[1] not in (1, 3):
        raise ValueError(f"u8aug.kornia.RandomSaltAndPepperNoise: expected 1 or 3 channels, got {x.shape[1]}")
    salt, pepper = (params[k].to(x.device) for k in ("mask_salt", "mask_pepper"))
    layout = torch.channels_last if ops._channels_last(x) else torch.contiguous_format
    if salt.shape != x.shape or pepper.shape != x.shape:
        out = x.clone(memory_format=layout)
        out[salt] = 255
        out[pepper] = 0
        return out
    # masked_fill's bytes (255 where salt, then 0 where pepper) as byte arithmetic, several times
    # faster on uint8: a bool made a byte is 0 or 1, so -salt is 0 or 255 and pepper - 1 is 255 or 0
    out = torch.bitwise_and(torch.bitwise_or(x, salt.to(torch.uint8).neg()), pepper.to(torch.uint8).sub(1))
    return out.contiguous(memory_format=layout)


def _channel_shuffle(aug, x, params, flags, transform, run=ops):
    # a permutation of whole planes: torch's own gather on uint8 is already the exact copy
    batch_index = torch.arange(x.shape[0], device=x.device).view(-1, 1)
    return x[batch_index, params["channels"].to(x.device)]


_ONE = torch.tensor(1.0)  # float32: factor - 1 the same float32 subtraction, in half the time of a Python 1


def _less_one(factor):
    return factor - _ONE  # RandomBrightness: adjust_brightness(input, factor - 1)


def _bits(bits, device):
    return bits.to(device=device, dtype=torch.float32)  # RandomPosterize: kornia's int32 bits, as the op takes them


def _turns_to_radians(factor):
    return factor * 2 * math.pi  # RandomHue: adjust_hue(input, factor * 2 * pi)


# kornia class name -> the uint8 apply_transform, with kornia's own five arguments
# (augmentation, uint8 batch, params, flags, transform) -> output.
# Every float32 step kornia takes on its parameters (factor - 1, factor * 2 * pi) is taken the same way.
KERNELS: Dict[str, Callable] = {
    "RandomAffine": _warp_affine("RandomAffine"),
    "RandomRotation": _warp_affine("RandomRotation", padding=False),
    "RandomRotation90": _warp_affine("RandomRotation90", padding=False),
    "RandomShear": _warp_affine("RandomShear"),
    "RandomTranslate": _warp_affine("RandomTranslate"),
    "RandomPerspective": _perspective,
    "RandomElasticTransform": _elastic,
    "RandomThinPlateSpline": _thin_plate_spline,
    "RandomFisheye": _fisheye,
    "RandomResizedCrop": _resized_crop,
    "RandomCrop": _crop,
    "CenterCrop": _center_crop,
    "Resize": _resize,
    "LongestMaxSize": _resize,
    "SmallestMaxSize": _resize,
    "PadTo": _pad_to,
    "RandomChannelShuffle": _channel_shuffle,
    "RandomHorizontalFlip": lambda aug, x, p, f, t, run=ops: run.hflip(x),
    "RandomVerticalFlip": lambda aug, x, p, f, t, run=ops: run.vflip(x),
    "RandomBrightness": lambda aug, x, p, f, t, run=ops: run.adjust_brightness(
        x, derived(run, _less_one, _f32(p, "brightness_factor", x))
    ),
    "RandomContrast": lambda aug, x, p, f, t, run=ops: run.adjust_contrast(x, _f32(p, "contrast_factor", x)),
    "RandomGamma": lambda aug, x, p, f, t, run=ops: run.adjust_gamma(
        x, _f32(p, "gamma_factor", x), _f32(p, "gain_factor", x)
    ),
    "RandomSolarize": lambda aug, x, p, f, t, run=ops: run.solarize(
        x, _f32(p, "thresholds", x), _f32(p, "additions", x)
    ),
    "RandomPosterize": lambda aug, x, p, f, t, run=ops: run.posterize(
        x, derived(run, _bits, p["bits_factor"], x.device)
    ),
    "RandomSaturation": lambda aug, x, p, f, t, run=ops: run.adjust_saturation(
        x, _f32(p, "saturation_factor", x), fidelity(aug)
    ),
    "RandomHue": lambda aug, x, p, f, t, run=ops: run.adjust_hue(
        x, derived(run, _turns_to_radians, _f32(p, "hue_factor", x)), fidelity(aug)
    ),
    "RandomEqualize": lambda aug, x, p, f, t, run=ops: run.equalize(x),
    # kornia's normalize_min_max lands in [0, 1] with or without clip_output
    "RandomAutoContrast": lambda aug, x, p, f, t, run=ops: run.auto_contrast(x),
    "RandomGaussianBlur": _gaussian_blur,
    "RandomMotionBlur": _motion_blur,
    "RandomBoxBlur": _box_blur,
    "RandomSharpness": _sharpness,
    "RandomMedianBlur": _median_blur,
    "RandomRGBShift": _rgb_shift,
    "RandomChannelDropout": _channel_dropout,
    "RandomPlanckianJitter": _planckian_jitter,
    "RandomErasing": _erasing,
    "RandomGaussianNoise": _gaussian_noise,
    "RandomClahe": _clahe,
    "RandomLinearIllumination": _illumination,
    "RandomLinearCornerIllumination": _illumination,
    "RandomGaussianIllumination": _illumination,
    "RandomSaltAndPepperNoise": _salt_and_pepper,
    "RandomRain": _rain,
    "RandomSnow": _snow,
    "RandomJPEG": _jpeg,
    "RandomPlasmaBrightness": _plasma_brightness,
    "RandomPlasmaContrast": _plasma_contrast,
    "RandomPlasmaShadow": _plasma_shadow,
    "RandomInvert": _invert,
    "RandomGrayscale": _grayscale,
    "Normalize": _normalize,
    "ColorJiggle": _jiggle("color_jiggle"),
    "ColorJitter": _jiggle("color_jitter"),
}

# The classes whose uint8 path is a warp (their inverse() too) by kornia's matrix.
WARP_CLASSES = (
    "RandomAffine",
    "RandomRotation",
    "RandomRotation90",
    "RandomShear",
    "RandomTranslate",
    "RandomPerspective",
)
WARP_KERNELS = {KERNELS[n] for n in WARP_CLASSES}

# The classes with a fidelity="fast" tier: their constructors take a `fidelity` keyword.
FAST_CLASSES = (
    *WARP_CLASSES,
    "RandomResizedCrop",
    "RandomCrop",
    "Resize",
    "LongestMaxSize",
    "SmallestMaxSize",
    "RandomSaturation",
    "RandomHue",
    "ColorJiggle",
    "ColorJitter",
    "RandomGaussianBlur",
    "RandomBoxBlur",
    "RandomMotionBlur",
)

# The classes whose steps join a fused AugmentationSequential chain (_fused.py): every class whose
# apply function calls only whole-image u8aug ops that have a pipeline step (CenterCrop slices,
# RandomChannelShuffle and RandomChannelDropout index, salt-and-pepper uses torch's ops on the bytes,
# RandomRGBShift and RandomPlanckianJitter work plane by plane; clahe needs every tile's histogram before its first byte, and jpeg every 8x8 block's
# chroma halved around it; elastic_transform and grid_sample, the elastic, thin-plate and fisheye
# classes' ops, have no pipeline step).
FUSED_CLASSES = tuple(
    n
    for n in KERNELS
    if n
    not in (
        "CenterCrop",
        "RandomChannelShuffle",
        "RandomRGBShift",
        "RandomPlanckianJitter",
        "RandomChannelDropout",
        "RandomSaltAndPepperNoise",
        "RandomJPEG",
        "RandomClahe",
        "RandomElasticTransform",
        "RandomThinPlateSpline",
        "RandomFisheye",
    )
)
FUSED_KERNELS = {KERNELS[n] for n in FUSED_CLASSES}
