"""u8aug.kornia._native_draws: kornia's forward_parameters made in one C++ call on torch's CPU
generator must give kornia's parameters bit for bit (keys in kornia's order, dtypes, shapes, values)
and leave the generator where kornia's draws leave it, for every class with a native draw, over
seeds, batch sizes, same_on_batch, the gate's p (0, 1, between, and one the float32 rounding of p
decides) and the edges of every range (RandomResizedCrop's rejection loop exhausted); a chain
drawn at once must be the container's draws; and the native draw must step aside wherever kornia's
code would not be the one a class runs."""

import itertools
from unittest import mock

import kornia.augmentation as K
import pytest
import torch

import u8aug.kornia as UK
from u8aug.kornia import _kept, _native_draws

# kornia's float32 gate compares rand < p as float32: this p lies between two 24-bit uniforms in
# double but rounds onto one of them in float32
P_BETWEEN = 0.5 + 2.0**-26

CLASSES = {
    "RandomResizedCrop": lambda mod, **kw: mod.RandomResizedCrop((24, 20), **kw),
    "RandomResizedCrop fallback": lambda mod, **kw: mod.RandomResizedCrop((5, 9), scale=(2.0, 3.0), **kw),
    "RandomResizedCrop wide ratio": lambda mod, **kw: mod.RandomResizedCrop((8, 8), ratio=(100.0, 200.0), **kw),
    "RandomResizedCrop narrow ratio": lambda mod, **kw: mod.RandomResizedCrop((8, 8), ratio=(0.01, 0.02), **kw),
    "RandomResizedCrop whole": lambda mod, **kw: mod.RandomResizedCrop(
        (8, 8), scale=(1.0, 1.0), ratio=(1.0, 1.0), **kw
    ),
    "ColorJitter": lambda mod, **kw: mod.ColorJitter(0.4, 0.4, 0.4, 0.1, **kw),
    "ColorJitter edges": lambda mod, **kw: mod.ColorJitter((0.0, 2.0), (0.0, 5.0), (0.0, 3.0), (-0.5, 0.5), **kw),
    "ColorJitter still": lambda mod, **kw: mod.ColorJitter(0.0, 0.0, 0.0, 0.0, **kw),
    "ColorJiggle": lambda mod, **kw: mod.ColorJiggle(0.3, 0.2, 0.5, 0.25, **kw),
    "RandomHorizontalFlip": lambda mod, **kw: mod.RandomHorizontalFlip(**kw),
    "RandomVerticalFlip": lambda mod, **kw: mod.RandomVerticalFlip(**kw),
    "RandomGrayscale": lambda mod, **kw: mod.RandomGrayscale(**kw),
    "RandomInvert": lambda mod, **kw: mod.RandomInvert(**kw),
    # uniform draws: PlainUniformGenerator's samplers, in its order, and RandomGaussianBlur's sigma
    "RandomBrightness": lambda mod, **kw: mod.RandomBrightness((0.8, 1.2), **kw),
    "RandomBrightness edges": lambda mod, **kw: mod.RandomBrightness((0.0, 2.0), **kw),
    "RandomBrightness still": lambda mod, **kw: mod.RandomBrightness((1.0, 1.0), **kw),
    "RandomContrast": lambda mod, **kw: mod.RandomContrast((0.5, 1.7), **kw),
    "RandomSaturation": lambda mod, **kw: mod.RandomSaturation((0.2, 1.8), **kw),
    "RandomHue": lambda mod, **kw: mod.RandomHue((-0.5, 0.5), **kw),
    "RandomGamma": lambda mod, **kw: mod.RandomGamma((0.5, 1.5), (0.8, 1.2), **kw),
    "RandomSolarize": lambda mod, **kw: mod.RandomSolarize(0.3, 0.2, **kw),
    "RandomSharpness": lambda mod, **kw: mod.RandomSharpness(0.8, **kw),
    "RandomSnow": lambda mod, **kw: mod.RandomSnow((0.1, 0.6), (1.5, 2.5), **kw),
    "RandomGaussianBlur": lambda mod, **kw: mod.RandomGaussianBlur((5, 5), (0.1, 2.0), **kw),
    "RandomGaussianBlur edges": lambda mod, **kw: mod.RandomGaussianBlur((3, 3), (0.0, 30.0), **kw),
    "RandomPosterize": lambda mod, **kw: mod.RandomPosterize(3, **kw),
    "RandomPosterize range": lambda mod, **kw: mod.RandomPosterize((0.0, 8.0), **kw),
    "RandomPosterize halves": lambda mod, **kw: mod.RandomPosterize((2.5, 3.5), **kw),
    "RandomRotation": lambda mod, **kw: mod.RandomRotation(30.0, **kw),
    "RandomRotation edges": lambda mod, **kw: mod.RandomRotation((-360.0, 360.0), **kw),
    "RandomAffine": lambda mod, **kw: mod.RandomAffine(30.0, (0.1, 0.1), (0.8, 1.2), **kw),
    "RandomAffine degrees": lambda mod, **kw: mod.RandomAffine(0.0, **kw),
    "RandomAffine every sampler": lambda mod, **kw: mod.RandomAffine(
        (-90.0, 360.0), (0.5, 0.3), (0.5, 1.5, 0.7, 1.3), (-45.0, 45.0, -10.0, 10.0), **kw
    ),
    "RandomAffine shear": lambda mod, **kw: mod.RandomAffine(10.0, shear=20.0, **kw),
    "RandomPerspective": lambda mod, **kw: mod.RandomPerspective(0.5, **kw),
    "RandomPerspective whole": lambda mod, **kw: mod.RandomPerspective(1.0, **kw),
    "RandomPerspective still": lambda mod, **kw: mod.RandomPerspective(0.0, **kw),
    "RandomPerspective area": lambda mod, **kw: mod.RandomPerspective(0.3, sampling_method="area_preserving", **kw),
}
SHAPES = [(1, 3, 375, 500), (2, 3, 32, 36), (7, 3, 20, 600), (32, 3, 224, 224), (3, 1, 1, 1)]


def _assert_same_params(ours, theirs):
    assert list(ours) == list(theirs), "keys (and their order) differ from kornia's"
    for key in theirs:
        assert ours[key].dtype == theirs[key].dtype and ours[key].shape == theirs[key].shape, key
        assert torch.equal(ours[key], theirs[key]), f"{key} differs from kornia's"


def _same_draw(make, shape, seed, **kw):
    theirs_module, ours_module = make(K, **kw), make(UK, **kw)
    # kornia's crops take p as their batch gate (p_batch): a draw u8aug leaves to kornia's code
    native = ours_module.p_batch == 1
    assert (_native_draws.program_line(ours_module) is not None) == native
    torch.manual_seed(seed)
    theirs = theirs_module.forward_parameters(torch.Size(shape))
    theirs_state = torch.get_rng_state()
    torch.manual_seed(seed)
    ours = (_native_draws.draw if native else type(ours_module).forward_parameters)(ours_module, torch.Size(shape))
    assert torch.equal(torch.get_rng_state(), theirs_state), "the generator after the draw differs from kornia's"
    _assert_same_params(ours, theirs)


@pytest.mark.parametrize("name", list(CLASSES))
@pytest.mark.parametrize("same_on_batch", [False, True])
@pytest.mark.parametrize("p", [0.0, 1.0, 0.5, P_BETWEEN, 0.2])
def test_native_draws_are_kornias_bit_for_bit(name, same_on_batch, p):
    for shape, seed in itertools.product(SHAPES, range(3)):
        _same_draw(CLASSES[name], shape, seed, p=p, same_on_batch=same_on_batch)


def test_a_class_on_its_own_draws_kornias_numbers():
    # through its forward_parameters: natively where it has a generator, in Python for a gate alone
    for name, p in itertools.product(CLASSES, [1.0, 0.5]):
        theirs_module, ours_module = CLASSES[name](K, p=p), CLASSES[name](UK, p=p)
        torch.manual_seed(4)
        theirs = theirs_module.forward_parameters(torch.Size((5, 3, 30, 40)))
        state = torch.get_rng_state()
        torch.manual_seed(4)
        _assert_same_params(ours_module.forward_parameters(torch.Size((5, 3, 30, 40))), theirs)
        assert torch.equal(torch.get_rng_state(), state)


def test_the_rejection_loop_over_many_seeds():
    # ImageNet-like sizes: every sample's ten candidates, the first that fits, or the fallback
    for seed, shape in zip(range(150), itertools.cycle([(16, 3, 333, 500), (16, 3, 640, 480), (8, 3, 30, 900)])):
        _same_draw(CLASSES["RandomResizedCrop"], shape, seed)
        _same_draw(CLASSES["RandomResizedCrop fallback"], shape, seed)


def _standard(mod):
    return mod.AugmentationSequential(
        mod.RandomResizedCrop((24, 20), scale=(0.3, 1.0)),
        mod.RandomHorizontalFlip(),
        mod.ColorJitter(0.4, 0.4, 0.4, 0.1, p=0.8),
        mod.RandomGrayscale(p=0.2),
        mod.ColorJiggle(0.1, 0.2, 0.3, 0.05, p=0.5, same_on_batch=True),
        mod.Normalize(mean=torch.tensor([0.5, 0.4, 0.3]), std=torch.tensor([0.2, 0.3, 0.25])),
    )


@pytest.mark.parametrize("b", [1, 2, 7, 32])
def test_a_chain_drawn_at_once_is_the_containers_draw(b):
    theirs_container, ours_container = _standard(K), _standard(UK)
    program = _kept.program_of(ours_container)
    assert program is not None
    shape = torch.Size((b, 3, 50, 70))
    for seed in range(5):
        torch.manual_seed(seed)
        theirs = theirs_container.forward_parameters(shape)
        theirs_state = torch.get_rng_state()
        torch.manual_seed(seed)
        lines, _, numbers, bounds = program
        out = _native_draws.draw_program(lines, numbers, bounds, shape)
        ours = _kept.params_of(ours_container, program[1], out)
        assert torch.equal(torch.get_rng_state(), theirs_state)
        assert [p.name for p in ours] == [p.name for p in theirs]
        for p, q in zip(ours, theirs):
            _assert_same_params(p.data, q.data)


def test_the_native_draw_steps_aside_where_kornias_code_would_run():
    crop = UK.RandomResizedCrop((8, 8))
    assert _native_draws.program_line(crop) is not None

    class OwnDraw(UK.RandomResizedCrop):
        def generate_parameters(self, batch_shape):
            return super().generate_parameters(batch_shape)

    assert _native_draws.program_line(OwnDraw((8, 8))) is None
    assert _native_draws.program_line(UK.RandomHorizontalFlip(p_batch=0.5)) is None
    assert _native_draws.program_line(UK.RandomResizedCrop((8, 8), scale=torch.tensor([0.2, 0.9]))) is None
    assert _native_draws.program_line(UK.RandomThinPlateSpline()) is None  # no native draw for its generator
    wide = UK.RandomPerspective(0.5)
    wide.set_rng_device_and_dtype(torch.device("cpu"), torch.float64)
    assert _native_draws.program_line(wide) is None
    assert _native_draws.program_line(UK.RandomAffine(10.0, translate=torch.tensor([0.1, 0.1]).double())) is None
    for hook in ("__batch_prob_generator__", "generate_parameters", "forward_parameters"):
        flip = UK.RandomHorizontalFlip(p=0.5)
        with mock.patch.object(flip, hook, wraps=getattr(flip, hook)) as patched:
            assert _native_draws.program_line(flip) is None
            flip.forward_parameters(torch.Size((2, 3, 4, 4))) if hook != "forward_parameters" else None
            if hook != "forward_parameters":
                assert patched.called, f"a patched {hook} did not run"
    double = UK.ColorJitter(0.2)
    double.set_rng_device_and_dtype(torch.device("cpu"), torch.float64)
    assert _native_draws.program_line(double) is None


@pytest.mark.parametrize(
    "program, numbers, bounds, shape, message",
    [
        (["spin 0"], [1.0], [], [1, 3, 4, 4], "no draw"),
        (["none 0 7"], [1.0], [], [1, 3, 4, 4], "takes 0 whole numbers"),
        (["none x"], [1.0], [], [1, 3, 4, 4], "KIND SAME"),
        (["none 0"], [1.5], [], [1, 3, 4, 4], "p must be in"),
        (["none 0"], [], [], [1, 3, 4, 4], "more numbers"),
        (["none 0"], [1.0, 2.0], [], [1, 3, 4, 4], "numbers given"),
        (["color_jitter 0"], [1.0], [], [1, 3, 4, 4], "more bounds"),
        (
            ["resized_crop 0 0 4"],
            [1.0, 0.1, 1.0, 0.7, 1.3],
            [torch.tensor(-0.3), torch.tensor(0.3)],
            [1, 3, 4, 4],
            "bad resized_crop",
        ),
        (["affine 0 1 3 0"], [1.0], [torch.tensor(0.0)] * 8, [1, 3, 4, 4], "bad affine"),
        (["none 0"], [1.0], [], [0, 3, 4, 4], "batch shape"),
        (["none 0"], [1.0], [], [4, 4], "batch shape"),
    ],
)
def test_the_draw_op_names_what_is_wrong(program, numbers, bounds, shape, message):
    state = torch.get_rng_state()
    before = state.clone()
    with pytest.raises(RuntimeError, match=message):
        numbers, bounds = torch.tensor(numbers, dtype=torch.float64), torch.tensor(bounds, dtype=torch.float32)
        torch.ops.u8aug.kornia_draws(state, program, numbers, bounds, shape)
    assert torch.equal(state, before), "a refused draw moved the generator"
    with pytest.raises(RuntimeError, match="get_rng_state"):
        torch.ops.u8aug.kornia_draws(
            state[:100], ["none 0"], torch.tensor([1.0], dtype=torch.float64), torch.empty(0), [1, 3, 4, 4]
        )
    with pytest.raises(RuntimeError, match="float64"):
        torch.ops.u8aug.kornia_draws(state, ["none 0"], torch.tensor([1.0]), torch.empty(0), [1, 3, 4, 4])
    with pytest.raises(RuntimeError, match="float32"):
        torch.ops.u8aug.kornia_draws(
            state,
            ["none 0"],
            torch.tensor([1.0], dtype=torch.float64),
            torch.empty(0, dtype=torch.float64),
            [1, 3, 4, 4],
        )


def test_the_draw_outlives_its_other_outputs():
    # the outputs share one block of memory: each keeps it alive on its own
    numbers = torch.tensor([1.0], dtype=torch.float64)
    bounds = torch.tensor([0.5, 1.5] * 4)
    out = torch.ops.u8aug.kornia_forward_parameters(["color_jitter 0"], numbers, bounds, [4, 3, 8, 8])
    order = out[-1]
    del out
    assert sorted(order.tolist()) == [0, 1, 2, 3]


@pytest.mark.parametrize("size", [*range(1, 34), 63, 64])
def test_the_gaussian_kernel_is_kornias(size):
    # u8aug.gaussian_kernel1d (the blur's kernels, with torch's exp and sum) against kornia's own, for
    # sigmas across the sampled range and beyond it: 0 and one whose square underflows (the unit
    # impulse), tiny, huge, and batches whose exp call splits into vectors and a tail differently
    from kornia.filters.kernels import gaussian

    gen = torch.Generator().manual_seed(size)
    for batch in (1, 2, 7, 32, 33):
        for trial in range(12):
            sigma = (torch.rand(batch, 1, generator=gen) * 4) ** 2
            sigma[0] = (0.0, 1e-30, 1e-20, 1e30, 0.1, 2.0)[trial % 6]
            ours = torch.ops.u8aug.gaussian_kernel1d(sigma, size)
            assert torch.equal(ours, gaussian(size, sigma)), (size, batch, trial)
            assert torch.equal(torch.ops.u8aug.gaussian_kernel1d(sigma.view(-1), size), ours)


@pytest.mark.parametrize(
    "sigma,size,message",
    [
        (torch.ones(2, 2), 5, "shape (B, 1) or (B,)"),
        (torch.ones(2, 1, dtype=torch.float64), 5, "float32 CPU"),
        (torch.ones(0, 1), 5, "at least one sigma"),
        (torch.ones(2, 1), 0, "kernel size in [1, 4096]"),
    ],
)
def test_the_gaussian_kernel_op_names_what_is_wrong(sigma, size, message):
    with pytest.raises(RuntimeError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        torch.ops.u8aug.gaussian_kernel1d(sigma, size)


AFFINES = [
    dict(degrees=30.0, translate=(0.1, 0.1), scale=(0.8, 1.2)),  # kornia's flagship benchmark's
    dict(degrees=180.0, shear=(-20.0, 20.0)),
    dict(degrees=360.0, translate=(0.5, 0.3), scale=(0.5, 1.5, 0.7, 1.3), shear=(-45.0, 45.0, -10.0, 10.0)),
    dict(degrees=0.0),
]


@pytest.mark.parametrize("settings", AFFINES)
def test_the_affine_matrix_is_kornias(settings):
    # u8aug.kornia_affine_matrix (RandomAffine's matrix from its params, with torch's sin, cos, tan
    # and bmm) against kornia's compute_transformation, over batches whose trig calls split into
    # vectors and a tail differently, and sizes (the centre)
    aug = K.RandomAffine(**settings, p=1.0)
    keys = ("translations", "center", "scale", "angle", "shear_x", "shear_y")
    for b, seed in itertools.product((1, 2, 7, 8, 16, 17, 32, 33), range(6)):
        shape = (b, 3, 64 + seed, 95 + 2 * seed)
        torch.manual_seed(seed)
        params = aug.forward_parameters(torch.Size(shape))
        want = aug.compute_transformation(torch.zeros(shape), params, aug.flags)
        ours = torch.ops.u8aug.kornia_affine_matrix(*[params[k].contiguous() for k in keys])
        assert torch.equal(ours, want), (b, seed)


def test_the_affine_matrix_op_names_what_is_wrong():
    ok = [torch.zeros(2, 2), torch.zeros(2, 2), torch.ones(2, 2), torch.zeros(2), torch.zeros(2), torch.zeros(2)]
    with pytest.raises(RuntimeError, match=r"expected center to be a float32 CPU tensor of shape \[2, 2\]"):
        torch.ops.u8aug.kornia_affine_matrix(ok[0], torch.zeros(3, 2), *ok[2:])
    with pytest.raises(RuntimeError, match="must be contiguous"):
        torch.ops.u8aug.kornia_affine_matrix(ok[0], torch.zeros(2, 1).expand(2, 2), *ok[2:])
    with pytest.raises(RuntimeError, match=r"expected angle of shape \(B,\) with B >= 1"):
        torch.ops.u8aug.kornia_affine_matrix(*ok[:3], torch.zeros(2, 1), *ok[4:])


@pytest.mark.parametrize("settings", [dict(distortion_scale=0.5), dict(distortion_scale=1.0),
                                      dict(distortion_scale=0.3, sampling_method="area_preserving")])  # fmt: skip
def test_the_perspective_matrix_is_kornias(settings):
    # u8aug.kornia_perspective_matrix (kornia's closed form, with torch's cross, sum and bmm) against
    # kornia's compute_transformation; a width of 1 keeps its column (a singular quad's matrix)
    aug = K.RandomPerspective(**settings, p=1.0)
    for b, seed in itertools.product((1, 2, 7, 8, 16, 17, 32, 33), range(5)):
        shape = (b, 3, 64 + seed, 1 if seed == 4 else 95)
        torch.manual_seed(seed)
        params = aug.forward_parameters(torch.Size(shape))
        want = aug.compute_transformation(torch.zeros(shape), params, aug.flags)
        ours = torch.ops.u8aug.kornia_perspective_matrix(params["start_points"].contiguous(), params["end_points"])
        assert torch.equal(ours.nan_to_num(), want.nan_to_num()) and torch.equal(ours.isnan(), want.isnan()), (b, seed)


def test_the_perspective_matrix_op_names_what_is_wrong():
    with pytest.raises(RuntimeError, match=r"expected end_points to be a float32 CPU tensor of shape \[2, 4, 2\]"):
        torch.ops.u8aug.kornia_perspective_matrix(torch.zeros(2, 4, 2), torch.zeros(2, 3, 2))
    with pytest.raises(RuntimeError, match=r"expected start_points of shape \(B, 4, 2\)"):
        torch.ops.u8aug.kornia_perspective_matrix(torch.zeros(4, 2), torch.zeros(4, 2))


@pytest.mark.parametrize("batch", [1, 2, 7, 32])
def test_a_kept_calls_record_holds_the_draws_tensors(batch):
    # the one-op kept call (u8aug::kept_call) returns the draw as one record, unpacked where its
    # state is read: every kind's tensors, their dtypes and shapes, at the places unpack reads
    modules = [CLASSES[name](UK, p=0.5) for name in ("RandomResizedCrop", "ColorJitter", "RandomAffine",
               "RandomPerspective", "RandomPosterize", "RandomGaussianBlur", "RandomHorizontalFlip")]  # fmt: skip
    modules[0] = UK.RandomResizedCrop((24, 20))  # a crop in a kept chain always applies
    chain = UK.AugmentationSequential(*modules)
    lines, kinds, numbers, bounds = _kept.program_of(chain)
    x = torch.zeros(batch, 3, 30, 34, dtype=torch.uint8)
    state = torch.get_rng_state()
    torch.manual_seed(batch)
    want = _native_draws.draw_program(lines, numbers, bounds, x.shape)
    want_state = torch.get_rng_state()
    torch.manual_seed(batch)
    y, record = torch.ops.u8aug.kept_call(x, _native_draws.joined(lines), numbers, bounds, "", [], [])
    assert torch.equal(torch.get_rng_state(), want_state)
    torch.set_rng_state(state)
    assert torch.equal(y, x) and record.dtype == torch.uint8
    got = _native_draws.unpack(record, lines, x.shape)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape and torch.equal(g, w)
    with pytest.raises(RuntimeError, match="record holds"):
        _native_draws.unpack(record[1:], lines, x.shape)


def test_a_kept_calls_record_is_its_own_while_held():
    # a freed draw's memory is kept for the next draw (bindings/draw_block.cpp): a record still held
    # keeps its bytes through later calls, and a reused block's record starts zeroed again
    chain = UK.AugmentationSequential(UK.RandomResizedCrop((6, 5)), UK.ColorJitter(0.4, 0.4, 0.4, 0.1, p=0.5))
    lines, _, numbers, bounds = _kept.program_of(chain)
    program = _native_draws.joined(lines)
    x = torch.zeros(3, 3, 12, 14, dtype=torch.uint8)
    torch.manual_seed(0)
    _, held = torch.ops.u8aug.kept_call(x, program, numbers, bounds, "", [], [])
    kept = held.clone()
    for seed in range(1, 4):  # each call's record freed at once: its block is the next call's
        torch.manual_seed(seed)
        _, record = torch.ops.u8aug.kept_call(x, program, numbers, bounds, "", [], [])
        torch.manual_seed(seed)
        want = _native_draws.draw_program(lines, numbers, bounds, x.shape)
        got = _native_draws.unpack(record, lines, x.shape)
        assert all(torch.equal(g, w) for g, w in zip(got, want))
        del record
    assert torch.equal(held, kept), "a held record was written by a later call"
    torch.manual_seed(0)
    _, again = torch.ops.u8aug.kept_call(x, program, numbers, bounds, "", [], [])
    assert torch.equal(again, kept), "the same draw gave another record (a reused block's old bytes)"


def test_a_kept_call_names_what_is_wrong():
    numbers, bounds = torch.tensor([1.0], dtype=torch.float64), torch.empty(0)
    x = torch.zeros(2, 3, 4, 4, dtype=torch.uint8)
    state = torch.get_rng_state()
    with pytest.raises(RuntimeError, match="slot 5 is outside"):
        torch.ops.u8aug.kept_call(x, "none 0", numbers, bounds, "hflip", [5], [])
    with pytest.raises(RuntimeError, match="slot -2 is outside"):
        torch.ops.u8aug.kept_call(x, "none 0", numbers, bounds, "hflip", [-2], [torch.empty(0, dtype=torch.bool)])
    with pytest.raises(RuntimeError, match="kept_call: expected img"):
        torch.ops.u8aug.kept_call(x.float(), "none 0", numbers, bounds, "", [], [])
    assert torch.equal(torch.get_rng_state(), state), "a refused call moved the generator"
    y, _ = torch.ops.u8aug.kept_call(x, "none 0", numbers, bounds, "hflip", [1], [])  # the draw's own gate
    assert torch.equal(y, x)
    # a program refused for its bounds after the same program was drawn with good ones: refused
    # before torch is asked for a number (what a program asks is kept from its first call)
    good, bad = torch.tensor([0.0, 8.0]), torch.tensor([0.0, 9.0])
    torch.ops.u8aug.kept_call(x, "posterize 0", numbers, good, "", [], [])
    state = torch.get_rng_state()
    with pytest.raises(RuntimeError, match=r"posterize bits must lie in \[0, 8\]"):
        torch.ops.u8aug.kept_call(x, "posterize 0", numbers, bad, "", [], [])
    assert torch.equal(torch.get_rng_state(), state), "a refused call moved the generator"


def test_a_kept_call_asks_torchs_generator_in_as_few_calls_as_its_chain_allows():
    # u8aug::kept_call draws with no Python inside: the chain's numbers come from torch's generator
    # through torch's dispatcher, torch.rand's numbers (uniform_ on scratch) once for each run of
    # uniform numbers (the crop's four draws, the flip's and the jitter's gates and the jitter's
    # factors are one run), torch.randperm for the jitter's order; the generator then stands where
    # kornia's own calls leave it.
    def make(mod):
        return mod.AugmentationSequential(
            mod.RandomResizedCrop((12, 10)),
            mod.RandomHorizontalFlip(),
            mod.ColorJitter(0.4, 0.4, 0.4, 0.1, p=0.8),
            mod.RandomGrayscale(p=0.2),
        )

    ours, theirs = make(UK), make(K)
    x = torch.randint(0, 256, (3, 3, 20, 18), dtype=torch.uint8)
    ours(x)  # plans (and works out what the chain asks for)
    torch.manual_seed(7)
    with torch.profiler.profile() as prof:
        ours(x)
    state = torch.get_rng_state()
    kept = [e for e in prof.events() if e.name == "u8aug::kept_call"]
    assert len(kept) == 1
    asked = [e.name for e in kept[0].cpu_children]
    assert asked.count("aten::uniform_") == 2 and asked.count("aten::randperm") == 1, asked
    assert "aten::rand" not in asked and "aten::empty" not in asked, asked
    torch.manual_seed(7)
    theirs(x.float() / 255)
    assert torch.equal(torch.get_rng_state(), state)
