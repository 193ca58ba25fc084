"""The fast tier (fidelity="fast"): FIDELITY.md's fast class for every op that has one, measured
against the exact tier's bytes (kornia's float path quantized, which the exact tier equals) on real
photos and random images across kornia's parameter ranges, edges and rounding-tie makers included,
in both layouts; the same bytes at any thread count and on CUDA; the exact default untouched; and
the drop-in classes' `fidelity` keyword on the real, compiled user path. Each check prints the
identical share and mean signed difference it measured (pytest -s shows them)."""

import math

import kornia
import kornia.augmentation as K
import pytest
import torch

import u8aug
import u8aug.kornia as UK
from conftest import oracle, photos, random_image, requires_cuda

FAST_OPS = ["adjust_saturation", "adjust_hue", "color_jiggle", "color_jitter"] + [
    "warp_affine",
    "warp_perspective",
    "resize",
    "crop_and_resize",
    "resize_list",
    "filter2d_separable",
    "filter2d",
]


def assert_fast_class(what, got, expected):
    """FIDELITY.md's fast class against the exact tier's bytes: every byte at most 1 away, at least
    95% identical, and no drift (the mean signed difference within +-0.05 of a level)."""
    assert got.shape == expected.shape and got.dtype == torch.uint8
    signed = got.int() - expected.int()
    diff = signed.abs()
    identical = (diff == 0).double().mean().item()
    drift = signed.double().mean().item()
    print(f"fast class: {what}: max diff {diff.max().item()}, identical {100 * identical:.4f}%, drift {drift:+.4f}")
    assert diff.max().item() <= 1, f"{what}: max diff {diff.max().item()}"
    assert identical >= 0.95, f"{what}: only {100 * identical:.3f}% identical"
    assert abs(drift) <= 0.05, f"{what}: mean signed difference {drift:+.4f}"


def rgb_images():
    """The RGB photos (one sample each) and random batches, with their names."""
    out = {name: p.unsqueeze(0) for name, p in photos().items() if p.shape[0] == 3}
    out["random 4x3x67x91"] = random_image((4, 3, 67, 91), seed=1)
    out["random 2x3x224x224"] = random_image((2, 3, 224, 224), seed=2)
    return out


def layouts(x):
    return {"contiguous": x.contiguous(), "channels_last": x.contiguous(memory_format=torch.channels_last)}


def per_sample(values, b):
    return torch.tensor([values[i % len(values)] for i in range(b)], dtype=torch.float32)


def test_the_catalogue_names_the_fast_ops_and_their_class():
    tiers = {op["name"]: op["fast"] for op in u8aug.catalogue()}
    assert sorted(name for name, tier in tiers.items() if tier != "-") == sorted(FAST_OPS)
    assert sorted(name for name, tier in tiers.items() if tier == "fast") == [
        "adjust_hue",
        "color_jiggle",
        "color_jitter",
        "crop_and_resize",
        "filter2d",
        "filter2d_separable",
        "resize",
        "resize_list",
        "warp_affine",
        "warp_perspective",
    ]
    for op in u8aug.catalogue():
        assert op["fast"] in ("fast", "exact", "-")
        assert ("fidelity" in op["schema"]) == (op["fast"] != "-"), op["name"]


@pytest.mark.parametrize("radians", [-math.pi, -2.0, -0.5, 0.0, 0.3, 1.5, math.pi])
def test_hue(radians):
    for name, x in rgb_images().items():
        f = per_sample([radians, -radians * 0.5, radians * 0.25], x.shape[0])
        expected = oracle(kornia.enhance.adjust_hue, x, f)
        for layout, xi in layouts(x).items():
            assert_fast_class(f"adjust_hue {radians:+.2f} {name} {layout}", u8aug.adjust_hue(xi, f, "fast"), expected)


@pytest.mark.parametrize("sigma", [0.1, 0.3, 0.8, 1.3, 2.0, 5.0])
@pytest.mark.parametrize("taps", [3, 5, 23])
def test_gaussian_blur_fast_fixed_point(sigma, taps):
    """The separable filter's fixed point (pixel/filter.h): Gaussians across kornia's sigmas, every
    image and layout, in the fast class."""
    for name, x in rgb_images().items():
        expected = oracle(lambda xf: kornia.filters.gaussian_blur2d(xf, taps, (sigma, sigma)), x)
        for layout, xi in layouts(x).items():
            got = u8aug.gaussian_blur2d(xi, taps, (sigma, sigma), fidelity="fast")
            assert_fast_class(f"gaussian_blur2d {taps} {sigma} {name} {layout}", got, expected)


@pytest.mark.parametrize("ks", [3, 5, (3, 7), 4])
@pytest.mark.parametrize("border", ["reflect", "constant", "replicate", "circular"])
def test_box_blur_fast_fixed_point(ks, border):
    for name, x in rgb_images().items():
        expected = oracle(lambda xf: kornia.filters.box_blur(xf, ks, border), x)
        for layout, xi in layouts(x).items():
            got = u8aug.box_blur(xi, ks, border, fidelity="fast")
            assert_fast_class(f"box_blur {ks} {border} {name} {layout}", got, expected)
            if ks == 4:  # an even window's mean ties often: the exact path
                assert torch.equal(got, u8aug.box_blur(xi, ks, border))


def test_separable_fast_is_not_the_exact_arithmetic_and_keeps_float_for_other_kernels():
    """The fixed point is other arithmetic than the exact tier (so the test above can fail); a kernel
    it cannot hold (a negative tap) keeps the float path, and a batch mixes both sample by sample."""
    x = random_image((2, 3, 40, 50), seed=3)
    g = u8aug.gaussian_blur2d(x, 5, (1.3, 1.3))
    assert not torch.equal(u8aug.gaussian_blur2d(x, 5, (1.3, 1.3), fidelity="fast"), g)
    sharpen = torch.tensor([[-0.25, 1.5, -0.25]])
    smooth = torch.tensor([[0.25, 0.5, 0.25]])
    for k in (sharpen, torch.cat([smooth, sharpen])):
        fast = u8aug.filter2d_separable(x, k, smooth, "reflect", "fast")
        exact = u8aug.filter2d_separable(x, k, smooth, "reflect")
        # sample 1 (or both) through a negative tap: the float path's bytes
        assert torch.equal(fast[-1], exact[-1])
    mixed_fast = u8aug.filter2d_separable(x, torch.cat([smooth, sharpen]), smooth, "reflect", "fast")
    alone = u8aug.filter2d_separable(x[:1], smooth, smooth, "reflect", "fast")
    assert torch.equal(mixed_fast[:1], alone)
    with pytest.raises(ValueError, match="fidelity must be 'exact' or 'fast'"):
        u8aug.box_blur(x, 3, fidelity="quick")


@pytest.mark.parametrize("factor", [0.0, 0.3, 1.0, 2.5])
def test_saturation_fast_is_its_exact_formula(factor):
    """kornia's saturation is a direct RGB formula: both tiers give its exact bytes."""
    for x in rgb_images().values():
        f = per_sample([factor], x.shape[0])
        assert torch.equal(u8aug.adjust_saturation(x, f, fidelity="fast"), u8aug.adjust_saturation(x, f))


def _jiggle_params(aug, shape):
    p = aug.forward_parameters(shape)
    keys = ("brightness_factor", "contrast_factor", "saturation_factor", "hue_factor", "order")
    return p, tuple(p[k] for k in keys)


@pytest.mark.parametrize("cls", ["ColorJiggle", "ColorJitter"])
@pytest.mark.parametrize(
    "args", [(0.4, 0.4, 0.4, 0.1), (0.0, 0.0, 0.0, 0.5), (1.0, 1.0, 1.0, 0.5), (0.2, 0.9, 0.0, 0.3)]
)
def test_jiggle_and_jitter_with_kornias_parameters(cls, args):
    """kornia's own draws over its ranges (brightness up to 1 makes factors 0 and 2, hue 0.5 a half
    turn); oracle: kornia's class on x / 255 with the same parameters."""
    torch.manual_seed(int(sum(args) * 100))
    aug = getattr(K, cls)(*args, p=1.0)
    fused = u8aug.color_jiggle if cls == "ColorJiggle" else u8aug.color_jitter
    for name, x in rgb_images().items():
        full, params = _jiggle_params(aug, x.shape)
        expected = oracle(lambda xf: aug(xf, params=full), x)
        for layout, xi in layouts(x).items():
            assert_fast_class(f"{cls}{args} {name} {layout}", fused(xi, *params, fidelity="fast"), expected)


@pytest.mark.parametrize("op", ["color_jitter", "color_jiggle"])
@pytest.mark.parametrize("order", [[0, 1, 2, 3], [3, 1, 0, 2], [2, 3, 1, 0], [1, 0], [3], [0, 2], [2]])
def test_color_fixed_point_every_step_and_order(op, order):
    """color_jitter's and color_jiggle's 16-bit fixed point (pixel/color_fixed.h) against the exact
    tier, per-sample factors across [0, 2) and hue shifts across [-0.5, 0.5] turns, each step alone
    and in kornia's orders, on photos and random batches in both layouts (ColorJiggle's saturation
    above 1 clips the most saturated pixels: its other form)."""
    fn = getattr(u8aug, op)
    g = torch.Generator().manual_seed(len(order) * 10 + order[0])
    differs = False  # the fixed point is other arithmetic than the exact tier's
    for name, x in rgb_images().items():
        b = x.shape[0]
        factors = [torch.rand(b, generator=g) * 1.98 + 0.01 for _ in range(3)]
        hue = torch.rand(b, generator=g) - 0.5
        args = (*factors, hue, torch.tensor(order))
        expected = fn(x, *args)
        for layout, xi in layouts(x).items():
            got = fn(xi, *args, fidelity="fast")
            assert_fast_class(f"{op} order {order} {name} {layout}", got, expected)
            differs = differs or not torch.equal(got, expected)
    assert differs


@pytest.mark.parametrize("op", ["color_jitter", "color_jiggle"])
@pytest.mark.parametrize("factor", [0.0, 0.5, 0.75, 1.25, 1.5, 2.0, 3.0, 1.0 + 2.5 / 255])
def test_color_fast_keeps_the_float_chain_where_the_fixed_point_cannot_follow(op, factor):
    """A multiplying factor on the grid of sixteenths makes exact rounding ties (brightness 0.5:
    every odd byte) that kornia's float32 chain breaks its own way, and so does ColorJiggle's
    brightness adding a whole byte and a half (every pixel); factors of 2 and more do not fit the
    fixed point. Those samples take the float chain, whose bytes are the exact tier's (no hue)."""
    fn = getattr(u8aug, op)
    if op == "color_jiggle" and factor > 2.0:
        return  # outside ColorJiggle's range: refused (test_hostile)
    x = random_image((3, 3, 40, 50), seed=4)
    one, off = torch.ones(3), torch.zeros(3)
    f = per_sample([factor, 0.7, factor], 3)
    for which in range(3):
        args = [one, one, one, off, torch.tensor([0, 1, 2, 3])]
        args[which] = f
        fast = fn(x, *args, fidelity="fast")
        exact = fn(x, *args)
        falls_back = factor != 1.0 + 2.5 / 255 or (op == "color_jiggle" and which == 0)
        if falls_back:
            assert torch.equal(fast[0], exact[0]) and torch.equal(fast[2], exact[2])
        assert_fast_class(f"{op} step {which} factor {factor:.4f}", fast, exact)


def _matrices(b, h, w, seed, perspective):
    g = torch.Generator().manual_seed(seed)
    ang = torch.rand(b, generator=g) * 2 * math.pi
    scale = torch.rand(b, generator=g) * 1.2 + 0.6
    c, s = torch.cos(ang) * scale, torch.sin(ang) * scale
    M = torch.zeros(b, 3, 3)
    M[:, 0, 0], M[:, 0, 1], M[:, 1, 0], M[:, 1, 1] = c, -s, s, c
    M[:, 0, 2] = w / 2 - c * w / 2 + s * h / 2 + (torch.rand(b, generator=g) - 0.5) * w * 0.2
    M[:, 1, 2] = h / 2 - s * w / 2 - c * h / 2 + (torch.rand(b, generator=g) - 0.5) * h * 0.2
    M[:, 2, 2] = 1
    if perspective:
        M[:, 2, :2] = (torch.rand(b, 2, generator=g) - 0.5) * (1.0 / max(h, w))
    return M if perspective else M[:, :2].contiguous()


def _images_any_channels():
    out = rgb_images()
    out["camera (grey)"] = photos()["camera"].unsqueeze(0)
    out["random 3x4x50x70"] = random_image((3, 4, 50, 70), seed=3)
    return out


WARPS = ["warp_affine", "warp_perspective"]


def _tie_matrices(b, h, w):
    """Warps whose source positions sit on a dyadic grid (pixel/warp.h's warp_ties_common): a
    half-pixel shift, a 2x or 4x zoom and a 3/2 source step keep the exact arithmetic; a quarter
    turn (whole pixels: the fixed point gives the exact bytes) and a 16x zoom (3% of the outputs
    exact ties) take the fixed point."""

    def batch(rows):
        return torch.tensor(rows, dtype=torch.float32).expand(b, 3, 3).contiguous()

    return {
        "half-pixel shift": batch([[1.0, 0.0, 0.5], [0.0, 1.0, -0.5], [0.0, 0.0, 1.0]]),
        "quarter turn": batch([[0.0, -1.0, w - 1.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
        "2x zoom": batch([[2.0, 0.0, -w / 2], [0.0, 2.0, -h / 2], [0.0, 0.0, 1.0]]),
        "3/2 step": batch([[2 / 3, 0.0, 0.0], [0.0, 2 / 3, 0.0], [0.0, 0.0, 1.0]]),
        "4x zoom": batch([[4.0, 0.0, -1.5 * w], [0.0, 4.0, -1.5 * h], [0.0, 0.0, 1.0]]),
        "16x zoom": batch([[16.0, 0.0, -7.5 * w], [0.0, 16.0, -7.5 * h], [0.0, 0.0, 1.0]]),
    }


def _warp(op, x, M, size, padding, align, fidelity):
    m = M if op == "warp_perspective" else M[:, :2].contiguous()
    return getattr(u8aug, op)(x, m, size, "bilinear", padding, align, fidelity=fidelity)


@pytest.mark.parametrize("op", WARPS)
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
def test_warps_fast_fixed_point_against_exact(op, padding):
    """The warps' fixed point (pixel/sample.h, sample_fixed_pixel): the fast class against the exact
    tier on photos and random batches, random rotations and zooms (projective for warp_perspective)
    and the tie-making matrices, both layouts, 1 and 2 threads; and not the exact arithmetic."""
    before = torch.get_num_threads()
    perspective = op == "warp_perspective"
    try:
        for name, x in _images_any_channels().items():
            b, _, h, w = x.shape
            cases = {"random": _matrices(b, h, w, seed=5, perspective=True)}
            if not perspective:
                cases["random"][:, 2, :2] = 0
            cases.update(_tie_matrices(b, h, w))
            for what, M in cases.items():
                for align in (True, False):
                    size = (h, w) if what != "random" else (h + 3, w - 5)
                    exact = _warp(op, x, M, size, padding, align, "exact")
                    for layout, xi in layouts(x).items():
                        for threads in (1, 2):
                            torch.set_num_threads(threads)
                            got = _warp(op, xi, M, size, padding, align, "fast")
                            assert_fast_class(
                                f"{op} {padding} {what} ac={align} {name} {layout} t{threads}", got, exact
                            )
                    if what in ("half-pixel shift", "quarter turn", "2x zoom", "3/2 step", "4x zoom"):
                        assert torch.equal(_warp(op, x, M, size, padding, align, "fast"), exact), what
            M = cases["random"]
            assert not torch.equal(
                _warp(op, x, M, (h, w), padding, True, "fast"), _warp(op, x, M, (h, w), padding, True, "exact")
            )
    finally:
        torch.set_num_threads(before)


def test_warps_fast_keeps_the_exact_arithmetic_for_bicubic_nearest_and_fill():
    x = photos()["astronaut"][:, ::4, ::4].contiguous().unsqueeze(0)
    M = _matrices(1, x.shape[2], x.shape[3], seed=6, perspective=False)
    fill = torch.tensor([0.2, 0.5, 0.9])
    for mode, padding in (("bicubic", "zeros"), ("nearest", "zeros"), ("bilinear", "fill")):
        args = (x, M, (70, 90), mode, padding, True, fill if padding == "fill" else None)
        assert torch.equal(u8aug.warp_affine(*args, fidelity="fast"), u8aug.warp_affine(*args))


def _resize_sizes(h, w):
    """Output sizes that make rounding ties (2x, 1/2, 3/2 zooms: dyadic weights) and ones that do
    not (5/4, an odd shrink, 224 from anything), per axis; shrinks past 13/7 (one 16-byte lookup
    reaches, cpu/resize_fixed-inl.h) and past 29/7 (two reach: the exact arithmetic)."""
    return {
        "2x": (2 * h, 2 * w),
        "1/2": (max(h // 2, 1), max(w // 2, 1)),
        "3/2": (h * 3 // 2, w * 3 // 2),
        "5/4 x 2/3": (h * 5 // 4, max(w * 2 // 3, 1)),
        "2/5 x 3/10": (max(h * 2 // 5, 1), max(w * 3 // 10, 1)),
        "1/5": (max(h // 5, 1), max(w // 5, 1)),
        "224": (224, 224),
    }


def _crop_boxes(b, h, w):
    """Per-sample boxes of RandomResizedCrop's kind: a half-size corner (2x back to the input size),
    a centred 3/4 box, the whole image and an off-centre 9/10 box (a photo cropped nearly whole to
    224 shrinks its width by 2-3)."""
    boxes = []
    for i in range(b):
        x1, y1, x2, y2 = [
            (0, 0, w // 2 - 1, h // 2 - 1),
            (w // 8, h // 8, w * 7 // 8, h * 7 // 8),
            (0, 0, w - 1, h - 1),
            (w // 20, h // 10, w - 1, h - 1),
        ][i % 4]
        boxes.append([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])
    return torch.tensor(boxes, dtype=torch.float32)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_resize_fast_fixed_point_against_exact(mode, align_corners):
    """resize's fixed point (pixel/resize.h, kFast): the fast class against the exact tier on photos
    and random batches, every tie-making zoom, both layouts, 1 and 2 threads, and not the exact
    arithmetic (so the check can fail)."""
    before = torch.get_num_threads()
    try:
        for name, x in _images_any_channels().items():
            _, _, h, w = x.shape
            for zoom, size in _resize_sizes(h, w).items():
                exact = u8aug.resize(x, size, mode, align_corners)
                for layout, xi in layouts(x).items():
                    for threads in (1, 2):
                        torch.set_num_threads(threads)
                        got = u8aug.resize(xi, size, mode, align_corners, fidelity="fast")
                        assert_fast_class(
                            f"resize {mode} {zoom} ac={align_corners} {name} {layout} t{threads}", got, exact
                        )
            assert not torch.equal(u8aug.resize(x, (2 * h, 2 * w), mode, align_corners, "fast"),
                                   u8aug.resize(x, (2 * h, 2 * w), mode, align_corners))  # fmt: skip
    finally:
        torch.set_num_threads(before)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_crop_and_resize_fast_fixed_point_against_exact(mode):
    """RandomResizedCrop's op in the fixed point: per-sample boxes (a 2x zoom among them) to
    224 x 224 and to the input size, against the exact tier; nearest stays a copy in both tiers."""
    for name, x in _images_any_channels().items():
        b, _, h, w = x.shape
        x3 = x.expand(4, -1, -1, -1).contiguous() if b == 1 else x
        boxes = _crop_boxes(x3.shape[0], h, w)
        for size in ((224, 224), (h, w)):
            exact = u8aug.crop_and_resize(x3, boxes, size, mode, True)
            for layout, xi in layouts(x3).items():
                got = u8aug.crop_and_resize(xi, boxes, size, mode, True, fidelity="fast")
                assert_fast_class(f"crop_and_resize {mode} {size} {name} {layout}", got, exact)
    x = random_image((3, 3, 40, 50), seed=4)
    boxes = _crop_boxes(3, 40, 50)
    for mode in ("nearest", "nearest-exact"):
        exact = u8aug.crop_and_resize(x, boxes, (33, 61), mode, False)
        assert torch.equal(u8aug.crop_and_resize(x, boxes, (33, 61), mode, False, fidelity="fast"), exact)


def _fast_args(x):
    """Each fast op's torch op and arguments, fidelity last, on x's device."""
    b, c, h, w = x.shape
    dev = x.device
    f = per_sample([0.7, 1.3, 0.2], b).to(dev)
    hue = per_sample([0.05, -0.2, 0.5], b).to(dev)
    order = torch.tensor([3, 1, 0, 2], device=dev)
    M3 = _matrices(b, h, w, 0, True).to(dev)
    boxes = torch.tensor([[[1.0, 2.0], [w - 3.0, 2.0], [w - 3.0, h - 2.0], [1.0, h - 2.0]]] * b, device=dev)
    return {
        "adjust_saturation": (x, f, "fast"),
        "adjust_hue": (x, hue * 6, "fast"),
        "color_jiggle": (x, f, f.flip(0), f, hue, order, "fast"),
        "color_jitter": (x, f, f.flip(0), f, hue, order, "fast"),
        "warp_affine": (x, M3[:, :2].contiguous(), [h, w], "bilinear", "zeros", True, None, "fast"),
        "warp_perspective": (x, M3, [h + 3, w - 5], "bilinear", "reflection", False, None, "fast"),
        "resize": (x, [h * 3 // 2, w // 2 + 1], "bilinear", False, "fast"),
        "crop_and_resize": (x, boxes, [h, w + 7], "bilinear", True, "fast"),
        # its samples cropped to sizes of their own: a ragged list
        "resize_list": (
            [x[i, :, : h - i, : w - 2 * i] for i in range(x.shape[0])],
            None,
            [h + 5, w // 3],
            "bilinear",
            False,
            "fast",
        ),
        # kernels with tails below 2^-118, where the tiers differ in arithmetic
        "filter2d_separable": (x, _tailed_kernel(b, 9).to(dev), _tailed_kernel(1, 23).to(dev), "reflect", "fast"),
        "filter2d": (x, _tailed_kernel(b, 25).view(b, 5, 5).to(dev), "replicate", "fast"),
    }


def _tailed_kernel(n, taps):
    """n normalised Gaussian kernels of `taps` taps whose outer taps are float32 subnormals."""
    from kornia.filters import get_gaussian_kernel1d

    return get_gaussian_kernel1d(taps, torch.linspace(0.3, 0.9, n).view(n, 1)).contiguous()


def _call(op, x, fidelity):
    args = _fast_args(x)[op]
    return getattr(torch.ops.u8aug, op)(*args[:-1], fidelity)


@pytest.mark.parametrize("op", FAST_OPS)
def test_same_bytes_at_any_thread_count_and_exact_default_unchanged(op):
    """(resize, crop_and_resize and resize_list's exact tier follows the oracle's kernel choice, which depends on
    torch's thread count: pixel/resize.h's torch_blend_order; their fast tier does not.)"""
    x = random_image((9, 3, 61, 203), seed=5)
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one, exact = _call(op, x, "fast"), _call(op, x, "exact")
        # the schema's default is the exact tier, byte for byte
        assert torch.equal(getattr(torch.ops.u8aug, op)(*_fast_args(x)[op][:-1]), exact)
        torch.set_num_threads(2)
        assert torch.equal(_call(op, x, "fast"), one)
        if op not in ("resize", "crop_and_resize", "resize_list"):
            assert torch.equal(_call(op, x, "exact"), exact)
    finally:
        torch.set_num_threads(before)


@pytest.mark.parametrize("op", FAST_OPS)
def test_bad_fidelity_is_a_clear_error(op):
    x = random_image((2, 3, 20, 30), seed=6)
    with pytest.raises(RuntimeError, match=f"u8aug.{op}: fidelity must be 'exact' or 'fast', got 'quick'"):
        _call(op, x, "quick")


@pytest.mark.compile
@pytest.mark.parametrize("op", FAST_OPS)
def test_compiled_fast_equals_eager_fast_and_opcheck(op):
    x = random_image((3, 3, 40, 56), seed=7)
    args = _fast_args(x)[op]
    torch._dynamo.reset()
    compiled = torch.compile(getattr(u8aug, op), fullgraph=True)
    kwargs = {"fidelity": "fast"}
    assert torch.equal(compiled(*args[:-1], **kwargs), _call(op, x, "fast"))
    torch.library.opcheck(getattr(torch.ops.u8aug, op), _fast_args(x)[op])


# --- the drop-in classes -----------------------------------------------------------------------

DROPIN = {
    "ColorJitter": dict(brightness=0.4, contrast=0.4, saturation=0.4, hue=0.1, p=1.0),
    "ColorJiggle": dict(brightness=0.4, contrast=0.4, saturation=0.4, hue=0.1, p=1.0),
    "RandomSaturation": dict(saturation=(0.5, 1.5), p=1.0),
    "RandomHue": dict(hue=(-0.3, 0.3), p=1.0),
    "RandomAffine": dict(degrees=30, translate=(0.1, 0.1), scale=(0.8, 1.2), shear=10, p=1.0),
    "RandomRotation": dict(degrees=45.0, p=1.0),
    "RandomShear": dict(shear=20.0, p=1.0),
    "RandomTranslate": dict(translate_x=(-0.2, 0.2), translate_y=(-0.1, 0.1), p=1.0),
    "RandomPerspective": dict(distortion_scale=0.5, p=1.0),
    "RandomResizedCrop": dict(size=(48, 40), p=1.0),
    "RandomCrop": dict(size=(30, 40), padding=3, p=1.0),
    "Resize": dict(size=(50, 71)),
    "RandomGaussianBlur": dict(kernel_size=23, sigma=(0.1, 2.0), p=1.0),
    "RandomBoxBlur": dict(kernel_size=(5, 5), p=1.0),
}


@pytest.mark.parametrize("name", list(DROPIN))
def test_dropin_fidelity_keyword_same_draws_fast_class(name):
    x = random_image((4, 3, 45, 62), seed=9)
    photo = photos()["astronaut"][:, ::4, ::4].contiguous().unsqueeze(0)
    for what, xi in (("random", x), ("astronaut", photo)):
        torch.manual_seed(11)
        exact_aug = getattr(UK, name)(**DROPIN[name])
        exact_aug(xi)
        torch.manual_seed(11)
        kornia_aug = getattr(K, name)(**DROPIN[name])
        expected = (kornia_aug(xi.float() / 255) * 255).round().clamp(0, 255).to(torch.uint8)
        torch.manual_seed(11)
        fast_aug = getattr(UK, name)(**DROPIN[name], fidelity="fast")
        fast = fast_aug(xi)
        # the same random draws in both tiers
        for key, value in exact_aug._params.items():
            if isinstance(value, torch.Tensor):
                assert torch.equal(value, fast_aug._params[key]), key
        assert_fast_class(f"{name} {what}", fast, expected)
        assert fast_aug.fidelity == "fast" and exact_aug.fidelity == "exact"
        assert repr(fast_aug).endswith("fidelity='fast')") and "fidelity" not in repr(exact_aug)


def test_dropin_bad_fidelity_and_signature():
    import inspect

    with pytest.raises(ValueError, match="u8aug.kornia.ColorJitter: fidelity must be 'exact' or 'fast', got 'quick'"):
        UK.ColorJitter(0.1, fidelity="quick")
    assert "fidelity" in inspect.signature(UK.RandomAffine).parameters
    assert "fidelity" not in inspect.signature(UK.RandomHorizontalFlip).parameters
    with pytest.raises(TypeError):
        UK.RandomHorizontalFlip(fidelity="fast")


@pytest.mark.compile
def test_dropin_fast_compiles_fullgraph_on_the_real_path():
    """A fast pipeline, parameter generation included, compiled whole: the same bytes as eager
    under the same seed. (Not RandomAffine: inductor computes kornia's affine matrix, its sin and
    cos, an ulp away from eager for some draws, which moves a byte in either tier.)"""
    aug = UK.AugmentationSequential(
        UK.RandomResizedCrop((40, 40), p=1.0, fidelity="fast"),
        UK.ColorJitter(0.4, 0.4, 0.4, 0.1, p=0.8, fidelity="fast"),
        UK.RandomHue((-0.4, 0.4), p=0.5, fidelity="fast"),
        UK.ColorJiggle(0.2, 0.2, 0.2, 0.2, p=0.7, fidelity="fast"),
    )
    x = random_image((4, 3, 64, 64), seed=12)
    torch._dynamo.reset()
    compiled = torch.compile(aug, fullgraph=True, options=UK.COMPILE_OPTIONS)
    for seed in range(6):
        torch.manual_seed(seed)
        eager = aug(x)
        torch.manual_seed(seed)
        assert torch.equal(compiled(x), eager)


@requires_cuda
@pytest.mark.cuda
@pytest.mark.parametrize("op", FAST_OPS)
def test_cuda_fast_equals_cpu_fast(op):
    x = random_image((3, 3, 41, 67), seed=13)
    assert torch.equal(_call(op, x.cuda(), "fast").cpu(), _call(op, x, "fast"))
