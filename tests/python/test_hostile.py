"""The hostile-input table (README, "Bad input"), for every catalogued op from its sample inputs
(op_samples.py), so a new op joins it by its sample entry. Each row either raises an error whose
message names the op and the argument, or gives a defined result; never a crash, never a change to
an input. "Defined" rows check the result: a view (sliced, expanded, overlapping) gives the bytes of
its contiguous copy; a value row gives an output of the right shape and dtype.
"""

import math

import pytest
import torch

import u8aug
from conftest import random_image
from op_samples import IMAGE_ARGUMENT, SAMPLES, as_image_argument, image_name_in_errors
from u8aug import _fake

NAMES = [op["name"] for op in u8aug.catalogue()]
RGB_ONLY = {"adjust_saturation", "adjust_hue", "color_jiggle", "color_jitter", "rgb_to_grayscale", "snow", "jpeg"}


def _op(name):
    return getattr(torch.ops.u8aug, name)


def _image_positions(name):
    args = _fake.schema_arguments(name)
    return [args.index(a) for a in (("a", "b") if name == "select_samples" else (IMAGE_ARGUMENT.get(name, "img"),))]


def _tensor_parameters(name):
    """(position, name) of every tensor argument that is not an image."""
    schema = getattr(torch.ops.u8aug, name).default._schema
    images = set(_image_positions(name))
    return [
        (i, a.name) for i, a in enumerate(schema.arguments) if str(a.type) in ("Tensor", "Tensor?") and i not in images
    ]


def _snapshot(args):
    return [a.clone() if isinstance(a, torch.Tensor) else a for a in args]


def _bits(t):
    return t.contiguous().reshape(-1).view(torch.uint8)  # NaN-safe, bit for bit


def _unchanged(args, before):
    for a, b in zip(args, before):
        if isinstance(a, torch.Tensor) and a.device.type != "meta":
            assert a.dtype == b.dtype and torch.equal(_bits(a), _bits(b)), "an input changed"


def _expect_error(name, args, needle):
    before = _snapshot(args)
    with pytest.raises((RuntimeError, ValueError)) as info:
        _op(name)(*args)
    message = str(info.value)
    assert f"u8aug.{name}: " in message, message
    assert needle in message, message
    _unchanged(args, before)


def _image(b=2, c=3, h=5, w=7, seed=4):
    return random_image((b, c, h, w), seed=seed)


def _with_images(name, args, image):
    out = list(args)
    for k in _image_positions(name):
        out[k] = as_image_argument(name, image)
    return out


# ---- rows on the image ------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_image_rows_that_must_fail(name):
    x = _image()
    base = SAMPLES[name](x)
    arg = "b" if name == "select_samples" else image_name_in_errors(name)
    rows = {
        "float32 dtype": (x.float(), f"expected {arg} of dtype torch.uint8"),
        "int16 dtype": (x.to(torch.int16), f"expected {arg} of dtype torch.uint8"),
        "2-D": (x[0, 0], f"expected {arg} of shape (C, H, W) or (B, C, H, W)"),
        "5-D": (x[None], f"expected {arg} of shape (C, H, W) or (B, C, H, W)"),
        "zero width": (x[..., :0], f"every dimension of {arg} must be >= 1"),
        "zero batch": (x[:0], f"every dimension of {arg} must be >= 1"),
    }
    for bad, needle in rows.values():
        _expect_error(name, _with_images(name, base, bad), needle)


@pytest.mark.parametrize("name", NAMES)
def test_channel_counts(name):
    """RGB ops refuse other channel counts as kornia does; the rest take 1 to 5 channels."""
    for c in (1, 2, 4, 5):
        x = _image(c=c)
        args = SAMPLES[name](x)
        if name in RGB_ONLY:
            _expect_error(name, args, "3 (RGB) channels")
            continue
        before = _snapshot(args)
        out = _op(name)(*args)
        assert out.shape[0] == 2 and (name == "image_mean" or out.shape[1] == (1 if name == "rgb_to_grayscale" else c))
        _unchanged(args, before)


def _views(x):
    """Views torch allows, each with the same pixels as x.contiguous() would have for its shape."""
    b, c, h, w = x.shape
    wide = random_image((b, c, h, 2 * w), seed=9)
    base = random_image((c * h * w + 64,), seed=10)
    return {
        "non-contiguous (every other column)": wide[..., ::2],
        "sliced channels and rows": random_image((b, c + 2, h + 3, w), seed=11)[:, 1 : 1 + c, 2 : 2 + h],
        "expanded batch (stride 0)": x[:1].expand(b, c, h, w),
        "overlapping rows": torch.as_strided(base, (b, c, h, w), (0, h * w, w - 2, 1)),
        "transposed H and W": random_image((b, c, w, h), seed=12).transpose(-1, -2),
    }


@pytest.mark.parametrize("name", NAMES)
def test_views_give_the_bytes_of_their_contiguous_copy(name):
    """Negative strides cannot occur: torch has none (flip copies)."""
    x = _image(h=7, w=7)  # square, so the transposed view has the same shape
    sample = SAMPLES[name](x)
    for what, view in _views(x).items():
        args = _with_images(name, sample, view)
        dense = _with_images(name, sample, view.contiguous())
        before = _snapshot(args)
        got = _op(name)(*args)
        assert torch.equal(got, _op(name)(*dense)), what
        _unchanged(args, before)


# ---- rows on the other tensor arguments -------------------------------------------------------


@pytest.mark.parametrize("name", [n for n in NAMES if _tensor_parameters(n)])
def test_parameter_rows_that_must_fail(name):
    x = _image()
    for k, arg in _tensor_parameters(name):
        args = SAMPLES[name](x)
        p = args[k]
        if p is None:
            continue
        rows = {
            "too many values": torch.cat([p, p, p]),
            "no values": p[:0],
            "float64 / int dtype": p.double() if p.dtype != torch.float64 else p.float(),
            "on the meta device": p.to("meta"),
        }
        if arg == "order":
            del rows["no values"]  # an empty order is kornia's "no step": a defined result
        for what, bad in rows.items():
            mutated = list(args)
            mutated[k] = bad
            needle = arg if what != "on the meta device" else "meta"
            try:
                _expect_error(name, mutated, needle)
            except AssertionError as e:
                raise AssertionError(f"{arg}, {what}: {e}") from e


@pytest.mark.parametrize("name", [n for n in NAMES if _tensor_parameters(n)])
def test_hostile_parameter_values_fail_clearly_or_give_a_defined_result(name):
    x = _image()
    for k, arg in _tensor_parameters(name):
        args = SAMPLES[name](x)
        p = args[k]
        if p is None or not p.is_floating_point():
            continue
        for value in (math.nan, math.inf, -math.inf, 3e38, -3e38, 1e-45, -5.0, 0.0):
            mutated = list(args)
            mutated[k] = torch.full_like(p, value)
            before = _snapshot(mutated)
            try:
                out = _op(name)(*mutated)
            except RuntimeError as e:  # naming the argument, or for boxes which box
                assert f"u8aug.{name}: " in str(e) and (arg in str(e) or "box 0" in str(e)), str(e)
            else:
                expected = _fake.FAKES[name](*[a.to("meta") if isinstance(a, torch.Tensor) else a for a in mutated])
                assert out.shape == expected.shape and out.dtype == expected.dtype, (arg, value)
            _unchanged(mutated, before)


# ---- sizes --------------------------------------------------------------------------------------

HUGE_OUTPUTS = {
    "resize": lambda x: (x, [1 << 40, 1 << 40], "bilinear", False),
    "resize_antialias": lambda x: (x, [1 << 40, 1 << 40], torch.ones(1, 1), torch.ones(1, 1), "bilinear", False),
    "warp_affine": lambda x: (
        x,
        torch.eye(3)[None, :2].contiguous(),
        [1 << 20, 1 << 20],
        "bilinear",
        "zeros",
        True,
        None,
    ),
    "crop_and_resize": lambda x: (x, SAMPLES["crop_and_resize"](x)[1], [1 << 22, 1 << 22], "bilinear", True),
    "pad": lambda x: (x, [1 << 40, 0, 0, 0], "constant", 0),
}


@pytest.mark.parametrize("name", list(HUGE_OUTPUTS))
def test_huge_output_sizes_fail_naming_the_op(name):
    x = _image(b=1)
    args = HUGE_OUTPUTS[name](x)
    before = _snapshot(args)
    with pytest.raises(
        RuntimeError,
        match=rf"u8aug\.{name}: (the output of shape .* is too large to address|could not allocate the output of shape)",
    ):
        _op(name)(*args)
    _unchanged(args, before)


# One op of each family on an image of more than 2^31 elements (64-bit offsets everywhere), each
# checked against the same op on a small slice where the op is local, or on a strided subsample.
BIG = (1, 3, 24000, 30000)  # 2.16e9 elements


@pytest.fixture(scope="module")
def big_image():
    x = torch.empty(BIG, dtype=torch.uint8)
    x.view(-1)[: 1 << 20].random_(0, 256)
    x.view(-1)[1 << 20 :] = 7  # cheap to fill; the first and last rows differ from the rest
    x[..., -1, :] = 201
    return x


BIG_CASES = {
    "hflip": lambda x: (u8aug.hflip(x), lambda o: torch.equal(o[..., -2:, :], x[..., -2:, :].flip(-1))),
    "invert": lambda x: (u8aug.invert(x), lambda o: torch.equal(o[..., -2:, :], 255 - x[..., -2:, :])),
    "grayscale": lambda x: (
        u8aug.grayscale(x),
        lambda o: torch.equal(o[..., -2:, :100], u8aug.grayscale(x[..., -2:, :100].contiguous())),
    ),
    "adjust_saturation": lambda x: (
        u8aug.adjust_saturation(x, 0.5),
        lambda o: torch.equal(o[..., -2:, :100], u8aug.adjust_saturation(x[..., -2:, :100].contiguous(), 0.5)),
    ),
    "select_samples": lambda x: (
        u8aug.select_samples(torch.tensor([False]), x, x),
        lambda o: torch.equal(o[..., -1, :], x[..., -1, :]),
    ),
    "resize": lambda x: (u8aug.resize(x, (4, 5), "nearest"), lambda o: torch.equal(o, x[..., ::6000, ::6000])),
    "rot90": lambda x: (u8aug.rot90(x, 2), lambda o: torch.equal(o[..., 0, :], x[..., -1, :].flip(-1))),
}


@pytest.mark.big
@pytest.mark.parametrize("name", list(BIG_CASES))
def test_more_than_2_31_elements(big_image, name):
    assert big_image.numel() > 2**31
    out, ok = BIG_CASES[name](big_image)
    assert ok(out)
    del out
