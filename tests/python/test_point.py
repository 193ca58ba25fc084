"""Pointwise ops: exhaustive fidelity over all 256 values against kornia.enhance (exact), per-sample
parameters, photos and layouts, opcheck, torch.compile, parameter errors."""

import kornia.enhance as KE
import pytest
import torch

import u8aug
from conftest import oracle, photos, random_image, requires_cuda

ALL_VALUES = torch.arange(256, dtype=torch.uint8).view(1, 1, 16, 16)
g = torch.Generator().manual_seed(0)


def rand(lo, hi, n=6):
    return [lo + (hi - lo) * float(v) for v in torch.rand(n, generator=g)]


# op name -> (kornia function, [parameter tuples]); each tuple holds one value per parameter.
GRIDS = {
    "adjust_brightness": (
        KE.adjust_brightness,
        [(f,) for f in [-1.0, -0.5, -0.2, 0.0, 0.1, 0.2, 0.5, 1.0, 1.5] + rand(-0.5, 0.5)],
    ),
    "adjust_brightness_accumulative": (
        KE.adjust_brightness_accumulative,
        [(f,) for f in [0.0, 0.5, 1.0, 1.5, 2.0, 10.0] + rand(0.5, 1.5)],
    ),
    "adjust_contrast": (KE.adjust_contrast, [(f,) for f in [0.0, 0.5, 1.0, 1.2, 2.0] + rand(0.5, 1.5)]),
    "adjust_gamma": (
        KE.adjust_gamma,
        [(ga, gn) for ga in [0.0, 0.25, 0.5, 1.0, 2.0, 3.0] + rand(0.5, 1.5, 4) for gn in [0.0, 0.5, 1.0, 1.3]],
    ),
    "solarize": (
        KE.solarize,
        [(t, a) for t in [0.0, 0.1, 0.5, 0.9, 1.0] + rand(0.4, 0.6, 3) for a in [-0.5, -0.1, 0.0, 0.1, 0.5]],
    ),
    "posterize": (KE.posterize, [(b,) for b in range(9)]),
}


def kornia_call(name, xf, params):
    fn = GRIDS[name][0]
    if name == "posterize":
        return fn(
            xf,
            torch.tensor([int(p) for p in params[0]]) if isinstance(params[0], list) else torch.tensor(int(params[0])),
        )
    return fn(xf, *[torch.tensor(p if isinstance(p, list) else [p], dtype=torch.float32) for p in params])


def ours_call(name, x, params):
    return getattr(u8aug, name)(
        x, *[torch.tensor(p if isinstance(p, list) else [p], dtype=torch.float32) for p in params]
    )


@pytest.mark.parametrize("name", list(GRIDS))
def test_exact_on_every_value(name):
    for params in GRIDS[name][1]:
        expected = oracle(lambda xf: kornia_call(name, xf, params), ALL_VALUES)
        got = ours_call(name, ALL_VALUES, params)
        assert torch.equal(
            got, expected
        ), f"{name}{params}: differs at values {(got != expected).nonzero()[:5].tolist()}"


def test_invert_exact_on_every_value():
    assert torch.equal(u8aug.invert(ALL_VALUES), oracle(KE.invert, ALL_VALUES))


@pytest.mark.parametrize("name", list(GRIDS))
def test_per_sample_parameters(name):
    """B samples, each with its own parameters, each equal to kornia on that sample."""
    grid = GRIDS[name][1]
    chosen = [grid[i * (len(grid) - 1) // 4] for i in range(5)]
    params = [list(col) for col in zip(*chosen)]  # one list of B values per parameter
    x = ALL_VALUES.expand(5, 3, 16, 16).contiguous()
    expected = oracle(lambda xf: kornia_call(name, xf, params), x)
    assert torch.equal(ours_call(name, x, params), expected)


PHOTO_PARAMS = {
    "adjust_brightness": (0.137,),
    "adjust_brightness_accumulative": (1.31,),
    "adjust_contrast": (0.77,),
    "adjust_gamma": (1.7, 0.9),
    "solarize": (0.41, 0.13),
    "posterize": (3,),
}


@pytest.mark.parametrize("name", list(PHOTO_PARAMS))
def test_exact_on_photos_both_layouts(name):
    params = PHOTO_PARAMS[name]
    for photo in photos().values():
        x = photo.unsqueeze(0)
        expected = oracle(lambda xf: kornia_call(name, xf, params), x)
        for xi in (x, x.contiguous(memory_format=torch.channels_last), photo):
            before = xi.clone()
            out = ours_call(name, xi, params)
            assert torch.equal(out.reshape(expected.shape), expected)
            for fmt in (torch.contiguous_format, torch.channels_last) if xi.dim() == 4 else (torch.contiguous_format,):
                assert out.is_contiguous(memory_format=fmt) == xi.is_contiguous(memory_format=fmt)
            assert torch.equal(xi, before)


@pytest.mark.compile
def test_compile_fullgraph_equals_eager():
    def pipeline(x, f, ga, gn, t, a, bits):
        x = u8aug.adjust_brightness(x, f)
        x = u8aug.adjust_brightness_accumulative(x, gn)
        x = u8aug.adjust_contrast(x, gn)
        x = u8aug.adjust_gamma(x, ga, gn)
        x = u8aug.solarize(x, t, a)
        x = u8aug.posterize(x, bits)
        return u8aug.invert(x)

    compiled = torch.compile(pipeline, fullgraph=True)
    for seed in range(2):
        x = random_image((4, 3, 16, 20), seed=seed)
        gen = torch.Generator().manual_seed(seed)
        args = (
            torch.rand(4, generator=gen) - 0.5,
            torch.rand(4, generator=gen) + 0.5,
            torch.rand(4, generator=gen) + 0.5,
            torch.rand(4, generator=gen),
            torch.rand(4, generator=gen) - 0.5,
            torch.randint(0, 9, (4,), generator=gen).float(),
        )
        assert torch.equal(compiled(x, *args), pipeline(x, *args))


BAD_PARAMS = [
    ("adjust_brightness", (torch.tensor([float("nan")]),), "finite"),
    ("adjust_brightness", (torch.tensor([float("inf")]),), "finite"),
    ("adjust_brightness", (torch.tensor([0.1, 0.2, 0.3]),), "1 or B = 2"),
    ("adjust_brightness", (torch.tensor([0.1], dtype=torch.float64),), "float32"),
    ("adjust_brightness", (torch.tensor([[0.1]]),), "0-D or 1-D"),
    ("adjust_brightness", (torch.tensor([0.1], device="meta"),), "is on meta"),
    ("adjust_contrast", (torch.tensor([-0.1]),), "factor must be >= 0"),
    ("adjust_gamma", (torch.tensor([-1.0]), torch.tensor([1.0])), "gamma must be >= 0"),
    ("adjust_gamma", (torch.tensor([1.0]), torch.tensor([-1.0])), "gain must be >= 0"),
    ("solarize", (torch.tensor([0.5]), torch.tensor([0.6])), r"additions must be in \[-0.5, 0.5\]"),
    ("solarize", (torch.tensor([float("nan")]), torch.tensor([0.0])), "thresholds must be finite"),
    ("posterize", (torch.tensor([2.5]),), "integer"),
    ("posterize", (torch.tensor([9.0]),), r"bits must be in \[0, 8\]"),
]


@pytest.mark.parametrize("name,params,message", BAD_PARAMS, ids=[f"{n}-{m}" for n, _, m in BAD_PARAMS])
def test_bad_parameters_give_clear_errors(name, params, message):
    x = random_image((2, 3, 4, 4))
    before = x.clone()
    with pytest.raises(RuntimeError, match=f"u8aug.{name}: .*{message}"):
        getattr(torch.ops.u8aug, name)(x, *params)
    assert torch.equal(x, before)


@pytest.mark.compile
def test_bad_parameter_shape_fails_at_trace_time_too():
    compiled = torch.compile(u8aug.adjust_brightness, fullgraph=True)
    with pytest.raises(Exception, match="u8aug.adjust_brightness: factor must hold 1 or B = 2 values, got 3"):
        compiled(random_image((2, 3, 4, 4)), torch.tensor([0.1, 0.2, 0.3]))


@requires_cuda
@pytest.mark.cuda
@pytest.mark.parametrize("name", list(GRIDS) + ["invert"])
def test_cuda_equals_cpu(name):
    grid = GRIDS[name][1] if name in GRIDS else [()]
    for shape in [(1, 1, 16, 16), (5, 3, 31, 33), (2, 4, 224, 224)]:
        x = ALL_VALUES.repeat(1, 1, 1, 1) if shape == (1, 1, 16, 16) else random_image(shape)
        for xi in (x, x.contiguous(memory_format=torch.channels_last)):
            for params in grid:
                batch = xi.shape[0]
                ps = [torch.tensor([float(p)] * batch) for p in params]
                cpu = getattr(torch.ops.u8aug, name)(xi, *ps)
                gpu = getattr(torch.ops.u8aug, name)(xi.cuda(), *[p.cuda() for p in ps])
                assert torch.equal(gpu.cpu(), cpu), f"{name}{params} {shape}"
                assert gpu.stride() == cpu.stride()


def _equalize_inputs():
    yield "photos", [p.unsqueeze(0) for p in photos().values()]
    yield "random", [random_image((4, 3, 64, 65)), random_image((3, 4, 17, 5), seed=2), random_image((1, 1, 1, 1))]
    yield (
        "few levels",
        [(random_image((2, 3, 40, 40), seed=3) // 64) * 64, (random_image((2, 3, 9, 9), seed=4) // 128) * 255],
    )
    yield "constant", [torch.full((2, 3, 8, 8), 77, dtype=torch.uint8)]


@pytest.mark.parametrize("kind,images", list(_equalize_inputs()), ids=[k for k, _ in _equalize_inputs()])
def test_equalize_exact(kind, images):
    for x in images:
        expected = oracle(KE.equalize, x)
        for xi in (x, x.contiguous(memory_format=torch.channels_last)):
            before = xi.clone()
            assert torch.equal(u8aug.equalize(xi), expected), kind
            assert torch.equal(xi, before)


def test_equalize_opcheck_and_compile():
    for x in (
        random_image((2, 3, 5, 7)),
        random_image((2, 3, 5, 7)).contiguous(memory_format=torch.channels_last),
        random_image((3, 4, 9)),
    ):
        torch.library.opcheck(torch.ops.u8aug.equalize, (x,))
    compiled = torch.compile(lambda x: u8aug.equalize(u8aug.hflip(x)), fullgraph=True)
    x = random_image((4, 3, 16, 20))
    assert torch.equal(compiled(x), u8aug.equalize(u8aug.hflip(x)))


@requires_cuda
@pytest.mark.cuda
def test_equalize_cuda_equals_cpu():
    for _, images in _equalize_inputs():
        for x in images:
            for xi in (x, x.contiguous(memory_format=torch.channels_last)):
                assert torch.equal(u8aug.equalize(xi.cuda()).cpu(), u8aug.equalize(xi))
