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


def _check_device(op: str, name: str, t: torch.Tensor, img: torch.Tensor) -> None:
    torch._check(t.device == img.device, lambda: f"u8aug.{op}: {name} is on {t.device} but img is on {img.device}")


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
    _check_device(op, name, t, img)


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
_image_fake("auto_contrast")


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
    _check_device(op, "order", order, img)


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


_MODES = ("bilinear", "bicubic", "nearest")  # grid_sample's; the resizes also take "nearest-exact"
_RESIZE_MODES = (*_MODES, "nearest-exact")


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
        _check_device(name, "M", M, img)
        torch._check(
            mode in _MODES, lambda: f"u8aug.{name}: mode must be 'bilinear', 'bicubic' or 'nearest', got '{mode}'"
        )
        torch._check(
            padding_mode in ("zeros", "border", "reflection", "fill"),
            lambda: f"u8aug.{name}: padding_mode must be 'zeros', 'border', 'reflection' or 'fill', got '{padding_mode}'",
        )
        _check_size(name, "dsize", dsize)
        return _resampled(img, dsize[0], dsize[1])

    return fake


_warp_fake("warp_affine", 2)
_warp_fake("warp_perspective", 3)


def _check_resize_mode(name, mode, align_corners):
    torch._check(
        mode in _RESIZE_MODES,
        lambda: f"u8aug.{name}: mode must be 'bilinear', 'bicubic', 'nearest' or 'nearest-exact', got '{mode}'",
    )
    torch._check(
        not (align_corners and mode in ("nearest", "nearest-exact")),
        lambda: f"u8aug.{name}: align_corners applies to bilinear and bicubic only (torch rejects it for nearest modes)",
    )


@_fake("resize")
def _resize_fake(img, size, mode="bilinear", align_corners=False, fidelity="exact"):
    _check_image("resize", img)
    _check_fidelity("resize", fidelity)
    _check_resize_mode("resize", mode, align_corners)
    _check_size("resize", "size", size)
    return _resampled(img, size[0], size[1])


def _check_boxes(op, boxes, batch, img, image_name="img"):
    """Crop boxes: float32 (B, 4, 2), on the image's device."""
    torch._check(
        boxes.dtype == torch.float32
        and boxes.dim() == 3
        and boxes.shape[0] == batch
        and boxes.shape[1] == 4
        and boxes.shape[2] == 2,
        lambda: f"u8aug.{op}: expected boxes of dtype torch.float32 and shape (B, 4, 2) with B = {batch}, got {boxes.dtype} of shape {tuple(boxes.shape)}",
    )
    torch._check(
        boxes.device == img.device,
        lambda: f"u8aug.{op}: boxes is on {boxes.device} but {image_name} is on {img.device}",
    )


@_fake("crop_and_resize")
def _crop_and_resize_fake(img, boxes, size, mode="bilinear", align_corners=True, fidelity="exact"):
    _check_image("crop_and_resize", img)
    _check_fidelity("crop_and_resize", fidelity)
    _check_boxes("crop_and_resize", boxes, img.shape[0] if img.dim() == 4 else 1, img)
    _check_resize_mode("crop_and_resize", mode, align_corners)
    _check_size("crop_and_resize", "size", size)
    return _resampled(img, size[0], size[1])


@_fake("resize_list")
def _resize_list_fake(imgs, boxes, size, mode="bilinear", align_corners=False, fidelity="exact"):
    op = "resize_list"
    torch._check(len(imgs) >= 1, lambda: f"u8aug.{op}: expected a non-empty list of images")
    for i, img in enumerate(imgs):
        _check_image(op, img, f"imgs[{i}]")
        torch._check(
            img.dim() == 3, lambda: f"u8aug.{op}: expected imgs[{i}] of shape (C, H, W), got shape {tuple(img.shape)}"
        )
        torch._check(
            img.shape[0] == imgs[0].shape[0],
            lambda: f"u8aug.{op}: every image needs the same channel count, but imgs[{i}] has {img.shape[0]} "
            f"and imgs[0] has {imgs[0].shape[0]}",
        )
        torch._check(
            img.device == imgs[0].device,
            lambda: f"u8aug.{op}: imgs[{i}] is on {img.device} but imgs[0] is on {imgs[0].device}",
        )
    batch = len(imgs)
    if boxes is not None:
        _check_boxes(op, boxes, batch, imgs[0], "imgs[0]")
    _check_resize_mode(op, mode, align_corners)
    _check_size(op, "size", size)
    _check_fidelity(op, fidelity)
    sizes = (batch, imgs[0].shape[0], size[0], size[1])
    interleaved = all(output_is_channels_last(img) for img in imgs)
    return imgs[0].new_empty_strided(sizes, _dense_strides(sizes, interleaved))


@_fake("grid_sample")
def _grid_sample_fake(img, grid, mode="bilinear", padding_mode="zeros", align_corners=False):
    _check_image("grid_sample", img)
    b = img.shape[0] if img.dim() == 4 else 1
    torch._check(
        grid.dtype == torch.float32 and grid.dim() == 4 and grid.shape[3] == 2 and grid.shape[0] in (1, b),
        lambda: f"u8aug.grid_sample: expected grid to be a float32 tensor of shape (B, H', W', 2) or (1, H', W', 2) with B = {b}, got {grid.dtype} of shape {tuple(grid.shape)}",
    )
    _check_device("grid_sample", "grid", grid, img)
    torch._check(
        mode in _MODES,
        lambda: f"u8aug.grid_sample: mode must be 'bilinear', 'bicubic' or 'nearest', got '{mode}'",
    )
    torch._check(
        padding_mode in ("zeros", "border", "reflection"),
        lambda: f"u8aug.grid_sample: padding_mode must be 'zeros', 'border' or 'reflection', got '{padding_mode}'",
    )
    return _resampled(img, grid.shape[1], grid.shape[2])


def _check_float_row(op, name, t, img, rows, n):
    # rows == 1: shape (1, K) with K >= 1; rows == 0: shape (n,)
    if rows == 1:
        shaped, want = t.dim() == 2 and t.shape[0] == 1 and t.shape[1] >= 1, "(1, K) with K >= 1"
    else:
        shaped, want = t.dim() == 1 and t.shape[0] == n, f"({n},)"
    torch._check(
        shaped and t.dtype == torch.float32,
        lambda: f"u8aug.{op}: expected {name} to be a float32 tensor of shape {want}, got {t.dtype} of shape {tuple(t.shape)}",
    )
    _check_device(op, name, t, img)


@_fake("elastic_transform")
def _elastic_transform_fake(
    img, noise, kernel_x, kernel_y, alpha, mode="bilinear", padding_mode="zeros", align_corners=False
):
    op = "elastic_transform"
    _check_image(op, img)
    b = img.shape[0] if img.dim() == 4 else 1
    h, w = img.shape[-2], img.shape[-1]
    torch._check(
        noise.dtype == torch.float32
        and noise.dim() == 4
        and noise.shape[0] in (1, b)
        and noise.shape[1] == 2
        and noise.shape[2] == h
        and noise.shape[3] == w,
        lambda: f"u8aug.{op}: expected noise to be a float32 tensor of shape (B, 2, H, W) or (1, 2, H, W) with (B, H, W) = ({b}, {h}, {w}), got {noise.dtype} of shape {tuple(noise.shape)}",
    )
    _check_device(op, "noise", noise, img)
    _check_float_row(op, "kernel_x", kernel_x, img, 1, 0)
    _check_float_row(op, "kernel_y", kernel_y, img, 1, 0)
    _check_float_row(op, "alpha", alpha, img, 0, 2)
    torch._check(
        mode in _MODES,
        lambda: f"u8aug.{op}: mode must be 'bilinear', 'bicubic' or 'nearest', got '{mode}'",
    )
    torch._check(
        padding_mode in ("zeros", "border", "reflection"),
        lambda: f"u8aug.{op}: padding_mode must be 'zeros', 'border' or 'reflection', got '{padding_mode}'",
    )
    return _resampled(img, h, w)


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


# The filter and pipeline fakes live with their families; importing them registers them.
from . import _fake_filters, _fake_pipeline  # noqa: E402, F401
