"""The kept plan (u8aug.kornia._kept): after a configuration's first uint8 call, the fused
container draws natively and runs one pipeline op a call. Every call must still give kornia's
bytes, parameters, generator state and module state (kornia's own container of the same drop-ins,
module by module, is the reference); a configuration change must make a new plan; a chain whose
record is incomplete must not be kept; compiled calls must equal eager ones with no recompiles."""

from unittest import mock

import kornia.augmentation as K
import pytest
import torch
from kornia.constants import DataKey

import u8aug.kornia as UK
from conftest import random_image
from u8aug.kornia import _kept, _native_draws

MEAN, STD = torch.tensor([0.485, 0.456, 0.406]), torch.tensor([0.229, 0.224, 0.225])


def _recipe(**kw):
    return [
        UK.RandomResizedCrop((24, 20), **kw),
        UK.RandomHorizontalFlip(),
        UK.ColorJitter(0.4, 0.4, 0.4, 0.1, p=0.8, **kw),
        UK.RandomGrayscale(p=0.2),
        UK.Normalize(mean=MEAN, std=STD),
    ]


def _plans(container):
    return [p for plans in getattr(container, "_u8aug_kept_plans", {}).values() for p in plans.values()]


def _assert_same_call(ours, theirs, x, seed):
    torch.manual_seed(seed)
    got = ours(x)
    got_state = torch.get_rng_state()
    torch.manual_seed(seed)
    want = theirs(x)
    assert torch.equal(torch.get_rng_state(), got_state), "the generator after the call differs"
    assert got.dtype == want.dtype and got.shape == want.shape and torch.equal(got, want)
    assert [p.name for p in ours._params] == [p.name for p in theirs._params]
    for p, q in zip(ours._params, theirs._params):
        assert list(p.data) == list(q.data)
        assert all(torch.equal(p.data[k], q.data[k]) for k in q.data)
    for m, n, p in zip(ours.children(), theirs.children(), ours._params):
        assert list(m._params) == list(n._params)
        assert m._params.pop("data_keys") == n._params.pop("data_keys") == [DataKey.INPUT]
        assert all(torch.equal(m._params[k], n._params[k]) for k in n._params)
        assert m._transform_matrix_params is p.data  # the record kornia's matrix check reads
        assert torch.equal(m.transform_matrix, n.transform_matrix)
    assert torch.equal(ours.transform_matrix, theirs.transform_matrix)
    return got


def test_the_recipe_is_kept_and_each_call_is_kornias():
    ours, theirs = UK.AugmentationSequential(*_recipe()), K.AugmentationSequential(*_recipe())
    sizes = [(6, 40, 50), (1, 33, 50), (7, 64, 48), (1, 40, 50), (32, 30, 30), (2, 100, 27)]
    for seed, (b, h, w) in enumerate(sizes * 2):
        _assert_same_call(ours, theirs, random_image((b, 3, h, w), seed=seed), seed)
    plans = _plans(ours)
    assert len(plans) == 1 and isinstance(plans[0], _kept.KeptPlan), "one plan for every size and batch size"
    assert plans[0].native is not None, "u8aug's own classes on the CPU: one op a call (u8aug::kept_call)"
    assert plans[0].steps == (
        "crop_and_resize 24 20 bilinear 1 exact",
        "hflip",
        "color_jitter exact",
        "grayscale",
        "normalize",
    )


def _uniform_chain():
    # uniform draws (PlainUniformGenerator's, the blur's sigma), factors and kernels made from them
    return [
        UK.RandomBrightness((0.8, 1.2)),
        UK.RandomGaussianBlur((5, 3), (0.1, 2.0), p=0.5),
        UK.RandomHue((-0.2, 0.2), p=0.9),
        UK.RandomContrast((0.7, 1.3), p=0.5, same_on_batch=True),
        UK.RandomGamma((0.7, 1.3), (0.9, 1.1)),
    ]


def test_a_chain_of_uniform_draws_is_kept_and_each_call_is_kornias():
    ours, theirs = UK.AugmentationSequential(*_uniform_chain()), K.AugmentationSequential(*_uniform_chain())
    for seed, (b, h, w) in enumerate([(6, 40, 50), (1, 33, 50), (7, 64, 48), (2, 30, 30)] * 2):
        _assert_same_call(ours, theirs, random_image((b, 3, h, w), seed=seed), seed)
    plans = _plans(ours)
    assert len(plans) == 1 and isinstance(plans[0], _kept.KeptPlan)
    assert [s.split()[0] for s in plans[0].steps] == [
        "adjust_brightness", "filter2d_separable", "adjust_hue", "adjust_contrast", "adjust_gamma"
    ]  # fmt: skip


def test_a_generator_made_anew_with_other_ranges_makes_a_new_plan():
    from kornia.augmentation import random_generator as rg

    ours, theirs = UK.AugmentationSequential(*_uniform_chain()), K.AugmentationSequential(*_uniform_chain())
    x = random_image((4, 3, 30, 34), seed=1)
    _assert_same_call(ours, theirs, x, 0)
    _assert_same_call(ours, theirs, x, 1)  # kept
    for c in (ours, theirs):  # the same key (a range is a tensor, not in it), other bounds
        c[0]._param_generator = rg.PlainUniformGenerator(((1.4, 1.5), "brightness_factor", None, None))
        c[1]._param_generator = rg.RandomGaussianBlurGenerator((3.0, 4.0))
    for seed in (2, 3):
        _assert_same_call(ours, theirs, x, seed)


def test_one_image_and_the_fast_tier_are_kept():
    for fidelity in ("exact", "fast"):
        ours = UK.AugmentationSequential(*_recipe(fidelity=fidelity))
        theirs = K.AugmentationSequential(*_recipe(fidelity=fidelity))
        for seed in range(4):
            _assert_same_call(ours, theirs, random_image((3, 41, 37), seed=seed), seed)
        assert isinstance(_plans(ours)[0], _kept.KeptPlan)


def test_a_configuration_change_makes_a_new_plan():
    ours, theirs = UK.AugmentationSequential(*_recipe()), K.AugmentationSequential(*_recipe())
    x = random_image((4, 3, 40, 44), seed=1)
    _assert_same_call(ours, theirs, x, 0)
    for changed in (
        lambda c: setattr(c[1], "p", 0.9),
        lambda c: setattr(c[2], "p", 1.0),
        lambda c: setattr(c[0]._param_generator, "scale", (0.5, 0.6)),
        lambda c: c[0].flags.update(align_corners=False),
        lambda c: setattr(c[2], "same_on_batch", True),
        lambda c: setattr(c[2], "fidelity", "fast"),
    ):
        changed(ours)
        changed(theirs)
        for seed in (1, 2):
            _assert_same_call(ours, theirs, x, seed)
    assert len(_plans(ours)) == 7


def test_a_hook_patched_after_the_plan_runs():
    ours, theirs = UK.AugmentationSequential(*_recipe()), K.AugmentationSequential(*_recipe())
    x = random_image((4, 3, 40, 44), seed=2)
    _assert_same_call(ours, theirs, x, 0)
    _assert_same_call(ours, theirs, x, 1)  # kept
    with mock.patch.object(ours[1], "__batch_prob_generator__", wraps=ours[1].__batch_prob_generator__) as gate:
        with mock.patch.object(theirs[1], "__batch_prob_generator__", wraps=theirs[1].__batch_prob_generator__):
            _assert_same_call(ours, theirs, x, 3)
        assert gate.called, "the patched gate did not run"


@pytest.mark.parametrize(
    "make",
    [
        lambda: [UK.RandomAffine(20.0, p=0.7), UK.RandomHorizontalFlip()],  # a matrix made from the draw
        lambda: [UK.RandomHorizontalFlip(), UK.Normalize(mean=MEAN, std=STD), K.RandomVerticalFlip()],  # not fused
        lambda: [UK.RandomResizedCrop((10, 10), p=0.5), UK.RandomHorizontalFlip()],  # a crop that may skip
        lambda: [UK.RandomMotionBlur(3, 35.0, 0.5, p=0.5), UK.RandomHorizontalFlip()],  # no native draw
    ],
)
def test_chains_that_cannot_be_kept_run_the_fused_path(make):
    ours, theirs = UK.AugmentationSequential(*make()), K.AugmentationSequential(*make())
    for seed in range(3):
        x = random_image((3, 3, 30, 34), seed=seed)
        torch.manual_seed(seed)
        got = ours(x)
        torch.manual_seed(seed)
        want = theirs(x)
        assert torch.equal(got, want)
    assert not any(isinstance(p, _kept.KeptPlan) for p in _plans(ours))


def _kornia_writes_state_when_compiled() -> bool:
    """Whether kornia's own classes record their per-call state inside a compiled call: kornia skips
    it where torch reports the capture as an export, as torch before 2.12 does for torch.compile."""
    torch._dynamo.reset()
    flip = K.RandomHorizontalFlip()
    torch.compile(flip, fullgraph=True)(torch.rand(2, 3, 4, 4))
    return "batch_prob" in flip._params


@pytest.mark.compile
def test_a_compiled_kept_chain_equals_eager_with_no_recompiles():
    writes = _kornia_writes_state_when_compiled()
    torch._dynamo.reset()
    eager = UK.AugmentationSequential(*_recipe())
    for seed in range(2):  # kept before compiling: the traced call runs the kept plan
        eager(random_image((2, 3, 40, 44), seed=seed))
    compiled = torch.compile(eager, fullgraph=True, dynamic=True, options=UK.COMPILE_OPTIONS)
    frames = torch._dynamo.utils.counters["stats"]
    graphs = cache = None
    # a batch of one is its own graph (torch specializes sizes 0 and 1), so it comes first
    for seed, (b, h, w) in enumerate([(1, 64, 64), (2, 40, 44), (3, 50, 41), (5, 33, 90), (4, 41, 30)]):
        x = random_image((b, 3, h, w), seed=seed)
        before = eager._params
        torch.manual_seed(seed)
        got = compiled(x)
        got_state = torch.get_rng_state()
        got_params = eager._params
        if writes:  # each module's record is the container's params' own (one record, read once)
            assert all(m._transform_matrix_params is p.data for m, p in zip(eager.children(), got_params))
        torch.manual_seed(seed)
        want = eager(x)
        assert torch.equal(got_state, torch.get_rng_state())
        assert torch.equal(got, want)
        if writes:  # kornia's state, as the eager call leaves it
            for p, q in zip(got_params, eager._params):
                assert list(p.data) == list(q.data) and all(torch.equal(p.data[k], q.data[k]) for k in q.data)
        else:  # none, as kornia's own compiled calls leave none
            assert got_params is before
        graphs = frames["unique_graphs"] if seed == 1 else graphs
        # the compiled call finds its plan as the eager one does, not planning anew each call (a float
        # or tuple setting is never `is`-identical inside a compiled call: the guard compares values)
        if seed == 0:
            cache = eager._u8aug_key_cache
        assert eager._u8aug_key_cache is cache
    assert frames["unique_graphs"] == graphs, "a new image size or batch size recompiled"


@pytest.mark.parametrize(
    "make, shape",
    [
        (lambda: UK.AugmentationSequential(*_recipe()), (3, 30, 26)),
        (lambda: UK.AugmentationSequential(*_recipe(fidelity="fast")), (2, 3, 26, 30)),
        (lambda: UK.RandomGaussianBlur((3, 7), (0.1, 1.5), p=1.0, same_on_batch=True), (2, 3, 16, 18)),
        (lambda: UK.RandomGaussianBlur((5, 5), (0.1, 1.5), p=1.0), (3, 3, 16, 18)),
        (lambda: UK.RandomBrightness((0.8, 1.2), p=1.0), (3, 16, 18)),
        (lambda: UK.RandomPosterize(3, p=1.0), (2, 3, 16, 18)),
        (lambda: UK.RandomHue((-0.2, 0.2), p=1.0), (1, 3, 16, 18)),
    ],
)
def test_the_kept_ops_fakes_match_their_kernels(make, shape):
    """COMPILE_OPTIONS turn inductor's size asserts off, so a compiled call trusts each op's fake
    for its outputs' shapes, dtypes and strides: the fakes of the ops a kept call runs (the draw
    and the kept call, with their recipes) are checked against the kernels here (opcheck)."""
    assert UK.COMPILE_OPTIONS["size_asserts"] is False
    aug = make()
    calls = []
    kept_call = _native_draws.KEPT_CALL

    def record(*args):
        calls.append(args)
        return kept_call(*args)

    x = random_image(shape)
    aug(x)  # plans
    with mock.patch.object(_native_draws, "KEPT_CALL", record):
        aug(x)
    assert len(calls) == 1, "the call ran no kept op"
    img, program, numbers, bounds = calls[0][:4]
    checks = ("test_schema", "test_faketensor")
    torch.library.opcheck(torch.ops.u8aug.kept_call.default, calls[0], test_utils=checks)
    draw = (_native_draws.lines_of(program), numbers, bounds, list(img.shape))
    torch.library.opcheck(torch.ops.u8aug.kornia_forward_parameters.default, draw, test_utils=checks)


@pytest.mark.compile
@pytest.mark.parametrize(
    "make",
    [
        lambda: UK.RandomHorizontalFlip(),
        lambda: UK.RandomResizedCrop((12, 10)),
        # one op whose step reads tensors the op makes by a recipe (the blur's kernels, two sizes,
        # one for the batch; brightness's factor - 1): the op's fake gives their shapes
        lambda: UK.RandomGaussianBlur((3, 7), (0.1, 1.5), p=1.0, same_on_batch=True),
        lambda: UK.RandomBrightness((0.8, 1.2), p=1.0),
    ],
)
def test_a_compiled_class_on_its_own_leaves_kornias_state(make):
    # written through nn.Module.__setattr__, which torch.compile replays after the call, where kornia
    # writes it (a write past it, object.__setattr__, would be lost)
    writes = _kornia_writes_state_when_compiled()
    kept = None
    torch._dynamo.reset()
    ours, theirs, eager = make(), make(), make()
    compiled = torch.compile(ours, fullgraph=True, dynamic=True, options=UK.COMPILE_OPTIONS)
    for seed, b in enumerate([2, 3, 5]):
        x = random_image((b, 3, 30, 34), seed=seed)
        before = ours._params
        torch.manual_seed(seed)
        got = compiled(x)
        torch.manual_seed(seed)
        assert torch.equal(got, eager(x))  # the same bytes as the class called eagerly
        torch.manual_seed(seed)
        theirs(x.float() / 255)
        if seed == 0:
            kept = ours._u8aug_thin
        assert ours._u8aug_thin is kept  # the compiled call kept its plan
        if writes:
            assert list(ours._params) == list(theirs._params)
            assert all(torch.equal(ours._params[k], theirs._params[k]) for k in theirs._params)
        else:
            assert ours._params is before


@pytest.mark.compile
def test_two_compiled_containers_of_one_class_each_keep_their_plan():
    # one frame's compiled code serves both: the second container's first calls are traced while the
    # first's are cached, and the guard its call keeps holds copies of the modules' names (it was
    # compared by identity and missed on every call: the second container planned anew each time)
    torch._dynamo.reset()
    first, second = UK.AugmentationSequential(*_recipe()), UK.AugmentationSequential(*_recipe(fidelity="fast"))
    compiled = [torch.compile(c, fullgraph=True, dynamic=True, options=UK.COMPILE_OPTIONS) for c in (first, second)]
    x = random_image((2, 3, 40, 44), seed=0)
    for container, call in zip((first, second), compiled):
        for _ in range(2):
            call(x)
        cache = container._u8aug_key_cache
        for seed in range(3):
            torch.manual_seed(seed)
            got = call(x)
            torch.manual_seed(seed)
            assert torch.equal(got, container(x))
            assert container._u8aug_key_cache is cache, "the compiled call planned anew"


@pytest.mark.parametrize(
    "make",
    [
        lambda: UK.AugmentationSequential(*_recipe()),
        lambda: UK.RandomHorizontalFlip(),
        lambda: UK.RandomResizedCrop((12, 10)),
        lambda: UK.RandomAffine(20.0, p=1.0),
    ],
)
def test_a_called_pipeline_pickles_and_its_copy_gives_the_same_calls(make):
    # a DataLoader worker started by spawn or forkserver pickles the dataset's transform, which the
    # main process may have called already: its kept plans (guards holding u8aug's own functions)
    # are left out of the pickle and the copy plans anew
    import pickle

    aug = make()
    x = random_image((2, 3, 30, 34), seed=0)
    for _ in range(2):
        aug(x)
    copy = pickle.loads(pickle.dumps(aug))
    for seed in range(2):
        torch.manual_seed(seed)
        want = aug(x)
        torch.manual_seed(seed)
        assert torch.equal(copy(x), want)


def test_kornias_classes_after_install_pickle_after_a_uint8_call():
    import pickle

    UK.install()
    try:
        chain = K.AugmentationSequential(K.RandomHorizontalFlip(), K.ColorJitter(0.1, 0.1, 0.1, 0.1))
        flip = K.RandomVerticalFlip()
        x = random_image((2, 3, 30, 34), seed=1)
        for aug in (chain, flip):
            aug(x)
            aug(x)
            copy = pickle.loads(pickle.dumps(aug))
            torch.manual_seed(3)
            want = aug(x)
            torch.manual_seed(3)
            assert torch.equal(copy(x), want)
    finally:
        UK.uninstall()
