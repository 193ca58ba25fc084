"""The clahe op against kornia's equalize_clahe on x / 255 (FIDELITY.md's oracle), byte for byte: the
photos and random images, tile sides even and odd (kornia's two blends), images the grid does not
divide (reflected tiles), clip limits per sample (off, tiny, kornia's default, huge), both layouts, a
(C, H, W) image, CUDA against the CPU; RandomClahe under one seed against kornia's float class, eager
and compiled; the errors."""

import kornia.augmentation as K
import pytest
import torch
from kornia.enhance.equalization import _equalize_clahe

import u8aug
import u8aug.kornia as UK
from conftest import photos, random_image, requires_cuda, to_u8


def _oracle(x, clip, grid):
    batched = x if x.dim() == 4 else x[None]
    out = to_u8(_equalize_clahe(batched.float() / 255, clip.float().reshape(-1).expand(batched.shape[0]), grid, False))
    return out if x.dim() == 4 else out[0]


def _layouts(x):
    return (x, x.contiguous(memory_format=torch.channels_last)) if x.dim() == 4 else (x,)


GRIDS = [(8, 8), (2, 3), (1, 1), (4, 1), (3, 5), (16, 16)]


@pytest.mark.parametrize("grid", GRIDS)
def test_photos_are_kornias_bytes(grid):
    clip = torch.tensor([40.0, 0.0, 2.5, 1000.0])
    for name, img in photos().items():
        x = torch.stack([img[:, :300, :400]] * 4)  # planes of 300 x 400: odd tiles for some grids
        expected = _oracle(x, clip, grid)
        for layout in _layouts(x):
            got = u8aug.clahe(layout, clip, grid)
            same = (got == expected).float().mean().item()
            print(f"clahe {name} grid {grid}: {100 * same:.4f}% identical")
            assert torch.equal(got, expected), name


@pytest.mark.parametrize(
    "shape", [(3, 3, 224, 224), (2, 1, 37, 53), (2, 3, 64, 48), (3, 2, 100, 30), (2, 3, 17, 19), (3, 9, 9)]
)
@pytest.mark.parametrize("grid", [(8, 8), (2, 3), (3, 3), (1, 5)])
def test_random_and_smooth_images_are_kornias_bytes(shape, grid):
    noise = random_image(shape, seed=shape[-1])
    ramp = torch.linspace(0, 1, shape[-2])[:, None] * torch.linspace(0, 1, shape[-1])[None] * 180
    smooth = (ramp + noise.float() / 8).clamp(0, 255).to(torch.uint8)  # crowded histograms: clipping bites
    b = shape[0] if len(shape) == 4 else 1
    for x in (noise, smooth):
        for clip in (torch.tensor([40.0]), torch.linspace(0.01, 8.0, b)):
            expected = _oracle(x, clip, grid)
            for layout in _layouts(x):
                assert torch.equal(u8aug.clahe(layout, clip, grid), expected)


def test_clip_limits_kornia_leaves_unclipped():
    x = random_image((3, 3, 40, 40), seed=5) // 2
    # kornia clips where clip > 0: zero, negative and NaN limits leave the histogram as it is
    clip = torch.tensor([0.0, -3.0, float("nan")])
    expected = _oracle(x, clip, (4, 4))
    assert torch.equal(u8aug.clahe(x, clip, (4, 4)), expected)
    assert torch.equal(u8aug.clahe(x, 0.0, (4, 4)), expected)


def test_a_plain_number_and_the_default_grid():
    x = random_image((2, 3, 64, 64), seed=6)
    assert torch.equal(u8aug.clahe(x), _oracle(x, torch.tensor([40.0]), (8, 8)))
    assert torch.equal(u8aug.clahe(x, 3.0, (2, 2)), _oracle(x, torch.tensor([3.0]), (2, 2)))


def test_errors():
    x = random_image((2, 3, 8, 10))
    with pytest.raises(RuntimeError, match=r"clahe: cannot tile a 8x10 image by a \(8, 2\) grid: the smallest image"):
        u8aug.clahe(x, 40.0, (8, 2))
    with pytest.raises(RuntimeError, match=r"clahe: grid_size must be positive, got \(0, 2\)"):
        u8aug.clahe(x, 40.0, (0, 2))
    with pytest.raises(RuntimeError, match=r"clahe: expected grid_size = \(rows, columns\) of tiles, got 3 values"):
        u8aug.clahe(x, 40.0, (2, 2, 2))
    with pytest.raises(RuntimeError, match=r"clahe: clip_limit must hold 1 or B = 2 values"):
        u8aug.clahe(x, torch.ones(3), (2, 2))
    with pytest.raises(RuntimeError, match="uint8"):
        u8aug.clahe(x.float(), 40.0, (2, 2))


@pytest.mark.parametrize("grid", [(4, 4), (3, 5)])
def test_random_clahe_equals_kornias_float_class(grid):
    x = random_image((4, 3, 60, 70), seed=7)
    ours = UK.RandomClahe(clip_limit=(1.0, 40.0), grid_size=grid, p=0.75)
    theirs = K.RandomClahe(clip_limit=(1.0, 40.0), grid_size=grid, p=0.75)
    torch.manual_seed(3)
    got = ours(x)
    torch.manual_seed(3)
    expected = to_u8(theirs(x.float() / 255))
    assert got.dtype == torch.uint8
    assert torch.equal(got, expected)
    compiled = torch.compile(ours, fullgraph=True, options=UK.COMPILE_OPTIONS)
    torch.manual_seed(3)
    assert torch.equal(compiled(x), got)


def test_the_differentiable_flag_keeps_kornias_float_path():
    x = random_image((2, 3, 32, 32), seed=8)
    ours = UK.RandomClahe(grid_size=(2, 2), slow_and_differentiable=True, p=1.0)
    theirs = K.RandomClahe(grid_size=(2, 2), slow_and_differentiable=True, p=1.0)
    torch.manual_seed(4)
    got = ours(x)
    torch.manual_seed(4)
    assert torch.equal(got, to_u8(theirs(x.float() / 255)))


@requires_cuda
@pytest.mark.parametrize("grid", [(8, 8), (3, 5)])
def test_cuda_gives_the_cpus_bytes(grid):
    x = random_image((3, 3, 120, 97), seed=9)
    clip = torch.tensor([40.0, 0.0, 2.0])
    for layout in _layouts(x):
        assert torch.equal(u8aug.clahe(layout.cuda(), clip.cuda(), grid).cpu(), u8aug.clahe(layout, clip, grid))
