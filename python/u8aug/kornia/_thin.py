"""A class called on its own with one uint8 image batch, in a few attribute reads around its op.

kornia's call of one augmentation (nn.Module's call, ``forward``, ``forward_parameters``,
``apply_func``, ``transform_inputs``, the matrix's bookkeeping) costs 30-40 us of Python around a
flip whose op takes 6 us. The first uint8 call of a configuration here runs kornia's steps as the
fused container plans them (_fused._plan_module: the module's own uint8 apply function, its checks
included) and keeps the plan: the pipeline's steps and where each tensor they read comes from (a
drawn parameter or the gate, as _kept.py records a chain). Later calls draw natively
(_native_draws; nothing for a gate-only class at p = 1, which draws no number), run the one op, and
leave kornia's state as kornia's forward leaves it (_state.commit: ``_params``, the matrix made
when it is read). Only classes whose draw is native are kept: a draw in Python may decide the
steps' words, and only the kept chains' kinds are known not to (_kept.steps_fixed).

What the plan depends on is checked each call by identity (``_guard.guard``): the class's methods (a
patched ``__batch_prob_generator__`` or ``generate_parameters`` makes a new plan, and the new
method runs), the flags' values and the generator's settings. Settings set on the module itself
(``p``, ``same_on_batch``, ``keepdim``, ``fidelity``, its device and dtype) drop the plans through
its ``__setattr__`` (_state.py). The image's height, width and batch size are not in the plan.

A warp at p = 1 is kept as well: its matrix is a recipe of each draw (_fused.transformation_matrix),
and its op, called directly, takes each call's image size (its step's words hold the first's).

Anything else takes nn.Module's call and kornia's forward, as before: hooks, keyword arguments,
params given, float images, a (H, W) image, p = 0, a crop that may skip, a warp with p < 1, a draw
that is not native, a class the fused container does not plan, an image that is not on the CPU.
"""

from typing import NamedTuple, Optional, Tuple

import torch
from kornia.augmentation.base import _BasicAugmentationBase

from . import _apply, _fused, _guard, _kept, _native_draws, _state
from ._planner import Planner, _NotFused

_MODULE_CALL = torch.nn.Module.__call__
_KORNIA_FORWARD = _BasicAugmentationBase.forward


class ThinPlan(NamedTuple):
    program: Tuple[str, str, torch.Tensor, torch.Tensor]  # (line, kind, numbers, bounds): the native draw
    draws: bool  # whether the module draws at all (False: a gate-only class at p = 1)
    steps: Tuple[str, ...]
    slots: Tuple[tuple, ...]  # as _kept.KeptPlan's: ("param", 0, key), ("take", 0), ("flag", 0, key), ("every",), ...
    # one step on every sample: its op called directly (3 us less than the pipeline's parse), the
    # op (its default overload) and its arguments after img, a tensor as ("slot", i) of slots
    op: Optional[torch._ops.OpOverload]
    arguments: Tuple
    # the draw and the step in one op (u8aug::kept_call, as a kept container's call): the slots as its
    # places among the draw's tensors, the tensors given each call (_kept.native_slots, resolved
    # when planned: a flag's tensor is in the guard by identity) and the steps as the op takes them
    # (_native_draws.joined); None where the class writes its state at once (kornia's classes after
    # install()), a slot is made by a recipe the op does not make (_native_draws.NATIVE_RECIPES), a
    # warp, or nothing is drawn
    native: Optional[Tuple[Tuple[int, ...], Tuple[torch.Tensor, ...], str]] = None


def _kornias_forward(forward) -> bool:
    """kornia's forward: its own, the copy of it kornia makes for each class (``__init_subclass__``,
    its ``__wrapped__`` the one it copied), or u8aug's, which hands everything but an image list to it."""
    for _ in range(8):
        if forward is _KORNIA_FORWARD or getattr(forward, "u8aug_forward", False):
            return True
        forward = getattr(forward, "__wrapped__", None)
    return False


def call(module, *args, **kwargs):
    """The class's ``__call__``: one uint8 image tensor and nothing else takes the kept plan."""
    if len(args) == 1 and not kwargs:
        x = args[0]
        if isinstance(x, torch.Tensor) and x.dtype == torch.uint8 and _guard.call_is_forward(module):
            y = forward(module, x)
            if y is not None:
                return y
    return _MODULE_CALL(module, *args, **kwargs)


def forward(module, x: torch.Tensor) -> Optional[torch.Tensor]:
    """The call through the module's kept plan for this image's kind; None where it has none."""
    dims = x.dim()
    if dims not in (3, 4):
        return None
    guard = _guard.guard(module)
    kept = module._u8aug_thin
    if kept is None or not _guard.same(kept[0], guard):
        kept = (guard, {}, _guard.guard(module, _guard.held))  # held: no id in the guard reused while kept
        module._u8aug_thin = kept
    traits = (dims, x.shape[-3], x.device)
    plan = kept[1].get(traits, _kept.UNPLANNED)
    x4 = x if dims == 4 else x.unsqueeze(0)
    if plan is None:
        return None
    drawn = None
    if plan is _kept.UNPLANNED:
        plan, drawn = _plan(module, x4)
        kept[1][traits] = plan
        if plan is None:
            return _run_unkept(module, x4, dims, drawn)
    y = _run(module, x4, plan, drawn)
    return y[0] if dims == 3 and module.keepdim else y


def _run_unkept(module, x4, dims, drawn):
    """A configuration's first call that found no plan: kornia's forward, with the params already
    drawn where planning drew them."""
    if drawn is None:
        return None
    return _KORNIA_FORWARD(module, x4 if dims == 4 else x4[0], params=drawn[0])


def _plan(module, x4: torch.Tensor):
    """The module's plan, or None where a call of it cannot be kept (see the top); and what
    planning drew, (params, the native draw's outputs), None where it drew nothing."""
    if not (0 < module.p <= 1) or module.p_batch != 1:
        return None, None
    if x4.device.type != "cpu":
        return None, None  # kornia draws on the CPU; a CUDA image's gate would have to move (untested here)
    if not _kornias_forward(type(module).forward):
        return None, None
    kernel = _fused._kernel_of(module)
    if getattr(type(module), "_u8aug_thin", 0) is not None or kernel is None:
        return None, None
    warp = kernel in _apply.WARP_KERNELS
    if module.flags.get("cropping_mode") == "resample" or (warp and module.p != 1):
        return None, None  # its output size, or the step's gate, would be the draw's
    if not _kept.steps_fixed(module):
        return None, None
    line = _native_draws.program_line(module)
    if line is None:
        return None, None  # a draw in Python: its params may decide the steps' words
    text, kind, numbers = line
    if kind == "resized_crop" and module.p != 1:
        return None, None  # kornia's output shape after a crop that may skip depends on the draw
    program = (text, kind, _native_draws.numbers_tensor(numbers), _native_draws.bounds_tensor(
        _native_draws.bounds_of(module, kind)))  # fmt: skip
    draws = not (module.p == 1 and module._param_generator is None)
    plan = ThinPlan(program, draws, (), (), None, ())
    drawn = _draw(module, x4.shape, plan)
    data, out = drawn
    if data is None:  # kornia's params without a draw, for the apply function to read
        data = {"batch_prob": torch.ones(x4.shape[0]), "forward_input_shape": torch.tensor(x4.shape)}
    planner = Planner(x4.device)
    take = out[1] if out is not None else None
    try:
        _fused._plan_module(planner, module, data, tuple(x4.shape), x4.device, take)
    except _NotFused:
        return None, drawn
    if not planner.steps:
        return None, drawn
    slots = _kept.slots_of(planner.tensors, [module], [data], [take], planner._all, planner.derived, planner.image)
    if slots is None or (not draws and any(s[0] in ("param", "derived") for s in slots)):
        return None, drawn
    op, arguments = None, ()
    if len(planner.calls) == 1 and not planner.calls[0][2]:
        name, args, _ = planner.calls[0]
        arguments = tuple(_direct_argument(a, planner.tensors) for a in args)
        if warp:  # a warp's output size is its input's (kornia's warps): the step's words hold the first's
            size = (x4.shape[-2], x4.shape[-1])
            arguments = tuple(_IMAGE_SIZE if type(a) is tuple and a == size else a for a in arguments)
        op = getattr(torch.ops.u8aug, name).default if all(a is not _UNKNOWN for a in arguments) else None
    if warp and (op is None or sum(1 for a in arguments if _is_image_size(a)) != 1):
        return None, drawn  # its steps' words hold the image's size: only its op called directly is kept
    native = None
    if draws and not warp and _state.lazy_module(module):
        native = _kept.native_slots(slots, (kind,))
        if native is not None:  # the given tensors resolved now: a flag that is a new object fails the guard
            native = (native[0], _fused.resolve_given(native[1], (module,)), _native_draws.joined(planner.steps))
    return ThinPlan(program, draws, tuple(planner.steps), slots, op, arguments, native), drawn


_IMAGE_SIZE = ("image size",)  # a direct call's argument: the call's image's (H, W)


_UNKNOWN = object()


def _is_image_size(a) -> bool:
    return type(a) is tuple and len(a) == 1 and a[0] == _IMAGE_SIZE[0]


def _argument(a, tensors, x4):
    """A direct call's argument this call (see _direct_argument)."""
    if type(a) is tuple and a:
        if a[0] == "slot":
            return tensors[a[1]]
        if a[0] == _IMAGE_SIZE[0]:
            return (x4.shape[-2], x4.shape[-1])
    return a


def _direct_argument(a, tensors):
    """A direct call's argument: a tensor as its place among the step's tensors (so its slot),
    anything else as it is."""
    if isinstance(a, torch.Tensor):
        for i, t in enumerate(tensors):
            if t is a:
                return ("slot", i)
        return _UNKNOWN  # made by the planner (a conversion): not a recorded place
    return a


def _draw(module, shape, plan: ThinPlan):
    """The call's params as kornia's ``forward_parameters`` gives them, and the native draw's outputs
    (None where nothing was drawn)."""
    if plan.draws:
        text, kind, numbers, bounds = plan.program
        out = _native_draws.draw_program([text], numbers, bounds, shape)
        return _native_draws.parameters_of(out, 0, kind)[0], out
    return None, None  # p = 1 and no generator: kornia's gate draws nothing (_state.commit makes its params)


def _run(module, x4: torch.Tensor, plan: ThinPlan, drawn=None) -> torch.Tensor:
    if plan.native is not None and drawn is None:
        # one op; the params a record that the class's state unpacks when it is read (_state.py)
        text, kind, numbers, bounds = plan.program
        places, given, steps = plan.native
        y, record = _native_draws.KEPT_CALL(x4, text, numbers, bounds, steps, places, given)
        shape = tuple(x4.shape)
        _state.commit(module, ([record, (text,), (kind,), shape, None], 0), shape, x4.device, None, data_keys=False)
        return y
    if not plan.draws and plan.op is not None and not plan.arguments and drawn is None:
        # a gate-only class at p = 1 (a flip, grayscale): its op on the image, its state recorded
        y = plan.op(x4)
        _state.commit(module, None, tuple(x4.shape), x4.device, None, data_keys=False)
        return y
    data, out = _draw(module, x4.shape, plan) if drawn is None else drawn
    tensors = _kept.resolve(plan.slots, [module], [data], lambda i: out[1], x4) if plan.slots else []
    if plan.op is not None:
        args = [_argument(a, tensors, x4) for a in plan.arguments]
        y = plan.op(x4, *args)
    else:
        y = torch.ops.u8aug.pipeline(x4, plan.steps, tensors)
    _state.commit(module, data if plan.draws else None, tuple(x4.shape), x4.device, None, data_keys=False)
    return y
