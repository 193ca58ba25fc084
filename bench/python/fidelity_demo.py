"""Fidelity demo: every op of the catalogue on real photos against its kornia oracle
(../shared/FIDELITY.md: to_u8(kornia(x / 255)); float outputs compared as float32), contiguous and
channels_last, with the identical fraction and the largest difference per op.
"""

import importlib
import sys

import numpy as np
import torch

import u8aug


def photos():
    from skimage import data

    out = []
    for name in ("astronaut", "chelsea", "coffee", "rocket"):
        img = np.asarray(getattr(data, name)())
        out.append(torch.from_numpy(np.ascontiguousarray(img)).permute(2, 0, 1).contiguous())
    return out


def resolve(dotted: str):
    module, _, attr = dotted.rpartition(".")
    return getattr(importlib.import_module(module), attr)


def _t(*v):
    return torch.tensor(v, dtype=torch.float32)


def _kornia_class(name, **kwargs):
    """(ours, theirs) running u8aug.kornia's and kornia's class with the same parameters."""
    import kornia.augmentation as K

    import u8aug.kornia as UK

    def ours(x):
        torch.manual_seed(0)
        return getattr(UK, name)(**kwargs)(x)

    def theirs(xf):
        torch.manual_seed(0)
        return getattr(K, name)(**kwargs)(xf)

    return ours, theirs


def cases():
    """op -> list of (ours(x), theirs(x / 255)). Ops not listed run with no parameters."""

    imagenet = (_t(0.485, 0.456, 0.406), _t(0.229, 0.224, 0.225))
    with_args = {
        "adjust_brightness": [(_t(-0.2),), (_t(0.15),)],
        "adjust_brightness_accumulative": [(_t(0.7),), (_t(1.3),)],
        "adjust_contrast": [(_t(0.6),), (_t(1.4),)],
        "adjust_gamma": [(_t(0.6), _t(1.0)), (_t(1.8), _t(1.1))],
        "solarize": [(_t(0.5), _t(0.0)), (_t(0.3), _t(0.2))],
        "posterize": [(torch.tensor([2]),), (torch.tensor([5]),)],
        "normalize": [imagenet],
        "adjust_saturation": [(_t(0.3),), (_t(1.7),)],
        "adjust_hue": [(_t(-1.0),), (_t(2.5),)],
    }
    out = {}
    for op in u8aug.catalogue():
        name = op["name"]
        if name in with_args:
            kornia_fn = resolve(op["kornia"])
            out[name] = [
                (lambda x, a=a, n=name: getattr(u8aug, n)(x, *a), lambda xf, a=a, f=kornia_fn: f(xf, *a))
                for a in with_args[name]
            ]
    out["to_float"] = [(u8aug.to_float, lambda xf: xf)]
    keep, swap = torch.tensor([True]), torch.tensor([False])
    out["select_samples"] = [
        (lambda x: u8aug.select_samples(keep, x, u8aug.invert(x)), lambda xf: xf),
        (lambda x: u8aug.select_samples(swap, u8aug.invert(x), x), lambda xf: xf),
    ]
    mean = _t(0.4)
    out["adjust_contrast_with_mean"] = [
        (
            lambda x, f=f: u8aug.adjust_contrast_with_mean(x, f, mean),
            lambda xf, f=f: (xf * f + mean * (1 - f)).clamp(0, 1),
        )
        for f in (_t(0.6), _t(1.4))
    ]
    # image_mean in bytes, through what it is for: kornia's contrast blend on images of C != 3 (two channels here)
    out["image_mean"] = [
        (
            lambda x, f=f: u8aug.adjust_contrast_with_mean_subtraction(x[:, :2], f),
            lambda xf, f=f: resolve("kornia.enhance.adjust_contrast_with_mean_subtraction")(xf[:, :2], f),
        )
        for f in (_t(0.6), _t(1.4))
    ]
    out["grayscale"] = [_kornia_class("RandomGrayscale", p=1.0)]
    out["color_jiggle"] = [_kornia_class("ColorJiggle", brightness=0.3, contrast=0.3, saturation=0.3, hue=0.1)]
    out["color_jitter"] = [_kornia_class("ColorJitter", brightness=0.3, contrast=0.3, saturation=0.3, hue=0.1)]
    out.update(geometry_cases())
    return out


def _rotation(x, degrees, scale, perspective=False):
    """A rotation about the image centre (kornia's own matrix builder), optionally projective."""
    from kornia.geometry.transform import get_rotation_matrix2d

    h, w = x.shape[-2:]
    center = torch.tensor([[(w - 1) / 2, (h - 1) / 2]])
    M = get_rotation_matrix2d(center, torch.tensor([degrees]), torch.tensor([[scale, scale]]))
    if not perspective:
        return M
    H = torch.cat([M, torch.tensor([[[0.0004, -0.0003, 1.0]]])], dim=1)
    return H


def _box(x, top, left, height, width):
    return torch.tensor(
        [[[left, top], [left + width - 1, top], [left + width - 1, top + height - 1], [left, top + height - 1]]],
        dtype=torch.float32,
    )


def _ragged(x):
    """A ragged list from a batch of one: the image, and crops of it of two other sizes."""
    img = x[0]
    h, w = img.shape[-2:]
    return [img, img[:, : 3 * h // 4, : 2 * w // 3], img[:, : h // 2]]


def geometry_cases():
    import torch.nn.functional as F
    from kornia.enhance import (
        adjust_brightness,
        equalize_clahe,
        jpeg_codec_differentiable,
        normalize_min_max,
        sharpness,
    )
    from kornia.filters import filter2d, gaussian_blur2d, median_blur
    from kornia.filters.blur import _box_blur_pool  # kornia's pooled box blur (box_blur picks it by size)
    from kornia.geometry.transform import (
        crop_by_indices,
        elastic_transform2d,
        hflip,
        resize,
        warp_affine,
        warp_perspective,
    )

    def warp(perspective, degrees, scale, mode, padding, align):
        fn, ours = (warp_perspective, u8aug.warp_perspective) if perspective else (warp_affine, u8aug.warp_affine)
        size = lambda x: tuple(x.shape[-2:])  # noqa: E731
        return (
            lambda x: ours(x, _rotation(x, degrees, scale, perspective), size(x), mode, padding, align),
            lambda xf: fn(
                xf,
                _rotation(xf, degrees, scale, perspective),
                size(xf),
                mode=mode,
                padding_mode=padding,
                align_corners=align,
            ),
        )

    def half(x):
        return (x.shape[-2] * 2 // 3, x.shape[-1] * 2 // 3)

    def fifth(x):
        return (x.shape[-2] // 5, x.shape[-1] // 3)

    def antialiased(x, size, mode="bilinear"):
        return u8aug.resize_antialias(x, size, *u8aug.antialias_kernels(x.shape[-2:], size), mode)

    return {
        "warp_affine": [
            warp(False, 30.0, 1.1, "bilinear", "zeros", False),
            warp(False, -75.0, 0.8, "bilinear", "reflection", True),
            warp(False, 10.0, 1.3, "nearest", "border", False),
            warp(False, 25.0, 0.9, "bicubic", "reflection", False),
        ],
        "warp_perspective": [
            warp(True, 20.0, 1.0, "bilinear", "zeros", True),
            warp(True, -40.0, 0.9, "bilinear", "border", False),
            warp(True, 15.0, 1.1, "bicubic", "zeros", True),
        ],
        "resize": [
            (lambda x: u8aug.resize(x, half(x)), lambda xf: resize(xf, half(xf))),
            (
                lambda x: u8aug.resize(x, (700, 900), align_corners=True),
                lambda xf: resize(xf, (700, 900), align_corners=True),
            ),
            (lambda x: u8aug.resize(x, half(x), "bicubic"), lambda xf: resize(xf, half(xf), "bicubic")),
            (lambda x: u8aug.resize(x, (301, 402), "nearest-exact"), lambda xf: resize(xf, (301, 402), "nearest-exact")),
        ],
        "resize_antialias": [  # kornia's Resize(antialias=True): its Gaussian, resampled unquantized
            (lambda x: antialiased(x, half(x)), lambda xf: resize(xf, half(xf), antialias=True)),
            (
                lambda x: antialiased(x, fifth(x), "bicubic"),
                lambda xf: resize(xf, fifth(xf), "bicubic", antialias=True),
            ),
        ],
        # a ragged list: the photo and two crops of it of other sizes, each as kornia resizes it alone
        "resize_list": [
            (
                lambda x: u8aug.resize_list(_ragged(x), None, (224, 224), "bilinear", False),
                lambda xf: torch.cat([resize(img[None], (224, 224)) for img in _ragged(xf)]),
            ),
            (
                lambda x: u8aug.resize_list(_ragged(x), _box(x, 10, 20, 120, 90).expand(3, 4, 2), (224, 224), "bicubic", False),
                lambda xf: torch.cat(
                    [crop_by_indices(img[None], _box(xf, 10, 20, 120, 90), (224, 224), "bicubic", align_corners=False) for img in _ragged(xf)]
                ),
            ),
        ],
        "crop_and_resize": [
            (
                lambda x: u8aug.crop_and_resize(x, _box(x, 40, 60, 150, 170), (224, 224)),
                lambda xf: crop_by_indices(xf, _box(xf, 40, 60, 150, 170), (224, 224), align_corners=True),
            ),
            (
                lambda x: u8aug.crop_and_resize(x, _box(x, 10, 20, 120, 90), (224, 224), "bicubic", False),
                lambda xf: crop_by_indices(xf, _box(xf, 10, 20, 120, 90), (224, 224), "bicubic", align_corners=False),
            ),
        ],
        "grid_sample": [
            (
                lambda x: u8aug.grid_sample(x, _swirl(x), "bilinear", "reflection", True),
                lambda xf: F.grid_sample(xf, _swirl(xf), "bilinear", "reflection", True),
            ),
            (
                lambda x: u8aug.grid_sample(x, _swirl(x), "nearest", "zeros", False),
                lambda xf: F.grid_sample(xf, _swirl(xf), "nearest", "zeros", False),
            ),
            (
                lambda x: u8aug.grid_sample(x, _swirl(x), "bicubic", "border", False),
                lambda xf: F.grid_sample(xf, _swirl(xf), "bicubic", "border", False),
            ),
        ],
        "elastic_transform": [
            (lambda x: u8aug.elastic_transform2d(x, _field(x)), lambda xf: elastic_transform2d(xf, _field(xf))),
            (
                lambda x: u8aug.elastic_transform2d(x, _field(x), (31, 21), (6.0, 4.0), (9.0, 12.0), True, "bicubic"),
                lambda xf: elastic_transform2d(xf, _field(xf), (31, 21), (6.0, 4.0), (9.0, 12.0), True, "bicubic"),
            ),
        ],
        "pad": [
            (lambda x: u8aug.pad(x, (3, 5, 7, 2), "reflect"), lambda xf: F.pad(xf, (3, 5, 7, 2), mode="reflect")),
            (lambda x: u8aug.pad(x, (9, 0, 0, 4), "constant", 0), lambda xf: F.pad(xf, (9, 0, 0, 4))),
        ],
        "rot90": [
            (lambda x: u8aug.rot90(x, 1), lambda xf: torch.rot90(xf, 1, (-2, -1))),
            (lambda x: u8aug.rot90(x, 3), lambda xf: torch.rot90(xf, 3, (-2, -1))),
        ],
        "filter2d_separable": [
            (lambda x: u8aug.gaussian_blur2d(x, 5, (1.3, 1.3)), lambda xf: gaussian_blur2d(xf, 5, (1.3, 1.3))),
            (
                lambda x: u8aug.gaussian_blur2d(x, (23, 9), (2.0, 0.7), "replicate"),
                lambda xf: gaussian_blur2d(xf, (23, 9), (2.0, 0.7), "replicate"),
            ),
        ],
        "filter2d": [
            (lambda x: u8aug.filter2d(x, _motion_kernel(), "constant"), lambda xf: filter2d(xf, _motion_kernel(), "constant")),
            (lambda x: u8aug.filter2d(x, _motion_kernel(), "reflect"), lambda xf: filter2d(xf, _motion_kernel(), "reflect")),
        ],
        "auto_contrast": [(lambda x: u8aug.auto_contrast(x), lambda xf: normalize_min_max(xf))],
        # kornia's two blends: even tiles (8 x 8 of most photo sizes) and odd ones (3 x 5 of 512 x 512)
        "clahe": [
            (lambda x: u8aug.clahe(x, 40.0, (8, 8)), lambda xf: equalize_clahe(xf, 40.0, (8, 8))),
            (lambda x: u8aug.clahe(x, 2.0, (3, 5)), lambda xf: equalize_clahe(xf, 2.0, (3, 5))),
        ],
        # kornia's differentiable codec at a strong and a mild quality, and RandomJPEG's own draws
        "jpeg": [
            (lambda x: u8aug.jpeg(x, 10.0), lambda xf: jpeg_codec_differentiable(xf, torch.tensor([10.0]))),
            (lambda x: u8aug.jpeg(x, 90.0), lambda xf: jpeg_codec_differentiable(xf, torch.tensor([90.0]))),
            _kornia_class("RandomJPEG", jpeg_quality=(1.0, 100.0), p=1.0),
        ],
        "erase_boxes": [(lambda x: u8aug.erase_boxes(x, _erase_box(x), 0.5), lambda xf: _erased(xf, _erase_box(xf), 0.5))],
        # kornia's RandomMixUpV2 blend and RandomCutMixV2 paste (bbox_to_mask, masked copy)
        "mix_up": [(lambda x: u8aug.mix_up(x, _pairs(x), _lambdas(x)), lambda xf: _mixed(xf))],
        "paste_boxes": [
            (lambda x: u8aug.paste_boxes(x, _pairs(x)[None], _paste_boxes(x)), lambda xf: _pasted(xf)),
        ],
        "add_offset": [
            (lambda x: u8aug.add_offset(x, _noise(x)), lambda xf: xf + _noise(xf)),
            (lambda x: u8aug.add_offset(x, _ramp(x)), lambda xf: (xf + _ramp(xf)).clamp(0, 1)),
        ],
        # the plasma, rain and snow classes with kornia's own draws (its fractal maps, its drops)
        "plasma_brightness": [_kornia_class("RandomPlasmaBrightness", p=1.0)],
        "plasma_contrast": [_kornia_class("RandomPlasmaContrast", p=1.0)],
        "plasma_shadow": [_kornia_class("RandomPlasmaShadow", p=1.0)],
        "rain": [_kornia_class("RandomRain", p=1.0)],
        "snow": [
            _kornia_class("RandomSnow", p=1.0),
            _kornia_class("RandomSnow", snow_coefficient=(0.2, 0.8), brightness=(1.5, 4.0), p=1.0),
        ],
        "sharpness": [
            (lambda x: u8aug.sharpness(x, 0.3), lambda xf: sharpness(xf, 0.3)),
            (lambda x: u8aug.sharpness(x, 1.7), lambda xf: sharpness(xf, 1.7)),
        ],
        "box_blur_pooled": [
            (lambda x: u8aug.box_blur_pooled(x, (4, 4)), lambda xf: _box_blur_pool(xf, (4, 4), "reflect", True)),
            (
                lambda x: u8aug.box_blur_pooled(x, (3, 5), "constant", False),
                lambda xf: _box_blur_pool(xf, (3, 5), "constant", False),
            ),
        ],
        "median_blur": [
            (lambda x: u8aug.median_blur(x, 3), lambda xf: median_blur(xf, (3, 3))),
            (lambda x: u8aug.median_blur(x, (5, 3), "replicate"), lambda xf: median_blur(xf, (5, 3), "replicate")),
        ],
        # a pipeline is uint8 between steps (README, "What a pipeline means"): kornia's ops with the
        # oracle's quantization after each one
        "pipeline": [
            (
                lambda x: u8aug.pipeline(
                    x,
                    ["crop_and_resize 224 224 bilinear 1 exact", "hflip", "adjust_brightness", "filter2d_separable reflect exact"],
                    [_box(x, 40, 60, 150, 170), torch.empty(0, dtype=torch.bool), torch.empty(0, dtype=torch.bool),
                     _t(0.1), torch.empty(0, dtype=torch.bool), *_blur_kernels()],
                ),
                lambda xf: _q(gaussian_blur2d(_q(adjust_brightness(_q(hflip(_q(
                    crop_by_indices(xf, _box(xf, 40, 60, 150, 170), (224, 224), align_corners=True)))), 0.1)), 5, (1.3, 1.3))),
            )
        ],
    }  # fmt: skip


def _q(y):
    """The oracle's quantization, back in kornia's units: what the next step of a u8aug pipeline reads."""
    return (y * 255).round().clamp(0, 255) / 255


def _field(x):
    """kornia's RandomElasticTransform draw for x's size, (B, 2, H, W) in [-1, 1], seeded by the size."""
    b, _, h, w = x.shape
    g = torch.Generator().manual_seed(h * 7919 + w)
    return torch.rand(b, 2, h, w, generator=g) * 2 - 1


def _swirl(x):
    """A swirl about the centre as a grid_sample grid of x's size (what an elastic field does)."""
    h, w = x.shape[-2:]
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, h), torch.linspace(-1, 1, w), indexing="ij")
    angle = 0.8 * torch.exp(-2 * (xx**2 + yy**2))
    grid = torch.stack(
        [xx * torch.cos(angle) - yy * torch.sin(angle), xx * torch.sin(angle) + yy * torch.cos(angle)], -1
    )
    return grid.expand(x.shape[0] if x.dim() == 4 else 1, h, w, 2).contiguous()


def _erase_box(x):
    """A box over the image's middle third: (x_min, y_min, x_max, y_max)."""
    h, w = x.shape[-2:]
    return torch.tensor([[w / 3, h / 3, 2 * w / 3, 2 * h / 3]])


def _erased(xf, box, value):
    """kornia's RandomErasing fill: bbox_to_mask's comparisons, then where."""
    h, w = xf.shape[-2:]
    yy, xx = torch.arange(h).view(h, 1).float(), torch.arange(w).view(1, w).float()
    inside = (xx >= box[0, 0]) & (xx <= box[0, 2]) & (yy >= box[0, 1]) & (yy <= box[0, 3])
    return torch.where(inside, torch.tensor(value), xf)


def _pairs(x):
    """Each photo's partner: the next one, the last with the first."""
    return torch.roll(torch.arange(x.shape[0]), -1)


def _lambdas(x):
    return torch.linspace(0.15, 0.85, x.shape[0])


def _mixed(xf):
    lam = _lambdas(xf).view(-1, 1, 1, 1).expand_as(xf)
    return xf * (1 - lam) + xf.index_select(0, _pairs(xf)) * lam


def _paste_boxes(x):
    return _erase_box(x).expand(1, x.shape[0], 4).contiguous()


def _pasted(xf):
    h, w = xf.shape[-2:]
    box = _erase_box(xf)
    yy, xx = torch.arange(h).view(h, 1).float(), torch.arange(w).view(1, w).float()
    inside = (xx >= box[0, 0]) & (xx <= box[0, 2]) & (yy >= box[0, 1]) & (yy <= box[0, 3])
    return torch.where(inside, xf.index_select(0, _pairs(xf)), xf)


def _noise(x):
    """Gaussian noise of std 0.1 from a fixed seed, the shape of x (kornia's RandomGaussianNoise draw)."""
    g = torch.Generator().manual_seed(5)
    return torch.randn(x.shape, generator=g) * 0.1


def _ramp(x):
    """A linear illumination ramp down the rows, -0.3 to 0.3 (RandomLinearIllumination's gradient)."""
    return torch.linspace(-0.3, 0.3, x.shape[-2]).view(-1, 1).expand(x.shape).contiguous()


def _motion_kernel():
    from kornia.filters import get_motion_kernel2d

    return get_motion_kernel2d(7, torch.tensor([30.0]), torch.tensor([0.5])).contiguous()


def _blur_kernels():
    from kornia.filters import get_gaussian_kernel1d

    k = get_gaussian_kernel1d(5, torch.tensor([[1.3]]))
    return k, k


def main() -> int:
    info = u8aug.build_info()
    print(
        f"u8aug {info['version']}: fidelity against kornia on scikit-image photos "
        f"(CPU target {info['cpu_target_chosen']})\n"
    )
    print("| op | kornia counterpart | class | runs | values compared | identical | max abs diff | verdict |")
    print("|---|---|---|---|---|---|---|---|")
    table = cases()
    failed = False
    for op in u8aug.catalogue():
        name = op["name"]
        runs = table.get(name) or [(getattr(u8aug, name), resolve(op["kornia"]))]
        total = same = n = 0
        worst = 0.0
        for img in photos():
            batch = img.unsqueeze(0)
            for x in (batch, batch.contiguous(memory_format=torch.channels_last)):
                for ours, theirs in runs:
                    got = ours(x)
                    expected = theirs(x.float() / 255)
                    if got.dtype == torch.uint8:
                        expected = (expected * 255).round().clamp(0, 255).to(torch.uint8)
                    diff = (got.double() - expected.double()).abs()
                    total += diff.numel()
                    same += int((diff == 0).sum())
                    worst = max(worst, float(diff.max()))
                    n += 1
        frac = same / total
        ok = (frac == 1.0) if op["fidelity"] == "exact" else (worst <= 1 and frac >= 0.999)
        failed |= not ok
        print(
            f"| {name} | {op['kornia']} | {op['fidelity']} | {n} | {total:,} | "
            f"{100 * frac:.4f}% | {worst:g} | {'ok' if ok else 'FAILS ITS CLASS'} |"
        )
    print()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
