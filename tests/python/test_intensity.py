"""The noise, illumination and auto-contrast ops against kornia on x / 255 (FIDELITY.md's oracle),
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
