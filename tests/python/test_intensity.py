"""The noise, illumination, plasma, rain, snow and auto-contrast ops against kornia on x / 255 (FIDELITY.md's oracle),
byte for byte, and their errors. Their classes run in test_kornia_dropin.py."""

import pytest
import torch
from kornia.enhance import normalize_min_max

import u8aug
from conftest import random_image, to_u8


def _layouts(x):
    return (x, x.contiguous(memory_format=torch.channels_last)) if x.dim() == 4 else (x,)


@pytest.mark.parametrize("shape", [(4, 3, 31, 45), (2, 1, 7, 130), (3, 17, 19)])
def test_add_offset_is_korninas_sum_clamped(shape):
    x = random_image(shape, seed=shape[-1])
    g = torch.Generator().manual_seed(1)
    offset = torch.randn(shape, generator=g) * 0.4
    expected = to_u8((x.float() / 255 + offset).clamp(0, 1))
    for img in _layouts(x):
        for off in _layouts(offset):
            assert torch.equal(u8aug.add_offset(img, off), expected)
    if x.dim() == 4:  # one offset image for the batch
        one = offset[:1]
        assert torch.equal(u8aug.add_offset(x, one), to_u8((x.float() / 255 + one).clamp(0, 1)))
        assert torch.equal(u8aug.add_offset(x, one.expand_as(x)), u8aug.add_offset(x, one))


def test_add_offset_errors():
    x = random_image((2, 3, 4, 5))
    with pytest.raises(
        RuntimeError, match=r"add_offset: expected offset of dtype torch.float32, got (torch.float64|Double)"
    ):
        u8aug.add_offset(x, torch.zeros(2, 3, 4, 5, dtype=torch.float64))
    with pytest.raises(RuntimeError, match=r"expected offset of shape \(B or 1, C, H, W\) = \(2 or 1, 3, 4, 5\)"):
        u8aug.add_offset(x, torch.zeros(2, 3, 5, 4))
    with pytest.raises(RuntimeError, match=r"expected offset of shape"):
        u8aug.add_offset(x, torch.zeros(3, 4, 5))


@pytest.mark.parametrize("shape", [(4, 3, 31, 45), (2, 2, 3, 200), (3, 17, 19)])
def test_auto_contrast_is_kornias_normalize_min_max(shape):
    x = random_image(shape, seed=3)
    x = (x // 3 + 60).to(torch.uint8)  # planes spanning [60, 145]: a real stretch
    if x.dim() == 4:
        x[0, 0] = 77  # a constant plane: kornia gives 0
    expected = to_u8(normalize_min_max(x.float() / 255))
    for img in _layouts(x):
        got = u8aug.auto_contrast(img)
        assert torch.equal(got, expected)
    if x.dim() == 4:
        assert int(got[0, 0].max()) == 0
    assert int(got.amax()) == 255 and int(got.amin()) == 0


def test_erase_boxes_covers_the_integers_inside_each_box():
    x = random_image((3, 2, 9, 12), seed=4)
    boxes = torch.tensor([[2.0, 1.0, 5.0, 3.0], [-4.0, 7.5, 30.0, 20.0], [6.5, 2.0, 6.9, 8.0]])
    values = torch.tensor([0.0, 1.0, 0.5])
    yy, xx = torch.arange(9).view(9, 1).float(), torch.arange(12).view(1, 12).float()
    expected = x.clone()
    for b in range(3):
        inside = (xx >= boxes[b, 0]) & (xx <= boxes[b, 2]) & (yy >= boxes[b, 1]) & (yy <= boxes[b, 3])
        expected[b][:, inside] = to_u8(values[b])
    for img in _layouts(x):
        assert torch.equal(u8aug.erase_boxes(img, boxes, values), expected)
    assert torch.equal(u8aug.erase_boxes(x, boxes[:1], 0.0)[:, :, 1:4, 2:6], torch.zeros(3, 2, 3, 4, dtype=torch.uint8))


def test_erase_boxes_errors():
    x = random_image((2, 3, 4, 5))
    with pytest.raises(
        RuntimeError, match=r"erase_boxes: expected boxes to be a float32 tensor of shape \(1, 4\) or \(B, 4\)"
    ):
        u8aug.erase_boxes(x, torch.zeros(3, 4), 0.0)
    with pytest.raises(RuntimeError, match=r"erase_boxes: boxes must not hold NaN"):
        u8aug.erase_boxes(x, torch.full((1, 4), float("nan")), 0.0)
    with pytest.raises(RuntimeError, match=r"erase_boxes: values must hold 1 or B = 2 values, got 3"):
        u8aug.erase_boxes(x, torch.zeros(1, 4), torch.zeros(3))


PLASMA_CLASSES = ("RandomPlasmaBrightness", "RandomPlasmaContrast", "RandomPlasmaShadow")


@pytest.mark.parametrize("name", PLASMA_CLASSES)
@pytest.mark.parametrize("shape", [(3, 3, 64, 80), (2, 1, 33, 17), (5, 4, 9)])
def test_plasma_classes_equal_kornia_on_its_own_maps(name, shape):
    # kornia's default ranges, maps grown on a 2^n + 1 grid and cropped (non-contiguous views), and
    # images of both layouts: the bytes of kornia's float class on x / 255 under the same seed
    import kornia.augmentation as K

    import u8aug.kornia as UK

    x = random_image(shape, seed=sum(shape))
    for img in _layouts(x):
        for seed in range(3):
            torch.manual_seed(seed)
            got = getattr(UK, name)(p=1.0)(img)
            torch.manual_seed(seed)
            expected = to_u8(getattr(K, name)(p=1.0)(x.float() / 255))
            assert torch.equal(got, expected.view_as(got)), (name, seed)
            if x.dim() == 4 and x.shape[1] > 1:  # the output keeps the input's layout
                assert got.is_contiguous(memory_format=torch.channels_last) == (img is not x)


def test_plasma_ops_take_one_map_for_the_batch_and_one_channel_for_all():
    x = random_image((3, 3, 20, 21), seed=4)
    plasma = torch.rand(1, 1, 20, 21, generator=torch.Generator().manual_seed(0))
    s, q = torch.tensor([-0.6, -0.3, 0.0]), torch.tensor([0.2, 0.5, 0.9])
    expected = to_u8((x.float() / 255 + (plasma < q.view(-1, 1, 1, 1)).float() * s.view(-1, 1, 1, 1)).clamp(0, 1))
    assert torch.equal(u8aug.plasma_shadow(x, plasma, s, q), expected)
    assert torch.equal(u8aug.plasma_shadow(x, plasma.expand(3, 3, 20, 21), s, q), expected)
    expected = to_u8(((x.float() / 255 - 0.5) * (4 * plasma) + 0.5).clamp(0, 1))
    assert torch.equal(u8aug.plasma_contrast(x, plasma), expected)
    expected = to_u8((x.float() / 255 + (2 * plasma - 1) * 0.25).clamp(0, 1))
    assert torch.equal(u8aug.plasma_brightness(x, plasma, 0.25), expected)


def test_plasma_errors():
    x = random_image((2, 3, 8, 9))
    with pytest.raises(RuntimeError, match=r"plasma_contrast: expected plasma of shape \(B or 1, C or 1, H, W\)"):
        u8aug.plasma_contrast(x, torch.rand(2, 2, 8, 9))
    with pytest.raises(RuntimeError, match="plasma_contrast: expected plasma of dtype torch.float32"):
        u8aug.plasma_contrast(x, torch.rand(2, 3, 8, 9).double())
    with pytest.raises(RuntimeError, match="plasma_shadow: shade_quantity must hold 1 or B = 2 values, got 3"):
        u8aug.plasma_shadow(x, torch.rand(2, 1, 8, 9), -0.5, torch.rand(3))


@pytest.mark.parametrize("shape", [(4, 3, 64, 96), (2, 1, 40, 30), (3, 50, 70)])
def test_rain_equals_kornia_with_its_default_drops(shape):
    # kornia's defaults: 1000 to 2000 drops of 5 to 20 pixels down and -5 to 5 across
    import kornia.augmentation as K

    import u8aug.kornia as UK

    x = random_image(shape, seed=shape[-1])
    for img in _layouts(x):
        for seed in range(3):
            torch.manual_seed(seed)
            got = UK.RandomRain(p=1.0)(img)
            torch.manual_seed(seed)
            expected = to_u8(K.RandomRain(p=1.0)(x.float() / 255))
            assert torch.equal(got, expected.view_as(got)), seed
            assert int((got == 200).sum()) > int((x == 200).sum())  # the drops are there


def test_rain_errors():
    x = random_image((2, 3, 8, 9))
    coordinates = torch.rand(2, 4, 2)
    n, h, w = torch.tensor([4, 2]), torch.tensor([3, 7]), torch.tensor([-2, 9])
    with pytest.raises(RuntimeError, match="drop widths must be less than the image width 9 in magnitude, got 9"):
        u8aug.rain(x, coordinates, n, h, w)
    with pytest.raises(
        RuntimeError, match="drop heights must be greater than 0 and less than the image height 8, got 8"
    ):
        u8aug.rain(x, coordinates, n, torch.tensor([3, 8]), torch.tensor([1, 1]))
    with pytest.raises(RuntimeError, match=r"rain: expected coordinates to be a float32 tensor of shape \(B, N, 2\)"):
        u8aug.rain(x, coordinates[:1], n, h, w)
    with pytest.raises(RuntimeError, match="rain: expected heights to be a 1-D int64 tensor of B = 2 values"):
        u8aug.rain(x, coordinates, n, h.int(), w)
    with pytest.raises(ValueError, match="RandomRain: expected 1 or 3 channels, got 2"):
        import u8aug.kornia as UK

        UK.RandomRain(p=1.0, drop_height=(1, 2), drop_width=(1, 1))(random_image((1, 2, 8, 9)))


def _colour_cube():
    # every RGB colour once: a (1, 3, 4096, 4096) image
    v = torch.arange(256, dtype=torch.uint8)
    cube = torch.stack(torch.meshgrid(v, v, v, indexing="ij"), 0).reshape(3, 4096, 4096)
    return cube[None].contiguous()


@pytest.mark.parametrize("coefficient,brightness", [(0.5, 2.0), (0.3, 3.7), (0.9, 1.3)])
def test_snow_is_kornias_on_every_colour(coefficient, brightness):
    from kornia.augmentation import RandomSnow

    x = _colour_cube()
    aug = RandomSnow(p=1.0, snow_coefficient=(coefficient, coefficient), brightness=(brightness, brightness))
    expected = to_u8(aug(x.float() / 255))
    got = u8aug.snow(x, coefficient, brightness)
    assert int((got != expected).sum()) == 0
    # pixels at or above the coefficient come back as they were
    assert float((got == x).all(1).float().mean()) > 0.0


@pytest.mark.parametrize("shape", [(4, 3, 31, 45), (3, 17, 19), (2, 3, 1, 1)])
def test_snow_class_equals_kornia(shape):
    import kornia.augmentation as K

    import u8aug.kornia as UK

    x = random_image(shape, seed=shape[-1])
    for img in _layouts(x):
        for seed in range(3):
            torch.manual_seed(seed)
            got = UK.RandomSnow(snow_coefficient=(0.1, 0.9), brightness=(1.0, 5.0), p=1.0)(img)
            torch.manual_seed(seed)
            expected = to_u8(K.RandomSnow(snow_coefficient=(0.1, 0.9), brightness=(1.0, 5.0), p=1.0)(x.float() / 255))
            assert torch.equal(got, expected.view_as(got)), seed


def test_snow_errors():
    with pytest.raises(RuntimeError, match=r"snow: expected 3 \(RGB\) channels as kornia does, got 1"):
        u8aug.snow(random_image((2, 1, 4, 5)), 0.5, 2.0)
    with pytest.raises(RuntimeError, match="snow: brightness must hold 1 or B = 2 values, got 3"):
        u8aug.snow(random_image((2, 3, 4, 5)), 0.5, torch.ones(3))


@pytest.mark.parametrize(
    "shape", [(32, 3, 224, 224), (4, 1, 100, 300), (2, 3, 31, 17), (3, 2, 3, 3), (2, 1, 2, 2), (2, 3, 5, 300)]
)
def test_plasma_draw_is_kornias_diamond_square_bit_for_bit(shape):
    """u8aug.kornia._plasma's map (the plasma classes' draw) against kornia's diamond_square under one
    seed: every float of the map, and the generator left where kornia leaves it."""
    from kornia.contrib import diamond_square

    from u8aug.kornia import _plasma

    roughness = torch.linspace(0.1, 0.9, shape[0])
    torch.manual_seed(5)
    expected = diamond_square(shape, roughness, device=torch.device("cpu"), dtype=torch.float32)
    after_kornia = torch.rand(3)
    torch.manual_seed(5)
    got = _plasma.diamond_square(shape, roughness, torch.device("cpu"), torch.float32)
    assert torch.equal(torch.rand(3), after_kornia)
    assert got.shape == expected.shape and torch.equal(got, expected)
    # float64 maps are kornia's own code
    torch.manual_seed(5)
    double = _plasma.diamond_square(shape, roughness, torch.device("cpu"), torch.float64)
    torch.manual_seed(5)
    assert torch.equal(double, diamond_square(shape, roughness, device=torch.device("cpu"), dtype=torch.float64))
