"""Fakes of the filters (kornia.filters): the output is the input's shape; the checks are the kernels'.
resize_antialias (a Gaussian blur, then a resize) is here for its kernels' checks."""

import torch

from ._fake import (
    _check_device,
    _check_fidelity,
    _check_image,
    _check_resize_mode,
    _check_size,
    _check_values,
    _fake,
    _resampled,
    empty_output,
)

_BORDERS = ("constant", "reflect", "replicate", "circular")


def _check_border(op: str, border_type: str) -> None:
    torch._check(
        border_type in _BORDERS,
        lambda: f"u8aug.{op}: border_type must be 'constant', 'reflect', 'replicate' or 'circular', got '{border_type}'",
    )


def _check_row_kernels(op: str, img, kernel_x, kernel_y) -> None:
    batch = img.shape[0] if img.dim() == 4 else 1
    for name, k in (("kernel_x", kernel_x), ("kernel_y", kernel_y)):
        torch._check(
            k.dtype == torch.float32 and k.dim() == 2 and (k.shape[0] == 1 or k.shape[0] == batch),
            lambda: f"u8aug.{op}: expected {name} to be a float32 tensor of shape (1, K) or (B, K) with B = {batch}, got {k.dtype} of shape {tuple(k.shape)}",
        )
        _check_device(op, name, k, img)


@_fake("filter2d_separable")
def _filter2d_separable_fake(img, kernel_x, kernel_y, border_type="reflect", fidelity="exact"):
    _check_image("filter2d_separable", img)
    _check_fidelity("filter2d_separable", fidelity)
    _check_border("filter2d_separable", border_type)
    _check_row_kernels("filter2d_separable", img, kernel_x, kernel_y)
    return empty_output(img, img.shape)


@_fake("filter2d")
def _filter2d_fake(img, kernel, border_type="reflect", fidelity="exact"):
    _check_image("filter2d", img)
    _check_fidelity("filter2d", fidelity)
    _check_border("filter2d", border_type)
    batch = img.shape[0] if img.dim() == 4 else 1
    torch._check(
        kernel.dtype == torch.float32 and kernel.dim() == 3 and (kernel.shape[0] == 1 or kernel.shape[0] == batch),
        lambda: f"u8aug.filter2d: expected kernel to be a float32 tensor of shape (1, kh, kw) or (B, kh, kw) with B = {batch}, got {kernel.dtype} of shape {tuple(kernel.shape)}",
    )
    _check_device("filter2d", "kernel", kernel, img)
    return empty_output(img, img.shape)


@_fake("median_blur")
def _median_blur_fake(img, kernel_size, border_type="reflect"):
    _check_image("median_blur", img)
    _check_border("median_blur", border_type)
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


@_fake("erase_boxes")
def _erase_boxes_fake(img, boxes, values):
    _check_image("erase_boxes", img)
    b = img.shape[0] if img.dim() == 4 else 1
    torch._check(
        boxes.dtype == torch.float32 and boxes.dim() == 2 and boxes.shape[1] == 4 and boxes.shape[0] in (1, b),
        lambda: f"u8aug.erase_boxes: expected boxes to be a float32 tensor of shape (1, 4) or (B, 4) with B = {b} (x_min, y_min, x_max, y_max), got {boxes.dtype} of shape {tuple(boxes.shape)}",
    )
    _check_device("erase_boxes", "boxes", boxes, img)
    _check_values("erase_boxes", "values", values, img)
    return empty_output(img, img.shape)


@_fake("add_offset")
def _add_offset_fake(img, offset):
    _check_image("add_offset", img)
    torch._check(
        offset.dtype == torch.float32,
        lambda: f"u8aug.add_offset: expected offset of dtype torch.float32, got {offset.dtype}",
    )
    b = img.shape[0] if img.dim() == 4 else 1
    c, h, w = img.shape[-3:]
    torch._check(
        (offset.dim() == img.dim() or offset.dim() == 4)
        and (offset.dim() != 4 or offset.shape[0] in (b, 1))
        and tuple(offset.shape[-3:]) == (c, h, w),
        lambda: f"u8aug.add_offset: expected offset of shape (B or 1, C, H, W) = ({b} or 1, {c}, {h}, {w}), got {tuple(offset.shape)}",
    )
    _check_device("add_offset", "offset", offset, img)
    return empty_output(img, img.shape)


def _check_plasma(op, img, plasma):
    _check_image(op, img)
    torch._check(
        plasma.dtype == torch.float32, lambda: f"u8aug.{op}: expected plasma of dtype torch.float32, got {plasma.dtype}"
    )
    b = img.shape[0] if img.dim() == 4 else 1
    c, h, w = img.shape[-3:]
    torch._check(
        (plasma.dim() == img.dim() or plasma.dim() == 4)
        and (plasma.dim() != 4 or plasma.shape[0] in (b, 1))
        and plasma.shape[-3] in (c, 1)
        and tuple(plasma.shape[-2:]) == (h, w),
        lambda: f"u8aug.{op}: expected plasma of shape (B or 1, C or 1, H, W) = ({b} or 1, {c} or 1, {h}, {w}), got {tuple(plasma.shape)}",
    )
    _check_device(op, "plasma", plasma, img)


@_fake("rain")
def _rain_fake(img, coordinates, drops, heights, widths):
    _check_image("rain", img)
    b = img.shape[0] if img.dim() == 4 else 1
    torch._check(
        coordinates.dtype == torch.float32
        and coordinates.dim() == 3
        and coordinates.shape[0] == b
        and coordinates.shape[2] == 2,
        lambda: f"u8aug.rain: expected coordinates to be a float32 tensor of shape (B, N, 2) with B = {b} (row, column in [0, 1)), got {coordinates.dtype} of shape {tuple(coordinates.shape)}",
    )
    for name, t in (("drops", drops), ("heights", heights), ("widths", widths)):
        torch._check(
            t.dtype == torch.int64 and t.dim() == 1 and t.shape[0] == b,
            lambda: f"u8aug.rain: expected {name} to be a 1-D int64 tensor of B = {b} values, got {t.dtype} of shape {tuple(t.shape)}",
        )
    for name, t in (("coordinates", coordinates), ("drops", drops), ("heights", heights), ("widths", widths)):
        _check_device("rain", name, t, img)
    return empty_output(img, img.shape)


@_fake("clahe")
def _clahe_fake(img, clip_limit, grid_size):
    _check_image("clahe", img)
    torch._check(
        len(grid_size) == 2,
        lambda: f"u8aug.clahe: expected grid_size = (rows, columns) of tiles, got {len(grid_size)} values",
    )
    gh, gw = grid_size
    torch._check(gh >= 1 and gw >= 1, lambda: f"u8aug.clahe: grid_size must be positive, got ({gh}, {gw})")
    h, w = img.shape[-2], img.shape[-1]
    torch._check(
        h > gh and w > gw,
        lambda: f"u8aug.clahe: cannot tile a {h}x{w} image by a ({gh}, {gw}) grid: the smallest image this grid admits is ({gh + 1}, {gw + 1})",
    )
    _check_values("clahe", "clip_limit", clip_limit, img)
    return empty_output(img, img.shape)


@_fake("jpeg")
def _jpeg_fake(img, quality):
    _check_image("jpeg", img)
    torch._check(
        img.shape[-3] == 3, lambda: f"u8aug.jpeg: expected 3 (RGB) channels as kornia does, got {img.shape[-3]}"
    )
    b = img.shape[0] if img.dim() == 4 else 1
    torch._check(
        quality.dtype == torch.float32
        and quality.dim() == 4
        and quality.shape[0] in (1, b)
        and tuple(quality.shape[1:]) == (2, 8, 8),
        lambda: "u8aug.jpeg: expected quality as quantization steps, a float32 tensor of shape (1, 2, 8, 8) or "
        f"(B, 2, 8, 8) with B = {b} (u8aug.jpeg makes them from a quality with u8aug.jpeg_tables), got "
        f"{quality.dtype} of shape {tuple(quality.shape)}",
    )
    _check_device("jpeg", "quality", quality, img)
    return empty_output(img, img.shape)


# A helper op outside the image-op catalogue (no uint8 image): one level of the plasma classes' fractal.
@torch.library.register_fake("u8aug::plasma_level")
def _plasma_level_fake(grid, scale, draws):
    torch._check(
        grid.dtype == torch.float32
        and grid.dim() == 4
        and grid.shape[1] == 1
        and grid.shape[2] >= 2
        and grid.shape[3] >= 2,
        lambda: "u8aug.plasma_level: expected grid to be a float32 tensor of shape (N, 1, h, w) with h, w >= 2, "
        f"got {grid.dtype} of shape {tuple(grid.shape)}",
    )
    n, _, h, w = grid.shape
    torch._check(
        scale.dtype == torch.float32 and scale.numel() == n,
        lambda: f"u8aug.plasma_level: expected scale to be float32 with one value per map ({n}), got {scale.dtype} "
        f"of shape {tuple(scale.shape)}",
    )
    torch._check(
        draws.dtype == torch.float32 and tuple(draws.shape) == (n, 1, 2 * h - 1, 2 * w - 1),
        lambda: f"u8aug.plasma_level: expected draws to be float32 of shape {(n, 1, 2 * h - 1, 2 * w - 1)}, got "
        f"{draws.dtype} of shape {tuple(draws.shape)}",
    )
    torch._check(
        scale.device == grid.device and draws.device == grid.device,
        lambda: "u8aug.plasma_level: grid, scale and draws must be on one device",
    )
    return grid.new_empty((n, 1, 2 * h - 1, 2 * w - 1))


# A helper op outside the image-op catalogue: kornia's RandomResizedCrop boxes from its draws
# (u8aug/draws.h), src and dst stacked.
@torch.library.register_fake("u8aug::resized_crop_boxes")
def _resized_crop_boxes_fake(
    area, aspect, x, y, size, scale_low, scale_span, ratio_min, ratio_max, out_height, out_width
):
    b = area.shape[0]
    for name, t, shape in (("area", area, (b, 10)), ("aspect", aspect, (b, 10)), ("x", x, (b,)), ("y", y, (b,))):
        torch._check(
            t.dtype == torch.float32 and tuple(t.shape) == shape and t.device.type == "cpu",
            lambda name=name, t=t, shape=shape: f"u8aug.resized_crop_boxes: expected {name} to be a float32 CPU "
            f"tensor of shape {list(shape)}, got {t.dtype} of shape {list(t.shape)} on {t.device}",
        )
    torch._check(
        size.dtype == torch.int64 and tuple(size.shape) in ((2,), (b, 2)),
        lambda: f"u8aug.resized_crop_boxes: expected size to be a contiguous int64 CPU tensor of shape [2] or [{b}, 2] "
        f"(the input's H, W), got {list(size.shape)}",
    )
    return area.new_empty((2, b, 4, 2))


# A helper op outside the image-op catalogue: kornia.filters.get_gaussian_kernel1d for a (B, 1) or (B,) sigma
# on the CPU, with torch's exp and sum (u8aug/kornia_draws.h).
@torch.library.register_fake("u8aug::gaussian_kernel1d")
def _gaussian_kernel1d_fake(sigma, size):
    torch._check(
        sigma.dtype == torch.float32
        and (sigma.dim() == 1 or (sigma.dim() == 2 and sigma.shape[1] == 1))
        and sigma.device.type == "cpu",
        lambda: "u8aug.gaussian_kernel1d: expected sigma to be a float32 CPU tensor of shape (B, 1) or (B,), got "
        f"{sigma.dtype} of shape {list(sigma.shape)} on {sigma.device}",
    )
    torch._check(1 <= size <= 4096, lambda: f"u8aug.gaussian_kernel1d: expected a kernel size in [1, 4096], got {size}")
    return sigma.new_empty((sigma.shape[0], size))


# A helper op outside the image-op catalogue: RandomAffine's matrix from its params on the CPU, with
# torch's sin, cos, tan and bmm (u8aug/kornia_matrix.h).
@torch.library.register_fake("u8aug::kornia_affine_matrix")
def _kornia_affine_matrix_fake(translations, center, scale, angle, shear_x, shear_y):
    b = angle.shape[0]
    for name, t, shape in (
        ("translations", translations, (b, 2)),
        ("center", center, (b, 2)),
        ("scale", scale, (b, 2)),
        ("angle", angle, (b,)),
        ("shear_x", shear_x, (b,)),
        ("shear_y", shear_y, (b,)),
    ):
        torch._check(
            t.dtype == torch.float32 and tuple(t.shape) == shape and t.device.type == "cpu",
            lambda name=name, t=t, shape=shape: f"u8aug.kornia_affine_matrix: expected {name} to be a float32 CPU "
            f"tensor of shape {list(shape)}, got {t.dtype} of shape {list(t.shape)} on {t.device}",
        )
    return angle.new_empty((b, 3, 3))


# A helper op outside the image-op catalogue: RandomPerspective's matrix from its params on the CPU
# (u8aug/kornia_matrix.h).
@torch.library.register_fake("u8aug::kornia_perspective_matrix")
def _kornia_perspective_matrix_fake(start_points, end_points):
    b = start_points.shape[0]
    for name, t in (("start_points", start_points), ("end_points", end_points)):
        torch._check(
            t.dtype == torch.float32 and tuple(t.shape) == (b, 4, 2) and t.device.type == "cpu",
            lambda name=name, t=t: f"u8aug.kornia_perspective_matrix: expected {name} to be a float32 CPU tensor "
            f"of shape [{b}, 4, 2], got {t.dtype} of shape {list(t.shape)} on {t.device}",
        )
    return start_points.new_empty((b, 3, 3))


# A helper op outside the image-op catalogue: torch.rand's numbers from the CPU generator's state bytes,
# advanced in place (u8aug/mersenne.h; python/u8aug/_rng.py).
@torch.library.register_fake("u8aug::torch_uniform")
def _torch_uniform_fake(state, count):
    torch._check(
        state.dtype == torch.uint8 and tuple(state.shape) == (5056,) and state.device.type == "cpu",
        lambda: "u8aug.torch_uniform: expected the CPU generator's state as torch.get_rng_state() gives it (a "
        f"contiguous uint8 CPU tensor of 5056 bytes), got {state.dtype} of shape {tuple(state.shape)}",
    )
    torch._check(count >= 0, lambda: f"u8aug.torch_uniform: expected count >= 0, got {count}")
    return state.new_empty((count,), dtype=torch.float32)


@_fake("snow")
def _snow_fake(img, coefficient, brightness):
    _check_image("snow", img)
    torch._check(img.shape[-3] == 3, lambda: f"u8aug.snow: expected 3 channels (RGB), got {img.shape[-3]}")
    _check_values("snow", "coefficient", coefficient, img)
    _check_values("snow", "brightness", brightness, img)
    return empty_output(img, img.shape)


@_fake("plasma_brightness")
def _plasma_brightness_fake(img, plasma, intensity):
    _check_plasma("plasma_brightness", img, plasma)
    _check_values("plasma_brightness", "intensity", intensity, img)
    return empty_output(img, img.shape)


@_fake("plasma_contrast")
def _plasma_contrast_fake(img, plasma):
    _check_plasma("plasma_contrast", img, plasma)
    return empty_output(img, img.shape)


@_fake("plasma_shadow")
def _plasma_shadow_fake(img, plasma, shade_intensity, shade_quantity):
    _check_plasma("plasma_shadow", img, plasma)
    _check_values("plasma_shadow", "shade_intensity", shade_intensity, img)
    _check_values("plasma_shadow", "shade_quantity", shade_quantity, img)
    return empty_output(img, img.shape)


@_fake("sharpness")
def _sharpness_fake(img, factor):
    _check_image("sharpness", img)
    _check_values("sharpness", "factor", factor, img)
    torch._check(
        img.shape[-2] >= 3 and img.shape[-1] >= 3,
        lambda: f"u8aug.sharpness: img must be at least 3 x 3 (kornia's 3x3 kernel), got {img.shape[-2]} x {img.shape[-1]}",
    )
    return empty_output(img, img.shape)


@_fake("box_blur_pooled")
def _box_blur_pooled_fake(img, kernel_size, border_type="reflect", separable=True):
    _check_image("box_blur_pooled", img)
    _check_border("box_blur_pooled", border_type)
    torch._check(
        len(kernel_size) == 2,
        lambda: f"u8aug.box_blur_pooled: expected kernel_size = (height, width), got {len(kernel_size)} values",
    )
    ky, kx = kernel_size
    torch._check(
        ky >= 1 and kx >= 1, lambda: f"u8aug.box_blur_pooled: kernel_size must be at least 1 x 1, got {ky} x {kx}"
    )
    return empty_output(img, img.shape)


@_fake("mix_up")
def _mix_up_fake(img, pairs, lambdas):
    _check_image("mix_up", img)
    b = img.shape[0] if img.dim() == 4 else 1
    torch._check(
        pairs.dtype == torch.int64 and pairs.dim() == 1 and pairs.shape[0] == b,
        lambda: f"u8aug.mix_up: expected pairs to be a 1-D int64 tensor of B = {b} sample indices, got {pairs.dtype} of shape {tuple(pairs.shape)}",
    )
    _check_device("mix_up", "pairs", pairs, img)
    _check_values("mix_up", "lambdas", lambdas, img)
    return empty_output(img, img.shape)


@_fake("paste_boxes")
def _paste_boxes_fake(img, sources, boxes):
    _check_image("paste_boxes", img)
    b = img.shape[0] if img.dim() == 4 else 1
    torch._check(
        sources.dtype == torch.int64 and sources.dim() == 2 and sources.shape[1] == b,
        lambda: f"u8aug.paste_boxes: expected sources to be a 2-D int64 tensor of shape (K, B) with B = {b}, got {sources.dtype} of shape {tuple(sources.shape)}",
    )
    k = sources.shape[0]
    torch._check(
        boxes.dtype == torch.float32 and boxes.dim() == 3 and tuple(boxes.shape) == (k, b, 4),
        lambda: f"u8aug.paste_boxes: expected boxes to be a float32 tensor of shape (K, B, 4) = ({k}, {b}, 4) (x_min, y_min, x_max, y_max; K rounds as in sources), got {boxes.dtype} of shape {tuple(boxes.shape)}",
    )
    for name, t in (("sources", sources), ("boxes", boxes)):
        _check_device("paste_boxes", name, t, img)
    return empty_output(img, img.shape)


@_fake("resize_antialias")
def _resize_antialias_fake(img, size, kernel_x, kernel_y, mode="bilinear", align_corners=False):
    _check_image("resize_antialias", img)
    _check_resize_mode("resize_antialias", mode, align_corners)
    _check_size("resize_antialias", "size", size)
    _check_row_kernels("resize_antialias", img, kernel_x, kernel_y)
    return _resampled(img, size[0], size[1])
