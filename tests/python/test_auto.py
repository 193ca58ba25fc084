"""u8aug.kornia.auto: kornia's AutoAugment, RandAugment and TrivialAugment with u8aug's operations.
Each drawn sub-policy's bytes equal its steps' oracles applied one after another (FIDELITY.md's
pipeline rule: each step kornia's float op on the previous step's bytes, quantized); float input is
kornia's own policy; the replay of a drawn choice compiles with fullgraph and equals eager."""

import kornia.augmentation as K
import pytest
import torch

import u8aug.kornia as UK
import u8aug.kornia.auto as UA

POLICIES = [
    ("AutoAugment", dict()),
    ("AutoAugment", dict(policy="cifar10")),
    ("RandAugment", dict(n=2, m=10)),
    ("RandAugment", dict(n=3, m=25)),
    ("TrivialAugment", dict()),
]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(POLICIES)]


def oracle(y):
    return (y * 255).round().clamp(0, 255).to(torch.uint8)


def images(shape, seed=0):
    return torch.randint(0, 256, shape, dtype=torch.uint8, generator=torch.Generator().manual_seed(seed))


def step_by_step(policy, x, params):
    """The pipeline oracle: each operation of the drawn sub-policies, kornia's float arithmetic on
    the previous operation's bytes / 255, quantized."""
    out, subs = x, dict(policy.named_children())
    for sub in params:
        ops = dict(subs[sub.name].named_children())
        for op in sub.data:
            out = oracle(ops[op.name](out.float() / 255, params=op.data))
    return out


@pytest.mark.parametrize("name,kwargs", POLICIES, ids=IDS)
def test_each_drawn_policy_equals_its_steps_oracle(name, kwargs):
    x = images((6, 3, 20, 23), 1)
    before = x.clone()
    seen = set()
    for seed in range(12):
        torch.manual_seed(seed)
        aug = getattr(UA, name)(**kwargs)
        torch.manual_seed(100 + seed)
        got = aug(x)
        params = aug._params
        assert got.dtype == torch.uint8 and got.shape == x.shape
        assert torch.equal(got, step_by_step(aug, x, params)), [p.name for p in params]
        seen.update(op.name for sub in params for op in sub.data)
    assert torch.equal(x, before)
    assert len(seen) >= 5  # the seeds reach a good part of the policy's operations


@pytest.mark.parametrize("name,kwargs", POLICIES[::2], ids=IDS[::2])
def test_float_input_is_kornias_policy(name, kwargs):
    xf = images((4, 3, 16, 16), 2).float() / 255
    torch.manual_seed(0)
    ref = getattr(K.auto, name)(**kwargs)
    torch.manual_seed(0)
    aug = getattr(UA, name)(**kwargs)
    torch.manual_seed(5)
    want = ref(xf)
    torch.manual_seed(5)
    assert torch.equal(aug(xf), want)


def test_one_image_and_channels_last():
    x = images((3, 18, 21), 3)
    torch.manual_seed(0)
    aug = UA.TrivialAugment()
    for seed in range(4):
        torch.manual_seed(seed)
        got = aug(x)
        assert got.shape == (1, 3, 18, 21) and torch.equal(got, step_by_step(aug, x[None], aug._params))
    xc = images((4, 3, 18, 21), 4).contiguous(memory_format=torch.channels_last)
    torch.manual_seed(1)
    got = aug(xc)
    assert torch.equal(got, step_by_step(aug, xc, aug._params))


@pytest.mark.parametrize("name,kwargs", [POLICIES[0], POLICIES[2], POLICIES[4]], ids=[IDS[0], IDS[2], IDS[4]])
def test_replay_of_a_drawn_choice_compiles_fullgraph(name, kwargs):
    torch.manual_seed(0)
    aug = getattr(UA, name)(**kwargs)
    torch._dynamo.reset()
    replay = torch.compile(lambda t, p: aug(t, params=p), fullgraph=True, options=UK.COMPILE_OPTIONS)
    x = images((4, 3, 16, 17), 6)
    for seed in range(2):
        torch.manual_seed(seed)
        params = aug.forward_parameters(x.shape)
        assert torch.equal(replay(x, params), aug(x, params=params))


def test_the_host_side_choice_is_the_stated_limit():
    """kornia picks the sub-policy by a Python index with a drawn tensor: no single graph holds it,
    for kornia's float policies and u8aug's alike (the module docstring's limit)."""
    aug = UA.TrivialAugment()
    torch._dynamo.reset()
    # torch 2.11 and 2.15 word it differently; both fail at kornia's modules[idx]
    with pytest.raises(Exception, match="Indexing list with non-scalar tensor|data-dependent expression"):
        torch.compile(aug, fullgraph=True)(images((2, 3, 8, 8)))


def test_every_policy_operation_runs_a_dropin():
    from kornia.augmentation.auto.operations import OperationBase

    for name, kwargs in POLICIES:
        aug = getattr(UA, name)(**kwargs)
        ops = [m for m in aug.modules() if isinstance(m, OperationBase)]
        assert ops and all(type(op.op).__module__ == "u8aug.kornia" for op in ops), name
