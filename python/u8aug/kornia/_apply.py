"""The uint8 apply functions of the drop-in classes: what each kornia class's apply_transform does
on a uint8 batch, through u8aug's kernels, from kornia's own generated parameters and flags."""

import math
from typing import Callable, Dict

import numpy as np
import torch
from kornia.constants import Resample

from .. import ops


def _f32(params, key, x):
    return params[key].to(device=x.device, dtype=torch.float32)


def fidelity(aug) -> str:
    """The drop-in's tier (its ``fidelity`` keyword; kornia's own classes after install() take
    ``aug.fidelity = "fast"``): "exact" unless set."""
    return getattr(aug, "fidelity", "exact")


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


def _resample(name, flags):
    mode = flags["resample"].name.lower()
    if mode not in ("bilinear", "nearest"):
        raise NotImplementedError(
            f"u8aug.kornia.{name}: resample={mode!r} has no uint8 kernel (bilinear and nearest do)"
        )
    return mode


def _matrix(transform, x, rows=2):
    return transform[:, :rows, :].to(device=x.device, dtype=torch.float32).contiguous()


def _warp_affine(name, padding=True):
    def apply(aug, x, params, flags, transform, run=ops):
        pad = flags["padding_mode"].name.lower() if padding else "zeros"
        fill = None
        if pad == "fill":
            fill = flags.get("fill_value")
            fill = None if fill is None else fill.to(device=x.device, dtype=torch.float32).reshape(-1)
        # one matrix for the batch (1, 2, 3) broadcasts in the kernel, as kornia's warp does
        return run.warp_affine(
            x,
            _matrix(transform, x),
            (x.shape[-2], x.shape[-1]),
            _resample(name, flags),
            pad,
            flags["align_corners"],
            fill,
            fidelity=fidelity(aug),
        )

    return apply


def _perspective(aug, x, params, flags, transform, run=ops):
    return run.warp_perspective(
        x,
        _matrix(transform, x, 3),
        (x.shape[-2], x.shape[-1]),
        _resample("RandomPerspective", flags),
        "zeros",
        flags["align_corners"],
        fidelity=fidelity(aug),
    )


def _elastic(aug, x, params, flags, transform, run=ops):
    # kornia's elastic_transform2d builds its sampling grid from the drawn noise alone (never the
    # image): the same steps on the same float32 tensors give its grid bit for bit, and grid_sample
    # of the bytes at that grid is u8aug's
    import torch.nn.functional as F
    from kornia.filters import filter2d_separable, get_gaussian_kernel1d

    mode = _resample("RandomElasticTransform", flags)
    noise = _f32(params, "noise", x)
    sigma, alpha = flags["sigma"], flags["alpha"]
    f32 = dict(device=x.device, dtype=torch.float32)
    sigma = sigma.to(**f32).expand(2)[None, ...] if isinstance(sigma, torch.Tensor) else torch.tensor([sigma], **f32)
    ksize_y, ksize_x = flags["kernel_size"]
    kernel_x = get_gaussian_kernel1d(ksize_x, sigma[:, 1, None], **f32)
    kernel_y = get_gaussian_kernel1d(ksize_y, sigma[:, 0, None], **f32)
    alpha_x, alpha_y = (
        alpha[i].to(**f32) if isinstance(alpha, torch.Tensor) else torch.tensor(alpha[i], **f32) for i in (0, 1)
    )
    disp_x = filter2d_separable(noise[:, :1], kernel_x, kernel_y, border_type="constant") * alpha_x
    disp_y = filter2d_separable(noise[:, 1:], kernel_x, kernel_y, border_type="constant") * alpha_y
    disp = torch.cat([disp_x, disp_y], 1).permute(0, 2, 3, 1)
    h, w = x.shape[-2:]
    identity = torch.eye(2, 3, **f32).unsqueeze(0)
    grid = F.affine_grid(identity, [1, 1, h, w], align_corners=flags["align_corners"]) + disp
    return run.grid_sample(x, grid, mode, flags["padding_mode"], bool(flags["align_corners"]))


def _thin_plate_spline(aug, x, params, flags, transform, run=ops):
    # kornia's warp_image_tps: its grid, the meshgrid through the spline fitted from dst to src (its
    # own functions on the drawn points), then grid_sample of the bytes
    from kornia.geometry.transform import get_tps_transform, warp_points_tps
    from kornia.utils import create_meshgrid

    src, dst = _f32(params, "src", x), _f32(params, "dst", x)
    kernel, affine = get_tps_transform(dst, src)
    b, _, h, w = x.shape
    align = bool(flags["align_corners"])
    coords = create_meshgrid(
        h, w, device=x.device, dtype=torch.float32, normalized_coordinates=True, align_corners=align
    )
    coords = coords.reshape(-1, 2).expand(b, -1, -1)
    grid = warp_points_tps(coords, src, kernel, affine).view(-1, h, w, 2)
    return run.grid_sample(x, grid, "bilinear", flags["padding_mode"].name.lower(), align)


def _fisheye(aug, x, params, flags, transform, run=ops):
    # kornia's fisheye field from its drawn centre and gamma (its float32 steps), then remap's
    # grid_sample (normalised coordinates, align_corners=True) of the bytes
    from kornia.utils import create_meshgrid

    b, _, h, w = x.shape
    grid = create_meshgrid(h, w, normalized_coordinates=True)
    field_x, field_y = (grid[..., i].to(device=x.device, dtype=torch.float32) for i in (0, 1))
    center_x, center_y, gamma = (_f32(params, k, x).view(b, 1, 1) for k in ("center_x", "center_y", "gamma"))
    distance = ((center_x - field_x) ** 2 + (center_y - field_y) ** 2) ** 0.5
    field_x = field_x + field_x * distance**gamma
    field_y = field_y + field_y * distance**gamma
    grid = torch.stack([field_x, field_y], -1).expand(b, -1, -1, -1)
    return run.grid_sample(x, grid, "bilinear", "zeros", True)


def _slice_mode(name, flags):
    if flags.get("cropping_mode", "slice") != "slice":
        raise NotImplementedError(f"u8aug.kornia.{name}: uint8 images need cropping_mode='slice' (kornia's default)")


def _resized_crop(aug, x, params, flags, transform, run=ops):
    _slice_mode("RandomResizedCrop", flags)
    if flags["resample"] != Resample.BILINEAR:
        raise NotImplementedError("u8aug.kornia.RandomResizedCrop: uint8 images need resample='bilinear'")
    boxes = params["src"].to(device=x.device, dtype=torch.float32)
    return run.crop_and_resize(
        x, boxes, tuple(flags["size"]), "bilinear", bool(flags["align_corners"]), fidelity=fidelity(aug)
    )


def _crop(aug, x, params, flags, transform, run=ops):
    _slice_mode("RandomCrop", flags)
    padding = aug.compute_padding(x.shape, flags)  # kornia's own (left, right, top, bottom), from the shape
    if any(padding):
        mode = flags["padding_mode"]
        if mode not in ("constant", "reflect", "replicate"):
            raise NotImplementedError(f"u8aug.kornia.RandomCrop: padding_mode={mode!r} has no uint8 kernel")
        fill = flags["fill"]
        if not isinstance(fill, (int, float)):
            raise NotImplementedError("u8aug.kornia.RandomCrop: uint8 images need one fill value for all channels")
        x = run.pad(x, padding, mode, _fill_byte(fill))
    boxes = params["src"].to(device=x.device, dtype=torch.float32)
    return run.crop_and_resize(x, boxes, tuple(flags["size"]), "bilinear", False, fidelity=fidelity(aug))


def _center_crop(aug, x, params, flags, transform, run=ops):
    _slice_mode("CenterCrop", flags)
    return run.center_crop(x, (int(flags["size"][0]), int(flags["size"][1])))


def _resize(aug, x, params, flags, transform, run=ops):
    from kornia.geometry.transform.affwarp import _side_to_image_size

    if flags["resample"] != Resample.BILINEAR or flags["antialias"]:
        raise NotImplementedError("u8aug.kornia.Resize: uint8 images need resample='bilinear' and antialias=False")
    if isinstance(flags["size"], (tuple, list)):
        size = (int(flags["size"][0]), int(flags["size"][1]))
    else:  # kornia's own rule for an int size, from the input's shape (what params["output_size"] holds)
        h, w = x.shape[-2:]
        size = _side_to_image_size(int(flags["size"]), w / h, flags["side"])
    return run.resize(x, size, "bilinear", bool(flags["align_corners"]), fidelity=fidelity(aug))


def _fill_byte(fill) -> int:
    # a fill in kornia's float units: the byte the oracle makes of it, float32 (fill * 255) rounded
    # half to even (Python's round) and clamped
    return min(255, max(0, round(float(np.float32(fill) * np.float32(255)))))


def _pad_to(aug, x, params, flags, transform, run=ops):
    # kornia's F.pad(x, [0, W' - W, 0, H' - H]): a negative amount crops (crop_if_exceeds), then the
    # rest is padded on the right and bottom
    h, w = x.shape[-2:]
    dh, dw = int(flags["size"][0]) - h, int(flags["size"][1]) - w
    if not flags.get("crop_if_exceeds", True):
        dh, dw = max(dh, 0), max(dw, 0)
    mode = flags["pad_mode"]
    if mode not in ("constant", "reflect", "replicate"):
        raise NotImplementedError(f"u8aug.kornia.PadTo: pad_mode={mode!r} has no uint8 kernel")
    if not isinstance(flags["pad_value"], (int, float)):
        raise NotImplementedError("u8aug.kornia.PadTo: uint8 images need one pad_value for all channels")
    x = x[..., : h + min(dh, 0), : w + min(dw, 0)]
    return run.pad(x, (0, max(dw, 0), 0, max(dh, 0)), mode, _fill_byte(flags["pad_value"]))


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
    # no u8aug kernel yet: kornia's own float CLAHE on x / 255, quantized as the oracle quantizes
    # (exact by construction, kornia's speed), so a uint8 pipeline with it stays uint8
    from kornia.enhance.equalization import _equalize_clahe

    clip = params["clip_limit_factor"].to(device=x.device, dtype=torch.float32)
    out = _equalize_clahe(x.float() / 255, clip, flags["grid_size"], flags["slow_and_differentiable"])
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


def _salt_and_pepper(aug, x, params, flags, transform, run=ops):
    # kornia's masks, salt (1.0: 255) first, then pepper (0.0: 0), as kornia writes them
    if x.shape[1] not in (1, 3):
        raise ValueError(f"u8aug.kornia.RandomSaltAndPepperNoise: expected 1 or 3 channels, got {x.shape[1]}")
    salt, pepper = (params[k].to(x.device) for k in ("mask_salt", "mask_pepper"))
    out = x.clone(memory_format=torch.channels_last if ops._channels_last(x) else torch.contiguous_format)
    if salt.shape != out.shape or pepper.shape != out.shape:
        out[salt] = 255
        out[pepper] = 0
        return out
    return out.masked_fill(salt, 255).masked_fill(pepper, 0)


def _motion_blur(aug, x, params, flags, transform, run=ops):
    from kornia.augmentation.utils import _check_filter_min_size
    from kornia.filters import get_motion_kernel2d

    if aug._fixed_kernel_size is None:
        raise NotImplementedError(
            "u8aug.kornia.RandomMotionBlur: uint8 images need one kernel_size (an int), not a range"
        )
    k = aug._fixed_kernel_size
    border = flags["border_type"].name.lower()
    _check_filter_min_size("RandomMotionBlur", x, k, border_type=border)
    angle, direction = (_f32(params, key, x) for key in ("angle_factor", "direction_factor"))
    kernel = get_motion_kernel2d(k, angle, direction, flags["resample"].name.lower())  # kornia's own kernels
    return run.filter2d(x, kernel.to(torch.float32).contiguous(), border, fidelity(aug))


def _median_blur(aug, x, params, flags, transform, run=ops):
    from kornia.augmentation.utils import _check_filter_min_size

    _check_filter_min_size("RandomMedianBlur", x, flags["kernel_size"], border_type="reflect")
    return run.median_blur(x, flags["kernel_size"], "reflect")


def _box_blur(aug, x, params, flags, transform, run=ops):
    from kornia.augmentation.utils import _check_filter_min_size

    border = flags["border_type"].name.lower()
    _check_filter_min_size("RandomBoxBlur", x, flags["kernel_size"], border_type=border)
    # kornia's box_blur with separable = the class's `normalized` flag; pooled or convolved as kornia chooses
    return run.box_blur(x, flags["kernel_size"], border, bool(flags["normalized"]))


def _sharpness(aug, x, params, flags, transform, run=ops):
    return run.sharpness(x, _f32(params, "sharpness", x))


def _gaussian_blur(aug, x, params, flags, transform, run=ops):
    from kornia.filters import get_gaussian_kernel1d
    from kornia.filters.kernels import _check_kernel_size, _unpack_2d_ks

    if not flags["separable"]:
        raise NotImplementedError(
            "u8aug.kornia.RandomGaussianBlur: uint8 images need separable=True (kornia's default)"
        )
    # kornia's own checks first, with its messages (an even kernel size, an image too small for reflect)
    from kornia.augmentation.utils import _check_filter_min_size

    border = flags["border_type"].name.lower()
    _check_kernel_size(_unpack_2d_ks(flags["kernel_size"]), 0)
    _check_filter_min_size("RandomGaussianBlur", x, flags["kernel_size"], border_type=border)
    sigma = params["sigma"].to(device=x.device, dtype=torch.float32)
    if aug.same_on_batch:
        sigma = sigma[:1]  # one kernel for the batch, as kornia builds it
    ky, kx = _unpack_2d_ks(flags["kernel_size"])
    n = sigma.shape[0]
    kernel_x = get_gaussian_kernel1d(kx, sigma.view(n, 1))
    kernel_y = get_gaussian_kernel1d(ky, sigma.view(n, 1))
    return run.filter2d_separable(x, kernel_x, kernel_y, border, fidelity(aug))


def _channel_shuffle(aug, x, params, flags, transform, run=ops):
    # a permutation of whole planes: torch's own gather on uint8 is already the exact copy
    batch_index = torch.arange(x.shape[0], device=x.device).view(-1, 1)
    return x[batch_index, params["channels"].to(x.device)]


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
    "RandomBrightness": lambda aug, x, p, f, t, run=ops: run.adjust_brightness(x, _f32(p, "brightness_factor", x) - 1),
    "RandomContrast": lambda aug, x, p, f, t, run=ops: run.adjust_contrast(x, _f32(p, "contrast_factor", x)),
    "RandomGamma": lambda aug, x, p, f, t, run=ops: run.adjust_gamma(
        x, _f32(p, "gamma_factor", x), _f32(p, "gain_factor", x)
    ),
    "RandomSolarize": lambda aug, x, p, f, t, run=ops: run.solarize(
        x, _f32(p, "thresholds", x), _f32(p, "additions", x)
    ),
    "RandomPosterize": lambda aug, x, p, f, t, run=ops: run.posterize(x, p["bits_factor"].to(x.device)),
    "RandomSaturation": lambda aug, x, p, f, t, run=ops: run.adjust_saturation(
        x, _f32(p, "saturation_factor", x), fidelity(aug)
    ),
    "RandomHue": lambda aug, x, p, f, t, run=ops: run.adjust_hue(
        x, _f32(p, "hue_factor", x) * 2 * math.pi, fidelity(aug)
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
    "RandomMotionBlur",
)

# The classes whose steps join a fused AugmentationSequential chain (_fused.py): every class whose
# apply function calls only whole-image u8aug ops that have a pipeline step (CenterCrop slices,
# RandomChannelShuffle and RandomChannelDropout index, RandomErasing and salt-and-pepper use torch's
# ops on the bytes, RandomRGBShift and RandomPlanckianJitter work plane by plane, and add_offset, the
# Gaussian noise's and the illuminations' op, has no pipeline step: their offsets are a float32
# image each, read once either way; RandomClahe runs kornia's float code; grid_sample, the elastic
# transform's op, has no pipeline step).
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
        "RandomErasing",
        "RandomGaussianNoise",
        "RandomLinearIllumination",
        "RandomLinearCornerIllumination",
        "RandomGaussianIllumination",
        "RandomSaltAndPepperNoise",
        "RandomClahe",
        "RandomElasticTransform",
        "RandomThinPlateSpline",
        "RandomFisheye",
    )
)
FUSED_KERNELS = {KERNELS[n] for n in FUSED_CLASSES}
