"""u8aug.kornia._draws: kornia's parameter generators in fewer tensor ops must give kornia's
parameters bit for bit and leave torch's random state where kornia's leave it, for every range,
input shape and batch option, and must step aside (kornia's generator runs) where they do not
reproduce kornia."""

import itertools

import kornia.augmentation as K
import pytest
import torch

import u8aug.kornia as UK
from u8aug.kornia import _draws
from u8aug.kornia._containers import module_parameters

RANGES = [
    {},
    {"scale": (0.5, 0.5)},
    {"scale": (1.0, 1.0)},
    {"scale": (2.0, 3.0)},  # no candidate fits: torchvision's fallback
    {"scale": (0.001, 0.01), "ratio": (1 / 3, 3.0)},
    {"ratio": (0.5, 0.5)},
    {"ratio": (100.0, 200.0)},  # the fallback crop of a wide ratio
    {"ratio": (0.01, 0.02)},  # and of a narrow one
    {"scale": (0.3, 0.9), "ratio": (0.9, 1.1)},
]
SHAPES = [(1, 3, 375, 500), (7, 3, 256, 256), (3, 1, 20, 600), (2, 3, 600, 20), (4, 3, 1, 1), (2, 3, 2, 3)]


def _same_draws(make, shape, seed):
    torch.manual_seed(seed)
    theirs = make(K).generate_parameters(torch.Size(shape))
    theirs_state = torch.get_rng_state()
    torch.manual_seed(seed)
    ours = make(UK).generate_parameters(torch.Size(shape))
    assert torch.equal(torch.get_rng_state(), theirs_state), "the random state after the draws differs from kornia's"
    assert ours.keys() == theirs.keys()
    for key in theirs:
        assert ours[key].dtype == theirs[key].dtype and ours[key].shape == theirs[key].shape, key
        assert torch.equal(ours[key], theirs[key]), f"{key} differs from kornia's"


@pytest.mark.parametrize("ranges", RANGES, ids=str)
@pytest.mark.parametrize("same_on_batch", [False, True])
def test_resized_crop_draws_are_kornias_bit_for_bit(ranges, same_on_batch):
    for shape, size, seed in itertools.product(SHAPES, [(224, 224), (5, 9)], range(3)):
        _same_draws(lambda mod: mod.RandomResizedCrop(size, same_on_batch=same_on_batch, **ranges), shape, seed)


def test_resized_crop_draws_over_many_seeds():
    # the standard recipe's crop on ImageNet-like sizes: every sample's ten candidates, the first
    # fitting one and the position, 200 draws of a batch of 16
    for seed, shape in zip(range(200), itertools.cycle([(16, 3, 333, 500), (16, 3, 640, 480), (16, 3, 224, 224)])):
        _same_draws(lambda mod: mod.RandomResizedCrop((224, 224)), shape, seed)


def test_the_replica_steps_aside_where_it_would_not_be_kornias():
    scale = torch.tensor([0.2, 0.9])
    crop = UK.RandomResizedCrop((32, 32), scale=scale)
    assert _draws.resized_crop(crop._param_generator, torch.Size((2, 3, 64, 64)), False) is None
    _same_draws(lambda mod: mod.RandomResizedCrop((32, 32), scale=scale), (2, 3, 64, 64), 0)
    double = UK.RandomResizedCrop((32, 32))
    double.set_rng_device_and_dtype(torch.device("cpu"), torch.float64)
    assert _draws.resized_crop(double._param_generator, torch.Size((2, 3, 64, 64)), False) is None
    empty = UK.RandomResizedCrop((32, 32))
    assert _draws.resized_crop(empty._param_generator, torch.Size((0, 3, 64, 64)), False) is None


@pytest.mark.parametrize("dynamic", [False, True])
def test_compiled_container_draws_kornias_crops(dynamic):
    # the user's path: the container's forward, draws included, compiled fullgraph, against
    # kornia's float pipeline under the same seed (a crop and a flip move bytes: exact equality)
    def recipe(mod):
        return mod.AugmentationSequential(mod.RandomResizedCrop((40, 48)), mod.RandomHorizontalFlip())

    ours = torch.compile(recipe(UK), fullgraph=True, dynamic=dynamic, options=UK.COMPILE_OPTIONS)
    theirs = recipe(K)
    g = torch.Generator().manual_seed(1)
    for seed, (h, w) in enumerate([(64, 80), (64, 80), (90, 70)]):
        x = torch.randint(0, 256, (3, 3, h, w), dtype=torch.uint8, generator=g)
        torch.manual_seed(seed)
        out = ours(x)
        torch.manual_seed(seed)
        ref = theirs(x.float() / 255)
        assert torch.equal(out, (ref * 255).round().to(torch.uint8))


JITTER_RANGES = [
    (0.4, 0.4, 0.4, 0.1),
    (0.0, 0.0, 0.0, 0.0),
    ((0.2, 1.8), (0.5, 0.5), 0.9, (-0.5, 0.5)),
    (2.0, 3.0, 4.0, 0.5),
]


@pytest.mark.parametrize("ranges", JITTER_RANGES, ids=str)
@pytest.mark.parametrize("same_on_batch", [False, True])
def test_color_jitter_draws_are_kornias_bit_for_bit(ranges, same_on_batch):
    for b, seed in itertools.product([1, 5, 32, 0], range(4)):
        _same_draws(lambda mod: mod.ColorJitter(*ranges, same_on_batch=same_on_batch), (b, 3, 8, 8), seed)


@pytest.mark.parametrize(
    "make",
    [
        lambda mod: mod.RandomHorizontalFlip(),
        lambda mod: mod.RandomHorizontalFlip(p=0.0),
        lambda mod: mod.RandomHorizontalFlip(p=0.3, same_on_batch=True),
        lambda mod: mod.RandomGrayscale(p=0.2),
        lambda mod: mod.RandomVerticalFlip(p=0.5, p_batch=0.7),
        lambda mod: mod.ColorJitter(0.4, 0.4, 0.4, 0.1, p=0.8),
        lambda mod: mod.RandomResizedCrop((20, 24), p=0.6),
        lambda mod: mod.Normalize(mean=torch.tensor([0.5]), std=torch.tensor([0.2])),
    ],
)
def test_the_containers_module_draws_are_kornias(make):
    # gate, parameters and recorded input shape, as kornia's forward_parameters gives them
    for shape, seed in itertools.product([(1, 3, 30, 40), (6, 3, 30, 40)], range(5)):
        torch.manual_seed(seed)
        theirs = make(K).forward_parameters(torch.Size(shape))
        state = torch.get_rng_state()
        torch.manual_seed(seed)
        ours = module_parameters(make(UK), torch.Size(shape))
        assert torch.equal(torch.get_rng_state(), state)
        assert ours.keys() == theirs.keys()
        for key in theirs:
            assert ours[key].dtype == theirs[key].dtype and torch.equal(ours[key], theirs[key]), key


def _box_args(b=3, size=(40, 60)):
    g = torch.Generator().manual_seed(0)
    area, aspect = torch.rand(b, 10, generator=g), torch.rand(b, 10, generator=g) + 0.5
    x, y = torch.rand(b, generator=g), torch.rand(b, generator=g)
    return (area, aspect, x, y, torch.tensor(size), 0.08, 0.92, 0.75, 4 / 3, 16, 24)


def test_resized_crop_boxes_helper_passes_opcheck():
    torch.library.opcheck(torch.ops.u8aug.resized_crop_boxes.default, _box_args())
    torch.library.opcheck(torch.ops.u8aug.resized_crop_boxes.default, _box_args(b=0))


@pytest.mark.parametrize(
    "index,bad,message",
    [
        (0, torch.rand(3, 9), r"expected area to be a float32 CPU tensor of shape \[3, 10\]"),
        (1, torch.rand(3, 10, dtype=torch.float64), r"expected aspect to be a float32 CPU tensor"),
        (2, torch.rand(4), r"expected x to be a float32 CPU tensor of shape \[3\]"),
        (3, torch.rand(6)[::2], r"y must be contiguous"),
        (
            4,
            torch.tensor([40.0, 60.0]),
            r"expected size to be a contiguous int64 CPU tensor of shape \[2\] or \[3, 2\]",
        ),
        (4, torch.tensor([0, 60]), r"the input size must be whole numbers in \[1, 2\^24\]"),
        (7, -1.0, r"expected 0 < ratio_min <= ratio_max"),
        (9, 0, r"the output size must be positive"),
    ],
)
def test_resized_crop_boxes_helper_refuses_bad_arguments(index, bad, message):
    args = list(_box_args())
    args[index] = bad
    with pytest.raises(RuntimeError, match="u8aug.resized_crop_boxes: " + message):
        torch.ops.u8aug.resized_crop_boxes(*args)


@pytest.mark.parametrize(
    "ranges",
    [{}, {"amount": (0.0, 0.0)}, {"amount": (0.5, 0.9), "salt_vs_pepper": (0.0, 1.0)}, {"amount": 0.2}],
    ids=str,
)
@pytest.mark.parametrize("same_on_batch", [False, True])
def test_salt_and_pepper_draws_are_kornias_bit_for_bit(ranges, same_on_batch):
    # the two noise maps' numbers come from u8aug.rand: the masks and the state after are kornia's
    for shape, seed in itertools.product([(1, 3, 31, 45), (5, 3, 224, 224), (4, 1, 20, 7), (3, 3, 1, 1)], range(3)):
        _same_draws(lambda mod: mod.RandomSaltAndPepperNoise(same_on_batch=same_on_batch, **ranges), shape, seed)


@pytest.mark.parametrize("layout", [torch.contiguous_format, torch.channels_last])
def test_salt_and_pepper_class_is_kornias_on_both_layouts(layout):
    x = torch.randint(0, 256, (6, 3, 40, 52), dtype=torch.uint8).contiguous(memory_format=layout)
    for seed in range(3):
        torch.manual_seed(seed)
        got = UK.RandomSaltAndPepperNoise(amount=(0.1, 0.6), p=0.7)(x)
        torch.manual_seed(seed)
        want = K.RandomSaltAndPepperNoise(amount=(0.1, 0.6), p=0.7)(x.float() / 255)
        assert got.is_contiguous(memory_format=layout)
        assert torch.equal(got, (want * 255).round().to(torch.uint8))


@pytest.mark.parametrize("same_on_batch", [False, True])
def test_elastic_noise_is_kornias_bit_for_bit(same_on_batch):
    for shape, seed in itertools.product([(1, 3, 31, 45), (4, 3, 224, 224), (2, 1, 7, 300)], range(3)):
        _same_draws(lambda mod: mod.RandomElasticTransform(same_on_batch=same_on_batch), shape, seed)
