"""Fake (meta) implementations of every op, for torch.compile and torch.library.opcheck.

A fake gives the output's shape, dtype, device and strides. Strides follow the output-layout rule
of bindings/tensor_image.h, restated here: channels_last when the input is densely channels_last
and not also contiguous, contiguous otherwise. Fakes check their inputs as the kernels do, so a
bad input fails with the same message at trace time.
"""

import torch

# op name -> its fake; tests/python/test_catalogue.py checks there is one per catalogued op, with the
# schema's argument names.
FAKES = {}


def _fake(name):
    def register(fn):
        torch.library.register_fake(f"u8aug::{name}")(fn)
        FAKES[name] = fn
        return fn

    return register


def schema_arguments(name: str) -> list:
    """The names of an op's arguments, from its schema (the op catalogue, kernels/include/u8aug/ops.def)."""
    return [a.name for a in getattr(torch.ops.u8aug, name).default._schema.arguments]


def _check_image(op: str, img: torch.Tensor, name: str = "img") -> None:
    torch._check(
        img.dtype == torch.uint8,
        lambda: f"u8aug.{op}: expected {name} of dtype torch.uint8, got {img.dtype}",
    )
    torch._check(
        img.dim() in (3, 4),
        lambda: f"u8aug.{op}: expected {name} of shape (C, H, W) or (B, C, H, W), got a "
        f"{img.dim()}-D tensor of shape {tuple(img.shape)}",
    )
    for s in img.shape:
        torch._check(
            s >= 1,
            lambda: f"u8aug.{op}: every dimension of {name} must be >= 1, got shape {tuple(img.shape)}",
        )


def _dense_strides(sizes, interleaved: bool):
    c, h, w = sizes[-3], sizes[-2], sizes[-1]
    strides = [1, w * c, c] if interleaved else [h * w, w, 1]
    if len(sizes) == 4:
        strides.insert(0, c * h * w)
    return strides


def _has_strides(sizes, strides, dense) -> bool:
    return all(s == 1 or st == d for s, st, d in zip(sizes, strides, dense))


def output_is_channels_last(img: torch.Tensor) -> bool:
    """The output-layout rule, the same as the kernels' (bindings/tensor_image.h)."""
    sizes, strides = img.shape, img.stride()
    return not _has_strides(sizes, strides, _dense_strides(sizes, False)) and _has_strides(
        sizes, strides, _dense_strides(sizes, True)
    )


def empty_output(img: torch.Tensor, sizes, dtype=torch.uint8) -> torch.Tensor:
    return img.new_empty_strided(sizes, _dense_strides(sizes, output_is_channels_last(img)), dtype=dtype)


def _check_values(op: str, name: str, t: torch.Tensor, img: torch.Tensor, per: str = "sample") -> None:
    """A parameter tensor: float32, 0-D or 1-D, 1 value or one per sample (B) or channel (C)."""
    n, letter = (img.shape[0] if img.dim() == 4 else 1, "B") if per == "sample" else (img.shape[-3], "C")
    torch._check(t.dtype == torch.float32, lambda: f"u8aug.{op}: expected {name} of dtype torch.float32, got {t.dtype}")
    torch._check(
        t.dim() <= 1,
        lambda: f"u8aug.{op}: expected {name} to be 0-D or 1-D (one value per {per}), got shape {tuple(t.shape)}",
    )
    torch._check(
        t.numel() == 1 or t.numel() == n,
        lambda: f"u8aug.{op}: {name} must hold 1 or {letter} = {n} values, got {t.numel()}",
    )
    torch._check(t.device == img.device, lambda: f"u8aug.{op}: {name} is on {t.device} but img is on {img.device}")


def _image_fake(name, per="sample", dtype=torch.uint8):
    """An image -> image op whose other arguments (named by its schema) are parameter tensors: the
    output is shaped like the input."""
    param_names = schema_arguments(name)[1:]

    @_fake(name)
    def fake(img, *params):
        _check_image(name, img)
        for param_name, p in zip(param_names, params):
            _check_values(name, param_name, p, img, per)
        return empty_output(img, img.shape, dtype)

    fake.argument_names = ["img", *param_names]
    return fake


_image_fake("hflip")
_image_fake("vflip")
_image_fake("adjust_brightness")
_image_fake("adjust_brightness_accumulative")
_image_fake("adjust_contrast")
_image_fake("adjust_contrast_with_mean")
_image_fake("adjust_gamma")
_image_fake("solarize")
_image_fake("posterize")
_image_fake("invert")
_image_fake("equalize")


@_fake("image_mean")
def _image_mean_fake(img):
    _check_image("image_mean", img)
    return img.new_empty(img.shape[:1] if img.dim() == 4 else (), dtype=torch.float32)


_image_fake("normalize", per="channel", dtype=torch.float32)
_image_fake("to_float", dtype=torch.float32)
_image_fake("grayscale")


def _check_fidelity(op: str, fidelity: str) -> None:
    torch._check(
        fidelity in ("exact", "fast"), lambda: f"u8aug.{op}: fidelity must be 'exact' or 'fast', got '{fidelity}'"
    )


def _rgb_fake(name, checked=None):
    """An RGB image -> RGB image op with per-sample parameters (the first `checked` of its schema's
    other arguments; ColorJiggle's order is checked by the kernel) and a fidelity tier."""
    param_names = [a for a in schema_arguments(name)[1:] if a != "fidelity"]

    @_fake(name)
    def fake(img, *params, fidelity="exact"):
        if len(params) > len(param_names):  # fidelity passed by position
            params, fidelity = params[: len(param_names)], params[len(param_names)]
        _check_fidelity(name, fidelity)
        _check_image(name, img)
        torch._check(
            img.shape[-3] == 3, lambda: f"u8aug.{name}: expected 3 (RGB) channels as kornia does, got {img.shape[-3]}"
        )
        for param_name, p in zip(param_names[:checked], params):
            _check_values(name, param_name, p, img)
        if checked is not None:
            _check_order(name, params[checked], img)
        return empty_output(img, img.shape)

    fake.argument_names = ["img", *param_names, "fidelity"]
    return fake


def _check_order(op: str, order: torch.Tensor, img: torch.Tensor) -> None:
    """ColorJiggle's step order: int64, 1-D, at most 4 steps, on the image's device."""
    torch._check(
        order.dtype == torch.int64 and order.dim() == 1 and order.numel() <= 4,
        lambda: f"u8aug.{op}: expected order to be a 1-D int64 tensor of at most 4 step indices, got {order.dtype} of shape {tuple(order.shape)}",
    )
    torch._check(
        order.device == img.device, lambda: f"u8aug.{op}: order is on {order.device} but img is on {img.device}"
    )


_rgb_fake("adjust_saturation")
_rgb_fake("adjust_hue")
_rgb_fake("color_jiggle", checked=4)
_rgb_fake("color_jitter", checked=4)


@_fake("rgb_to_grayscale")
def _rgb_to_grayscale_fake(img):
    _check_image("rgb_to_grayscale", img)
    torch._check(
        img.shape[-3] == 3,
        lambda: f"u8aug.rgb_to_grayscale: expected 3 (RGB) channels as kornia does, got {img.shape[-3]}",
    )
    return empty_output(img, (*img.shape[:-3], 1, *img.shape[-2:]))


@_fake("select_samples")
def _select_samples_fake(take, a, b):
    _check_image("select_samples", b, "b")
    batch = a.shape[0] if a.dim() == 4 else 1
    torch._check(
        take.dtype == torch.bool and take.dim() == 1 and take.numel() == batch,
        lambda: f"u8aug.select_samples: expected take to be a 1-D bool tensor of B = {batch} values, got {take.dtype} of shape {tuple(take.shape)}",
    )
    torch._check(
        a.shape == b.shape,
        lambda: f"u8aug.select_samples: a and b must have the same shape, got {tuple(a.shape)} and {tuple(b.shape)}",
    )
    _check_image("select_samples", a, "a")
    torch._check(
        take.device == a.device and b.device == a.device,
        lambda: f"u8aug.select_samples: take, a and b must be on one device, got take on {take.device}, a on {a.device}, b on {b.device}",
    )
    return empty_output(a, a.shape)


# Geometry: the output has the input's batch and channels and a spatial size from the arguments.


def _resampled(img, h, w):
    return empty_output(img, (*img.shape[:-2], h, w))


def _check_size(op: str, name: str, size) -> None:
    torch._check(len(size) == 2, lambda: f"u8aug.{op}: expected {name} = (height, width), got {len(size)} values")
    torch._check(size[0] >= 1 and size[1] >= 1, lambda: f"u8aug.{op}: {name} must be positive, got {tuple(size)}")


_MODES = ("bilinear", "nearest")


def _warp_fake(name, rows):
    @_fake(name)
    def fake(img, M, dsize, mode="bilinear", padding_mode="zeros", align_corners=True, fill=None, fidelity="exact"):
        _check_image(name, img)
        _check_fidelity(name, fidelity)
        batch = img.shape[0] if img.dim() == 4 else 1
        torch._check(
            M.dtype == torch.float32, lambda: f"u8aug.{name}: expected M of dtype torch.float32, got {M.dtype}"
        )
        torch._check(
            M.dim() == 3 and M.shape[1] == rows and M.shape[2] == 3 and (M.shape[0] == 1 or M.shape[0] == batch),
            lambda: f"u8aug.{name}: expected M of shape (B, {rows}, 3) or (1, {rows}, 3) with B = {batch}, got {tuple(M.shape)}",
        )
        torch._check(M.device == img.device, lambda: f"u8aug.{name}: M is on {M.device} but img is on {img.device}")
        torch._check(mode in _MODES, lambda: f"u8aug.{name}: mode must be 'bilinear' or 'nearest', got '{mode}'")
        torch._check(
            padding_mode in ("zeros", "border", "reflection", "fill"),
            lambda: f"u8aug.{name}: padding_mode must be 'zeros', 'border', 'reflection' or 'fill', got '{padding_mode}'",
        )
        _check_size(name, "dsize", dsize)
        return _resampled(img, dsize[0], dsize[1])

    return fake


_warp_fake("warp_affine", 2)
_warp_fake("warp_perspective", 3)


@_fake("resize")
def _resize_fake(img, size, mode="bilinear", align_corners=False, fidelity="exact"):
    _check_image("resize", img)
    _check_fidelity("resize", fidelity)
    torch._check(mode in _MODES, lambda: f"u8aug.resize: mode must be 'bilinear' or 'nearest', got '{mode}'")
    _check_size("resize", "size", size)
    return _resampled(img, size[0], size[1])


@_fake("crop_and_resize")
def _crop_and_resize_fake(img, boxes, size, mode="bilinear", align_corners=True, fidelity="exact"):
    _check_image("crop_and_resize", img)
    _check_fidelity("crop_and_resize", fidelity)
    batch = img.shape[0] if img.dim() == 4 else 1
    torch._check(
        boxes.dtype == torch.float32
        and boxes.dim() == 3
        and boxes.shape[0] == batch
        and boxes.shape[1] == 4
        and boxes.shape[2] == 2,
        lambda: f"u8aug.crop_and_resize: expected boxes of dtype torch.float32 and shape (B, 4, 2) with B = {batch}, got {boxes.dtype} of shape {tuple(boxes.shape)}",
    )
    torch._check(
        boxes.device == img.device,
        lambda: f"u8aug.crop_and_resize: boxes is on {boxes.device} but img is on {img.device}",
    )
    torch._check(mode in _MODES, lambda: f"u8aug.crop_and_resize: mode must be 'bilinear' or 'nearest', got '{mode}'")
    _check_size("crop_and_resize", "size", size)
    return _resampled(img, size[0], size[1])


@_fake("pad")
def _pad_fake(img, padding, mode="constant", value=0):
    _check_image("pad", img)
    torch._check(
        len(padding) == 4 and all(p >= 0 for p in padding),
        lambda: f"u8aug.pad: padding must be 4 values >= 0 (left, right, top, bottom), got {padding}",
    )
    torch._check(
        mode in ("constant", "reflect", "replicate"),
        lambda: f"u8aug.pad: mode must be 'constant', 'reflect' or 'replicate', got '{mode}'",
    )
    torch._check(0 <= value <= 255, lambda: f"u8aug.pad: value must be a byte in [0, 255], got {value}")
    left, right, top, bottom = padding
    return _resampled(img, img.shape[-2] + top + bottom, img.shape[-1] + left + right)


@_fake("rot90")
def _rot90_fake(img, k=1):
    _check_image("rot90", img)
    h, w = img.shape[-2], img.shape[-1]
    return _resampled(img, w, h) if k % 4 in (1, 3) else _resampled(img, h, w)


@_fake("filter2d_separable")
def _filter2d_separable_fake(img, kernel_x, kernel_y, border_type="reflect", fidelity="exact"):
    _check_image("filter2d_separable", img)
    _check_fidelity("filter2d_separable", fidelity)
    torch._check(
        border_type in ("constant", "reflect", "replicate", "circular"),
        lambda: f"u8aug.filter2d_separable: border_type must be 'constant', 'reflect', 'replicate' or 'circular', got '{border_type}'",
    )
    batch = img.shape[0] if img.dim() == 4 else 1
    for name, k in (("kernel_x", kernel_x), ("kernel_y", kernel_y)):
        torch._check(
            k.dtype == torch.float32 and k.dim() == 2 and (k.shape[0] == 1 or k.shape[0] == batch),
            lambda: f"u8aug.filter2d_separable: expected {name} to be a float32 tensor of shape (1, K) or (B, K) with B = {batch}, got {k.dtype} of shape {tuple(k.shape)}",
        )
        torch._check(
            k.device == img.device,
            lambda: f"u8aug.filter2d_separable: {name} is on {k.device} but img is on {img.device}",
        )
        torch._check(
            k.shape[1] % 2 == 1,
            lambda: f"u8aug.filter2d_separable: {name} must have an odd number of taps, got {k.shape[1]}",
        )
    return empty_output(img, img.shape)


@_fake("filter2d")
def _filter2d_fake(img, kernel, border_type="reflect", fidelity="exact"):
    _check_image("filter2d", img)
    _check_fidelity("filter2d", fidelity)
    torch._check(
        border_type in ("constant", "reflect", "replicate", "circular"),
        lambda: f"u8aug.filter2d: border_type must be 'constant', 'reflect', 'replicate' or 'circular', got '{border_type}'",
    )
    batch = img.shape[0] if img.dim() == 4 else 1
    torch._check(
        kernel.dtype == torch.float32 and kernel.dim() == 3 and (kernel.shape[0] == 1 or kernel.shape[0] == batch),
        lambda: f"u8aug.filter2d: expected kernel to be a float32 tensor of shape (1, kh, kw) or (B, kh, kw) with B = {batch}, got {kernel.dtype} of shape {tuple(kernel.shape)}",
    )
    torch._check(
        kernel.device == img.device, lambda: f"u8aug.filter2d: kernel is on {kernel.device} but img is on {img.device}"
    )
    torch._check(
        kernel.shape[1] % 2 == 1 and kernel.shape[2] % 2 == 1,
        lambda: f"u8aug.filter2d: kernel must have an odd number of rows and columns, got {kernel.shape[1]} x {kernel.shape[2]}",
    )
    return empty_output(img, img.shape)


@_fake("median_blur")
def _median_blur_fake(img, kernel_size, border_type="reflect"):
    _check_image("median_blur", img)
    torch._check(
        border_type in ("constant", "reflect", "replicate", "circular"),
        lambda: f"u8aug.median_blur: border_type must be 'constant', 'reflect', 'replicate' or 'circular', got '{border_type}'",
    )
    torch._check(
        len(kernel_size) == 2,
        lambda: f"u8aug.median_blur: expected kernel_size = (height, width), got {len(kernel_size)} values",
    )
    ky, kx = kernel_size
    torch._check(
        ky >= 1 and kx >= 1 and ky % 2 == 1 and kx % 2 == 1 and ky * kx <= 225,
        lambda: f"u8aug.median_blur: kernel_size must be odd, at least 1 and at most 15 x 15 values, got {ky} x {kx}",
    )
    return empty_output(img, img.shape)


# The pipeline: its steps' own fakes, one after another, so the shape, strides and checks are the
# step-by-step chain's. The words are parsed as bindings/pipeline.inc parses them.
_GATED = {
    "hflip": 0, "vflip": 0, "invert": 0, "grayscale": 0, "equalize": 0, "adjust_brightness": 1,
    "adjust_brightness_accumulative": 1, "adjust_contrast": 1, "posterize": 1, "adjust_gamma": 2, "solarize": 2,
    "adjust_saturation": 1, "adjust_hue": 1, "color_jiggle": 5, "color_jitter": 5,
}  # fmt: skip


def _pipeline_step(cur, where, words, tensors):
    name, args = words[0], words[1:]

    def take_next(what):
        torch._check(
            bool(tensors), lambda: f"u8aug.pipeline: {where}: expected a tensor for {what}, but tensors ran out"
        )
        return tensors.pop(0)

    def ints(n):
        torch._check(len(args) >= n, lambda: f"u8aug.pipeline: {where}: expected {n} numbers after its name")
        try:
            return [int(a) for a in args[:n]]
        except ValueError:
            raise RuntimeError(f"u8aug.pipeline: {where}: expected integers, got {args[:n]}") from None

    if name in _GATED:
        fidelity = args[0] if name in ("adjust_saturation", "adjust_hue", "color_jiggle", "color_jitter") else None
        torch._check(len(args) == (fidelity is not None), lambda: f"u8aug.pipeline: {where}: unexpected arguments")
        take = take_next("take")
        batch = cur.shape[0] if cur.dim() == 4 else 1
        torch._check(
            take.numel() == 0 or (take.dtype == torch.bool and take.dim() == 1 and take.numel() == batch),
            lambda: f"u8aug.pipeline: {where}: expected take to be empty or a 1-D bool tensor of B = {batch} values",
        )
        params = [take_next(f"argument {i}") for i in range(_GATED[name])]
        return FAKES[name](cur, *params, *([fidelity] if fidelity else []))
    if name in ("warp_affine", "warp_perspective"):
        h, w = ints(2)
        torch._check(len(args) == 6, lambda: f"u8aug.pipeline: {where}: expected H W mode padding_mode align_corners F")
        take_next("take")
        M, fill = take_next("M"), take_next("fill")
        return FAKES[name](
            cur, M, [h, w], args[2], args[3], bool(int(args[4])), fill if fill.numel() else None, args[5]
        )
    if name in ("resize", "crop_and_resize"):
        h, w = ints(2)
        torch._check(len(args) == 5, lambda: f"u8aug.pipeline: {where}: expected H W mode align_corners F")
        extra = [take_next("boxes")] if name == "crop_and_resize" else []
        return FAKES[name](cur, *extra, [h, w], args[2], bool(int(args[3])), args[4])
    if name == "pad":
        left, right, top, bottom = ints(4)
        torch._check(len(args) == 6, lambda: f"u8aug.pipeline: {where}: expected left right top bottom mode value")
        return FAKES["pad"](cur, [left, right, top, bottom], args[4], int(args[5]))
    if name == "filter2d_separable":
        torch._check(len(args) == 2, lambda: f"u8aug.pipeline: {where}: expected border_type F")
        take_next("take")
        return FAKES[name](cur, take_next("kernel_x"), take_next("kernel_y"), args[0], args[1])
    if name == "filter2d":
        torch._check(len(args) == 2, lambda: f"u8aug.pipeline: {where}: expected border_type F")
        take_next("take")
        return FAKES[name](cur, take_next("kernel"), args[0], args[1])
    if name == "median_blur":
        ky, kx = ints(2)
        torch._check(len(args) == 3, lambda: f"u8aug.pipeline: {where}: expected KH KW border_type")
        take_next("take")
        return FAKES[name](cur, [ky, kx], args[2])
    if name == "normalize":
        return FAKES["normalize"](cur, take_next("mean"), take_next("std"))
    raise RuntimeError(f"u8aug.pipeline: {where}: unknown step '{name}'")


@_fake("pipeline")
def _pipeline_fake(img, steps, tensors):
    _check_image("pipeline", img)
    tensors = list(tensors)
    cur = img
    for i, text in enumerate(steps):
        where = f"step {i} ('{text}')"
        torch._check(
            cur.dtype == torch.uint8, lambda: f"u8aug.pipeline: {where}: follows normalize, which must end the pipeline"
        )
        words = text.split()
        torch._check(bool(words), lambda: f"u8aug.pipeline: {where}: is empty")
        cur = _pipeline_step(cur, where, words, tensors)
    torch._check(not tensors, lambda: f"u8aug.pipeline: {len(tensors)} tensors left over after the last step")
    return empty_output(img, img.shape) if cur is img else cur
