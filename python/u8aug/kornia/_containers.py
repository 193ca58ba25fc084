"""kornia's containers with a batch shape that torch.compile can trace on every torch u8aug supports.

kornia's ``ImageSequential.forward_parameters`` tracks the batch shape through a pipeline with
``_get_new_batch_shape``, which reads a crop's or resize's sampled gate as a Python float
(``batch_prob.item()``) and branches on it (``if prob <= 0.5``). Up to torch 2.11 dynamo folded that
read; torch 2.15 traces it as an unbacked float and ``fullgraph=True`` stops with "Could not guard on
data-dependent expression zuf0 <= 0.5".

The rewrite, one path for eager and compiled alike: a crop or resize that always applies
(``p == 1`` and ``p_batch == 1``, kornia's defaults for them) gives its configured size, which is
what kornia's branch gives whenever its gate is all ones (kornia's own export path reads that size
too). Every other module goes through kornia's function unchanged, with the same random draws (the
parameters themselves are kornia's), so eager output is byte-identical to kornia's. A crop with
p < 1 keeps the data-dependent shape, which no single graph can express.
"""

from typing import List, Optional

import torch
from kornia.augmentation import AugmentationSequential as _KorniaAugmentationSequential
from kornia.augmentation import ImageSequential as _KorniaImageSequential
from kornia.augmentation.base import _AugmentationBase, _BasicAugmentationBase
from kornia.augmentation.container import image as _image
from kornia.augmentation.container.params import ParamItem, PatchParamItem
from kornia.augmentation.container.patch import PatchSequential
from kornia.geometry.transform.affwarp import _side_to_image_size

from . import _draws, _fused, _native_draws, _state
from ._apply import FAST_CLASSES

# kornia's classes with a fast tier (their drop-ins are subclasses, and install() gives kornia's own
# classes the same uint8 path): the steps AugmentationSequential(fidelity="fast") switches
_FAST_KORNIA_CLASSES = tuple(getattr(_image.K, name) for name in FAST_CLASSES)


def _configured_size(module, batch_shape):
    """The output size of an always-applied crop or resize, from its flags; None otherwise."""
    if not isinstance(module, _AugmentationBase) or module.p != 1.0 or module.p_batch != 1.0:
        return None
    size = getattr(module, "flags", {}).get("size")
    if size is None:
        return None
    if isinstance(module, _image.K.Resize) and isinstance(size, int):
        size = _side_to_image_size(size, batch_shape[-1] / batch_shape[-2], module.flags["side"])
    if not all(isinstance(s, int) for s in size):
        return None
    return list(size)


def batch_shape_after(
    param: ParamItem, batch_shape: torch.Size, module: Optional[torch.nn.Module] = None
) -> torch.Size:
    """The batch shape after ``module`` ran with ``param``: kornia's ``_get_new_batch_shape``, but
    with no Python read of a sampled gate for crops and resizes that always apply."""
    data = param.data
    if (
        isinstance(data, list)
        and not isinstance(module, PatchSequential)
        and not (data and isinstance(data[0], PatchParamItem))
    ):
        # a nested container: its children, in order, as kornia walks them
        children = dict(module.named_children()) if module is not None else {}
        for p in data:
            batch_shape = batch_shape_after(p, batch_shape, children.get(p.name))
        return batch_shape
    if isinstance(data, dict) and "output_size" in data:
        size = _configured_size(module, batch_shape)
        if size is not None:
            new_batch_shape = list(batch_shape)
            new_batch_shape[-len(size) :] = size
            return torch.Size(new_batch_shape)
    return _image._get_new_batch_shape(param, batch_shape, module)


def _kornias_own(module, name: str) -> bool:
    """Whether ``module.<name>`` is kornia's base method (or u8aug's stand-in for it, which makes the
    same numbers): not overridden by its class, and not patched on the instance
    (``unittest.mock.patch.object(aug, name, ...)``, as kornia's own tests do). Anything else is the
    user's code, and it runs as kornia would run it."""
    if name in module.__dict__:
        return False
    return getattr(type(module), name) in (getattr(_BasicAugmentationBase, name), forward_parameters_of_module)


def module_parameters(module, batch_shape) -> dict:
    """A module's ``forward_parameters``: kornia's own, except that the recorded input shape
    (``forward_input_shape``) is made from the sizes in one op instead of going through kornia's
    ``_constant_tensor``, whose cache of equal sizes guards on a symbolic batch size (a compiled
    pipeline then recompiled for every new batch size), and the gate is drawn by _draws.gate where
    it applies. Same draws, in the same order, same values. A ``forward_parameters`` or
    ``__batch_prob_generator__`` that a subclass overrides or that is patched on the instance runs
    as kornia calls it."""
    if not _kornias_own(module, "forward_parameters"):
        return module.forward_parameters(batch_shape)
    return forward_parameters_of_module(module, batch_shape)


def forward_parameters_of_module(module, batch_shape) -> dict:
    """kornia's ``_BasicAugmentationBase.forward_parameters`` with module_parameters' shortcuts (the
    gate, generate_parameters, the recorded input shape): the drop-ins' and, after install(), kornia's
    own classes' ``forward_parameters`` on their own, and the container's draw of each module. Where
    the module's whole draw is native (_native_draws), one C++ call makes it."""
    params = _native_draws.forward_parameters(module, batch_shape)
    if params is not None:
        return params
    batch_prob = None
    if _kornias_own(module, "__batch_prob_generator__"):
        batch_prob = _draws.gate(module, batch_shape)
    if batch_prob is None:
        batch_prob = module.__batch_prob_generator__(batch_shape, module.p, module.p_batch, module.same_on_batch)
    params = module.generate_parameters(batch_shape) or {}
    params["batch_prob"] = batch_prob
    params["forward_input_shape"] = torch.tensor(list(batch_shape))
    return params


def forward_parameters(self, batch_shape: torch.Size) -> List[ParamItem]:
    """kornia's ``ImageSequential.forward_parameters``, tracking the shape with batch_shape_after."""
    params: List[ParamItem] = []
    for name, module in self.get_forward_sequence():
        if isinstance(module, _AugmentationBase):
            param = ParamItem(name, module_parameters(module, batch_shape))
        elif isinstance(module, (_image.K.MixAugmentationBaseV2, _image.ImageSequentialBase)):
            param = ParamItem(name, module.forward_parameters(batch_shape))
        else:
            param = ParamItem(name, None)
        batch_shape = batch_shape_after(param, batch_shape, module)
        params.append(param)
    return params


_KORNIA_PREPROC_MASK = _KorniaAugmentationSequential._preproc_mask


def preproc_mask(self, arg, dtype, image_batch=None):
    """AugmentationSequential._preproc_mask: kornia casts each mask to the image's dtype before the
    modules see it (and back to the mask's own dtype after). Beside a uint8 image that would truncate
    a float mask to uint8, which kornia's mask path then rejects; u8aug works the masks in float32,
    as kornia's float pipeline does beside a float32 image, so masks come out as kornia's float
    pipeline gives them under the same draws."""
    if dtype == torch.uint8:
        dtype = torch.float32
    return _KORNIA_PREPROC_MASK(self, arg, dtype, image_batch)


class ImageSequential(_KorniaImageSequential):
    __doc__ = (
        "kornia.augmentation.ImageSequential whose parameter generation compiles with fullgraph=True on "
        "every supported torch (u8aug.kornia._containers).\n\n" + (_KorniaImageSequential.__doc__ or "")
    )
    forward_parameters = forward_parameters


class AugmentationSequential(_KorniaAugmentationSequential):
    __doc__ = (
        "kornia.augmentation.AugmentationSequential that runs a uint8 image batch through u8aug as fused "
        "pipelines (u8aug.kornia._fused: kornia's random draws, one pass sample by sample, the same bytes as "
        "module by module), and whose parameter generation compiles with fullgraph=True on every supported "
        "torch (u8aug.kornia._containers). ``fidelity='fast'`` (keyword only) switches every step that has a "
        "fast tier to it (it sets that module's ``fidelity``); the default, 'exact', leaves each class's own."
        "\n\n" + (_KorniaAugmentationSequential.__doc__ or "")
    )
    forward_parameters = forward_parameters
    _preproc_mask = preproc_mask
    forward = _fused.forward
    __call__ = _fused.call
    __setattr__ = _state.state_setattr
    __getstate__ = _state.getstate  # less the kept plans
    _u8aug_settings = None  # renewed when a setting is written (_state.state_setattr)
    _u8aug_key_cache = None  # the modules' part of the kept plans' key (_kept.plans_for)
    _params = _state.CONTAINER_PARAMS  # a kept call's params, made when read
    _u8aug_lazy_params = True
    _u8aug_pending_params = None  # the instance's own after its constructor (_state.adopt_container)
    _u8aug_state_params = None

    def __init__(self, *args, fidelity: str = "exact", **kwargs):
        if fidelity not in ("exact", "fast"):
            raise ValueError(
                f"u8aug.kornia.AugmentationSequential: fidelity must be 'exact' or 'fast', got {fidelity!r}"
            )
        super().__init__(*args, **kwargs)
        _state.adopt_container(self)
        self.fidelity = fidelity
        if fidelity == "fast":
            # one switch for the chain: every step with a fast tier takes it (docs/fast-tier.md);
            # "exact" leaves each class's own setting
            for module in self.modules():
                if module is not self and isinstance(module, _FAST_KORNIA_CLASSES):
                    module.fidelity = "fast"

    def extra_repr(self) -> str:
        return "" if self.fidelity == "exact" else f"fidelity={self.fidelity!r}"

    clear_state = _fused.clear_state
    transform_matrix = property(_fused.transform_matrix)
