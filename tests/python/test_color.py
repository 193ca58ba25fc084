"""adjust_saturation, adjust_hue (exact over all 2^24 colours) and color_jiggle (kornia's ColorJiggle
with its own generated parameters, exact)."""

import kornia
import kornia.augmentation as K
import pytest
import torch

import u8aug
from conftest import assert_near, oracle, photos, random_image, requires_cuda


def all_colours():
    v = torch.arange(256, dtype=torch.int32)
    r, g, b = torch.meshgrid(v, v, v, indexing="ij")
    return torch.stack([r, g, b]).to(torch.uint8).view(1, 3, 4096, 4096)


@pytest.mark.parametrize("factor", [0.0, 0.6, 1.0, 2.3])
def test_saturation_exact_on_all_colours(factor):
    x = all_colours()
    f = torch.tensor([factor])
    assert torch.equal(u8aug.adjust_saturation(x, f), oracle(kornia.enhance.adjust_saturation, x, f))


@pytest.mark.parametrize("radians", [0.0, 0.7, -2.0, 3.1415])
def test_hue_exact_on_all_colours(radians):
    x = all_colours()
    f = torch.tensor([radians])
    assert torch.equal(u8aug.adjust_hue(x, f), oracle(kornia.enhance.adjust_hue, x, f))


def jiggle_params(aug, shape):
    p = aug.forward_parameters(shape)
    return (p["brightness_factor"], p["contrast_factor"], p["saturation_factor"], p["hue_factor"], p["order"])


@pytest.mark.parametrize(
    "args",
    [(0.2, 0.3, 0.4, 0.1), (0.0, 0.0, 0.5, 0.0), (0.5, 0.0, 0.0, 0.5), (0.4, 0.4, 0.4, 0.5), (0.0, 0.0, 0.0, 0.0)],
)
def test_jiggle_equals_kornia_with_its_parameters(args):
    torch.manual_seed(sum(args) * 100)
    aug = K.ColorJiggle(*args, p=1.0)
    for shape in [(8, 3, 33, 47), (1, 3, 1, 1), (3, 3, 64, 64)]:
        x = random_image(shape, seed=shape[0])
        params = jiggle_params(aug, shape)
        full = aug.forward_parameters(shape)
        full.update(
            dict(zip(("brightness_factor", "contrast_factor", "saturation_factor", "hue_factor", "order"), params))
        )
        expected = oracle(lambda xf: aug(xf, params=full), x)
        for xi in (x, x.contiguous(memory_format=torch.channels_last)):
            before = xi.clone()
            assert torch.equal(u8aug.color_jiggle(xi, *params), expected)
            assert torch.equal(xi, before)


def test_jiggle_fixed_order_subset_and_all_colours():
    torch.manual_seed(7)
    x = all_colours()
    aug = K.ColorJiggle(0.3, 0.3, 0.3, 0.3, p=1.0, order=(2, 0))
    full = aug.forward_parameters(x.shape)
    expected = oracle(lambda xf: aug(xf, params=full), x)
    got = u8aug.color_jiggle(
        x, full["brightness_factor"], full["contrast_factor"], full["saturation_factor"], full["hue_factor"], (2, 0)
    )
    assert torch.equal(got, expected)


def test_photos():
    torch.manual_seed(3)
    aug = K.ColorJiggle(0.3, 0.3, 0.3, 0.2, p=1.0)
    for photo in photos().values():
        if photo.shape[0] != 3:
            continue
        x = photo.unsqueeze(0)
        full = aug.forward_parameters(x.shape)
        expected = oracle(lambda xf: aug(xf, params=full), x)
        got = u8aug.color_jiggle(
            x,
            full["brightness_factor"],
            full["contrast_factor"],
            full["saturation_factor"],
            full["hue_factor"],
            full["order"],
        )
        assert torch.equal(got, expected)


def _jiggle_args(b):
    return (
        torch.full((b,), 1.1),
        torch.full((b,), 0.9),
        torch.full((b,), 1.2),
        torch.full((b,), 0.05),
        torch.tensor([3, 0, 2, 1]),
    )


@pytest.mark.compile
def test_compile_fullgraph_equals_eager():
    def pipeline(x, f, h, *jiggle):
        return u8aug.color_jiggle(u8aug.adjust_hue(u8aug.adjust_saturation(x, f), h), *jiggle)

    compiled = torch.compile(pipeline, fullgraph=True)
    for x in (random_image((4, 3, 16, 20)), random_image((4, 3, 16, 20)).contiguous(memory_format=torch.channels_last)):
        args = (torch.rand(4) * 2, torch.rand(4) - 0.5, *_jiggle_args(4))
        assert torch.equal(compiled(x, *args), pipeline(x, *args))


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda x: u8aug.adjust_saturation(random_image((1, 4, 5, 5)), 1.0), r"expected 3 \(RGB\) channels"),
        (lambda x: u8aug.adjust_saturation(x, -0.5), "factor must be >= 0"),
        (lambda x: u8aug.adjust_hue(x, 3.5), r"factor must be in \[-3.14159, 3.14159\]"),
        (lambda x: u8aug.adjust_hue(x, float("nan")), "factor must be finite"),
        (lambda x: u8aug.color_jiggle(x, order=(0, 0)), "order must list distinct steps"),
        (lambda x: u8aug.color_jiggle(x, order=(4,)), "order must list distinct steps"),
        (lambda x: u8aug.color_jiggle(x, hue=0.7), r"hue must be in \[-0.5, 0.5\]"),
        (lambda x: u8aug.color_jiggle(x, order=torch.tensor([0, 1], dtype=torch.int32)), "1-D int64 tensor"),
        (lambda x: u8aug.color_jiggle(x, brightness=torch.ones(3)), "brightness must hold 1 or B = 2 values"),
    ],
)
def test_bad_input(call, message):
    x = random_image((2, 3, 5, 5))
    with pytest.raises(RuntimeError, match=message):
        call(x)


@requires_cuda
@pytest.mark.cuda
def test_cuda_equals_cpu():
    x = all_colours()
    for xi in (x, x.contiguous(memory_format=torch.channels_last)):
        assert torch.equal(u8aug.adjust_saturation(xi.cuda(), 1.7).cpu(), u8aug.adjust_saturation(xi, 1.7))
        assert torch.equal(u8aug.adjust_hue(xi.cuda(), -1.3).cpu(), u8aug.adjust_hue(xi, -1.3))
    torch.manual_seed(0)
    aug = K.ColorJiggle(0.3, 0.3, 0.3, 0.3, p=1.0)
    y = random_image((16, 3, 64, 64))
    params = jiggle_params(aug, y.shape)
    assert torch.equal(u8aug.color_jiggle(y.cuda(), *[p.cuda() for p in params]).cpu(), u8aug.color_jiggle(y, *params))


@pytest.mark.parametrize(
    "args", [(0.2, 0.3, 0.4, 0.1), (0.0, 0.5, 0.0, 0.0), (0.4, 0.4, 0.4, 0.5), (0.0, 0.0, 0.6, 0.0)]
)
def test_jitter_near_kornia_with_its_parameters(args):
    torch.manual_seed(int(sum(args) * 100))
    aug = K.ColorJitter(*args, p=1.0)
    images = [random_image((8, 3, 33, 47), seed=1), random_image((1, 3, 1, 1), seed=2)]
    images += [p.unsqueeze(0) for p in photos().values() if p.shape[0] == 3]
    for x in images:
        full = aug.forward_parameters(x.shape)
        expected = oracle(lambda xf: aug(xf, params=full), x)
        for xi in (x, x.contiguous(memory_format=torch.channels_last)):
            before = xi.clone()
            got = u8aug.color_jitter(
                xi,
                full["brightness_factor"],
                full["contrast_factor"],
                full["saturation_factor"],
                full["hue_factor"],
                full["order"],
            )
            assert_near(got, expected, f"ColorJitter{args} {tuple(x.shape)}")
            assert torch.equal(xi, before)


def test_jitter_all_colours():
    torch.manual_seed(11)
    x = all_colours()
    aug = K.ColorJitter(0.3, 0.3, 0.3, 0.3, p=1.0)
    full = aug.forward_parameters(x.shape)
    expected = oracle(lambda xf: aug(xf, params=full), x)
    got = u8aug.color_jitter(
        x,
        full["brightness_factor"],
        full["contrast_factor"],
        full["saturation_factor"],
        full["hue_factor"],
        full["order"],
    )
    assert_near(got, expected, "ColorJitter on all 2^24 colours")


def test_jitter_opcheck_and_compile():
    for x in (random_image((2, 3, 5, 7)), random_image((2, 3, 5, 7)).contiguous(memory_format=torch.channels_last)):
        torch.library.opcheck(torch.ops.u8aug.color_jitter, (x, *_jiggle_args(2)))
    compiled = torch.compile(u8aug.color_jitter, fullgraph=True)
    x = random_image((4, 3, 16, 20))
    assert torch.equal(compiled(x, *_jiggle_args(4)), u8aug.color_jitter(x, *_jiggle_args(4)))


@requires_cuda
@pytest.mark.cuda
def test_jitter_cuda_equals_cpu():
    torch.manual_seed(0)
    aug = K.ColorJitter(0.3, 0.3, 0.3, 0.3, p=1.0)
    for y in (random_image((16, 3, 64, 64)), all_colours()):
        params = jiggle_params(aug, y.shape)
        assert torch.equal(
            u8aug.color_jitter(y.cuda(), *[p.cuda() for p in params]).cpu(), u8aug.color_jitter(y, *params)
        )


@pytest.mark.parametrize("factor", [0.0, 0.5, 1.0, 1.8])
def test_contrast_and_saturation_with_grey_on_all_colours(factor):
    x = all_colours()
    f = torch.tensor([factor])
    assert_near(
        u8aug.adjust_contrast_with_mean_subtraction(x, f),
        oracle(kornia.enhance.adjust_contrast_with_mean_subtraction, x, f),
        f"contrast with mean {factor}",
    )
    assert torch.equal(
        u8aug.adjust_saturation_with_gray_subtraction(x, f),
        oracle(kornia.enhance.adjust_saturation_with_gray_subtraction, x, f),
    )
    photo = photos()["astronaut"].unsqueeze(0)
    assert_near(
        u8aug.adjust_contrast_with_mean_subtraction(photo, f),
        oracle(kornia.enhance.adjust_contrast_with_mean_subtraction, photo, f),
        f"contrast with mean {factor} photo",
    )


@pytest.mark.parametrize("channels", [1, 2, 4])
def test_contrast_with_mean_of_all_channels(channels):
    """C != 3: kornia blends with the mean over channels and pixels (u8aug.image_mean)."""
    g = torch.Generator().manual_seed(channels)
    values = torch.arange(256, dtype=torch.uint8).repeat(channels).view(1, channels, 16, 16)
    grey = photos()["camera"]
    for x in (values, random_image((5, channels, 33, 20), seed=channels), grey.expand(channels, -1, -1).contiguous()):
        factors = [torch.tensor([f]) for f in (0.0, 0.5, 1.0, 1.8)] + [
            torch.rand(x.shape[0] if x.dim() == 4 else 1, generator=g) * 2
        ]
        for f in factors:
            expected = oracle(kornia.enhance.adjust_contrast_with_mean_subtraction, x, f)
            for xi in (x, x.contiguous(memory_format=torch.channels_last)) if x.dim() == 4 else (x,):
                before = xi.clone()
                assert_near(
                    u8aug.adjust_contrast_with_mean_subtraction(xi, f), expected, f"contrast with mean, C={channels}"
                )
                assert torch.equal(xi, before)


def test_image_mean_is_torch_mean_within_a_few_ulps():
    """The exact mean rounded once; torch's float32 cascade sum lands within a few ulps of it."""
    for shape in [(3, 1, 17, 23), (4, 64, 64), (2, 5, 224, 224), (1, 1, 1, 1)]:
        x = random_image(shape, seed=len(shape))
        got, expected = u8aug.image_mean(x), (x.float() / 255).mean((-3, -2, -1))
        assert got.shape == expected.shape and got.dtype == torch.float32
        ulp = torch.finfo(torch.float32).eps * torch.exp2(torch.floor(torch.log2(expected.abs().clamp(min=2**-126))))
        assert bool(((got - expected).abs() <= 4 * ulp).all()), (got, expected)
        assert (
            torch.equal(u8aug.image_mean(x.contiguous(memory_format=torch.channels_last)), got)
            if x.dim() == 4
            else True
        )


def test_contrast_with_given_mean_exact_on_every_value():
    """The blend alone is exact: kornia's line, x * f + mean * (1 - f), clipped, on x / 255."""
    x = torch.arange(256, dtype=torch.uint8).view(1, 1, 16, 16).expand(6, 2, 16, 16).contiguous()
    f = torch.tensor([0.0, 0.3, 1.0, 1.0, 1.7, 4.0])
    mean = torch.tensor([0.5, 0.1, 0.0, 0.93, 1.0, 0.4])
    expected = oracle(
        lambda xf: (xf * f.view(-1, 1, 1, 1) + mean.view(-1, 1, 1, 1) * (1 - f.view(-1, 1, 1, 1))).clamp(0, 1), x
    )
    assert torch.equal(u8aug.adjust_contrast_with_mean(x, f, mean), expected)


def test_contrast_with_mean_opcheck_compile_and_errors():
    x = random_image((3, 1, 5, 7))
    for xi in (x, x.contiguous(memory_format=torch.channels_last), random_image((2, 6, 5))):
        torch.library.opcheck(torch.ops.u8aug.image_mean, (xi,))
        torch.library.opcheck(torch.ops.u8aug.adjust_contrast_with_mean, (xi, torch.tensor([0.7]), torch.tensor([0.4])))
    fn = lambda x, f: u8aug.adjust_contrast_with_mean_subtraction(x, f)  # noqa: E731
    f = torch.tensor([0.2, 1.5, 0.9])
    assert torch.equal(torch.compile(fn, fullgraph=True)(x, f), fn(x, f))
    for call, message in [
        (lambda: u8aug.adjust_contrast_with_mean_subtraction(x, -0.5), "factor must be >= 0"),
        (lambda: u8aug.adjust_contrast_with_mean(x, 0.5, float("nan")), "mean must be finite"),
        (lambda: u8aug.adjust_contrast_with_mean(x, 0.5, torch.ones(2)), "mean must hold 1 or B = 3 values"),
        (lambda: u8aug.image_mean(x.float()), "uint8"),
        (lambda: u8aug.image_mean(x[0, 0]), r"got a 2-D tensor"),
    ]:
        with pytest.raises(RuntimeError, match=message):
            call()


@requires_cuda
@pytest.mark.cuda
def test_contrast_with_mean_cuda_equals_cpu():
    for x in (
        random_image((4, 1, 70, 33)),
        random_image((2, 4, 64, 64)).contiguous(memory_format=torch.channels_last),
        random_image((2, 9, 9)),
    ):
        assert torch.equal(u8aug.image_mean(x.cuda()).cpu(), u8aug.image_mean(x))
        f = torch.rand(x.shape[0] if x.dim() == 4 else 1) * 2
        assert torch.equal(
            u8aug.adjust_contrast_with_mean_subtraction(x.cuda(), f.cuda()).cpu(),
            u8aug.adjust_contrast_with_mean_subtraction(x, f),
        )
