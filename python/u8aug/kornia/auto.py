"""uint8 drop-ins of ``kornia.augmentation.auto``: AutoAugment, RandAugment and TrivialAugment.

Each is kornia's own policy (its sub-policies, magnitudes, signs, gates and random draws), whose
operations wrap u8aug.kornia's classes instead of kornia's: a uint8 batch stays uint8 through every
sub-operation, and its bytes are kornia's float result on ``x / 255``, quantized. A float batch runs
kornia's own arithmetic.

kornia's operation blends ``gate * op(x) + (1 - gate) * x`` with the drawn 0/1 gate, and its
wrapped op already leaves the gated-off samples untouched, so on uint8 the blend is the op's output
itself (a fractional gate, which only a hand-made ``params`` can hold, needs float images).

Limit (kornia's design): each forward picks the sub-policy for the whole batch on the host
(``Categorical.sample`` or ``randperm``, then a Python index into the list of sub-policies), which no
single graph can hold; ``torch.compile(fullgraph=True)`` therefore compiles the replay of a drawn
choice, ``aug(x, params=params)`` with ``params = aug.forward_parameters(x.shape)``, as it does for
kornia's float policies (one graph per distinct choice).
"""

import kornia.augmentation as K
from kornia.augmentation.auto import operations as _operations

from . import __name__ as _package
from . import _state


def _dropin(aug):
    """The u8aug.kornia class of kornia's augmentation ``aug``, the same instance (its state is
    kornia's; the drop-in class adds only methods)."""
    from .. import kornia as UK

    cls = getattr(UK, type(aug).__name__, None)
    if cls is None or cls.__bases__ != (type(aug),):
        raise NotImplementedError(f"{_package}.auto: {type(aug).__name__} has no uint8 drop-in")
    aug.__class__ = cls
    _state.adopt(aug)
    return aug


class _Uint8Operation:
    def forward(self, input, params=None):
        if input.dtype.is_floating_point:
            return super().forward(input, params)
        if params is None:
            params = self.forward_parameters(input.shape)
        wrapped = params.copy()
        wrapped["batch_prob"] = (params["batch_prob"] > 0).to(params["batch_prob"].dtype)
        return self.op(input, params=wrapped)


_OPERATION_CLASSES = {}


def _uint8_operation(op):
    cls = type(op)
    if cls not in _OPERATION_CLASSES:
        _OPERATION_CLASSES[cls] = type(cls.__name__, (_Uint8Operation, cls), {"__module__": __name__})
    op.__class__ = _OPERATION_CLASSES[cls]
    _dropin(op.op)


def _uint8_policy(policy):
    for module in policy.modules():
        if isinstance(module, _operations.OperationBase) and not isinstance(module, _Uint8Operation):
            _uint8_operation(module)
    return policy


class AutoAugment(K.auto.AutoAugment):
    """kornia.augmentation.auto.AutoAugment whose operations also take uint8 images (u8aug.kornia)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _uint8_policy(self)


class RandAugment(K.auto.RandAugment):
    """kornia.augmentation.auto.RandAugment whose operations also take uint8 images (u8aug.kornia)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _uint8_policy(self)


class TrivialAugment(K.auto.TrivialAugment):
    """kornia.augmentation.auto.TrivialAugment whose operations also take uint8 images (u8aug.kornia)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _uint8_policy(self)


__all__ = ["AutoAugment", "RandAugment", "TrivialAugment"]
