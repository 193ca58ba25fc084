"""A class called on its own keeps its plan (u8aug.kornia._thin): after a configuration's first
uint8 call, a native draw and one pipeline op a call. Every call must still be kornia's forward's:
the same bytes, params, generator state after and module state (the reference is the same class
run through nn.Module's call and kornia's forward, which the drop-in tests check against kornia's
float path); a setting changed or a method patched must make a new plan and run; anything else
must take kornia's forward."""

import contextlib
import math
from unittest import mock

import kornia.augmentation as K
import numpy as np
import pytest
import torch
from kornia.constants import Resample

import u8aug.kornia as UK
from conftest import random_image
from u8aug.kornia import _native_draws, _thin

MEAN, STD = torch.tensor([0.485, 0.456, 0.406]), torch.tensor([0.229, 0.224, 0.225])

CASES = [
    ("RandomHorizontalFlip", (), dict(p=1.0)),
    ("RandomHorizontalFlip", (), dict(p=0.5)),
    ("RandomVerticalFlip", (), dict(p=0.3, same_on_batch=True)),
    ("RandomGrayscale", (), dict(p=0.2)),
    ("RandomInvert", (), dict(p=0.7)),
    ("RandomEqualize", (), dict(p=0.5)),
    ("RandomBoxBlur", ((3, 3),), dict(p=0.6)),
    ("RandomResizedCrop", ((24, 20),), dict()),
    ("RandomResizedCrop", ((24, 20),), dict(scale=(0.5, 1.0), ratio=(0.5, 2.0), same_on_batch=True)),
    ("ColorJitter", (0.4, 0.4, 0.4, 0.1), dict(p=0.8)),
    ("ColorJiggle", (0.2, 0.2, 0.2, 0.1), dict(p=1.0)),
    ("ColorJitter", (0.4, 0.4, 0.4, 0.1), dict(p=1.0, fidelity="fast")),
    ("Normalize", (), dict(mean=MEAN, std=STD)),
    # uniform draws (PlainUniformGenerator, the blur's sigma), with factors made from the draw
    ("RandomBrightness", ((0.8, 1.2),), dict(p=1.0)),
    ("RandomBrightness", ((0.5, 1.5),), dict(p=0.6, same_on_batch=True)),
    ("RandomContrast", ((0.7, 1.3),), dict(p=0.9)),
    ("RandomSaturation", ((0.5, 1.5),), dict(p=1.0)),
    ("RandomHue", ((-0.3, 0.3),), dict(p=0.7)),
    ("RandomGamma", ((0.6, 1.4), (0.9, 1.1)), dict(p=1.0)),
    ("RandomSolarize", (0.2, 0.1), dict(p=0.5)),
    ("RandomSharpness", (0.6,), dict(p=1.0)),
    ("RandomGaussianBlur", ((5, 5), (0.1, 2.0)), dict(p=1.0)),
    ("RandomGaussianBlur", ((3, 7), (0.0, 1.5)), dict(p=0.5, same_on_batch=True)),
    # a warp at p = 1: its matrix made from each draw, its op called with each image's size
    ("RandomAffine", (30.0, (0.1, 0.1), (0.8, 1.2)), dict(p=1.0)),
    ("RandomAffine", (90.0, None, (0.5, 1.5, 0.7, 1.3), (-20.0, 20.0)), dict(p=1.0, same_on_batch=True)),
    ("RandomPosterize", (3,), dict(p=0.7)),
    ("RandomPosterize", ((1.0, 7.0),), dict(p=1.0, same_on_batch=True)),
    ("RandomRotation", (45.0,), dict(p=1.0)),
    ("RandomRotation", ((-10.0, 80.0),), dict(p=1.0, same_on_batch=True, align_corners=False)),
    ("RandomPerspective", (0.5,), dict(p=1.0)),
    ("RandomPerspective", (0.3,), dict(p=1.0, sampling_method="area_preserving", same_on_batch=True)),
]
IDS = [f"{name}-{i}" for i, (name, _, _) in enumerate(CASES)]
SIZES = [(6, 3, 40, 50), (1, 3, 33, 50), (7, 3, 64, 48), (3, 30, 31), (32, 3, 30, 30), (2, 3, 100, 27)]


def _make(name, args, kwargs):
    return getattr(UK, name)(*args, **kwargs)


def _plans(module):
    return [] if module._u8aug_thin is None else list(module._u8aug_thin[1].values())


def _assert_same_call(ours, theirs, x, seed, during=contextlib.nullcontext):
    """ours(x), the kept plan's call (inside ``during()``), against kornia's forward on the same class
    (nn.Module's call)."""
    before = x.clone()
    torch.manual_seed(seed)
    with during():
        got = ours(x)
    got_state = torch.get_rng_state()
    torch.manual_seed(seed)
    want = torch.nn.Module.__call__(theirs, x)
    assert torch.equal(torch.get_rng_state(), got_state), "the generator after the call differs"
    assert got.dtype == want.dtype and got.shape == want.shape and torch.equal(got, want)
    assert torch.equal(x, before), "the input changed"
    assert list(ours._params) == list(theirs._params)
    for k in theirs._params:
        assert ours._params[k].dtype == theirs._params[k].dtype and torch.equal(ours._params[k], theirs._params[k]), k
    assert ours._transform_matrix_params is ours._params  # the record kornia's matrix check reads
    assert torch.equal(ours.transform_matrix, theirs.transform_matrix)
    return got


@pytest.mark.parametrize("name,args,kwargs", CASES, ids=IDS)
def test_each_call_is_kornias_forward_and_one_plan_serves_every_size(name, args, kwargs):
    ours, theirs = _make(name, args, kwargs), _make(name, args, kwargs)
    for seed, shape in enumerate(SIZES * 2):
        _assert_same_call(ours, theirs, random_image(shape, seed=seed), seed)
    plans = _plans(ours)
    assert len(plans) == 2 and all(isinstance(p, _thin.ThinPlan) for p in plans), "one plan for 4-D, one for 3-D"


@pytest.mark.parametrize("name,args,kwargs", CASES, ids=IDS)
def test_a_drawn_step_runs_as_one_op_with_its_draw(name, args, kwargs):
    # a drawn class whose step reads its draw as drawn, or made from it by a recipe the kept call
    # knows (brightness's factor - 1, hue's radians, posterize's bits), not a warp, runs the draw and
    # the step in one op (u8aug::kept_call): its params a record the state unpacks when read; the
    # Python draw does not run
    ours, theirs = _make(name, args, kwargs), _make(name, args, kwargs)
    x = random_image((3, 3, 30, 34), seed=7)
    _assert_same_call(ours, theirs, x, 0)
    _assert_same_call(ours, theirs, x[0], 1)  # the 3-D plan
    plan = _plans(ours)[0]
    made = [s[1] for s in plan.slots if s[0] == "derived"]  # tensors made from the draw by a recipe
    one_op = plan.draws and plan.op not in _WARP_OPS and all(r in _native_draws.NATIVE_RECIPES for r in made)
    assert (plan.native is not None) == one_op
    if one_op:

        def no_python_draw():
            return mock.patch.object(_native_draws, "draw_program", side_effect=AssertionError("a draw in Python"))

        for seed in (1, 2):
            _assert_same_call(ours, theirs, x, seed, no_python_draw)
            _assert_same_call(ours, theirs, x[0], seed + 10, no_python_draw)


_WARP_OPS = {getattr(torch.ops.u8aug, n).default for n in ("warp_affine", "warp_perspective")}


def test_keepdim_gives_a_one_image_input_its_dims_back():
    ours, theirs = UK.RandomHorizontalFlip(p=0.5, keepdim=True), UK.RandomHorizontalFlip(p=0.5, keepdim=True)
    for seed in range(4):
        got = _assert_same_call(ours, theirs, random_image((3, 20, 21), seed=seed), seed)
        assert got.shape == (3, 20, 21)


def test_a_setting_change_makes_a_new_plan():
    ours = UK.RandomResizedCrop((24, 20), p=1.0)
    theirs = UK.RandomResizedCrop((24, 20), p=1.0)
    x = random_image((4, 3, 40, 44), seed=1)
    _assert_same_call(ours, theirs, x, 0)
    first = _plans(ours)[0]
    for changed in (
        lambda m: setattr(m._param_generator, "scale", (0.5, 0.6)),
        lambda m: setattr(m._param_generator, "ratio", (1.0, 1.0)),
        lambda m: m.flags.update(resample=Resample.NEAREST),
        lambda m: m.flags.update(align_corners=False),
        lambda m: setattr(m, "same_on_batch", True),
    ):
        changed(ours)
        changed(theirs)
        for seed in (1, 2):
            _assert_same_call(ours, theirs, x, seed)
        assert _plans(ours)[0] is not first, "the plan outlived a setting"
        first = _plans(ours)[0]
    flip, theirs = UK.RandomHorizontalFlip(p=1.0), UK.RandomHorizontalFlip(p=1.0)
    _assert_same_call(flip, theirs, x, 0)
    flip.p = theirs.p = 0.5  # p = 1 draws nothing; p = 0.5 draws the gate
    for seed in (1, 2, 3):
        _assert_same_call(flip, theirs, x, seed)


def test_a_method_patched_after_the_plan_runs():
    ours, theirs = UK.RandomHorizontalFlip(p=0.5), UK.RandomHorizontalFlip(p=0.5)
    x = random_image((4, 3, 20, 22), seed=2)
    _assert_same_call(ours, theirs, x, 0)
    _assert_same_call(ours, theirs, x, 1)  # kept
    cls = UK.RandomHorizontalFlip
    with mock.patch.object(
        cls, "__batch_prob_generator__", autospec=True, side_effect=cls.__batch_prob_generator__
    ) as gate:
        _assert_same_call(ours, theirs, x, 3)
        assert gate.call_count == 2, "the patched gate did not run on both calls"
    with mock.patch.object(ours, "generate_parameters", wraps=ours.generate_parameters) as draw:
        torch.manual_seed(4)
        ours(x)
        assert draw.called, "an instance's own generate_parameters did not run"


@pytest.mark.parametrize("name", ["RandomAffine", "RandomPerspective"])
def test_a_warps_matrix_is_its_op_alone_unless_kornias_methods_are_replaced(name):
    # kornia's generate_transformation_matrix at p = 1 returns compute_transformation's matrix, which
    # is the native op's: a kept plan makes it by the op alone; a replaced method must run instead
    args = (30.0, 0.1, (0.8, 1.2)) if name == "RandomAffine" else (0.5,)
    ours, theirs = _make(name, args, dict(p=1.0)), _make(name, args, dict(p=1.0))
    x = random_image((3, 3, 30, 34), seed=5)
    for seed in (0, 1):
        _assert_same_call(ours, theirs, x, seed)
    recipes = [s[2][0][1] for p in _plans(ours) for s in p.slots if s[0] == "derived"]
    assert recipes and all(isinstance(r, torch._ops.OpOverload) for r in recipes)
    for method in ("compute_transformation", "generate_transformation_matrix"):
        with mock.patch.object(ours, method, wraps=getattr(ours, method)) as patched:
            _assert_same_call(ours, theirs, x, 2)
            assert patched.called, f"an instance's own {method} did not run"
        ours, theirs = _make(name, args, dict(p=1.0)), _make(name, args, dict(p=1.0))
        for seed in (0, 1):
            _assert_same_call(ours, theirs, x, seed)  # kept, the op alone
        callers, original = [], getattr(type(ours), method)

        def shifted(self, *args, **kwargs):  # another matrix: the bytes show whether it ran
            callers.append(self)
            matrix = original(self, *args, **kwargs).clone()
            matrix[:, 0, 2] += 3.0
            return matrix

        with mock.patch.object(type(ours), method, shifted):
            _assert_same_call(ours, theirs, x, 4)
        assert any(c is ours for c in callers), f"a patched {method} of the class did not run"


def test_hooks_keywords_and_float_take_kornias_path():
    aug = UK.RandomHorizontalFlip(p=0.5)
    x = random_image((2, 3, 16, 17), seed=3)
    aug(x)
    seen = []
    handle = aug.register_forward_hook(lambda m, args, out: seen.append(out))
    out = aug(x)
    handle.remove()
    assert len(seen) == 1 and seen[0] is out, "the forward hook did not run"
    params = aug.forward_parameters(x.shape)
    torch.manual_seed(0)
    y = aug(x, params=params)
    assert aug._params is params and torch.equal(y, torch.nn.Module.__call__(aug, x, params=params))
    xf = x.float() / 255
    torch.manual_seed(5)
    got = aug(xf)
    torch.manual_seed(5)
    assert torch.equal(got, K.RandomHorizontalFlip(p=0.5)(xf))


@pytest.mark.parametrize(
    "make",
    [
        lambda: UK.RandomHorizontalFlip(p=1.0),
        lambda: UK.AugmentationSequential(UK.RandomResizedCrop((8, 8)), UK.ColorJitter(0.2, 0.2, p=1.0)),
    ],
    ids=["class", "container"],
)
def test_a_module_compiled_in_place_or_hooked_takes_nn_modules_call(make):
    # the thin call (and the container's) is nn.Module's call only where that call would be the
    # forward alone: Module.compile()'s compiled call, a hook and a global hook still run
    aug = make()
    x = random_image((1, 3, 16, 17), seed=4)
    aug(x)
    ran = []

    def compiled(*args, **kwargs):  # stands in for what Module.compile() sets
        ran.append("compiled")
        return aug._call_impl(*args, **kwargs)

    aug._compiled_call_impl = compiled
    torch.manual_seed(1)
    got = aug(x)
    del aug._compiled_call_impl
    torch.manual_seed(1)
    assert ran == ["compiled"] and torch.equal(got, aug(x))
    handle = torch.nn.modules.module.register_module_forward_hook(lambda m, args, out: ran.append(type(m).__name__))
    try:
        aug(x)
    finally:
        handle.remove()
    assert ran[1:] and ran[-1] == type(aug).__name__, ran


@pytest.mark.parametrize(
    "make",
    [
        lambda: UK.RandomAffine(20.0, p=0.7),  # a matrix computed from the draw
        lambda: UK.RandomMotionBlur(3, 35.0, 0.5, p=1.0),  # a draw in Python
        lambda: UK.RandomResizedCrop((10, 10), p=0.5),  # a crop that may skip
        lambda: UK.PadTo((40, 40)),  # steps that depend on the size
        lambda: UK.RandomHorizontalFlip(p=0.0),
    ],
)
def test_classes_that_cannot_be_kept_run_kornias_forward(make):
    ours, theirs = make(), make()
    for seed, shape in enumerate([(3, 3, 30, 34), (2, 3, 20, 25), (3, 21, 22)]):
        x = random_image(shape, seed=seed)
        torch.manual_seed(seed)
        got = ours(x)
        torch.manual_seed(seed)
        want = torch.nn.Module.__call__(theirs, x)
        assert torch.equal(got, want)
    assert not any(isinstance(p, _thin.ThinPlan) for p in _plans(ours))


def test_a_container_with_padto_pads_each_size_to_its_target():
    # PadTo's steps depend on the image's size: a kept chain would pad later sizes by the first's
    # amounts (it did, before steps_fixed)
    seq = UK.AugmentationSequential(UK.PadTo((40, 40)), UK.RandomHorizontalFlip())
    for seed, hw in enumerate([(30, 30), (20, 25), (33, 40)]):
        x = random_image((2, 3, *hw), seed=seed)
        torch.manual_seed(seed)
        got = seq(x)
        torch.manual_seed(seed)
        want = K.AugmentationSequential(K.PadTo((40, 40)), K.RandomHorizontalFlip())(x.float())
        assert got.shape == (2, 3, 40, 40) and torch.equal(got.float(), want)


def test_installed_kornia_classes_keep_their_plans():
    UK.install()
    try:
        ours, theirs = K.RandomResizedCrop((16, 18)), K.RandomResizedCrop((16, 18))
        for seed, shape in enumerate(SIZES):
            _assert_same_call(ours, theirs, random_image(shape, seed=seed), seed)
        assert any(isinstance(p, _thin.ThinPlan) for p in _plans(ours))
    finally:
        UK.uninstall()
    assert "_u8aug_thin" not in vars(K.RandomResizedCrop) and "__call__" not in vars(K.RandomResizedCrop)


def test_bad_input_after_the_plan_is_kept_raises_clearly():
    aug = UK.RandomBoxBlur((5, 5), p=1.0)
    aug(random_image((2, 3, 30, 30)))  # kept
    with pytest.raises((RuntimeError, ValueError)):
        aug(random_image((2, 3, 2, 2)))  # smaller than reflect padding allows
    jitter = UK.ColorJitter(0.4, 0.4, 0.4, 0.1, p=1.0)
    jitter(random_image((2, 3, 10, 10)))  # kept for 3 channels
    with pytest.raises((RuntimeError, ValueError, TypeError)):
        jitter(random_image((2, 2, 10, 10)))  # a new plan, and kornia's check of the channels


def test_the_kept_calls_recipes_are_the_python_recipes_float32_steps():
    # bindings/kept_call.inc makes factor - 1, factor * 2 * pi and the bits as float32 in float32
    # operations, in this order, with pi as float32 (torch's float32 tensor times a Python number):
    # the apply functions' recipes give the same floats for every factor tried
    g = torch.Generator().manual_seed(0)
    factors = torch.cat([(torch.rand(1 << 20, generator=g) * 4 - 2), torch.tensor([0.0, -0.0, 0.5, -0.5, 1.0, 2.0])])
    f = factors.numpy()
    from u8aug.kornia import _apply, _apply_filters

    assert np.array_equal(_apply._less_one(factors).numpy(), f - np.float32(1), equal_nan=True)
    assert np.array_equal(_apply._turns_to_radians(factors).numpy(), f * np.float32(2) * np.float32(math.pi))
    bits = torch.randint(-(2**31), 2**31 - 1, (1 << 16,), dtype=torch.int32, generator=g)
    assert np.array_equal(_apply._bits(bits, torch.device("cpu")).numpy(), bits.numpy().astype(np.float32))
    assert {_apply._less_one, _apply._turns_to_radians, _apply._bits} < set(_native_draws.NATIVE_RECIPES)
    # what the kept call cannot make stays in Python: another device's bits, a size that is not an int
    assert _native_draws.recipe_slot(_apply._bits, (("const", torch.device("meta")),), 3) is None
    assert _native_draws.recipe_slot(_apply_filters._gaussian_kernels, (("const", 5.0), ("const", False)), 3) is None
    assert _native_draws.recipe_slot(_apply_filters._gaussian_kernels, (("const", 5), ("const", True)), 3) == (
        _native_draws.RECIPE_SLOT * (4 + 8 * 11) + 3
    )
    assert _native_draws.recipe_slot(lambda f: f, (), 3) is None
