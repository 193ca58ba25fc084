"""The fused container: u8aug.kornia.AugmentationSequential on a uint8 batch runs its drop-in steps
as u8aug.pipeline ops, and gives the bytes of the same modules run one by one (kornia's own
container with the same drop-ins), with kornia's draws, state, matrices and inverse."""

import kornia.augmentation as K
import pytest
import torch

import u8aug
import u8aug.kornia as UK
from conftest import random_image, to_u8
from u8aug.kornia import _fused, _native_draws

MEAN, STD = torch.tensor([0.485, 0.456, 0.406]), torch.tensor([0.229, 0.224, 0.225])


def _chains(fidelity="exact"):
    """name -> a function making fresh modules (the same for the fused and the step-by-step run)."""
    f = {"fidelity": fidelity}
    return {
        "standard": lambda: [
            UK.RandomResizedCrop((24, 20), **f),
            UK.RandomHorizontalFlip(),
            UK.ColorJitter(0.4, 0.4, 0.4, 0.1, p=0.8, **f),
            UK.RandomGrayscale(p=0.2),
            UK.Normalize(mean=MEAN, std=STD),
        ],
        "SimCLR": lambda: [
            UK.RandomResizedCrop((24, 20), **f),
            UK.RandomHorizontalFlip(),
            UK.ColorJitter(0.4, 0.4, 0.4, 0.1, p=0.8, **f),
            UK.RandomGrayscale(p=0.2),
            UK.RandomGaussianBlur(23, (0.1, 2.0), p=0.5),
            UK.RandomSolarize(0.1, 0.1, p=0.2),
            UK.Normalize(mean=MEAN, std=STD),
        ],
        "uint8 out": lambda: [
            UK.RandomResizedCrop((24, 20), scale=(0.3, 1.0), **f),
            UK.RandomVerticalFlip(p=0.5),
            UK.ColorJiggle(0.3, 0.3, 0.3, 0.2, p=0.7, **f),
            UK.RandomSolarize(p=0.3),
        ],
        "affine family": lambda: [
            UK.RandomAffine(30, (0.1, 0.1), (0.8, 1.2), 10, p=0.6, **f),
            UK.RandomRotation(20, p=0.5, **f),
            UK.RandomPerspective(0.4, p=0.5, **f),
            UK.RandomShear(10, p=0.5, **f),
            UK.RandomTranslate(0.1, p=0.5, **f),
            UK.RandomRotation90((-1, 2), p=0.5, **f),
        ],
        "intensity": lambda: [
            UK.RandomBrightness((0.7, 1.3), p=0.6),
            UK.RandomContrast((0.7, 1.3), p=0.6),
            UK.RandomGamma((0.7, 1.4), p=0.6),
            UK.RandomPosterize(3, p=0.5),
            UK.RandomSaturation((0.5, 1.5), p=0.6, **f),
            UK.RandomHue((-0.2, 0.2), p=0.6, **f),
            UK.RandomEqualize(p=0.5),
            UK.RandomAutoContrast(p=0.5),
            UK.RandomRGBShift(0.2, 0.2, 0.2, p=0.5),
            UK.RandomInvert(p=0.5),
            UK.RandomChannelDropout(p=0.5),
            UK.RandomGaussianBlur(5, (0.1, 2.0), p=0.5, **f),
            UK.RandomMotionBlur(5, 30.0, 0.5, p=0.5, **f),
            UK.RandomMedianBlur((3, 3), p=0.5),
            UK.RandomBoxBlur((2, 4), p=0.5),
            UK.RandomSharpness((0.2, 1.8), p=0.5),
        ],
        "crops and resizes": lambda: [
            UK.RandomCrop((28, 30), padding=3, padding_mode="reflect", **f),
            UK.Resize((26, 22), **f),
            UK.RandomHorizontalFlip(),
            UK.RandomResizedCrop((16, 18), **f),
        ],
        "antialiased resize": lambda: [  # its blur of the whole input runs on its own, between fused runs
            UK.RandomHorizontalFlip(),
            UK.Resize((20, 17), antialias=True, **f),
            UK.RandomVerticalFlip(p=0.5),
            UK.Resize((21, 30), antialias=True, **f),
        ],
        "weather and noise": lambda: [
            UK.RandomHorizontalFlip(),
            UK.RandomPlasmaBrightness(p=0.6),
            UK.RandomPlasmaContrast(p=0.5),
            UK.RandomPlasmaShadow(p=0.5),
            UK.RandomRain(p=0.5, drop_height=(2, 8), drop_width=(-3, 3), number_of_drops=(10, 40)),
            UK.RandomSnow(p=0.5),
            UK.RandomGaussianNoise(std=0.05, p=0.5),
            UK.RandomLinearIllumination(p=0.5),
            UK.RandomLinearCornerIllumination(p=0.5),
            UK.RandomGaussianIllumination(p=0.5),
            UK.RandomPlasmaShadow(p=1.0, same_on_batch=True),
            UK.RandomErasing(p=0.5),
            UK.RandomErasing(p=1.0, same_on_batch=True, value=0.5),
        ],
        "unfusable in the middle": lambda: [
            UK.RandomHorizontalFlip(),
            UK.RandomChannelShuffle(p=0.5),
            UK.RandomSaltAndPepperNoise(p=0.5),
            UK.RandomPlanckianJitter(p=0.5),
            UK.ColorJiggle(0.2, 0.2, 0.2, 0.1, **f),
            UK.CenterCrop((20, 20)),
            UK.RandomGrayscale(p=0.5),
        ],
        "normalize then float": lambda: [
            UK.RandomHorizontalFlip(),
            UK.Normalize(mean=MEAN, std=STD),
            K.RandomVerticalFlip(p=0.5),
        ],
    }


class _Count:
    """Counts the pipeline's calls (the fused path was taken: u8aug.pipeline, or a kept call's
    u8aug.kept_call) and the steps they ran."""

    def __init__(self, monkeypatch):
        self.calls, self.steps = 0, []
        pipeline, kept_call = torch.ops.u8aug.pipeline, _native_draws.KEPT_CALL

        def spy(img, steps, tensors):
            self.calls += 1
            self.steps.append(list(steps))
            return pipeline(img, steps, tensors)

        def kept_spy(img, program, numbers, bounds, steps, *rest):
            self.calls += 1
            self.steps.append(_native_draws.lines_of(steps))
            return kept_call(img, program, numbers, bounds, steps, *rest)

        monkeypatch.setattr(torch.ops.u8aug, "pipeline", spy)
        monkeypatch.setattr(_native_draws, "KEPT_CALL", kept_spy)


def _pair(make):
    return UK.AugmentationSequential(*make()), K.AugmentationSequential(*make())


def _batch(layout, b=6, h=32, w=36, seed=0):
    x = random_image((b, 3, h, w), seed=seed)
    return x.contiguous(memory_format=torch.channels_last) if layout == "channels_last" else x


@pytest.mark.parametrize("fidelity", ["exact", "fast"])
@pytest.mark.parametrize("chain", list(_chains()))
@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
@pytest.mark.parametrize("threads", [1, 2])
def test_fused_equals_step_by_step(chain, layout, threads, fidelity, monkeypatch):
    fused, plain = _pair(_chains(fidelity)[chain])
    count = _Count(monkeypatch)
    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        for seed in range(4):
            x = _batch(layout, seed=seed)
            torch.manual_seed(seed)
            got = fused(x)
            torch.manual_seed(seed)
            want = plain(x)
            assert got.dtype == want.dtype and got.shape == want.shape and got.stride() == want.stride()
            assert torch.equal(got, want), f"{chain}, seed {seed}"
    finally:
        torch.set_num_threads(old)
    assert count.calls >= 4, "the fused path did not run"


def test_a_module_that_cannot_fuse_splits_the_chain(monkeypatch):
    fused = UK.AugmentationSequential(*_chains()["unfusable in the middle"]())
    count = _Count(monkeypatch)
    fused(_batch("contiguous"))
    assert count.steps == [["hflip"], ["color_jiggle exact"], ["grayscale"]]


def test_float_input_and_other_data_keys_take_kornia_path(monkeypatch):
    count = _Count(monkeypatch)
    fused, plain = _pair(_chains()["uint8 out"])
    x = _batch("contiguous").float() / 255
    torch.manual_seed(1)
    got = fused(x)
    torch.manual_seed(1)
    assert torch.equal(got, plain(x))
    assert count.calls == 0
    with_mask = UK.AugmentationSequential(UK.RandomHorizontalFlip(), data_keys=["input", "mask"])
    x = _batch("contiguous")
    assert not _fused.fusable_call(with_mask, (x, torch.zeros(6, 1, 32, 36)), None, None)
    assert _fused.fusable_call(fused, (x[0],), None, None)  # a 3-D image: a batch of one (test_recipes.py)
    assert _fused.fusable_call(fused, (x,), None, None)


def test_state_matrices_and_inverse_are_kornias():
    make = lambda: [  # noqa: E731
        UK.RandomResizedCrop((24, 20)),
        UK.RandomAffine(20, p=0.7),
        UK.RandomHorizontalFlip(),
        UK.ColorJiggle(0.2, 0.2, 0.2, 0.1),
    ]
    fused, plain = _pair(make)
    x = _batch("contiguous")
    torch.manual_seed(5)
    a = fused(x)
    torch.manual_seed(5)
    b = plain(x)
    assert torch.equal(a, b)
    assert [p.name for p in fused._params] == [p.name for p in plain._params]
    for p, q in zip(fused._params, plain._params):
        assert p.data.keys() == q.data.keys()
        assert all(torch.equal(p.data[k], q.data[k]) for k in p.data if isinstance(p.data[k], torch.Tensor))
    assert torch.equal(fused.transform_matrix, plain.transform_matrix)
    for module, other in zip(fused.children(), plain.children()):
        assert torch.equal(module.transform_matrix, other.transform_matrix)


def test_inverse_is_kornias():
    fused, plain = _pair(lambda: [UK.RandomAffine(20, p=0.7), UK.RandomHorizontalFlip(), UK.ColorJiggle(0.2, 0.2, 0.2)])
    x = _batch("contiguous")
    torch.manual_seed(6)
    a = fused(x)
    torch.manual_seed(6)
    b = plain(x)
    assert torch.equal(a, b) and torch.equal(fused.inverse(a), plain.inverse(b))


def test_replaying_params_gives_the_same_bytes():
    fused = UK.AugmentationSequential(*_chains()["standard"]())
    x = _batch("contiguous")
    first = fused(x)
    assert torch.equal(fused(x, params=fused._params), first)


def test_install_fuses_kornias_container(monkeypatch):
    count = _Count(monkeypatch)
    UK.install()
    try:
        aug = K.AugmentationSequential(K.RandomHorizontalFlip(), K.ColorJiggle(0.2, 0.2, 0.2, 0.1))
        torch.manual_seed(0)
        got = aug(_batch("contiguous"))
        assert got.dtype == torch.uint8 and count.calls == 1
    finally:
        UK.uninstall()
    assert K.AugmentationSequential.forward is _fused._KORNIA_FORWARD


@pytest.mark.compile
@pytest.mark.parametrize("chain", ["standard", "affine family", "weather and noise", "unfusable in the middle"])
def test_compiled_fused_container_equals_eager_with_no_recompiles(chain):
    torch._dynamo.reset()
    fused = UK.AugmentationSequential(*_chains()[chain]())
    compiled = torch.compile(fused, fullgraph=True, options=UK.COMPILE_OPTIONS)
    frames = torch._dynamo.utils.counters["stats"]

    def check(b, seed):
        x = _batch("contiguous", b=b, seed=seed)
        torch.manual_seed(seed)
        got = compiled(x)
        torch.manual_seed(seed)
        assert torch.equal(got, fused(x)), (b, seed)

    check(4, 0)
    check(6, 1)  # the second batch size makes the graph dynamic in the batch (torch's own rule)
    graphs = frames["unique_graphs"]
    for seed, b in [(2, 4), (3, 5), (4, 8), (5, 6), (6, 3)]:
        check(b, seed)
    assert frames["unique_graphs"] == graphs, "a new draw or batch size recompiled"


def test_pipeline_op_rejects_bad_plans():
    x = _batch("contiguous", b=2)
    every = torch.empty(0, dtype=torch.bool)
    factor = torch.tensor([0.1, 0.2])
    rows = {
        "unknown step 'blur'": (["blur"], []),
        "tensors ran out": (["adjust_brightness"], [every]),
        "tensors left over": (["hflip"], [every, factor]),
        "follows normalize": (["normalize", "hflip"], [MEAN, STD, every]),
        "take to be empty or a 1-D bool tensor": (["hflip"], [torch.tensor([True, False, True])]),
        "must keep the size": (
            ["warp_affine 10 10 bilinear zeros 1 exact"],
            [torch.tensor([True, False]), torch.eye(3)[None, :2].contiguous(), torch.empty(0)],
        ),
        "fidelity must be 'exact' or 'fast'": (["adjust_hue quick"], [every, factor]),
        "as an integer": (["resize a 4 bilinear 0 exact"], []),
    }
    for needle, (steps, tensors) in rows.items():
        before = x.clone()
        with pytest.raises(RuntimeError, match="u8aug.pipeline: .*" + needle.replace("(", r"\(").replace(")", r"\)")):
            u8aug.pipeline(x, steps, tensors)
        assert torch.equal(x, before)


def test_pipeline_op_step_errors_name_the_step_op():
    x = _batch("contiguous", b=2)
    with pytest.raises(RuntimeError, match="u8aug.adjust_hue: "):
        u8aug.pipeline(x, ["adjust_hue exact"], [torch.empty(0, dtype=torch.bool), torch.tensor([9.0, 0.0])])


def _step_of(name, args, gated):
    """The step and tensors for op ``name`` with its arguments after img, written from the op's
    schema (this test's own reading of the rule in bindings/pipeline_steps.h)."""
    words, tensors = [name], [torch.empty(0, dtype=torch.bool)] if gated else []
    schema = getattr(torch.ops.u8aug, name).default._schema.arguments[1:]
    args = list(args) + [a.default_value for a in schema[len(args) :]]  # the ones left to their defaults
    for a, value in zip(schema, args):
        kind = str(a.type)
        if "Tensor" in kind:
            tensors.append(torch.empty(0) if value is None else value)
        elif kind.startswith("List[int]"):
            words += [str(int(v)) for v in value]
        elif kind == "bool":
            words.append(str(int(bool(value))))
        else:
            words.append(str(value))
    return " ".join(words), tensors


@pytest.mark.parametrize("name", sorted(u8aug._C.pipeline_steps()))
def test_every_step_is_its_catalogue_op_in_schema_order(name):
    """Each step of the one list is a catalogue op whose words and tensors follow its schema: the
    one-step pipeline equals the op (the C++ parse reads each argument by its schema's name and
    kind, and fails on any it leaves unread)."""
    from op_samples import SAMPLES

    gated = u8aug._C.pipeline_steps()[name]
    x = _batch("contiguous", b=2)
    args = SAMPLES[name](x)
    step, tensors = _step_of(name, args[1:], gated)
    expected = getattr(torch.ops.u8aug, name)(*args)
    assert torch.equal(u8aug.pipeline(x, [step], tensors), expected), step
    torch._dynamo.reset()  # one code object compiled per step: past dynamo's recompile limit otherwise
    compiled = torch.compile(lambda t: u8aug.pipeline(t, [step], tensors), fullgraph=True)
    assert torch.equal(compiled(x), expected), step


@pytest.mark.parametrize(
    "make",
    [
        lambda m: m.RandomResizedCrop((12, 14), cropping_mode="resample"),
        lambda m: m.RandomCrop((12, 14), cropping_mode="resample", resample="bicubic"),
    ],
)
def test_crops_in_resample_mode_plan_with_their_matrix(make):
    # the crops' cropping_mode="resample" warps by the crop's matrix inside the container too (it
    # once reached the planner without one: a TypeError)
    x = random_image((3, 3, 16, 17), seed=4)
    torch.manual_seed(0)
    got = UK.AugmentationSequential(make(UK))(x)
    torch.manual_seed(0)
    assert torch.equal(got, to_u8(K.AugmentationSequential(make(K))(x.float() / 255)))


def test_pad_to_a_smaller_size_crops_in_the_container():
    # PadTo's negative amount crops by slicing its input, which a planned chain cannot hold: the
    # module runs on its own (it once came out uncropped, the input's size and bytes)
    x = random_image((3, 3, 16, 17), seed=5)
    make = lambda m: m.AugmentationSequential(m.PadTo(size=(10, 14), pad_mode="reflect"), m.RandomHorizontalFlip())
    torch.manual_seed(0)
    got = make(UK)(x)
    torch.manual_seed(0)
    assert torch.equal(got, to_u8(make(K)(x.float() / 255)))


def test_the_per_image_dataloader_example_runs(capsys):
    # examples/per_image_dataloader.py: one image a __getitem__ through the container, stacked by the
    # DataLoader; its --measure runs u8aug and albumentations side by side
    import runpy
    from pathlib import Path

    main = runpy.run_path(str(Path(__file__).parents[2] / "examples" / "per_image_dataloader.py"))["main"]
    main([])
    main(["--measure", "--images", "8"])
    out = capsys.readouterr().out
    assert "batch 1: (32, 3, 224, 224) torch.float32, labels (32,)" in out
    assert "u8aug.kornia:" in out and "albumentations:" in out


def _recipe(m, fidelity=None):
    tier = {} if fidelity is None else {"fidelity": fidelity}
    return [
        m.RandomResizedCrop((24, 20), **tier),
        m.RandomHorizontalFlip(),
        m.ColorJitter(0.4, 0.4, 0.4, 0.1, p=1.0, **tier),
        m.RandomAffine(15.0, p=0.5, **tier),
        m.Normalize(torch.tensor([0.485, 0.456, 0.406]), torch.tensor([0.229, 0.224, 0.225])),
    ]


def test_the_containers_fast_switch_is_each_steps_fast_tier():
    # AugmentationSequential(fidelity="fast"): one switch for the chain, the bytes of the same chain
    # built from fast classes, eager and compiled; "exact" (the default) leaves each class's own
    x = random_image((6, 3, 40, 52), seed=6)
    switched = UK.AugmentationSequential(*_recipe(UK), fidelity="fast")
    assert [getattr(m, "fidelity", None) for m in switched.children()] == ["fast", None, "fast", "fast", None]
    assert "fidelity='fast'" in repr(switched).splitlines()[1]
    by_class = UK.AugmentationSequential(*_recipe(UK, "fast"))
    exact = UK.AugmentationSequential(*_recipe(UK))
    outs = []
    for aug in (switched, by_class, exact):
        torch.manual_seed(1)
        outs.append(aug(x))
    assert torch.equal(outs[0], outs[1]) and not torch.equal(outs[0], outs[2])
    compiled = torch.compile(switched, fullgraph=True, options=UK.COMPILE_OPTIONS)
    torch.manual_seed(1)
    assert torch.equal(compiled(x), outs[0])
    kept = UK.AugmentationSequential(UK.ColorJitter(0.4, 0.4, 0.4, 0.1, fidelity="fast"))
    assert kept.fidelity == "exact" and kept[0].fidelity == "fast" and repr(kept).count("fidelity") == 1
    with pytest.raises(ValueError, match="fidelity must be 'exact' or 'fast', got 'fastest'"):
        UK.AugmentationSequential(UK.RandomHorizontalFlip(), fidelity="fastest")
