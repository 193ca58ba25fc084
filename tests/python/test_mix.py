"""The batch mixes: u8aug.kornia.RandomMixUpV2 and RandomCutMixV2 on uint8 against kornia's float
classes under the same seed (images byte for byte, labels equal), fullgraph compile == eager on
aug(images, labels), and the ops' bad-input table."""

import warnings

import kornia.augmentation as K
import pytest
import torch

import u8aug
import u8aug.kornia as UK


def oracle(y):
    return (y * 255).round().clamp(0, 255).to(torch.uint8)


def images(shape, seed=0):
    return torch.randint(0, 256, shape, dtype=torch.uint8, generator=torch.Generator().manual_seed(seed))


CASES = [
    ("RandomMixUpV2", dict()),
    ("RandomMixUpV2", dict(lambda_val=(0.2, 0.9), p=0.6)),
    ("RandomMixUpV2", dict(same_on_batch=True)),
    ("RandomCutMixV2", dict(use_correct_lambda=True)),
    ("RandomCutMixV2", dict(num_mix=3, cut_size=(0.3, 0.8), p=0.6, use_correct_lambda=True)),
    ("RandomCutMixV2", dict(beta=0.5, same_on_batch=True, use_correct_lambda=False)),
]
JIGSAW = [
    dict(grid=(4, 4)),
    dict(grid=(2, 3), p=0.6),
    dict(grid=(1, 4), ensure_perm=False),
    dict(grid=(2, 3), p=0.6, ensure_perm=False),
]


@pytest.mark.parametrize("kwargs", [dict(p=1.0), dict(p=0.6, excluded_labels=[0]), dict(p=1.0, p_batch=0.7)])
def test_transplantation_equals_kornia(kwargs):
    x = images((5, 3, 12, 14), 9)
    masks = torch.randint(0, 4, (5, 12, 14), generator=torch.Generator().manual_seed(2))
    before = x.clone()
    for seed in range(4):
        torch.manual_seed(seed)
        want_img, want_mask = K.RandomTransplantation(**kwargs)(x.float() / 255, masks)
        torch.manual_seed(seed)
        aug = UK.RandomTransplantation(**kwargs)
        got_img, got_mask = aug(x, masks)
        assert got_img.dtype == torch.uint8 and torch.equal(got_img, oracle(want_img)), seed
        assert torch.equal(got_mask, want_mask), seed
        replay_img, _ = aug(x, masks, params=aug._params)  # the drawn choice replayed
        assert torch.equal(replay_img, got_img)
    assert torch.equal(x, before)


MOSAIC = [
    dict(output_size=(40, 50), p=1.0),
    dict(output_size=(30, 36), p=0.6, mosaic_grid=(2, 3)),
    dict(p=0.5),
    dict(output_size=(40, 50), p=0.7, start_ratio_range=(0.1, 0.9), min_bbox_size=3),
    dict(output_size=(60, 70), p=0.5, mosaic_grid=(3, 2)),
]


@pytest.mark.parametrize("kwargs", MOSAIC)
def test_mosaic_equals_kornia_with_boxes(kwargs):
    x = images((5, 3, 40, 50), 6)
    boxes = torch.tensor([[[2.0, 3.0, 20.0, 30.0], [5.0, 5.0, 10.0, 12.0]]]).repeat(5, 1, 1)
    before = x.clone()
    for seed in range(3):
        torch.manual_seed(seed)
        want = K.RandomMosaic(**kwargs)(x.float() / 255)
        torch.manual_seed(seed)
        got = UK.RandomMosaic(**kwargs)(x)
        assert got.dtype == torch.uint8 and torch.equal(got, oracle(want)), seed
        torch.manual_seed(seed)
        want_img, want_boxes = K.RandomMosaic(data_keys=["input", "bbox_xyxy"], **kwargs)(x.float() / 255, boxes)
        torch.manual_seed(seed)
        aug = UK.RandomMosaic(data_keys=["input", "bbox_xyxy"], **kwargs)
        got_img, got_boxes = aug(x.contiguous(memory_format=torch.channels_last), boxes)
        assert torch.equal(got_img, oracle(want_img)) and torch.equal(got_boxes, want_boxes), seed
        replay, _ = aug(x, boxes, params=aug._params)  # the draws replayed
        assert torch.equal(replay, got_img)
    assert torch.equal(x, before)
    with pytest.raises(NotImplementedError, match="cropping_mode='slice'"):
        UK.RandomMosaic(output_size=(20, 20), cropping_mode="resample")(x)
    with pytest.raises(NotImplementedError, match="uint8 images take the data keys 'input'"):
        UK.RandomMosaic(data_keys=["input", "class"])(x, torch.zeros(5))


@pytest.mark.parametrize("kwargs", JIGSAW)
def test_jigsaw_equals_kornia_and_compiles(kwargs):
    x = images((5, 3, 16, 24), 8)
    before = x.clone()
    for seed in range(3):
        torch.manual_seed(seed)
        want = K.RandomJigsaw(**kwargs)(x.float() / 255)
        torch.manual_seed(seed)
        got = UK.RandomJigsaw(**kwargs)(x)
        assert got.dtype == torch.uint8 and torch.equal(got, oracle(want)), seed
    assert torch.equal(x, before)
    with pytest.raises(RuntimeError, match="must be divisible by grid"):
        UK.RandomJigsaw(grid=(3, 3))(x)
    if kwargs.get("ensure_perm", True):
        return  # kornia's generator re-draws until a piece moves (torch.equal in a loop): no single graph
    aug = UK.RandomJigsaw(**kwargs)
    torch._dynamo.reset()
    compiled = torch.compile(aug, fullgraph=True, options=UK.COMPILE_OPTIONS)
    for seed in range(2):
        torch.manual_seed(seed)
        a = compiled(x)
        torch.manual_seed(seed)
        assert torch.equal(a, aug(x))


IDS = [f"{name}-{i}" for i, (name, _) in enumerate(CASES)]


def make(module, name, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # kornia's old-lambda notice
        return getattr(module, name)(**{"data_keys": ["input", "class"], **kwargs})


@pytest.mark.parametrize("name,kwargs", CASES, ids=IDS)
def test_same_seed_equals_kornia_float(name, kwargs):
    for seed in range(4):
        x = images((6, 3, 17, 19), seed)
        labels = torch.arange(6) % 4
        before = x.clone()
        torch.manual_seed(seed)
        want_img, want_labels = make(K, name, kwargs)(x.float() / 255, labels)
        torch.manual_seed(seed)
        got_img, got_labels = make(UK, name, kwargs)(x, labels)
        assert got_img.dtype == torch.uint8 and torch.equal(got_img, oracle(want_img)), seed
        assert got_labels.dtype == want_labels.dtype and torch.equal(got_labels, want_labels), seed
        assert torch.equal(x, before)


@pytest.mark.parametrize("name,kwargs", CASES, ids=IDS)
def test_images_only_channels_last_and_given_params(name, kwargs):
    x = images((5, 3, 12, 10), 3).contiguous(memory_format=torch.channels_last)
    aug, ref = make(UK, name, kwargs), make(K, name, kwargs)
    torch.manual_seed(1)
    params = aug.forward_parameters(x.shape)
    got = aug(x, params=params, data_keys=["input"])
    want = ref(x.float() / 255, params=params, data_keys=["input"])
    assert torch.equal(got, oracle(want))


@pytest.mark.parametrize("name,kwargs", CASES[:1] + CASES[3:4], ids=IDS[:1] + IDS[3:4])
def test_keepdim_and_float_input(name, kwargs):
    x = images((3, 9, 8), 2)  # one image: its pair is itself
    torch.manual_seed(0)
    got = make(UK, name, dict(kwargs, keepdim=True))(x, data_keys=["input"])
    assert got.shape == x.shape and torch.equal(got, x)
    xf = images((4, 3, 9, 8), 2).float() / 255
    torch.manual_seed(0)
    want = make(K, name, kwargs)(xf, data_keys=["input"])
    torch.manual_seed(0)
    assert torch.equal(make(UK, name, kwargs)(xf, data_keys=["input"]), want)  # kornia's own float path


@pytest.mark.parametrize("name,kwargs", CASES, ids=IDS)
def test_fullgraph_compile_equals_eager(name, kwargs):
    torch._dynamo.reset()
    aug = make(UK, name, kwargs)
    compiled = torch.compile(aug, fullgraph=True, options=UK.COMPILE_OPTIONS)
    for shape in ((6, 3, 12, 13), (4, 3, 12, 13)):
        x, labels = images(shape, 5), torch.arange(shape[0])
        for seed in range(3):
            torch.manual_seed(seed)
            a_img, a_labels = compiled(x, labels)
            torch.manual_seed(seed)
            b_img, b_labels = aug(x, labels)
            assert torch.equal(a_img, b_img) and torch.equal(a_labels, b_labels), (shape, seed)


def test_unsupported_data_key_raises():
    x = images((2, 3, 8, 8))
    with pytest.raises(NotImplementedError, match="u8aug.kornia.RandomMixUpV2: uint8 images take"):
        UK.RandomMixUpV2(data_keys=["input", "mask"])(x, x[:, :1])
    with pytest.raises(NotImplementedError, match="u8aug.kornia.RandomCutMixV2: uint8 images take"):
        make(UK, "RandomCutMixV2", dict(data_keys=["input", "keypoints"]))(x, torch.zeros(2, 1, 2))


def test_repr_names_u8aug():
    assert repr(UK.RandomMixUpV2()).startswith("u8aug.kornia.RandomMixUpV2")


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda x: u8aug.mix_up(x, torch.tensor([0, 1]), 0.5), "pairs to be a 1-D int64 tensor of B = 3"),
        (lambda x: u8aug.mix_up(x, torch.tensor([0, 1, 3]), 0.5), r"pairs must lie in \[0, B = 3\), got 3"),
        (lambda x: u8aug.mix_up(x, torch.tensor([0.0, 1.0, 2.0]), 0.5), "pairs to be a 1-D int64"),
        (lambda x: u8aug.mix_up(x, torch.tensor([0, 1, 2]), torch.ones(2)), "lambdas must hold 1 or B = 3"),
        (lambda x: u8aug.mix_up(x.float(), torch.tensor([0, 1, 2]), 0.5), "expected img of dtype torch.uint8"),
        (
            lambda x: u8aug.paste_boxes(x, torch.zeros(2, 3, dtype=torch.int64), torch.zeros(1, 3, 4)),
            r"boxes to be a float32 tensor of shape \(K, B, 4\) = \(2, 3, 4\)",
        ),
        (
            lambda x: u8aug.paste_boxes(x, torch.full((1, 3), -1), torch.zeros(1, 3, 4)),
            r"sources must lie in \[0, B = 3\), got -1",
        ),
        (
            lambda x: u8aug.paste_boxes(x, torch.zeros(3, dtype=torch.int64), torch.zeros(1, 3, 4)),
            "sources to be a 2-D",
        ),
    ],
)
def test_bad_input_raises_and_leaves_the_image(call, message):
    x = images((3, 3, 8, 8))
    before = x.clone()
    with pytest.raises((RuntimeError, ValueError), match=message):
        call(x)
    assert torch.equal(x, before)


def test_paste_boxes_rounds_overwrite_in_order_and_clip():
    x = images((3, 2, 6, 7), 4)
    sources = torch.tensor([[1, 2, 0], [2, 0, 1]])
    boxes = torch.tensor([[[0.0, 0.0, 3.0, 3.0]] * 3, [[2.0, 1.0, 9.0, 2.5]] * 3])
    want = x.clone()
    for k in range(2):
        for b in range(3):
            x0, y0, x1, y1 = boxes[k, b].tolist()
            cols = [c for c in range(7) if x0 <= c <= x1]
            rows = [r for r in range(6) if y0 <= r <= y1]
            for r in rows:
                want[b, :, r, cols] = x[sources[k, b], :, r, cols]
    assert torch.equal(u8aug.paste_boxes(x, sources, boxes), want)
    one = torch.zeros(2, 1, dtype=torch.int64)  # (C, H, W): the batch of one pastes from itself
    assert torch.equal(u8aug.paste_boxes(x[0], one, boxes[:, :1]), x[0])


def test_install_teaches_kornia_mix_classes_and_uninstall_restores():
    x = images((4, 3, 16, 24), 5)
    labels, masks = torch.arange(4), torch.randint(0, 3, (4, 16, 24), generator=torch.Generator().manual_seed(1))
    calls = {
        "RandomMixUpV2": lambda A: A(p=1.0)(x, labels),
        "RandomCutMixV2": lambda A: A(p=1.0, use_correct_lambda=True)(x, labels),
        "RandomJigsaw": lambda A: A(grid=(2, 2))(x),
        "RandomMosaic": lambda A: A(output_size=(16, 24), p=1.0)(x),
        "RandomTransplantation": lambda A: A(p=1.0)(x, masks),
    }
    want = {}
    for name, call in calls.items():
        torch.manual_seed(0)
        want[name] = call(getattr(UK, name))
    torch.manual_seed(0)
    float_before = K.RandomMixUpV2(p=1.0)(x.float() / 255, labels)
    UK.install()
    try:
        for name, call in calls.items():
            torch.manual_seed(0)
            got = call(getattr(K, name))
            pairs = zip(got, want[name]) if isinstance(got, (list, tuple)) else [(got, want[name])]
            assert all(torch.equal(a, b) for a, b in pairs), name
        torch.manual_seed(0)
        float_after = K.RandomMixUpV2(p=1.0)(x.float() / 255, labels)
        assert all(torch.equal(a, b) for a, b in zip(float_after, float_before))  # the float path is kornia's
    finally:
        UK.uninstall()
    assert "_mix_bytes" not in vars(K.RandomMixUpV2) and K.RandomMixUpV2.forward is UK.RandomMixUpV2._kornia_forward
    with pytest.raises(TypeError):
        K.RandomMixUpV2(p=1.0)(x, labels)  # kornia alone rejects uint8 again
