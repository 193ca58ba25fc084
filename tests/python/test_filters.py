"""The filters against kornia.filters on x / 255 (FIDELITY.md's oracle), byte for byte: the box blur's
two orders (kornia pools large batches and convolves small ones), the sharpness filter, and their
errors. The Gaussian, motion and median blurs are checked through their classes
(test_kornia_dropin.py) and the fidelity demo."""

import kornia.filters as KF
import pytest
import torch
from kornia.filters.blur import _box_blur_pool, _box_blur_pool_eligible

import u8aug
from conftest import random_image, to_u8

BORDERS = ("constant", "reflect", "replicate", "circular")


def _layouts(x):
    return (x, x.contiguous(memory_format=torch.channels_last)) if x.dim() == 4 else (x,)


@pytest.mark.parametrize("kernel_size", [3, (2, 4), (5, 1), 6, (1, 7)])
@pytest.mark.parametrize("border", BORDERS)
@pytest.mark.parametrize("separable", [True, False])
def test_box_blur_equals_kornia_on_small_images(kernel_size, border, separable):
    # below 2^22 elements eager kornia convolves with its 1/k kernels
    x = random_image((3, 3, 23, 30), seed=BORDERS.index(border))
    expected = to_u8(KF.box_blur(x.float() / 255, kernel_size, border, separable))
    for img in _layouts(x):
        assert not u8aug.box_blur_pools(img, kernel_size, separable)
        got = u8aug.box_blur(img, kernel_size, border, separable)
        assert torch.equal(got, expected)
        assert got.is_contiguous(memory_format=torch.channels_last) == (img.stride(1) == 1)


@pytest.mark.parametrize("kernel_size,separable", [(3, True), ((2, 6), True), (6, True), ((4, 5), False)])
def test_box_blur_equals_kornia_on_large_batches(kernel_size, separable):
    # from 2^22 elements kornia pools: the window summed, then divided
    x = random_image((22, 3, 256, 256), seed=7)
    assert u8aug.box_blur_pools(x, kernel_size, separable)
    expected = to_u8(KF.box_blur(x.float() / 255, kernel_size, "reflect", separable))
    assert torch.equal(u8aug.box_blur(x, kernel_size, "reflect", separable), expected)


def test_the_two_box_orders_differ_and_each_is_korninas():
    # a 6-tap box: 1/6 is inexact, so the summed-then-divided mean and the fused 1/6 taps part ways
    # at some rounding ties; each u8aug path equals its kornia counterpart there too
    x = random_image((4, 3, 64, 64), seed=3)
    xf = x.float() / 255
    pooled = u8aug.box_blur_pooled(x, (6, 6))
    convolved = u8aug.filter2d_separable(x, KF.get_box_kernel1d(6), KF.get_box_kernel1d(6))
    assert not torch.equal(pooled, convolved)
    assert torch.equal(pooled, to_u8(_box_blur_pool(xf, (6, 6), "reflect", True)))
    expected = to_u8(KF.filter2d_separable(xf, KF.get_box_kernel1d(6), KF.get_box_kernel1d(6), "reflect"))
    assert torch.equal(convolved, expected)


@pytest.mark.parametrize("kernel_size", [3, 5, (3, 7), 7, 9, (1, 27), (27, 1)])
@pytest.mark.parametrize("border", BORDERS)
def test_odd_boxes_in_integers_are_every_kornia_order(kernel_size, border):
    """Odd windows of up to 81 values sum in integers (pixel/filter.h: integer_box): the rounded mean
    is kornia's pooled and convolved results alike, separable or not, and the fast tier's too. A
    smooth ramp puts many means near a half, where float error could tip a rounding."""
    ky, kx = (kernel_size, kernel_size) if isinstance(kernel_size, int) else kernel_size
    assert u8aug.integer_box(ky, kx)
    ramp = torch.arange(40 * 61, dtype=torch.float32).reshape(1, 1, 40, 61) * (255 / (40 * 61))
    images = {"random": random_image((3, 3, 40, 61), seed=ky * 31 + kx), "ramp": ramp.round().to(torch.uint8)}
    for name, x in images.items():
        xf = x.float() / 255
        orders = {
            "pooled separable": _box_blur_pool(xf, (ky, kx), border, True),
            "pooled 2-D": _box_blur_pool(xf, (ky, kx), border, False),
            "convolved separable": KF.filter2d_separable(xf, KF.get_box_kernel1d(kx), KF.get_box_kernel1d(ky), border),
            "convolved 2-D": KF.filter2d(xf, KF.get_box_kernel2d((ky, kx)), border),
        }
        for img in _layouts(x):
            for separable in (True, False):
                got = u8aug.box_blur(img, kernel_size, border, separable)
                for order, expected in orders.items():
                    assert torch.equal(got, to_u8(expected)), f"{name} {order} {tuple(img.stride())}"
                assert torch.equal(u8aug.box_blur(img, kernel_size, border, separable, fidelity="fast"), got)
    assert not u8aug.integer_box(2, 3) and not u8aug.integer_box(9, 11) and not u8aug.integer_box(1, 1)


@pytest.mark.parametrize("shape", [(1, 3, 64, 64), (21, 3, 256, 256), (22, 3, 256, 256), (64, 1, 256, 256)])
@pytest.mark.parametrize("kernel_size", [3, 5, (7, 3), 15, 17])
@pytest.mark.parametrize("separable", [True, False])
def test_box_blur_chooses_as_kornia_does(shape, kernel_size, separable):
    x = torch.empty(shape, dtype=torch.uint8)
    expected = _box_blur_pool_eligible(torch.empty(shape, dtype=torch.float32), kernel_size, separable)
    assert u8aug.box_blur_pools(x, kernel_size, separable) == expected


def test_box_blur_pooled_as_a_pipeline_step():
    x = random_image((3, 3, 20, 21), seed=1)
    take = torch.tensor([True, False, True])
    got = u8aug.pipeline(x, ["box_blur_pooled 3 2 replicate 1"], [take])
    expected = u8aug.box_blur_pooled(x, (3, 2), "replicate")
    assert torch.equal(got[take], expected[take]) and torch.equal(got[~take], x[~take])


def test_box_blur_errors_name_what_is_wrong():
    x = random_image((2, 3, 4, 5))
    with pytest.raises(RuntimeError, match=r"box_blur_pooled: kernel_size must be at least 1 x 1, got 0 x 3"):
        u8aug.box_blur_pooled(x, (0, 3))
    with pytest.raises(RuntimeError, match=r"box_blur_pooled: border_type must be"):
        u8aug.box_blur_pooled(x, 3, "wrap")
    with pytest.raises(RuntimeError, match=r"needs a height of more than 4 for reflect"):
        u8aug.box_blur_pooled(x, (9, 3))
    with pytest.raises(ValueError, match=r"box_blur: expected kernel_size = an int or \(height, width\)"):
        u8aug.box_blur(x, (3, 3, 3))
    for size in ((0, 3), (3, -1)):  # small images take kornia's convolution order, whose 1/k needs k >= 1
        with pytest.raises(ValueError, match=r"box_blur: kernel_size must be at least 1 x 1"):
            u8aug.box_blur(x, size)
    with pytest.raises(RuntimeError, match=r"expected img of dtype torch.uint8"):
        u8aug.box_blur_pooled(x.float(), 3)


@pytest.mark.parametrize("shape", [(4, 3, 37, 53), (2, 3, 224, 224), (3, 1, 3, 3), (2, 4, 5, 70), (3, 19, 21)])
def test_sharpness_equals_kornia(shape):
    from kornia.enhance import sharpness

    x = random_image(shape, seed=shape[-1])
    batch = shape[0] if len(shape) == 4 else 1
    for factor in (torch.linspace(0.0, 2.5, batch), torch.tensor(0.7), 1.3):
        xf = x.float() / 255
        for img, ref_in in zip(_layouts(x), _layouts(xf)):
            expected = to_u8(sharpness(ref_in, factor))
            assert torch.equal(u8aug.sharpness(img, factor), expected)


def test_sharpness_keeps_the_border_and_checks_its_input():
    x = random_image((2, 3, 9, 11), seed=2)
    out = u8aug.sharpness(x, torch.tensor([0.0, 3.0]))
    for index in ((..., 0, slice(None)), (..., -1, slice(None)), (..., slice(None), 0), (..., slice(None), -1)):
        assert torch.equal(out[index], x[index])
    assert not torch.equal(out[..., 1:-1, 1:-1], x[..., 1:-1, 1:-1])
    with pytest.raises(
        RuntimeError, match=r"sharpness: img must be at least 3 x 3 \(kornia's 3x3 kernel\), got 2 x 11"
    ):
        u8aug.sharpness(x[..., :2, :], 1.0)
    with pytest.raises(RuntimeError, match=r"sharpness: factor must hold 1 or B = 2 values, got 3"):
        u8aug.sharpness(x, torch.ones(3))
    with pytest.raises(RuntimeError, match=r"sharpness: factor must be finite, got nan"):
        u8aug.sharpness(x, float("nan"))


@pytest.mark.parametrize("kernel_size,angle,direction,mode", [(5, 35.0, 0.5, "nearest"), (7, -60.0, -1.0, "bilinear")])
def test_motion_blur_equals_kornia(kernel_size, angle, direction, mode):
    x = random_image((3, 3, 40, 41), seed=kernel_size)
    for a, d in ((angle, direction), (torch.tensor([angle, 10.0, 80.0]), torch.tensor([direction, 0.0, 0.3]))):
        expected = to_u8(KF.motion_blur(x.float() / 255, kernel_size, a, d, "replicate", mode))
        for img in _layouts(x):
            assert torch.equal(u8aug.motion_blur(img, kernel_size, a, d, "replicate", mode), expected)
