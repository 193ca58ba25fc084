"""kornia's resize(antialias=True) on uint8 (u8aug.resize_antialias with kornia's kernels, what
u8aug.kornia's Resize(antialias=True) runs):
a float32 Gaussian pre-blur resampled unquantized, byte for byte against kornia on x / 255, every
mode, both layouts, both of torch's bilinear kernels (thread counts), per-sample kernels, CUDA."""

import pytest
import torch
from kornia.filters import gaussian_blur2d
from kornia.geometry.transform import resize as kornia_resize

import u8aug
from conftest import oracle, photos, random_image, requires_cuda, to_u8

MODES = [("bilinear", False), ("bilinear", True), ("bicubic", False), ("bicubic", True), ("nearest", None),
         ("nearest-exact", None)]  # fmt: skip


def antialiased(x, size, mode="bilinear", align=None):
    """kornia's resize(x / 255, size, mode, antialias=True), quantized: its Gaussian where it shrinks."""
    if x.shape[-2] > size[0] or x.shape[-1] > size[1]:
        return u8aug.resize_antialias(
            x, size, *u8aug.antialias_kernels(x.shape[-2:], size, x.device), mode, bool(align)
        )
    return u8aug.resize(x, size, mode, align)


def layouts(x):
    return {"contiguous": x.contiguous(), "channels_last": x.contiguous(memory_format=torch.channels_last)}


@pytest.mark.parametrize("threads", [1, 2])
def test_antialias_against_kornia(threads):
    """Shrinking both axes, one axis (the other's sigma is kornia's 0.001: its taps are 0, 1, 0),
    by large factors (long kernels), to one pixel, from one pixel; 1-4 channels."""
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        g = torch.Generator().manual_seed(11)
        sizes = [((40, 50), (20, 25)), ((64, 33), (7, 33)), ((30, 90), (31, 9)), ((100, 100), (1, 1)),
                 ((1, 80), (1, 13)), ((9, 2), (4, 1))]  # fmt: skip
        for _ in range(8):
            h, w = (int(v) for v in torch.randint(2, 140, (2,), generator=g))
            sizes.append(((h, w), tuple(int(torch.randint(1, s + 1, (1,), generator=g)) for s in (h, w))))
        for i, ((h, w), (oh, ow)) in enumerate(sizes):
            x = random_image((1 + i % 2, 1 + i % 4, h, w), seed=i)
            mode, align = MODES[i % len(MODES)]
            for xi in layouts(x).values():
                expected = oracle(kornia_resize, xi, (oh, ow), interpolation=mode, align_corners=align, antialias=True)
                got = antialiased(xi, (oh, ow), mode, align)
                assert got.shape == expected.shape
                assert torch.equal(got, expected), ((h, w), (oh, ow), mode, align, (got != expected).sum().item())
                assert got.stride() == u8aug.resize(xi, (oh, ow), mode, align).stride()  # the layout rule
    finally:
        torch.set_num_threads(before)


def test_antialias_photos_every_mode():
    for img in photos().values():
        for mode, align in MODES:
            got = antialiased(img, (150, 97), mode, align)
            expected = oracle(kornia_resize, img, (150, 97), interpolation=mode, align_corners=align, antialias=True)
            assert torch.equal(got, expected), mode


def test_dropin_resize_antialias_shrinking_or_not():
    """u8aug.kornia.Resize(antialias=True) against kornia's class on x / 255: a shrink runs
    resize_antialias, an enlargement (kornia's antialias does nothing there) the plain resize."""
    import kornia.augmentation as K

    import u8aug.kornia as UK

    x = random_image((2, 3, 20, 30), seed=3)
    for size in [(9, 13), (20, 14), (25, 40)]:
        for mode in ("bilinear", "bicubic", "nearest"):
            got = UK.Resize(size, resample=mode, antialias=True)(x)
            expected = to_u8(K.Resize(size, resample=mode, antialias=True)(x.float() / 255))
            assert torch.equal(got, expected), (size, mode)


def test_resize_antialias_per_sample_kernels():
    """(B, K) kernels: each sample its own Gaussian, as kornia's gaussian_blur2d with a (B, 2) sigma."""
    x = random_image((3, 3, 41, 37), seed=4)
    sigma = torch.tensor([[0.8, 1.7], [2.5, 0.3], [1.1, 1.1]])
    ks = (7, 9)
    kx, ky = u8aug.ops._filters.gaussian_kernels("test", ks, sigma, x.device)
    for mode, align in MODES:
        got = u8aug.resize_antialias(x, (13, 20), kx, ky, mode, bool(align))
        blurred = gaussian_blur2d(x.float() / 255, ks, sigma)
        expected = to_u8(torch.nn.functional.interpolate(blurred, (13, 20), mode=mode, align_corners=align))
        assert torch.equal(got, expected), mode


def test_resize_antialias_rejects_bad_kernels():
    x = random_image((2, 3, 6, 6), seed=5)
    k = torch.tensor([[0.25, 0.5, 0.25]])
    with pytest.raises(RuntimeError, match="u8aug.resize_antialias: .*kernel_x"):
        u8aug.resize_antialias(x, (3, 3), k.double(), k)
    with pytest.raises(RuntimeError, match="u8aug.resize_antialias: .*kernel_y"):
        u8aug.resize_antialias(x, (3, 3), k, torch.ones(3, 3) / 3)
    with pytest.raises(RuntimeError, match="13-tap kernel needs a width of more than 6"):
        u8aug.resize_antialias(x, (3, 3), torch.ones(1, 13) / 13, k)
    with pytest.raises(RuntimeError, match="u8aug.resize_antialias: .*finite"):
        u8aug.resize_antialias(x, (3, 3), k, torch.tensor([[0.5, float("nan"), 0.5]]))
    with pytest.raises(RuntimeError, match="u8aug.resize_antialias: mode"):
        u8aug.resize_antialias(x, (3, 3), k, k, "area")


def test_resize_antialias_compiles_fullgraph():
    x = random_image((2, 3, 48, 40), seed=6)
    fn = torch.compile(lambda t: antialiased(t, (20, 15), "bicubic"), fullgraph=True)
    assert torch.equal(fn(x), antialiased(x, (20, 15), "bicubic"))
    import u8aug.kornia as UK

    aug = UK.Resize((20, 15), antialias=True)
    compiled = torch.compile(aug, fullgraph=True, options=UK.COMPILE_OPTIONS)
    assert torch.equal(compiled(x), aug(x))


@requires_cuda
def test_antialias_cuda_equals_cpu():
    x = random_image((2, 3, 90, 70), seed=7)
    for xi in layouts(x).values():
        for mode, align in MODES:
            cpu = antialiased(xi, (31, 22), mode, align)
            assert torch.equal(antialiased(xi.cuda(), (31, 22), mode, align).cpu(), cpu), mode
