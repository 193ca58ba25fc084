"""The jpeg op against kornia's jpeg_codec_differentiable on x / 255 (FIDELITY.md's oracle), in the
near class: kornia's float result moves with the reference path (its DCTs are matrix products that
torch hands to MKL or its own kernels by CPU capability; on a Zen 4, ATEN_CPU_CAPABILITY=default moves
122 of 16.4 million photo bytes across a .5 tie, and on an Intel Xeon MKL's instruction sets move
others), so no one arithmetic gives its bytes on every machine. u8aug's bytes are one answer on every
CPU target and thread count. Covered: the photos and random and smooth images, qualities across kornia's range (0, fractional, the
scale's two branches, 100), per-sample qualities, sizes that need padding to 16, both layouts, a
(C, H, W) image, your own quantization tables, one and two threads, CUDA against the CPU; the
quantization steps and the DCT bases against kornia's; RandomJPEG under one seed against kornia's
float class, eager and compiled; the errors."""

import re
from pathlib import Path

import kornia.augmentation as K
import kornia.enhance.jpeg as KJ
import pytest
import torch

import u8aug
import u8aug.kornia as UK
from conftest import assert_near, photos, random_image, requires_cuda, to_u8

QUALITIES = [0.0, 0.5, 1.0, 10.0, 33.3, 49.9, 50.0, 75.0, 90.0, 99.5, 100.0]


def _oracle(x, quality, table_y=None, table_c=None):
    batched = x if x.dim() == 4 else x[None]
    q = quality.reshape(-1).float()
    out = to_u8(KJ.jpeg_codec_differentiable(batched.float() / 255, q, table_y, table_c))
    return out if x.dim() == 4 else out[0]


def _layouts(x):
    return (x, x.contiguous(memory_format=torch.channels_last)) if x.dim() == 4 else (x,)


def _smooth(shape, seed):
    noise = random_image(shape, seed=seed)
    ramp = torch.linspace(0, 1, shape[-2])[:, None] * torch.linspace(0, 1, shape[-1])[None] * 200
    return (ramp + noise.float() / 16).clamp(0, 255).to(torch.uint8)


def test_quantization_steps_are_kornias():
    q = torch.tensor(QUALITIES + [0.01, 25.0, 60.0, 99.9])
    scale = KJ._jpeg_quality_to_scale(q)
    steps = u8aug.jpeg_tables(q)
    assert steps.shape == (len(q), 2, 8, 8) and steps.dtype == torch.float32
    for i, base in enumerate((KJ._get_default_qt_y(None, torch.float32), KJ._get_default_qt_c(None, torch.float32))):
        scaled = base[None][:, None] * scale[:, None, None, None]
        expected = KJ._differentiable_polynomial_floor(KJ._differentiable_clipping((scaled + 50.0) / 100.0, 1, 255))
        assert torch.equal(steps[:, i], expected[:, 0])


def _header_table(name):
    text = (Path(__file__).parents[2] / "kernels/include/u8aug/pixel/jpeg.h").read_text()
    body = re.search(name + r"\[64\] = \{(.*?)\};", text, re.S).group(1)
    return torch.tensor([float.fromhex(v.strip().rstrip("f")) for v in body.split(",") if v.strip()])


def test_the_headers_bases_are_kornias_float32_cosines():
    # kornia builds both bases with torch.cos in float32; the header holds their values bit for bit
    dct, _ = KJ._build_dct8_basis_scale(torch.float32, None)
    basis_1d = dct[:, 0, :, 0]  # [x][u] = basis[x][u] * basis[0][0], and basis[0][0] is 1
    assert torch.equal(_header_table("kJpegDctBasis").reshape(8, 8), basis_1d)
    i = torch.arange(8, dtype=torch.float32)
    idct = torch.cos((2.0 * i.unsqueeze(0) + 1.0) * i.unsqueeze(1) * torch.pi / 16.0)
    assert torch.equal(_header_table("kJpegIdctBasis").reshape(8, 8), idct)


@pytest.mark.parametrize("quality", [1.0, 10.0, 50.0, 75.0, 95.0, 100.0])
def test_photos_are_near_kornias_bytes(quality):
    for name, img in photos().items():
        if img.shape[0] != 3:
            continue
        x = img[None]
        expected = _oracle(x, torch.tensor([quality]))
        for layout in _layouts(x):
            assert_near(u8aug.jpeg(layout, quality), expected, f"jpeg {name} quality {quality}")


@pytest.mark.parametrize("shape", [(4, 3, 64, 96), (2, 3, 37, 53), (3, 3, 16, 16), (2, 3, 5, 70), (3, 40, 24)])
def test_random_and_smooth_images_at_every_quality_are_near_kornias_bytes(shape):
    b = shape[0] if len(shape) == 4 else 1
    for x in (random_image(shape, seed=shape[-1]), _smooth(shape, shape[-2])):
        for q in QUALITIES:
            quality = torch.full((b,), q)
            expected = _oracle(x, quality)
            for layout in _layouts(x):
                assert_near(u8aug.jpeg(layout, quality), expected, f"jpeg {tuple(x.shape)} quality {q}")


def test_per_sample_qualities_and_a_large_image():
    x = torch.cat([random_image((2, 3, 120, 200), seed=1), _smooth((2, 3, 120, 200), 2)])
    quality = torch.tensor([3.0, 47.5, 62.0, 97.0])
    assert_near(u8aug.jpeg(x, quality), _oracle(x, quality), "jpeg per-sample qualities")
    big = _smooth((1, 3, 480, 640), 3)  # the chroma's halving and doubling in torch's generic order
    assert_near(u8aug.jpeg(big, 80.0), _oracle(big, torch.tensor([80.0])), "jpeg 480x640")


def test_your_own_tables():
    x = random_image((2, 3, 32, 48), seed=4)
    gen = torch.Generator().manual_seed(0)
    ty = torch.randint(1, 256, (2, 8, 8), generator=gen).float()
    tc = torch.randint(1, 256, (8, 8), generator=gen).float()
    quality = torch.tensor([99.5, 30.0])  # 99.5: the tables' own steps (kornia's note)
    assert_near(u8aug.jpeg(x, u8aug.jpeg_tables(quality, ty, tc)), _oracle(x, quality, ty, tc), "jpeg own tables")


def test_thread_counts_give_the_same_bytes():
    x = random_image((4, 3, 48, 64), seed=5)
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one = u8aug.jpeg(x, 40.0)
        torch.set_num_threads(2)
        two = u8aug.jpeg(x, 40.0)
    finally:
        torch.set_num_threads(before)
    assert torch.equal(one, two)


def test_errors():
    x = random_image((2, 3, 16, 16))
    with pytest.raises(RuntimeError, match=r"jpeg: expected 3 \(RGB\) channels"):
        u8aug.jpeg(random_image((2, 1, 16, 16)), 50.0)
    with pytest.raises(ValueError, match=r"jpeg: quality must be in \[0, 100\], got 101"):
        u8aug.jpeg(x, 101)
    with pytest.raises(RuntimeError, match=r"jpeg: expected quality as quantization steps, a float32 tensor of shape"):
        torch.ops.u8aug.jpeg(x, torch.ones(2, 8, 8))
    with pytest.raises(RuntimeError, match="quality: every quantization step must be positive and finite, got 0"):
        torch.ops.u8aug.jpeg(x, torch.zeros(1, 2, 8, 8))
    with pytest.raises(RuntimeError, match="uint8"):
        u8aug.jpeg(x.float(), 50.0)


@pytest.mark.parametrize("same_on_batch", [False, True])
def test_random_jpeg_equals_kornias_float_class(same_on_batch):
    x = torch.cat([random_image((3, 3, 40, 56), seed=7), _smooth((3, 3, 40, 56), 8)])
    ours = UK.RandomJPEG(jpeg_quality=(5.0, 95.0), same_on_batch=same_on_batch, p=0.7)
    theirs = K.RandomJPEG(jpeg_quality=(5.0, 95.0), same_on_batch=same_on_batch, p=0.7)
    torch.manual_seed(3)
    got = ours(x)
    torch.manual_seed(3)
    expected = to_u8(theirs(x.float() / 255))
    assert got.dtype == torch.uint8
    assert_near(got, expected, "RandomJPEG")
    compiled = torch.compile(ours, fullgraph=True, options=UK.COMPILE_OPTIONS)
    torch.manual_seed(3)
    assert torch.equal(compiled(x), got)


@requires_cuda
def test_cuda_gives_the_cpus_bytes():
    x = torch.cat([random_image((2, 3, 37, 53), seed=9), _smooth((2, 3, 37, 53), 10)])
    quality = torch.tensor([1.0, 50.0, 75.0, 100.0])
    for layout in _layouts(x):
        assert torch.equal(u8aug.jpeg(layout.cuda(), quality.cuda()).cpu(), u8aug.jpeg(layout, quality))
