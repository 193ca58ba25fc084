"""The uint8 apply functions of the geometric drop-ins: kornia's matrices, boxes and grids, u8aug's
warp, crop-and-resize, resize, pad and grid_sample kernels."""

import numpy as np
import torch

from .. import ops
from ._apply_common import derived, fidelity
from ._apply_common import f32 as _f32


def _resample(name, flags):
    mode = flags["resample"].name.lower()
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise NotImplementedError(
            f"u8aug.kornia.{name}: resample={mode!r} has no uint8 kernel (bilinear, bicubic and nearest do)"
        )
    return mode


def _matrix(transform, x, rows=2, run=ops):
    return derived(run, _matrix_rows, transform, rows, x.device)


def _matrix_rows(transform, rows, device):
    """The rows of kornia's (B, 3, 3) matrix a warp takes, float32 on the image's device."""
    return transform[:, :rows, :].to(device=device, dtype=torch.float32).contiguous()


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
            _matrix(transform, x, 2, run),
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
        _matrix(transform, x, 3, run),
        (x.shape[-2], x.shape[-1]),
        _resample("RandomPerspective", flags),
        "zeros",
        flags["align_corners"],
        fidelity=fidelity(aug),
    )


def _elastic(aug, x, params, flags, transform, run=ops):
    # kornia's elastic_transform2d: its kernels from the flags, then u8aug's op smooths the drawn
    # noise as F.conv2d does, builds kornia's grid and samples the bytes there (pixel/elastic.h)
    return run.elastic_transform2d(
        x,
        _f32(params, "noise", x),
        flags["kernel_size"],
        flags["sigma"],
        flags["alpha"],
        bool(flags["align_corners"]),
        _resample("RandomElasticTransform", flags),
        flags["padding_mode"],
    )


def _thin_plate_spline(aug, x, params, flags, transform, run=ops):
    # kornia's warp_image_tps: its grid, the meshgrid through the spline fitted from dst to src (its
    # own functions on the drawn points), then grid_sample of the bytes
    from kornia.geometry import create_meshgrid
    from kornia.geometry.transform import get_tps_transform, warp_points_tps

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
    from kornia.geometry import create_meshgrid

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
    mode = _resample("RandomResizedCrop", flags)
    size = (int(flags["size"][0]), int(flags["size"][1]))
    if flags.get("cropping_mode", "slice") == "resample":
        # kornia's crop_by_transform_mat: warp_affine by the box's matrix, then a one-pixel crop axis
        # repeats its first output pixel
        from kornia.augmentation._2d.geometric.resized_crop import _one_pixel_axes

        out = run.warp_affine(
            x, _matrix(transform, x), size, mode, "zeros", bool(flags["align_corners"]), fidelity=fidelity(aug)
        )
        one_pixel = _one_pixel_axes(params["src"], x.device)
        out = torch.where(one_pixel[:, 0, None, None, None], out[..., :1].expand_as(out), out)
        return torch.where(one_pixel[:, 1, None, None, None], out[..., :1, :].expand_as(out), out)
    _slice_mode("RandomResizedCrop", flags)
    # kornia's slice mode resizes with "nearest-exact" for Resample.NEAREST, and torch takes no
    # align_corners for the nearest modes
    boxes = params["src"].to(device=x.device, dtype=torch.float32)
    mode = "nearest-exact" if mode == "nearest" else mode
    align = bool(flags["align_corners"]) and mode != "nearest-exact"
    return run.crop_and_resize(x, boxes, size, mode, align, fidelity=fidelity(aug))


# kornia's crops name F.pad's modes; crop_by_transform_mat samples with grid_sample's
_GRID_PADDING = {"constant": "zeros", "replicate": "border", "reflect": "reflection"}


def _crop(aug, x, params, flags, transform, run=ops):
    resample = flags.get("cropping_mode", "slice") == "resample"
    if not resample:
        _slice_mode("RandomCrop", flags)
    elif transform is not None:
        # kornia's apply_transform: the crop matrix moved by the pre-crop padding (skipped samples keep
        # theirs), in float32 as kornia computes it for a float image
        transform = _matrix(transform, x, 3).clone()
        offset = aug._padding_offset(x, params).to(transform)
        if not (aug.p == 1.0 and aug.p_batch == 1.0):
            applied = torch.atleast_1d(params["batch_prob"] > 0.5).to(device=offset.device, dtype=offset.dtype)
            applied = applied if applied.shape[0] == transform.shape[0] else applied.any()
            offset = offset * applied.reshape(-1, 1)
        transform[:, :2, 2] -= (transform[:, :2, :2] @ offset[..., None]).squeeze(-1)
    padding = aug.compute_padding(x.shape, flags)  # kornia's own (left, right, top, bottom), from the shape
    if any(padding):
        mode = flags["padding_mode"]
        if mode not in ("constant", "reflect", "replicate"):
            raise NotImplementedError(f"u8aug.kornia.RandomCrop: padding_mode={mode!r} has no uint8 kernel")
        fill = flags["fill"]
        if not isinstance(fill, (int, float)):
            raise NotImplementedError("u8aug.kornia.RandomCrop: uint8 images need one fill value for all channels")
        x = run.pad(x, padding, mode, _fill_byte(fill))
    if resample:
        return run.warp_affine(
            x,
            _matrix(transform, x),
            tuple(int(s) for s in flags["size"]),
            _resample("RandomCrop", flags),
            _GRID_PADDING.get(flags["padding_mode"], flags["padding_mode"]),
            bool(flags["align_corners"]),
            fidelity=fidelity(aug),
        )
    boxes = params["src"].to(device=x.device, dtype=torch.float32)
    return run.crop_and_resize(x, boxes, tuple(flags["size"]), "bilinear", False, fidelity=fidelity(aug))


def _center_crop(aug, x, params, flags, transform, run=ops):
    if flags.get("cropping_mode", "slice") == "resample":  # kornia's crop_by_transform_mat
        size = (int(aug.size[0]), int(aug.size[1]))
        mode = _resample("CenterCrop", flags)
        align = bool(flags["align_corners"])
        return run.warp_affine(x, _matrix(transform, x), size, mode, "zeros", align, fidelity=fidelity(aug))
    _slice_mode("CenterCrop", flags)
    return run.center_crop(x, (int(flags["size"][0]), int(flags["size"][1])))


def _resize(aug, x, params, flags, transform, run=ops):
    from kornia.geometry.transform.affwarp import _side_to_image_size

    mode = _resample("Resize", flags)
    if isinstance(flags["size"], (tuple, list)):
        size = (int(flags["size"][0]), int(flags["size"][1]))
    else:  # kornia's own rule for an int size, from the input's shape (what params["output_size"] holds)
        h, w = x.shape[-2:]
        size = _side_to_image_size(int(flags["size"]), w / h, flags["side"])
    mode = "nearest-exact" if mode == "nearest" else mode  # kornia's Resize, as its slice crops
    align = bool(flags["align_corners"]) and mode != "nearest-exact"
    if flags["antialias"] and (x.shape[-2] > size[0] or x.shape[-1] > size[1]):  # kornia's Gaussian pre-blur
        kernel_x, kernel_y = ops.antialias_kernels(x.shape[-2:], size, x.device)
        return run.resize_antialias(x, size, kernel_x, kernel_y, mode, align)
    return run.resize(x, size, mode, align, fidelity=fidelity(aug))


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
