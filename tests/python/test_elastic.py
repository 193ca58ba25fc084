"""elastic_transform: kornia's elastic_transform2d on uint8, exact against kornia on the running torch
(the smoothing's F.conv2d order, the identity grid, grid_sample); shared fields, layouts, threads,
compile, CUDA."""

import itertools

import pytest
import torch
import torch.nn.functional as F
from kornia.filters import get_gaussian_kernel1d
from kornia.geometry.transform import elastic_transform2d

import u8aug
from conftest import oracle, photos, random_image, requires_cuda

# (kernel_size (kH, kW), sigma (y, x), alpha (x, y)): kornia's defaults, asymmetric ones, a kernel
# wider than the image and the one-tap identity
KERNELS = [((63, 63), (32.0, 32.0), (1.0, 1.0)), ((7, 11), (2.0, 5.0), (3.0, 0.5)), ((1, 1), (1.0, 1.0), (9.0, 9.0))]


def noise_of(shape, seed):
    g = torch.Generator().manual_seed(seed)
    b, _, h, w = shape if len(shape) == 4 else (1, *shape)
    return torch.rand(b, 2, h, w, generator=g) * 2 - 1


def layouts(x):
    return {"contiguous": x.contiguous(), "channels_last": x.contiguous(memory_format=torch.channels_last)}


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
def test_elastic_exact_against_kornia(mode, padding, align):
    for i, shape in enumerate([(3, 3, 37, 50), (2, 1, 9, 1), (1, 4, 1, 20), (2, 3, 64, 65)]):
        x = random_image(shape, seed=i)
        noise = noise_of(shape, seed=i)
        for ks, sigma, alpha in KERNELS:
            want = oracle(elastic_transform2d, x, noise, ks, sigma, alpha, align, mode, padding)
            for layout, xi in layouts(x).items():
                before = xi.clone()
                got = u8aug.elastic_transform2d(xi, noise, ks, sigma, alpha, align, mode, padding)
                assert torch.equal(got, want), f"{shape} {ks} {layout}: {(got != want).sum().item()} bytes differ"
                assert torch.equal(xi, before)


@pytest.mark.parametrize("threads", [1, 2])
def test_elastic_kornia_defaults_on_photos(threads):
    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        x = [F.interpolate(p[None, :3].float(), (224, 224)) for p in photos().values() if p.shape[0] >= 3]
        x = torch.cat(x).round().to(torch.uint8)
        noise = noise_of(x.shape, seed=threads)
        want = oracle(elastic_transform2d, x, noise)
        assert torch.equal(u8aug.elastic_transform2d(x, noise), want)
        # a 3-D image and its (1, 2, H, W) field
        assert torch.equal(u8aug.elastic_transform2d(x[0], noise[:1]), want[0])
    finally:
        torch.set_num_threads(previous)


def test_elastic_shared_field_and_tensor_parameters():
    x = random_image((4, 3, 30, 41), seed=7)
    field = noise_of((1, 2, 30, 41), seed=8)
    sigma, alpha = torch.tensor([3.0, 6.0]), torch.tensor([5.0, 2.0])
    want = oracle(elastic_transform2d, x, field.expand(4, -1, -1, -1), (9, 13), sigma, alpha)
    assert torch.equal(u8aug.elastic_transform2d(x, field, (9, 13), sigma, alpha), want)
    assert torch.equal(u8aug.elastic_transform2d(x, field.expand(4, -1, -1, -1), (9, 13), sigma, alpha), want)


def test_elastic_grid_needs_the_convolution_order():
    """The claim can fail: the same field smoothed in float64 (then rounded once) moves grid points by
    an ulp, and bytes change; u8aug's chain of fused multiply-adds per tap is F.conv2d's."""
    x = random_image((4, 3, 96, 96), seed=3)
    noise = noise_of(x.shape, seed=4)
    ks, sigma = 63, torch.tensor([[32.0, 32.0]])
    kernel = get_gaussian_kernel1d(ks, sigma[:, 1, None])
    smoothed = F.conv2d(
        F.conv2d(F.pad(noise.double().reshape(-1, 1, 96, 96), (31, 31, 31, 31)), kernel.double()[None, None]),
        kernel.double()[None, :, :, None],
    )
    grid = F.affine_grid(torch.eye(2, 3)[None], [1, 1, 96, 96], align_corners=False)
    grid = grid + smoothed.float().reshape(4, 2, 96, 96).permute(0, 2, 3, 1)
    in_double = u8aug.grid_sample(x, grid.contiguous(), "bilinear", "zeros", False)
    want = oracle(elastic_transform2d, x, noise)
    assert torch.equal(u8aug.elastic_transform2d(x, noise), want)
    assert not torch.equal(in_double, want)


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda x, n: u8aug.elastic_transform2d(x, n[:, :1]), r"expected noise to be a float32 tensor of shape"),
        (lambda x, n: u8aug.elastic_transform2d(x, n.double()), r"expected noise to be a float32 tensor"),
        (lambda x, n: u8aug.elastic_transform2d(x, n[..., :3]), r"\(B, H, W\) = \(2, 5, 5\)"),
        (lambda x, n: u8aug.elastic_transform2d(x, n, mode="nearest-exact"), "mode must be"),
        (lambda x, n: u8aug.elastic_transform2d(x, n, padding_mode="fill"), "padding_mode must be"),
        (
            lambda x, n: u8aug.elastic_transform(x, n, torch.ones(3), torch.ones(1, 3), torch.ones(2)),
            r"expected kernel_x to be a float32 tensor of shape \(1, K\)",
        ),
        (
            lambda x, n: u8aug.elastic_transform(x, n, torch.ones(1, 3), torch.ones(1, 3), torch.ones(3)),
            r"expected alpha to be a float32 tensor of shape \(2,\)",
        ),
        (lambda x, n: u8aug.elastic_transform2d(x.float(), n), "expected img of dtype torch.uint8"),
    ],
)
def test_bad_input(call, message):
    x = random_image((2, 3, 5, 5))
    noise = noise_of(x.shape, seed=1)
    before = x.clone(), noise.clone()
    with pytest.raises((RuntimeError, ValueError), match=message):
        call(x, noise)
    assert torch.equal(x, before[0]) and torch.equal(noise, before[1])


@pytest.mark.compile
def test_compile_fullgraph_equals_eager():
    def pipeline(x, noise, sigma):
        return u8aug.elastic_transform2d(x, noise, (15, 9), sigma, (2.0, 3.0), True, "bilinear", "reflection")

    compiled = torch.compile(pipeline, fullgraph=True)
    for b in (3, 2):
        x = random_image((b, 3, 40, 48), seed=b)
        noise = noise_of(x.shape, seed=b)
        sigma = torch.tensor([4.0, 2.5])
        for xi in layouts(x).values():
            assert torch.equal(compiled(xi, noise, sigma), pipeline(xi, noise, sigma))


@requires_cuda
@pytest.mark.cuda
def test_cuda_equals_cpu():
    for i, shape in enumerate([(4, 3, 57, 83), (2, 1, 9, 1), (3, 4, 31, 33)]):
        x = random_image(shape, seed=i)
        noise = noise_of(shape, seed=i)
        for xi in layouts(x).values():
            for (ks, sigma, alpha), mode, padding, align in itertools.product(
                KERNELS, ["bilinear", "nearest", "bicubic"], ["zeros", "border", "reflection"], [False, True]
            ):
                cpu = u8aug.elastic_transform2d(xi, noise, ks, sigma, alpha, align, mode, padding)
                gpu = u8aug.elastic_transform2d(xi.cuda(), noise.cuda(), ks, sigma, alpha, align, mode, padding)
                assert torch.equal(gpu.cpu(), cpu)
