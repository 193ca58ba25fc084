"""install() leaves kornia's float path alone, hooks included: a class whose __batch_prob_generator__,
generate_parameters or forward_parameters is patched on the instance (as kornia's own tests patch
them) or overridden in a subclass runs that code inside kornia's AugmentationSequential, as kornia
does: the same parameters, the same generator state after, the patched gate in ``_params``, and
the class's oracle bytes on uint8 (FIDELITY.md)."""

from unittest.mock import patch

import kornia.augmentation as K
import pytest
import torch
from dropin_cases import CASES

import u8aug.kornia as UK
from conftest import assert_near, random_image, to_u8
from u8aug.kornia._apply import KERNELS

INSTALLED = [(name, kwargs) for name, kwargs in CASES if name in KERNELS]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(INSTALLED)]
HOOKS = ("__batch_prob_generator__", "generate_parameters", "forward_parameters")
NEAR = ("ColorJitter", "RandomJPEG")
GATE = torch.tensor([True, False, True])


def _run(name, kwargs, x, hook, seed=0):
    """kornia's AugmentationSequential holding the class, `hook` patched on the instance (the gate
    to GATE, the others wrapped so they run as they are), on x; the output, the module's params,
    the generator state after and whether the hook was called."""
    torch.manual_seed(seed)
    aug = K.AugmentationSequential(getattr(K, name)(**kwargs))
    module = aug[0]
    if hook == "__batch_prob_generator__":
        patched = patch.object(module, hook, return_value=GATE.to(module.dtype))
    else:
        patched = patch.object(module, hook, wraps=getattr(module, hook))
    with patched as mock:
        out = aug(x)
    return out, aug._params[0].data, torch.get_rng_state(), mock.called


def _compare_params(ours, theirs):
    assert ours.keys() == theirs.keys()
    for k, v in theirs.items():
        if isinstance(v, torch.Tensor):
            assert torch.equal(ours[k], v), k
        else:
            assert ours[k] == v, k


@pytest.mark.parametrize("hook", HOOKS)
@pytest.mark.parametrize("name,kwargs", INSTALLED, ids=IDS)
def test_a_patched_hook_runs_as_in_kornia(name, kwargs, hook):
    x = random_image((3, 3, 16, 17), seed=1)
    before = x.clone()
    try:
        want, their_params, their_state, their_call = _run(name, kwargs, x.float() / 255, hook)
    except Exception as e:  # kornia's float path refuses this gate (a crop's skipped sample): so must uint8
        UK.install()
        try:
            with pytest.raises(type(e)):
                _run(name, kwargs, x, hook)
        finally:
            UK.uninstall()
        return
    UK.install()
    try:
        got, our_params, our_state, our_call = _run(name, kwargs, x, hook)
    finally:
        UK.uninstall()
    assert our_call and their_call
    _compare_params(our_params, their_params)
    assert torch.equal(our_state, their_state)
    if hook == "__batch_prob_generator__":
        assert torch.equal(our_params["batch_prob"].bool(), GATE)
    assert torch.equal(x, before)
    if name == "Normalize":
        assert torch.equal(got, want)
    elif name in NEAR:
        assert_near(got, to_u8(want), name)
    else:
        assert torch.equal(got, to_u8(want)), name


def test_an_overridden_gate_runs_as_in_kornia():
    class EveryOther(K.RandomAffine):
        def __batch_prob_generator__(self, batch_shape, p, p_batch, same_on_batch):
            return (torch.arange(batch_shape[0]) % 2 == 0).float()

    x = random_image((4, 3, 16, 17), seed=2)
    outs = []
    for installed in (True, False):
        if installed:
            UK.install()
        try:
            torch.manual_seed(0)
            aug = K.AugmentationSequential(EveryOther(30.0, p=0.5))
            outs.append((aug(x if installed else x.float() / 255), aug._params[0].data["batch_prob"]))
        finally:
            UK.uninstall()
    (got, our_gate), (want, their_gate) = outs
    assert torch.equal(our_gate, their_gate) and torch.equal(our_gate, torch.tensor([1.0, 0.0, 1.0, 0.0]))
    assert torch.equal(got, to_u8(want))
    assert torch.equal(got[1], x[1]) and torch.equal(got[3], x[3])


REPLICATED = {
    "RandomResizedCrop": dict(size=(12, 14)),
    "ColorJitter": dict(brightness=0.2, contrast=0.3, saturation=0.4, hue=0.1, p=1.0),
    "RandomSaltAndPepperNoise": dict(amount=(0.01, 0.06), salt_vs_pepper=(0.4, 0.6), p=1.0),
}


@pytest.mark.parametrize("same_on_batch", [False, True])
@pytest.mark.parametrize("batch", [1, 7])
@pytest.mark.parametrize("name", sorted(REPLICATED))
def test_installed_classes_draw_through_the_replicas_with_kornias_numbers(name, batch, same_on_batch):
    # after install() kornia's own class draws through u8aug's replica (kornia._draws.REPLICAS): the
    # same parameters and generator state after as kornia's own draw
    from u8aug.kornia import _draws

    assert name in _draws.REPLICAS
    shape = torch.Size((batch, 3, 20, 23))

    def draw():
        torch.manual_seed(batch)
        aug = getattr(K, name)(same_on_batch=same_on_batch, **REPLICATED[name])
        return aug.forward_parameters(shape), torch.get_rng_state(), type(aug).generate_parameters.__doc__ or ""

    theirs, their_state, their_doc = draw()
    UK.install()
    try:
        ours, our_state, our_doc = draw()
    finally:
        UK.uninstall()
    assert "u8aug.kornia._draws" in our_doc and "u8aug" not in their_doc
    _compare_params(ours, theirs)
    assert torch.equal(our_state, their_state)


@pytest.mark.parametrize("name,kwargs", INSTALLED, ids=IDS)
def test_a_class_on_its_own_draws_kornias_numbers(name, kwargs):
    # after install() a class called on its own draws with u8aug's forward_parameters (the
    # container's shortcuts: the gate in fewer ops, the input shape without _constant_tensor):
    # kornia's parameters and generator state after, for every class install() touches
    shape = torch.Size((5, 3, 16, 17))

    def draw():
        torch.manual_seed(3)
        aug = getattr(K, name)(**kwargs)
        return aug.forward_parameters(shape), torch.get_rng_state()

    theirs, their_state = draw()
    UK.install()
    try:
        ours, our_state = draw()
    finally:
        UK.uninstall()
    _compare_params(ours, theirs)
    assert torch.equal(our_state, their_state)
