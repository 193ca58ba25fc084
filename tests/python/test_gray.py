"""rgb_to_grayscale (exact over all 2^24 colours) and grayscale (RandomGrayscale's semantics)."""

import kornia
import pytest
import torch

import u8aug
from conftest import oracle, photos, random_image, requires_cuda


def all_colours():
    v = torch.arange(256, dtype=torch.int32)
    r, g, b = torch.meshgrid(v, v, v, indexing="ij")
    return torch.stack([r, g, b]).to(torch.uint8).view(1, 3, 4096, 4096)


def test_exact_on_all_colours_both_layouts():
    x = all_colours()
    expected = oracle(kornia.color.rgb_to_grayscale, x)
    assert torch.equal(u8aug.rgb_to_grayscale(x), expected)
    cl = x.contiguous(memory_format=torch.channels_last)
    assert torch.equal(u8aug.rgb_to_grayscale(cl), expected)
    assert torch.equal(u8aug.grayscale(x), expected.expand(1, 3, 4096, 4096))
    assert torch.equal(u8aug.grayscale(cl), expected.expand(1, 3, 4096, 4096))  # interleaved rows in lanes


@pytest.mark.parametrize("c", [1, 2, 3, 4, 5])
def test_grayscale_equals_random_grayscale(c):
    aug = kornia.augmentation.RandomGrayscale(p=1.0)
    for shape in [(3, c, 64, 65), (1, c, 1, 1), (8, c, 3, 5)]:
        x = random_image(shape, seed=c)
        expected = oracle(aug, x)
        for xi in (x, x.contiguous(memory_format=torch.channels_last)):
            before = xi.clone()
            out = u8aug.grayscale(xi)
            assert torch.equal(out, expected) and out.shape == xi.shape
            assert torch.equal(xi, before)


def test_photos_and_3d_input():
    for photo in photos().values():
        if photo.shape[0] != 3:
            continue
        expected = oracle(kornia.color.rgb_to_grayscale, photo)
        assert torch.equal(u8aug.rgb_to_grayscale(photo), expected) and expected.shape[0] == 1


@pytest.mark.compile
def test_compile_fullgraph_equals_eager():
    def pipeline(x):
        return u8aug.rgb_to_grayscale(x), u8aug.grayscale(x)

    compiled = torch.compile(pipeline, fullgraph=True)
    for x in (random_image((4, 3, 16, 20)), random_image((4, 3, 16, 20)).contiguous(memory_format=torch.channels_last)):
        for a, b in zip(compiled(x), pipeline(x)):
            assert torch.equal(a, b) and a.stride() == b.stride()


def test_rgb_to_grayscale_needs_three_channels():
    with pytest.raises(
        RuntimeError, match=r"u8aug.rgb_to_grayscale: expected 3 \(RGB\) channels as kornia does, got 4"
    ):
        u8aug.rgb_to_grayscale(random_image((1, 4, 5, 5)))
    compiled = torch.compile(u8aug.rgb_to_grayscale, fullgraph=True)
    with pytest.raises(Exception, match=r"expected 3 \(RGB\) channels"):
        compiled(random_image((1, 4, 5, 5)))


@requires_cuda
@pytest.mark.cuda
def test_cuda_equals_cpu():
    x = all_colours()
    for xi in (x, x.contiguous(memory_format=torch.channels_last)):
        assert torch.equal(u8aug.rgb_to_grayscale(xi.cuda()).cpu(), u8aug.rgb_to_grayscale(xi))
    for c in (1, 3, 4):
        y = random_image((4, c, 37, 41))
        assert torch.equal(u8aug.grayscale(y.cuda()).cpu(), u8aug.grayscale(y))
