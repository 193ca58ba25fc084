"""The kept plan: a fused container's call, once its chain has been planned, as two native calls.

The first uint8 call of a configuration runs the fused path (_fused.py) with parameters drawn
natively (_native_draws: the chain's gates and draws in one C++ call, kornia's numbers) and
records what it ran: the pipeline's steps, and where each tensor the steps read came from (a
module's drawn parameter, its gate, one of its flags' tensors, or an empty placeholder of the
planner's). Every later call with the same configuration draws natively, hands the new draws to
the recorded places and runs the one pipeline op: no planning, no per-module Python. kornia's
state (``_params``, each module's params and lazy matrix) is written as the fused path writes it.

A chain is kept only where that record is complete: every module fused into one pipeline call,
every draw native, and every tensor a step reads one of those sources, the very object, or made
from them by a recipe the apply function recorded (_apply_common.derived: brightness's factor - 1,
the blur's kernels). Any other tensor made from the draws makes the chain unkeepable, and a warp's
matrix keeps it out too (its step's words hold the image's size); it then runs the fused path
every call, as before.

The configuration's key holds what the plan depends on: each module's class, whether its hooks
are kornia's own, its probabilities, flags (those that are not tensors: a tensor flag, such as
Normalize's mean, is read anew each call), fidelity and generator settings (RandomResizedCrop's
scale, ratio and size; ColorJitter's ranges), its draws' dtype and device; the image's dims,
channels, dtype and device; torch's default dtype. The image's height, width and batch size are
not in it: the kept chains' steps do not depend on them. The samplers' bounds, which the
generators make from their ranges (in the key), are kept with the plan. A setting that cannot be
hashed makes the call unkeepable rather than risk a stale plan. The plan holds Python constants and one small tensor
(the draw's numbers), so a compiled container traces the same code: a kept call is one native draw
and one pipeline op in its graph.
"""

import enum
from typing import Dict, List, NamedTuple, Optional, Tuple

import torch
from kornia.augmentation import random_generator as rg
from kornia.augmentation.base import _AugmentationBase
from kornia.augmentation.container.params import ParamItem

from . import _apply, _containers, _guard, _native_draws, _state

UNPLANNED = "unplanned"  # a configuration not seen yet (None: seen, and not keepable)

# the empty placeholders a plan can read: the gate of a step that applies to every sample, and an
# absent optional tensor argument (_planner.Planner)
_EVERY_SAMPLE = torch.empty(0, dtype=torch.bool)
_ABSENT = torch.empty(0, dtype=torch.float32)
PLACEHOLDERS = {"every": _EVERY_SAMPLE, "absent": _ABSENT}


class KeptPlan(NamedTuple):
    lines: Tuple[str, ...]  # the modules' native draws (_native_draws.program_line)
    kinds: Tuple[str, ...]
    numbers: torch.Tensor  # their numbers, float64 (_native_draws.numbers_tensor)
    bounds: torch.Tensor  # their samplers' bounds, float32 (fixed by the generators' ranges, in the key)
    steps: Tuple[str, ...]  # the pipeline's steps
    # each tensor the steps read: ("param", i, key), ("take", i), ("flag", i, key), ("every",), ("absent",),
    # ("derived", recipe, slots): made from others (_apply_common.derived), ("same", j): the j-th again
    slots: Tuple[tuple, ...]
    sizes: Tuple[Optional[Tuple[int, int]], ...]  # each module's output (H, W) where it changes the size
    # the slots as the one native call (u8aug::kept_call) takes them: each step tensor's place among the
    # draw's tensors (>= 0) or, -1 - j, the j-th of the tensors given each call (``extra``, as slots:
    # the flags' tensors, the placeholders), then the lines and the steps as the op takes them
    # (_native_draws.joined); None where a slot is made in Python (a recipe), off the CPU, or where
    # kornia's classes write their state at once
    native: Optional[Tuple[Tuple[int, ...], Tuple[tuple, ...], str, str]]


class _Unhashable(Exception):
    pass


_PLAIN = (bool, int, float, str, type(None))


def _setting(v):
    """A setting as a key can hold it: a tensor as its kind only (its values are read each call,
    or the module's draw is not native), a list as a tuple; anything else unknown refuses the key."""
    if type(v) in _PLAIN:
        return v
    if isinstance(v, (tuple, list)):
        return tuple([_setting(e) for e in v])
    if isinstance(v, torch.Tensor):
        return "tensor"
    if isinstance(v, (enum.Enum, torch.dtype)):
        return v
    raise _Unhashable


def _generator_key(gen):
    if gen is None:
        return None
    if type(gen) is rg.ResizedCropGenerator:
        return (type(gen), _setting((gen.scale, gen.ratio, gen.resize_to)))
    if type(gen) in (rg.ColorJitterGenerator, rg.ColorJiggleGenerator):
        return (type(gen), _setting((gen.brightness, gen.contrast, gen.saturation, gen.hue)))
    if type(gen) is rg.PlainUniformGenerator:
        return (type(gen), tuple(getattr(gen, "sampler_dict", None) or ()))  # the ranges: in the plan's bounds
    return type(gen)  # otherwise not a native draw, or its ranges are in the bounds (blur's sigma)


def _module_key(m) -> tuple:
    flags = tuple([(k, v if type(v) in _PLAIN else _setting(v)) for k, v in m.flags.items()])
    return (
        type(m),
        _containers._kornias_own(m, "forward_parameters"),
        _containers._kornias_own(m, "__batch_prob_generator__"),
        _native_draws.own_generate_parameters(m),
        m.p,
        m.p_batch,
        m.same_on_batch,
        m.keepdim,
        _setting(getattr(m, "fidelity", None)),
        flags,
        _generator_key(m._param_generator),
        m.dtype,
        str(m.device),
    )


def plans_for(container, x: torch.Tensor):
    """(the plans of the container's configuration, keyed by the image's kind; that key), or
    (None, None) where a setting is of a kind the key cannot hold or a child is not an augmentation
    (a nested container: never kept). The modules' part of the configuration is made once and kept
    while ``_key_guard`` finds nothing changed (18 us a call for the standard recipe otherwise).
    Its plans are kept with it: a compiled call then looks its plan up by the image's kind alone,
    and guards on no setting's float (each such guard converted a float a call: 20 for the
    standard recipe)."""
    guard = _key_guard(container, _guard.by_id)
    cached = container._u8aug_key_cache
    if guard is not None and cached is not None and _guard.same(cached[0], guard):
        plans = cached[1]
    else:
        modules = _modules_key(container)
        if modules is None:
            return None, None
        if guard is None:
            plans = plans_of(container).setdefault(modules, {})
        else:
            # Something the guard watches changed: plan anew. A plan's samplers' bounds are not in
            # the key (they are tensors, read once), and a generator or sampler made anew may hold
            # other bounds under the same key.
            plans = plans_of(container)[modules] = {}
            container._u8aug_key_cache = (guard, plans, _key_guard(container, _guard.held))
    return plans, (x.dim(), x.shape[-3], x.dtype, "cpu" if x.is_cpu else str(x.device), torch.get_default_dtype())


def _modules_key(container):
    if not all(isinstance(m, _AugmentationBase) for m in container._modules.values()):
        return None
    try:
        return (tuple([(name, _module_key(m)) for name, m in container._modules.items()]), container.random_apply)
    except _Unhashable:
        return None


def _key_guard(container, ident) -> Optional[Tuple[tuple, tuple]]:
    """What the modules' key was made from, as ``_guard.guard`` gives it for one module: the
    container's and each module's settings token (a new one whenever a setting is written:
    _state.state_setattr) and what ``guard`` reads of each; the modules themselves and their
    generators watched by ``ident``. None where a module or the container has no token (not a u8aug
    class: its key is made each call)."""
    token = container._u8aug_settings
    if token is None:
        return None
    values, watched = [token, len(container._modules)], []
    for name, m in container._modules.items():
        settings = getattr(m, "_u8aug_settings", None)
        if settings is None or not isinstance(m, _AugmentationBase):
            return None
        module_values, module_watched = _guard.guard(m, _guard.AS_IS)
        values += [name, settings, *module_values]
        watched += [m, *module_watched]
    return tuple(values), ident(watched)


def plans_of(container) -> Dict:
    """{the modules' part of a configuration: {the image's kind: its plan}}."""
    plans = getattr(container, "_u8aug_kept_plans", None)
    if plans is None:
        plans = {}
        container._u8aug_kept_plans = plans
    return plans


def steps_fixed(module) -> bool:
    """Whether the module's steps, given its draw, are the same for every image size (a kept plan
    leaves the size out of its key): not PadTo, whose padding is the size's distance to its own."""
    return getattr(type(module).apply_transform, "u8aug_kernel", None) is not _apply.KERNELS["PadTo"]


def program_of(container) -> Optional[Tuple[Tuple[str, ...], Tuple[str, ...], torch.Tensor, torch.Tensor]]:
    """The chain's native draw (each module's line and kind, their numbers and bounds), or None
    where it has none: kornia's batch-shape rule moves the size after a crop that always applies, as
    the draw does."""
    if container.random_apply:
        return None
    lines, kinds, numbers = [], [], []
    for m in container._modules.values():
        if not steps_fixed(m):
            return None
        line = _native_draws.program_line(m)
        if line is None:
            return None
        text, kind, own = line
        if kind == "resized_crop" and (m.p != 1 or m.p_batch != 1):
            return None  # kornia's batch shape after a crop that may skip is data-dependent
        lines.append(text)
        kinds.append(kind)
        numbers.extend(own)
    return tuple(lines), tuple(kinds), _native_draws.numbers_tensor(numbers), bounds_of(container, kinds)


def bounds_of(container, kinds) -> torch.Tensor:
    """The chain's sampler bounds, as the generators hold them now."""
    bounds = []
    for m, kind in zip(container._modules.values(), kinds):
        bounds.extend(_native_draws.bounds_of(m, kind))
    return _native_draws.bounds_tensor(bounds)


def params_of(container, kinds, out) -> List[ParamItem]:
    params, start = [], 0
    for name, kind in zip(container._modules, kinds):
        data, start = _native_draws.parameters_of(out, start, kind)
        params.append(ParamItem(name, data))
    return params


def take_index(kinds, i: int) -> int:
    """Where the op's output holds module i's gate as bool."""
    return sum(_native_draws.PER_MODULE + len(_native_draws.keys_of(k)) for k in kinds[:i]) + 1


def slot_of(t, modules, datas, takes, everyone, derived=(), image=None):
    """Where a tensor a step reads comes from (see KeptPlan.slots), or None where it is none of
    them. ``datas``: each module's params dict; ``takes``: its gate as bool (None: not drawn);
    ``derived``: the tensors the apply functions made from those by a recipe (Planner.derived):
    ("derived", recipe, each argument's slot or ("const", value)); ``image``: the planned image's
    stand-in, which a recipe may read (("image",): the call's image)."""
    if t is everyone:
        return ("every",)
    if image is not None and t is image:
        return ("image",)
    if t.numel() == 0 and t.dtype == torch.float32:
        return ("absent",)
    for i, (m, data) in enumerate(zip(modules, datas)):
        if t is takes[i]:
            return ("take", i)
        for k, v in data.items():
            if t is v:
                return ("param", i, k)
        for k, v in m.flags.items():
            if t is v:
                return ("flag", i, k)
    for made, recipe, args in derived:
        if t is made:
            inner = []
            for a in args:
                inner.append(slot_of(a, modules, datas, takes, everyone, derived, image) if isinstance(a, torch.Tensor)
                             else ("const", a))  # fmt: skip
                if inner[-1] is None:
                    return None
            return ("derived", recipe, tuple(inner))
    return None


def resolve(slots, modules, datas, take, image=None) -> List[torch.Tensor]:
    """The tensors a kept plan's steps read this call: ``take(i)`` gives module i's gate. A tensor
    made by a recipe is made once however many steps read it (("same", j): slots_of)."""
    tensors = []
    for slot in slots:
        tensors.append(tensors[slot[1]] if slot[0] == "same" else _resolve(slot, modules, datas, take, image))
    return tensors


def slots_of(tensors, modules, datas, takes, everyone, derived=(), image=None) -> Optional[Tuple[tuple, ...]]:
    """Each tensor's slot (slot_of); a tensor read again ("same", j), j where it was first read; None
    where one has none."""
    slots = []
    for i, t in enumerate(tensors):
        seen = [j for j in range(i) if tensors[j] is t]
        slot = ("same", seen[0]) if seen else slot_of(t, modules, datas, takes, everyone, derived, image)
        if slot is None:
            return None
        slots.append(slot)
    return tuple(slots)


def _resolve(slot, modules, datas, take, image):
    kind = slot[0]
    if kind == "param":
        return datas[slot[1]][slot[2]]
    if kind == "take":
        return take(slot[1])
    if kind == "flag":
        return modules[slot[1]].flags[slot[2]]
    if kind == "every":
        return _EVERY_SAMPLE
    if kind == "derived":
        return slot[1](*[_resolve(a, modules, datas, take, image) for a in slot[2]])
    if kind == "const":
        return slot[1]
    if kind == "image":
        return image
    return _ABSENT


def tensors_of(plan: KeptPlan, modules, params, out) -> List[torch.Tensor]:
    datas = [p.data for p in params]
    return resolve(plan.slots, modules, datas, lambda i: out[take_index(plan.kinds, i)])


def keep(container, key, plans, program, out, params, calls) -> None:
    """Keeps the first call's record as the configuration's plan where it is complete (see the top).
    ``calls``: each pipeline call it ran, (steps, tensors, the planner's every-sample gate, the
    planned modules); None where a module ran on its own."""
    if calls is None or len(calls) != 1:
        return
    steps, tensors, everyone, planned, derived = calls[0]
    modules = list(container._modules.values())
    if len(planned) != len(modules) or any(p[0] is not m or p[3] is not None for p, m in zip(planned, modules)):
        return  # a module ran on its own, or read a matrix made from its draw
    lines, kinds, numbers, bounds = program
    takes = [out[take_index(kinds, i)] for i in range(len(modules))]
    slots = slots_of(tensors, modules, [p.data for p in params], takes, everyone, derived)
    if slots is None:
        return
    sizes = tuple(
        (int(line.split()[-2]), int(line.split()[-1])) if kind == "resized_crop" else None
        for line, kind in zip(lines, kinds)
    )
    # one op a call (u8aug::kept_call) on the CPU where the container and its modules make their state
    # when read: the plan's key holds the device and each module's class
    one_op = key[3] == "cpu" and _state.lazy_state(container, modules)
    native = native_slots(slots, kinds) if one_op else None
    if native is not None:
        native = (*native, _native_draws.joined(lines), _native_draws.joined(steps))
    plans[key] = KeptPlan(lines, kinds, numbers, bounds, tuple(steps), slots, sizes, native)


def native_slots(slots, kinds) -> Optional[Tuple[Tuple[int, ...], Tuple[tuple, ...]]]:
    """KeptPlan.native: the slots as places among the draw's tensors and the tensors given each call."""
    places, extra = [], []
    for slot in slots:
        kind = slot[0]
        if kind == "same":
            places.append(places[slot[1]])
        elif kind in ("take", "param"):
            places.append(_draw_place(slot, kinds))
        elif kind in ("flag", "every", "absent"):
            if slot not in extra:
                extra.append(slot)
            places.append(-1 - extra.index(slot))
        elif kind == "derived" and slot[2] and slot[2][0][0] == "param":  # a recipe of one drawn param
            place = _native_draws.recipe_slot(slot[1], slot[2][1:], _draw_place(slot[2][0], kinds))
            if place is None:
                return None  # a recipe the kept call does not make
            places.append(place)
        else:
            return None  # made by another recipe, or the image
    return tuple(places), tuple(extra)


def _draw_place(slot, kinds) -> int:
    """Where a ("take", i) or ("param", i, key) slot is among the draw's tensors."""
    if slot[0] == "take":
        return take_index(kinds, slot[1])
    start = take_index(kinds, slot[1]) - 1
    keys = ("batch_prob", None, "forward_input_shape", *_native_draws.keys_of(kinds[slot[1]]))
    return start + keys.index(slot[2])
