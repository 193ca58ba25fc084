"""Bicubic and nearest-exact resampling (pixel/cubic.h): byte for byte against torch's float32
F.interpolate and grid_sample and kornia's warps on x / 255, on the running torch."""

import kornia
import pytest
import torch
import torch.nn.functional as F

import u8aug
from u8aug import _torch_rules


def oracle(y: torch.Tensor) -> torch.Tensor:
    return (y * 255).round().clamp(0, 255).to(torch.uint8)


def image(shape, seed=0, channels_last=False):
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(0, 256, shape, dtype=torch.uint8, generator=g)
    return x.contiguous(memory_format=torch.channels_last) if channels_last else x


RESIZES = [
    ((2, 3, 37, 53), (64, 41)),
    ((2, 3, 100, 120), (50, 70)),
    ((1, 1, 60, 60), (224, 224)),
    ((3, 4, 224, 224), (112, 160)),
    ((2, 3, 5, 7), (3, 2)),
    ((2, 1, 1, 9), (4, 4)),
    ((1, 3, 31, 17), (1, 1)),
    ((3, 20, 30), (31, 45)),
]


@pytest.mark.parametrize("shape,size", RESIZES)
@pytest.mark.parametrize("channels_last", [False, True])
def test_resize_bicubic_and_nearest_exact_equal_interpolate(shape, size, channels_last):
    x = image(shape, seed=len(shape) + size[0], channels_last=channels_last and len(shape) == 4)
    before = x.clone()
    for mode, aligns in (("bicubic", (False, True)), ("nearest-exact", (None,))):
        for align in aligns:
            batch = x if x.dim() == 4 else x[None]
            want = oracle(F.interpolate(batch.float() / 255, size=size, mode=mode, align_corners=align))
            got = u8aug.resize(x, size, mode, align)
            assert torch.equal(got if x.dim() == 4 else got[None], want), (mode, align)
    assert torch.equal(x, before)


def test_crop_and_resize_bicubic_equals_kornia_crop_by_indices():
    from kornia.geometry.transform import crop_by_indices

    x = image((3, 3, 40, 50), seed=3)
    boxes = torch.tensor(
        [
            [[5.0, 3.0], [30.0, 3.0], [30.0, 20.0], [5.0, 20.0]],
            [[0.0, 0.0], [49.0, 0.0], [49.0, 39.0], [0.0, 39.0]],
            [[40.0, 10.0], [47.0, 10.0], [47.0, 38.0], [40.0, 38.0]],
        ]
    )
    for align in (False, True):
        want = torch.cat(
            [
                oracle(crop_by_indices(x[i : i + 1].float() / 255, boxes[i : i + 1], (24, 27), "bicubic", align))
                for i in range(3)
            ]
        )
        assert torch.equal(u8aug.crop_and_resize(x, boxes, (24, 27), "bicubic", align), want), align


def _rotations(batch):
    angles = torch.tensor([10.0, -33.0, 90.0, 147.0])[:batch]
    centre = torch.tensor([[25.0, 20.0]]).expand(batch, 2)
    scale = torch.tensor([[1.2, 0.8]]).expand(batch, 2)
    return kornia.geometry.transform.get_rotation_matrix2d(centre, angles, scale)


@pytest.mark.parametrize("padding", ["zeros", "border", "reflection", "fill"])
@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("channels_last", [False, True])
def test_bicubic_warps_equal_kornia(padding, align, channels_last):
    from kornia.geometry.transform import warp_affine, warp_perspective

    x = image((3, 3, 40, 50), seed=5, channels_last=channels_last)
    fill = [0.2, 0.5, 0.9]
    kw = dict(fill_value=torch.tensor(fill)) if padding == "fill" else {}
    M = _rotations(3)
    want = oracle(warp_affine(x.float() / 255, M, (45, 47), "bicubic", padding, align, **kw))
    got = u8aug.warp_affine(x, M, (45, 47), "bicubic", padding, align, fill if padding == "fill" else None)
    assert torch.equal(got, want)
    H = torch.cat([M, torch.tensor([[[1e-3, -2e-3, 1.0]]]).expand(3, 1, 3)], 1)
    want = oracle(warp_perspective(x.float() / 255, H, (33, 52), "bicubic", padding, align, **kw))
    got = u8aug.warp_perspective(x, H, (33, 52), "bicubic", padding, align, fill if padding == "fill" else None)
    assert torch.equal(got, want)


@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
def test_grid_sample_bicubic_equals_torch(padding, align):
    x = image((3, 3, 23, 31), seed=7)
    g = torch.Generator().manual_seed(11)
    # past the borders: taps outside the image, reflected and clamped coordinates
    grid = torch.rand(3, 30, 29, 2, generator=g) * 2.8 - 1.4
    want = oracle(F.grid_sample(x.float() / 255, grid, "bicubic", padding, align))
    assert torch.equal(u8aug.grid_sample(x, grid, "bicubic", padding, align), want)
    # one grid for the batch, strided
    shared = grid[:1].transpose(1, 2)
    want = oracle(F.grid_sample(x.float() / 255, shared.expand(3, -1, -1, -1), "bicubic", padding, align))
    assert torch.equal(u8aug.grid_sample(x, shared, "bicubic", padding, align), want)


def test_reflection_row_order_is_the_measured_one():
    """u8aug follows the order it measured of the running torch (torch 2.11 and 2.15 differ): the
    other order gives different bytes on this image (rarely: 2 of its 786,432), so the measurement
    is what keeps it exact."""
    rules = u8aug.build_info()["torch_rules"]
    assert rules["bicubic_reflection_chains"] == _torch_rules._bicubic_reflection_chains()
    x = image((4, 3, 256, 256), seed=9)
    grid = torch.rand(4, 256, 256, 2, generator=torch.Generator().manual_seed(2)) * 2.2 - 1.1
    want = oracle(F.grid_sample(x.float() / 255, grid, "bicubic", "reflection", False))
    assert torch.equal(u8aug.grid_sample(x, grid, "bicubic", "reflection", False), want)
    try:
        u8aug._C._set_torch_rules(
            generic_bilinear_fuses_index=rules["generic_bilinear_fuses_index"],
            bicubic_reflection_chains=not rules["bicubic_reflection_chains"],
        )
        assert not torch.equal(u8aug.grid_sample(x, grid, "bicubic", "reflection", False), want)
    finally:
        u8aug._C._set_torch_rules(**rules)


def test_bicubic_compiles_and_equals_eager():
    x = image((2, 3, 20, 24), seed=4)
    grid = torch.rand(1, 9, 11, 2) * 2 - 1

    def run(t):
        return (
            u8aug.resize(t, (31, 17), "bicubic", False),
            u8aug.resize(t, (7, 40), "nearest-exact"),
            u8aug.warp_affine(t, _rotations(2), (20, 24), "bicubic", "reflection", True),
            u8aug.grid_sample(t, grid, "bicubic", "border", False),
        )

    torch._dynamo.reset()
    compiled = torch.compile(run, fullgraph=True)
    for a, b in zip(compiled(x), run(x)):
        assert torch.equal(a, b)


@pytest.mark.parametrize(
    "call,message",
    [
        (
            lambda x: u8aug.grid_sample(x, torch.zeros(1, 2, 2, 2), "nearest-exact"),
            "mode must be 'bilinear', 'bicubic'",
        ),
        (lambda x: u8aug.resize(x, (4, 4), "bicubic-exact"), "mode must be 'bilinear', 'bicubic', 'nearest'"),
        (lambda x: u8aug.crop_and_resize(x, torch.zeros(2, 4, 2), (3, 3), "nearest-exact", True), "align_corners"),
    ],
)
def test_bad_modes_raise(call, message):
    x = image((2, 3, 8, 8))
    with pytest.raises((RuntimeError, ValueError), match=message):
        call(x)
