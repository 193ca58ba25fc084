"""Geometry: warp_affine, warp_perspective, resize, crop_and_resize, pad and rot90, exact against
kornia / torch; layouts, opcheck, compile, errors."""

import itertools
import math

import pytest
import torch
import torch.nn.functional as F
from kornia.geometry.transform import crop_by_indices, warp_affine, warp_perspective
from kornia.geometry.transform import resize as kornia_resize

import u8aug
from conftest import oracle, photos, random_image, requires_cuda, to_u8

SHAPES = [(1, 1, 1, 1), (1, 3, 1, 9), (3, 1, 9, 1), (3, 3, 3, 5), (1, 4, 257, 129), (8, 3, 33, 47), (2, 6, 20, 37)]
PADDINGS = ["zeros", "border", "reflection", "fill"]


def layouts(x):
    return {"contiguous": x.contiguous(), "channels_last": x.contiguous(memory_format=torch.channels_last)}


def random_matrices(b, h, w, seed, perspective=False, extreme=False):
    """Rotation, scale, shear and translation about the image, optionally a projective row."""
    g = torch.Generator().manual_seed(seed)
    ang = torch.rand(b, generator=g) * 2 * math.pi
    scale = torch.rand(b, generator=g) * 1.5 + 0.4
    shear = (torch.rand(b, generator=g) - 0.5) * 0.6
    M = torch.zeros(b, 3, 3)
    M[:, 0, 0], M[:, 0, 1] = scale * torch.cos(ang), -scale * torch.sin(ang) + shear
    M[:, 1, 0], M[:, 1, 1] = scale * torch.sin(ang), scale * torch.cos(ang)
    M[:, 0, 2] = (torch.rand(b, generator=g) - 0.5) * w
    M[:, 1, 2] = (torch.rand(b, generator=g) - 0.5) * h
    M[:, 2, 2] = 1
    if perspective:
        M[:, 2, :2] = (torch.rand(b, 2, generator=g) - 0.5) * (4.0 / max(h, w, 4))
    if extreme:
        M[:, :2, 2] *= 1e6
    return M


def warp_case(perspective, x, M, dsize, mode, padding, align, fill):
    fn, ours = (warp_perspective, u8aug.warp_perspective) if perspective else (warp_affine, u8aug.warp_affine)
    m = M if perspective else M[:, :2].contiguous()
    expected = oracle(fn, x, m, dsize, mode=mode, padding_mode=padding, align_corners=align, fill_value=fill)
    for layout, xi in layouts(x).items():
        before = xi.clone()
        got = ours(xi, m, dsize, mode, padding, align, fill)
        assert torch.equal(got, expected), f"{layout}: {(got != expected).sum().item()} bytes differ"
        assert torch.equal(xi, before)
        assert (
            got.is_contiguous(
                memory_format=torch.channels_last
                if layout == "channels_last" and x.shape[1] > 1
                else torch.contiguous_format
            )
            or x.shape[1] == 1
        )


@pytest.mark.parametrize("perspective", [False, True], ids=["affine", "perspective"])
@pytest.mark.parametrize(
    "mode,padding,align", list(itertools.product(["bilinear", "nearest"], PADDINGS, [False, True]))
)
def test_warp_exact_against_kornia(perspective, mode, padding, align):
    for i, shape in enumerate(SHAPES):
        b, c, h, w = shape
        x = random_image(shape, seed=i)
        M = random_matrices(b, h, w, seed=i, perspective=perspective)
        fill = torch.rand(c, generator=torch.Generator().manual_seed(i)) if padding == "fill" else None
        for dsize in [(h, w), (max(1, h // 2 + 1), w * 2 + 1)]:
            warp_case(perspective, x, M, dsize, mode, padding, align, fill)


@pytest.mark.parametrize("perspective", [False, True], ids=["affine", "perspective"])
def test_warp_exact_on_photos_shared_matrix_and_3d_input(perspective):
    for k, (name, img) in enumerate(photos().items()):
        x = img[None]
        M = random_matrices(1, x.shape[-2], x.shape[-1], seed=k, perspective=perspective)
        m = M if perspective else M[:, :2].contiguous()
        fn, ours = (warp_perspective, u8aug.warp_perspective) if perspective else (warp_affine, u8aug.warp_affine)
        expected = oracle(fn, x, m, (200, 300))
        assert torch.equal(ours(x, m, (200, 300)), expected), name
        assert torch.equal(ours(img, m, (200, 300)), expected[0]), name  # (C, H, W) in, (C, h, w) out
    # one matrix for a whole batch broadcasts, as in kornia
    x = random_image((4, 3, 20, 30))
    M = random_matrices(1, 20, 30, seed=9)[:, :2].contiguous()
    assert torch.equal(u8aug.warp_affine(x, M, (20, 30)), oracle(warp_affine, x, M, (20, 30)))


def test_warp_kornia_random_parameters():
    """RandomAffine / RandomRotation / RandomPerspective matrices as kornia draws them."""
    import kornia.augmentation as K

    torch.manual_seed(0)
    x = random_image((8, 3, 64, 80), seed=3)
    for aug in (K.RandomAffine(30, (0.1, 0.2), (0.8, 1.2), 10, p=1.0), K.RandomRotation(45.0, p=1.0)):
        params = aug.forward_parameters(x.shape)
        M = aug.compute_transformation(x.float(), params, aug.flags)
        expected = to_u8(aug(x.float() / 255, params=params))
        align = aug.flags["align_corners"]
        assert torch.equal(u8aug.warp_affine(x, M[:, :2].contiguous(), (64, 80), align_corners=align), expected)
    aug = K.RandomPerspective(0.5, p=1.0)
    params = aug.forward_parameters(x.shape)
    M = aug.compute_transformation(x.float(), params, aug.flags)
    expected = to_u8(aug(x.float() / 255, params=params))
    assert torch.equal(u8aug.warp_perspective(x, M, (64, 80), align_corners=aug.flags["align_corners"]), expected)


@pytest.mark.parametrize("kind", ["nan", "inf", "singular", "huge translation"])
def test_warp_degenerate_matrices_are_defined(kind):
    x = random_image((2, 3, 9, 11))
    M = random_matrices(2, 9, 11, seed=1)
    if kind == "nan":
        M[0, 0, 0] = float("nan")
    elif kind == "inf":
        M[1, 1, 2] = float("inf")
    elif kind == "singular":
        M[:, :2, :2] = 0
    else:
        M = random_matrices(2, 9, 11, seed=1, extreme=True)
    for perspective in (False, True):
        m = M if perspective else M[:, :2].contiguous()
        ours = u8aug.warp_perspective if perspective else u8aug.warp_affine
        for padding in PADDINGS:
            out = ours(x, m, (5, 40), padding_mode=padding)  # must not crash or read outside
            assert out.shape == (2, 3, 5, 40)
            assert torch.equal(out, ours(x, m, (5, 40), padding_mode=padding))  # deterministic
    if kind == "huge translation":
        assert torch.equal(
            u8aug.warp_affine(x, M[:, :2].contiguous(), (5, 40)), oracle(warp_affine, x, M[:, :2], (5, 40))
        )


def check_bilinear(got, expected):
    """Exact: u8aug follows torch's choice between its two bilinear interpolate kernels."""
    assert torch.equal(got, expected), f"{(got != expected).sum().item()} bytes differ"


@pytest.mark.parametrize("threads", [1, 2])
def test_resize_against_kornia(threads):
    """Both of torch's interpolate kernels: small outputs, channels_last with C > 3 and RGB at one
    thread take its channels-last kernel, the rest its generic one."""
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        run_resize_cases()
    finally:
        torch.set_num_threads(before)


def run_resize_cases():
    g = torch.Generator().manual_seed(5)
    for i in range(24):
        b, c = 1 + i % 3, 1 + i % 4
        h, w = [int(v) for v in torch.randint(1, 160, (2,), generator=g)]
        oh, ow = [int(v) for v in torch.randint(1, 160, (2,), generator=g)]
        x = random_image((b, c, h, w), seed=i)
        for mode, align in (("bilinear", False), ("bilinear", True), ("nearest", None)):
            for xi in layouts(x).values():
                # the oracle of each layout: torch picks its kernel by the input's memory format too
                expected = oracle(kornia_resize, xi, (oh, ow), interpolation=mode, align_corners=align)
                got = u8aug.resize(xi, (oh, ow), mode, align)
                if mode == "nearest":
                    assert torch.equal(got, expected)
                else:
                    check_bilinear(got, expected)
    for img in photos().values():
        assert torch.equal(u8aug.resize(img, (600, 700)), oracle(kornia_resize, img, (600, 700)))
        assert torch.equal(
            u8aug.resize(img, (150, 100), align_corners=True),
            oracle(kornia_resize, img, (150, 100), align_corners=True),
        )


def random_boxes(g, b, h, w, whole_rows=False):
    """Random boxes inside an h x w image; with whole_rows, every other box spans the full width or
    a single row (slices torch sees as channels_last-contiguous when the image is)."""
    boxes = []
    for i in range(b):
        x1 = int(torch.randint(0, w, (1,), generator=g))
        x2 = int(torch.randint(x1, w, (1,), generator=g))
        y1 = int(torch.randint(0, h, (1,), generator=g))
        y2 = int(torch.randint(y1, h, (1,), generator=g))
        if whole_rows and i % 2 == 0:
            x1, x2 = (0, w - 1) if i % 4 == 0 else (x1, x2)
            y2 = y2 if i % 4 == 0 else y1
        boxes.append([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])
    return torch.tensor(boxes, dtype=torch.float32)


@pytest.mark.parametrize("threads", [1, 2])
def test_crop_and_resize_against_kornia(threads):
    """Each layout against kornia on that layout: crops of a channels_last batch that hold whole
    rows (or one row) are channels_last slices to torch, which then picks its kernel by C."""
    g = torch.Generator().manual_seed(6)
    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        for i in range(24):
            b, c = 1 + i % 4, 1 + i % 5
            h, w = [int(v) for v in torch.randint(1, 200, (2,), generator=g)]
            boxes = random_boxes(g, b, h, w, whole_rows=i % 2 == 1)
            x = random_image((b, c, h, w), seed=i)
            size = (int(torch.randint(1, 160, (1,), generator=g)), int(torch.randint(1, 160, (1,), generator=g)))
            for xi in layouts(x).values():
                expected = oracle(crop_by_indices, xi, boxes, size, interpolation="bilinear", align_corners=True)
                check_bilinear(u8aug.crop_and_resize(xi, boxes, size), expected)
            expected = oracle(crop_by_indices, x, boxes, size, interpolation="nearest")
            assert torch.equal(u8aug.crop_and_resize(x, boxes, size, "nearest", False), expected)
            # boxes of the output size are plain copies (RandomCrop)
            one = boxes.clone()
            one[:, 1:3, 0] = one[:, 0:1, 0]
            one[:, 2:4, 1] = one[:, 0:1, 1]
            assert torch.equal(u8aug.crop_and_resize(x, one, (1, 1)), oracle(crop_by_indices, x, one, (1, 1)))
    finally:
        torch.set_num_threads(previous)


@pytest.mark.parametrize("threads", [1, 2])
def test_crop_and_resize_large_windows_against_kornia(threads):
    """Windows over 1 MB as floats are converted a source row at a time as they are read (cpu/resize.cc's
    UnitRows), not as a whole plane: the same bytes as kornia, for each blend order torch picks (C
    and the thread count choose it), down- and upscaled, on both layouts."""
    g = torch.Generator().manual_seed(11)
    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        for c in (1, 3, 4):
            x = random_image((2, c, 560, 610), seed=c)
            boxes = torch.tensor(
                [[[3, 7], [602, 7], [602, 551], [3, 551]], [[40, 0], [609, 0], [609, 559], [40, 559]]],
                dtype=torch.float32,
            )
            for size in ((224, 224), (613, 571), (int(torch.randint(100, 700, (1,), generator=g)), 333)):
                for xi in layouts(x).values():
                    expected = oracle(crop_by_indices, xi, boxes, size, interpolation="bilinear", align_corners=True)
                    check_bilinear(u8aug.crop_and_resize(xi, boxes, size), expected)
    finally:
        torch.set_num_threads(previous)


def test_crop_center_crop_pad_rot90_exact():
    x = random_image((3, 4, 17, 23))
    for xi in layouts(x).values():
        assert torch.equal(u8aug.crop(xi, 2, 3, 10, 11), x[..., 2:12, 3:14])
        assert torch.equal(u8aug.center_crop(xi, (8, 9)), x[..., 4:12, 7:16])
        for mode in ("constant", "reflect", "replicate"):
            pad = (3, 1, 4, 2)
            expected = (
                F.pad(x, pad, value=9) if mode == "constant" else F.pad(x.float(), pad, mode=mode).to(torch.uint8)
            )
            assert torch.equal(u8aug.pad(xi, pad, mode, 9), expected)
        for k in range(-5, 6):
            assert torch.equal(u8aug.rot90(xi, k), torch.rot90(x, k, (-2, -1)))
    assert torch.equal(u8aug.rot90(x[0], 1), torch.rot90(x[0], 1, (-2, -1)))


GEOMETRY_CALLS = {
    "warp_affine": lambda x: (
        torch.ops.u8aug.warp_affine,
        (x, random_matrices(x.shape[0], 5, 7, 0)[:, :2].contiguous(), [6, 4], "bilinear", "reflection", False, None),
    ),
    "warp_perspective": lambda x: (
        torch.ops.u8aug.warp_perspective,
        (x, random_matrices(1, 5, 7, 0, True), [3, 8], "nearest", "fill", True, torch.rand(x.shape[1])),
    ),
    "resize": lambda x: (torch.ops.u8aug.resize, (x, [9, 4], "bilinear", False)),
    "crop_and_resize": lambda x: (
        torch.ops.u8aug.crop_and_resize,
        (x, torch.tensor([[[1.0, 1.0], [3.0, 1.0], [3.0, 4.0], [1.0, 4.0]]] * x.shape[0]), [5, 5], "bilinear", True),
    ),
    "pad": lambda x: (torch.ops.u8aug.pad, (x, [1, 2, 3, 0], "reflect", 0)),
    "rot90": lambda x: (torch.ops.u8aug.rot90, (x, 3)),
}


@pytest.mark.compile
@pytest.mark.parametrize("dynamic", [False, True])
def test_compile_fullgraph_equals_eager(dynamic):
    def pipeline(x, M, H, boxes):
        y = u8aug.warp_affine(x, M, (40, 48), padding_mode="border")
        y = u8aug.warp_perspective(y, H, (36, 36), align_corners=False)
        y = u8aug.crop_and_resize(y, boxes, (24, 24))
        y = u8aug.pad(u8aug.rot90(y, 1), (1, 1, 2, 2), "replicate")
        return u8aug.resize(y, (30, 20))

    compiled = torch.compile(pipeline, fullgraph=True, dynamic=dynamic)
    for b in (4, 3):
        x = random_image((b, 3, 40, 48), seed=b)
        M = random_matrices(b, 40, 48, seed=b)[:, :2].contiguous()
        H = random_matrices(b, 40, 48, seed=b + 1, perspective=True)
        boxes = torch.tensor([[[2.0, 3.0], [30.0, 3.0], [30.0, 20.0], [2.0, 20.0]]] * b)
        for xi in layouts(x).values():
            assert torch.equal(compiled(xi, M, H, boxes), pipeline(xi, M, H, boxes))


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda x: u8aug.warp_affine(x, torch.eye(3)[None], (4, 4)), r"expected M of shape \(B, 2, 3\)"),
        (
            lambda x: u8aug.warp_affine(x, torch.eye(2, 3)[None].double().expand(3, 2, 3).contiguous(), (4, 4)),
            r"expected M of shape \(B, 2, 3\) or \(1, 2, 3\) with B = 2",
        ),
        (lambda x: u8aug.warp_affine(x, torch.eye(2, 3)[None], (0, 4)), "dsize must be positive"),
        (
            lambda x: u8aug.warp_affine(x, torch.eye(2, 3)[None], (4, 4), mode="nearest-exact"),
            "mode must be 'bilinear', 'bicubic' or 'nearest'",
        ),
        (lambda x: u8aug.resize(x, (4, 4), "area"), "mode must be 'bilinear', 'bicubic', 'nearest' or 'nearest-exact'"),
        (lambda x: u8aug.resize(x, (4, 4), "nearest-exact", True), "align_corners applies to bilinear and bicubic"),
        (lambda x: u8aug.warp_affine(x, torch.eye(2, 3)[None], (4, 4), padding_mode="wrap"), "padding_mode must be"),
        (
            lambda x: u8aug.warp_affine(x, torch.eye(2, 3)[None], (4, 4), padding_mode="fill", fill=[0.1, 0.2]),
            "fill must hold 1 or C = 3 values",
        ),
        (lambda x: u8aug.warp_affine(x.float(), torch.eye(2, 3)[None], (4, 4)), "expected img of dtype torch.uint8"),
        (lambda x: u8aug.warp_perspective(x, torch.eye(2, 3)[None], (4, 4)), r"expected M of shape \(B, 3, 3\)"),
        (lambda x: u8aug.resize(x, (4, 0)), "size must be positive"),
        (lambda x: u8aug.resize(x, (4, 4), "nearest", True), "align_corners applies to bilinear and bicubic only"),
        (lambda x: u8aug.crop_and_resize(x, torch.zeros(2, 4, 2) + 7, (3, 3)), "must be non-empty and inside"),
        (lambda x: u8aug.crop_and_resize(x, torch.full((2, 4, 2), float("nan")), (3, 3)), "boxes must be finite"),
        (lambda x: u8aug.crop_and_resize(x, torch.zeros(1, 4, 2), (3, 3)), r"shape \(B, 4, 2\) with B = 2"),
        (lambda x: u8aug.pad(x, (5, 0, 0, 0), "reflect"), "reflect padding must be smaller"),
        (lambda x: u8aug.pad(x, (1, 0, 0, 0), "constant", 300), r"value must be a byte"),
        (lambda x: u8aug.pad(x, (1, 0, 0, 0), "circular"), "mode must be 'constant', 'reflect' or 'replicate'"),
        (lambda x: u8aug.crop(x, 3, 3, 3, 3), "not inside"),
    ],
)
def test_bad_input(call, message):
    x = random_image((2, 3, 5, 5))
    before = x.clone()
    with pytest.raises((RuntimeError, ValueError), match=message):
        call(x)
    assert torch.equal(x, before)


@requires_cuda
@pytest.mark.cuda
def test_cuda_equals_cpu():
    for i, shape in enumerate([(4, 3, 57, 83), (2, 1, 9, 1), (3, 4, 31, 33)]):
        x = random_image(shape, seed=i)
        b, c, h, w = shape
        for xi in layouts(x).values():
            xc = xi.cuda()
            for perspective in (False, True):
                M = random_matrices(b, h, w, seed=i, perspective=perspective)
                m = M if perspective else M[:, :2].contiguous()
                ours = u8aug.warp_perspective if perspective else u8aug.warp_affine
                for mode, padding, align in itertools.product(["bilinear", "nearest"], PADDINGS, [False, True]):
                    fill = torch.rand(c) if padding == "fill" else None
                    cpu = ours(xi, m, (h + 3, w - 0), mode, padding, align, fill)
                    gpu = ours(xc, m.cuda(), (h + 3, w), mode, padding, align, None if fill is None else fill.cuda())
                    assert torch.equal(gpu.cpu(), cpu)
            for size, align in (((20, 90), False), ((h, w), True), ((3, 5), True)):
                assert torch.equal(
                    u8aug.resize(xc, size, "bilinear", align).cpu(), u8aug.resize(xi, size, "bilinear", align)
                )
                assert torch.equal(u8aug.resize(xc, size, "nearest").cpu(), u8aug.resize(xi, size, "nearest"))
            boxes = torch.tensor([[[0.0, 0.0], [w - 1.0, 0.0], [w - 1.0, h - 1.0], [0.0, h - 1.0]]] * b)
            boxes[0] = torch.tensor([[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]])
            assert torch.equal(
                u8aug.crop_and_resize(xc, boxes.cuda(), (16, 17)).cpu(), u8aug.crop_and_resize(xi, boxes, (16, 17))
            )
            assert torch.equal(u8aug.pad(xc, (1, 2, 0, 3), "reflect").cpu(), u8aug.pad(xi, (1, 2, 0, 3), "reflect"))
            assert torch.equal(u8aug.rot90(xc, 3).cpu(), u8aug.rot90(xi, 3))


def test_extreme_sizes_match_kornia():
    """dsize 1 and far larger than the input, a 1x1 source: defined and exact."""
    tiny = random_image((2, 3, 1, 1), seed=4)
    small = random_image((2, 3, 5, 4), seed=5)
    M = random_matrices(2, 5, 4, seed=3)[:, :2].contiguous()
    for x in (tiny, small):
        for dsize in ((1, 1), (1, 300), (257, 129)):
            for padding in PADDINGS[:3]:
                expected = oracle(warp_affine, x, M, dsize, padding_mode=padding, align_corners=False)
                assert torch.equal(u8aug.warp_affine(x, M, dsize, padding_mode=padding, align_corners=False), expected)
            expected = oracle(kornia_resize, x, dsize, align_corners=True)
            check_bilinear(u8aug.resize(x, dsize, align_corners=True), expected)
