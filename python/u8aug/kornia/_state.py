"""kornia's per-call state, written cheaply, and on u8aug's own classes made only when read.

The names kornia's classes and containers write on every call (their params, matrices and the
records kornia checks them by; the container's output image) are plain Python attributes, never a
parameter, buffer or submodule, yet each write went through nn.Module.__setattr__'s Parameter,
Buffer and Module checks: about 3 us a write, 19 writes a call of the fused standard recipe.
``state_setattr`` writes those names straight into the instance and leaves every other name to
nn.Module's; a setting written there (any other name) drops the class's kept plans (_thin.py).
kornia's own writers (``_commit_state``, ``_record_matrix_params``, its forward) stay in charge of
what is written and when (nothing inside an export); torch.compile replays the writes after a
compiled call as it does nn.Module's (tests/python/test_kept.py, test_thin.py).

``commit`` writes what kornia's module call leaves after u8aug ran the module's step (a fused
container's or a class's kept plan): its params and its matrix made when read. On u8aug's own
classes (the drop-ins) it only records the call (``_u8aug_pending``): the five names below are
properties that make the state from the record when one of them is first read or written, the
same values and the same objects kornia's writers would have left. A call whose state nobody reads
costs no tensor, no dict and no snapshot. kornia's classes after install() write it at once.
"""

import itertools

import torch
from kornia.augmentation._2d.base import _InputMetadata
from kornia.augmentation.container.params import ParamItem
from kornia.constants import DataKey

# kornia's is_exporting() without its TorchScript and pre-2.6 branches (u8aug never runs scripted,
# and needs a torch that has the flag): torch's own flag in one call, not three Python frames
is_exporting = torch.compiler.is_exporting

# settings tokens: an int compares in torch.compile's C++ guards, an object's identity in Python
_SETTINGS = itertools.count(1)

STATE_NAMES = frozenset(
    {
        "_params",
        "_transform_matrix",
        "_lazy_matrix_args",
        "_transform_matrix_params",
        "_transform_matrix_params_snapshot",
        "_transform_matrices",
        "_pending_matrix_modules",
        "_output_image",
        "_u8aug_kept_plans",
        "_u8aug_thin",
        "_u8aug_pending",
        "_u8aug_key_cache",
        "_u8aug_settings",
        "_u8aug_pending_params",
        "_u8aug_state_params",
    }
)

# the state a module call leaves, made when read on the drop-ins
LAZY_NAMES = ("_params", "_transform_matrix", "_lazy_matrix_args", "_transform_matrix_params",
              "_transform_matrix_params_snapshot")  # fmt: skip


def state_setattr(self, name: str, value) -> None:
    if name in STATE_NAMES:  # never registered as a parameter, buffer or submodule
        if name in _LAZY_SET and getattr(type(self), "_u8aug_lazy_class", None) is type(self):
            _LAZY_SET[name](self, value)  # the property's setter, called as such (torch.compile traces it)
        else:
            object.__setattr__(self, name, value)
    else:
        # a setting changed: a new token for the keys kept from the settings (_kept.plans_for), and the
        # class's kept plans (_thin.py) go
        object.__setattr__(self, "_u8aug_settings", next(_SETTINGS))
        if self.__dict__.get("_u8aug_thin") is not None:
            object.__setattr__(self, "_u8aug_thin", None)
        torch.nn.Module.__setattr__(self, name, value)


# what a call keeps to run the next one faster: the kept guards hold the classes' methods, some of
# them functions made inside u8aug (unpicklable), so a pickled copy drops them and plans anew
CACHE_NAMES = ("_u8aug_key_cache", "_u8aug_kept_plans", "_u8aug_thin")


def getstate(self) -> dict:
    """``__getstate__`` of the classes that keep plans: their attributes less the caches (a
    container or class called once on uint8 could not be pickled, as a DataLoader worker started
    by spawn or forkserver pickles its dataset's transform)."""
    state = self.__dict__.copy()
    for name in CACHE_NAMES:
        if name in state:
            state[name] = None
    return state


def _slot(name: str) -> str:
    return "_u8aug_state" + name


def _lazy_property(name: str) -> property:
    slot = _slot(name)

    def get(self):
        if self._u8aug_pending is not None:
            materialize(self)
        return getattr(self, slot)

    return property(get, _LAZY_SET[name], doc=f"kornia's {name}, made from the last call's record when first read")


def _set_lazy(name: str):
    slot = _slot(name)

    def set_(self, value):
        if self._u8aug_pending is not None:
            materialize(self)  # the recorded call's other names keep their values
        object.__setattr__(self, slot, value)

    return set_


_LAZY_SET = {name: _set_lazy(name) for name in LAZY_NAMES}


def lazy_state_attributes() -> dict:
    """The class attributes that make a drop-in's kornia state lazy (the matrix names' defaults are
    kornia's, None; ``_params`` has none, kornia's constructor writes it)."""
    attributes = {"_u8aug_pending": None, "_u8aug_lazy_class": None}  # the class itself: set by the caller
    for name in LAZY_NAMES:
        attributes[name] = _lazy_property(name)
        if name != "_params":
            attributes[_slot(name)] = None
    return attributes


def adopt(module) -> None:
    """Gives a drop-in instance its state's own attributes, after kornia's constructor or where a
    kornia instance's class became a drop-in (``__class__`` set: u8aug.kornia.auto): state written
    as plain attributes moves to where the properties keep it, and every name gets its attribute
    on the instance (torch.compile guards a read that falls back to a class default as absent from
    the instance, and a write of it inside the compiled call then failed that guard)."""
    attributes = module.__dict__
    for name in LAZY_NAMES:
        slot = _slot(name)
        if name in attributes:
            object.__setattr__(module, slot, attributes.pop(name))
        elif slot not in attributes and name != "_params":
            object.__setattr__(module, slot, None)
    if "_u8aug_pending" not in attributes:
        object.__setattr__(module, "_u8aug_pending", None)


def commit(module, data, shape, device, matrix, data_keys: bool) -> None:
    """The state kornia's module call leaves (see the top): recorded where the class makes it when
    read, written now otherwise. ``data``: the params as drawn, None for a class with no generator
    at p = 1 (kornia's all-ones gate and the shape, made here); ``data_keys``: whether the call was
    a container's (its params then carry the call's data keys)."""
    if is_exporting():
        return  # kornia writes no state inside an export
    if matrix is None and type(module)._u8aug_lazy_class is type(module):  # a drop-in, not a subclass of one
        _record(module, data, shape, device, data_keys)
        return
    _write(module, data, shape, device, matrix, data_keys, module.device, module.dtype)


def commit_kept(modules, drawn, shape, device, sizes) -> None:
    """commit for each module of a kept container call (_fused._run_kept), all of them drop-ins (the
    plan's one native call needs them): module i's params are the record's (drawn, i); its input
    shape moves after a module that resizes (``sizes``)."""
    if is_exporting():
        return
    for i, module in enumerate(modules):
        _record(module, (drawn, i), shape, device, True)
        size = sizes[i]
        if size is not None:
            shape = (*shape[:-2], *size)


def _record(module, data, shape, device, data_keys) -> None:
    """A drop-in's call, recorded for materialize. A state name: straight into the instance
    (state_setattr would do the same, a frame later)."""
    object.__setattr__(module, "_u8aug_pending", (data, shape, device, None, data_keys, module.device, module.dtype))


def materialize(module) -> None:
    """Writes the state the last recorded call left (see commit). Its params may be a kept call's
    record, (drawn, i): the i-th module's params in it (_native_draws.drawn_params)."""
    pending = module._u8aug_pending
    object.__setattr__(module, "_u8aug_pending", None)
    data = pending[0]
    if type(data) is tuple:
        from . import _native_draws

        data = _native_draws.drawn_params(*data)
    _write(module, data, *pending[1:])


def _container_params(self):
    pending = self._u8aug_pending_params
    if pending is not None:
        from . import _native_draws

        drawn, names = pending
        object.__setattr__(self, "_u8aug_pending_params", None)
        params = [ParamItem(name, _native_draws.drawn_params(drawn, i)) for i, name in enumerate(names)]
        object.__setattr__(self, "_u8aug_state_params", params)
    return self._u8aug_state_params


def _set_container_params(self, value) -> None:
    object.__setattr__(self, "_u8aug_pending_params", None)
    object.__setattr__(self, "_u8aug_state_params", value)


# u8aug's AugmentationSequential's ``_params``: a kept call leaves its draw's record
# (``_u8aug_pending_params``: _fused._finish), made into kornia's list of ParamItem when first read
CONTAINER_PARAMS = property(_container_params, _set_container_params,
                            doc="kornia's _params, made from the last kept call's record when first read")  # fmt: skip


def adopt_container(container) -> None:
    """The container's own state attributes after kornia's constructor (see adopt; its ``_params``
    went through the property)."""
    object.__setattr__(container, "_u8aug_state_params", container.__dict__.get("_u8aug_state_params"))
    object.__setattr__(container, "_u8aug_pending_params", None)


def lazy_state(container, modules) -> bool:
    """Whether the container and each module make their state when it is read (u8aug's own
    classes); kornia's classes after install() write it at once."""
    return getattr(type(container), "_u8aug_lazy_params", False) and all(map(lazy_module, modules))


def lazy_module(module) -> bool:
    """Whether the module makes its state when it is read (a drop-in, not a subclass of one)."""
    return getattr(type(module), "_u8aug_lazy_class", None) is type(module)


def _write(module, data, shape, device, matrix, data_keys, gate_device, gate_dtype) -> None:
    """kornia's state after its module call, written by kornia's own ``_commit_state`` and
    ``_record_matrix_params``: its params as the module saw them, its matrix (lazy unless computed)
    and the record of the params it was made from. A matrix already None is not written again."""
    if data is None:
        data = {
            "batch_prob": torch.ones(shape[0], device=gate_device, dtype=gate_dtype),
            "forward_input_shape": torch.tensor(shape, dtype=torch.long),
        }
    seen = dict(data, data_keys=[DataKey.INPUT]) if data_keys else data
    # the class, not the instance, is asked (a lazy name's property reads the state it is writing)
    if not hasattr(type(module), "_lazy_matrix_args"):
        module._commit_state(params=seen)
        return
    if matrix is not None:
        module._commit_state(params=seen, transform_matrix=matrix, lazy_matrix_args=None)
    else:
        meta = _InputMetadata(tuple(shape), torch.uint8, device)
        lazy = getattr(type(module), "_u8aug_lazy_class", None) is type(module)
        if (getattr(module, _slot("_transform_matrix")) if lazy else module._transform_matrix) is None:
            module._commit_state(params=seen, lazy_matrix_args=(meta, data, module.flags))
        else:
            module._commit_state(params=seen, transform_matrix=None, lazy_matrix_args=(meta, data, module.flags))
    module._record_matrix_params(data)
