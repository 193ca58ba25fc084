"""The fused container path: an AugmentationSequential on a uint8 batch runs its drop-in steps as
one ``u8aug.pipeline`` op instead of one kornia module call each.

kornia draws every step's parameters first (``forward_parameters``); this path keeps those draws
and, instead of calling each module (its gate, blend, matrix, validation and a pass over memory),
asks each module's own uint8 apply function (_apply.KERNELS) what it would run, with a planner
standing in for ``u8aug.ops``: every op call becomes a step of the plan, given the module's gate.
The planned steps then run in one op, sample by sample through cache-sized scratch images
(bindings/pipeline.inc, cpu/pipeline.cc). Each step is the op its module would call, on the bytes
the previous step left, so the output is the step-by-step chain's byte for byte.

A module that cannot fuse (not a drop-in, a nested container, a step whose gate would skip a
shape change) runs on its own, in order, through kornia. What is skipped is only work whose
result nobody reads: the modules' transformation matrices are left lazy (kornia's own
``_lazy_matrix_args``) and the container's product is formed when ``transform_matrix`` is read.
"""

from typing import Optional, Tuple

import torch
from kornia.augmentation import AugmentationSequential as _KorniaAugmentationSequential
from kornia.augmentation.container.ops import InputSequentialOps
from kornia.constants import DataKey

from . import _apply, _guard, _kept, _matrix, _native_draws, _ragged, _state
from ._apply_common import derived
from ._planner import Planner, _NotFused, _stand_in

# kornia's own, taken before install() can replace them
_KORNIA_FORWARD = _KorniaAugmentationSequential.forward
_KORNIA_CLEAR_STATE = _KorniaAugmentationSequential.clear_state
_KORNIA_TRANSFORM_MATRIX = _KorniaAugmentationSequential.transform_matrix
_KORNIA_CALL = _KorniaAugmentationSequential.__call__


def _kernel_of(module):
    """The module's u8aug apply function, if its uint8 path is u8aug's (a drop-in, or kornia's class
    after install()) and the chain can plan it."""
    kernel = getattr(type(module).apply_transform, "u8aug_kernel", None)
    return kernel if kernel in _apply.FUSED_KERNELS else None


def _plan_module(planner: Planner, module, data: dict, shape, device, take=None):
    """Adds the module's steps to the plan; returns the transformation matrix it used, if any.
    ``take``: the module's gate as bool, where the draw made it (_native_draws)."""
    kernel = _kernel_of(module)
    if kernel is None:
        raise _NotFused(type(module).__name__)
    flags = module.flags
    if module.p == 1.0 and module.p_batch == 1.0:
        planner.take = None
    else:
        planner.take = torch.atleast_1d(data["batch_prob"] > 0.5) if take is None else take
    x = _stand_in(planner.scalar, shape)
    planner.current = tuple(shape)
    # the warps sample by their matrix, and so do the crops in cropping_mode="resample"
    warps = kernel in _apply.WARP_KERNELS or flags.get("cropping_mode") == "resample"
    matrix = None
    if warps:  # made by a recorded recipe, so that a class's kept plan makes it from each draw (_thin.py)
        planner.image = x
        direct = _matrix.direct_op(module, x, data)
        if direct is not None:
            matrix = derived(planner, direct[0], *[data[k] for k in direct[1]])
        else:
            matrix = derived(planner, transformation_matrix, module, x, tuple(data), *data.values())
    steps, tensors = len(planner.steps), len(planner.tensors)
    try:
        out = kernel(module, x, data, flags, matrix, planner)
    except _NotFused:
        del planner.steps[steps:], planner.tensors[tensors:]  # a module joins whole or not at all
        planner.take = None
        planner.current = tuple(shape)
        raise
    return out.shape, matrix


def transformation_matrix(module, image, keys, *values):
    """The module's matrix for a uint8 ``image`` (or a stand-in of its shape) from its params
    (``keys``, ``values``), as kornia's forward makes it (generate_transformation_matrix)."""
    return module.generate_transformation_matrix(image, dict(zip(keys, values)), module.flags)


def _keeps_dims(module) -> bool:
    """Whether the module or one inside it has keepdim=True (nn.Module.modules() walks a generator
    of names: 10 us for the standard recipe)."""
    for m in module._modules.values():
        if getattr(m, "keepdim", False) or (m._modules and _keeps_dims(m)):
            return True
    return getattr(module, "keepdim", False)


def fusable_call(container, args, data_keys, params) -> bool:
    """Whether this call takes the fused path: one uint8 (B, C, H, W) or (C, H, W) image and nothing
    else. A (C, H, W) image runs as (1, C, H, W), kornia's draws and output for it (each module
    turns it into a batch of one), unless a module keeps its input's dims (keepdim=True)."""
    if len(args) != 1 or not isinstance(args[0], torch.Tensor) or args[0].dtype != torch.uint8:
        return False
    if args[0].dim() not in (3, 4):
        return False
    if container.contains_3d_augmentation or container.contains_video_sequential:
        return False
    if args[0].dim() == 3 and _keeps_dims(container):
        return False
    keys = container.transform_op.preproc_datakeys(data_keys)
    return list(keys) == [DataKey.INPUT] and not container.extra_args.get(DataKey.INPUT)


def fused_forward(container, x: torch.Tensor, params, image: torch.Tensor, found=None) -> torch.Tensor:
    """The container's forward on a uint8 batch ``x`` (the call's ``image`` as a batch): kornia's
    draws, fused runs of u8aug steps; a configuration seen before whose chain was kept runs as one
    native draw and one pipeline op (_kept.py). ``found``: _kept.plans_for's answer for this call,
    where the caller already asked it."""
    _clear_call_state(container)
    calls = None  # what a configuration's first call runs, recorded for _kept.keep
    if params is None:
        plans, key = _kept.plans_for(container, image) if found is None else found
        plan = plans.get(key, _kept.UNPLANNED) if plans is not None else None
        if isinstance(plan, _kept.KeptPlan):
            return _run_kept(container, x, plan)
        if plan == _kept.UNPLANNED:
            # the configuration's first call: draw natively where the chain can, and record the plan
            program = _kept.program_of(container)
            plans[key] = None  # unless _kept.keep keeps it below
            if program is not None:
                out = _native_draws.draw_program(program[0], program[2], program[3], x.shape)
                params = _kept.params_of(container, program[1], out)
                calls = []
        if params is None:
            params = container.forward_parameters(x.shape)
    device = x.device
    ran = []  # every module, in order: the container multiplies their matrices when transform_matrix is read
    planner, planned, shape = None, [], tuple(x.shape)

    def flush(x):
        nonlocal planner, planned
        if planner is not None and planner.steps:
            x = torch.ops.u8aug.pipeline(x, planner.steps, planner.tensors)
            if calls is not None:
                calls.append((list(planner.steps), list(planner.tensors), planner._all, list(planned), planner.derived))
        for module, data, in_shape, matrix in planned:
            _state.commit(module, data, in_shape, device, matrix, data_keys=True)
        planner, planned = None, []
        return x

    for i, param in enumerate(params):
        # a direct child by its name (get_submodule walks a dotted path: 9 us a module)
        module = container._modules.get(param.name)
        module = container.get_submodule(param.name) if module is None else module
        data = param.data
        if isinstance(data, dict) and x.dtype == torch.uint8 and _kernel_of(module) is not None:
            if "batch_prob" not in data:
                data["batch_prob"] = torch.ones(shape[0], dtype=torch.bool)
            if planner is None:
                planner = Planner(device)
            try:
                take = None if calls is None else out[_kept.take_index(program[1], i)]
                out_shape, matrix = _plan_module(planner, module, data, shape, device, take)
            except _NotFused:
                x = flush(x)
            else:
                planned.append((module, data, shape, matrix))
                ran.append(module)
                shape = out_shape
                if planner.normalized:
                    x = flush(x)
                continue
        x = flush(x)
        x = InputSequentialOps.transform(x, module=module, param=param, extra_args={})  # none for INPUT: fusable_call
        calls = None  # a module ran on its own: the chain is not kept
        ran.append(module)
        shape = tuple(x.shape)
    x = flush(x)
    if calls is not None:
        _kept.keep(container, key, plans, program, out, params, calls)
    _finish(container, params, ran)
    return x


def _kept_call(container, image) -> Tuple[Optional[torch.Tensor], Optional[tuple]]:
    """A call of one image whose configuration and kind (_kept.plans_for: its dims, channels, dtype
    and device) already have a kept plan: that plan, without fusable_call's checks, which the plan's
    first call passed and which depend on nothing else. (its output, None); (None, what plans_for
    found, if it was asked) where there is none."""
    if not isinstance(image, torch.Tensor) or image.dtype != torch.uint8 or image.dim() not in (3, 4):
        return None, None
    if container.data_keys != [DataKey.INPUT] or container.extra_args.get(DataKey.INPUT):
        return None, None  # fusable_call's checks of what may change in place
    plans, key = _kept.plans_for(container, image)
    plan = plans.get(key) if plans is not None else None
    if not isinstance(plan, _kept.KeptPlan):
        return None, (plans, key)
    _clear_call_state(container)
    return _run_kept(container, image if image.dim() == 4 else image.unsqueeze(0), plan), None


def _finish(container, params, ran) -> None:
    """The container's state after a call: its params, and its matrix formed when read."""
    if container._transformation_matrix_arg == "rigid":  # its check raises for a non-rigid module: run it now
        if getattr(container, "_pending_matrix_modules", None) is not None:
            container._pending_matrix_modules = None
        for module in ran:
            container._update_transform_matrix_by_module(module)
    elif not _state.is_exporting():
        object.__setattr__(container, "_pending_matrix_modules", ran)  # a state name: a plain attribute
    if _state.is_exporting():
        return  # kornia's forward writes the params unless exporting
    if type(params) is tuple:  # a kept call's record and the modules' names: made when read (_state.py)
        object.__setattr__(container, "_u8aug_pending_params", params)
    else:
        container._params = params


def _run_kept(container, x: torch.Tensor, plan) -> torch.Tensor:
    """A kept configuration's call: the native draw, the pipeline, kornia's state."""
    modules = list(container._modules.values())
    shape, device = tuple(x.shape), x.device
    if plan.native is not None:
        # one op, and the state a record read when someone reads it
        places, given, program, steps = plan.native
        extra = resolve_given(given, modules)
        y, record = _native_draws.KEPT_CALL(x, program, plan.numbers, plan.bounds, steps, places, extra)
        drawn = [record, plan.lines, plan.kinds, shape, None]
        _state.commit_kept(modules, drawn, shape, device, plan.sizes)
        _finish(container, (drawn, tuple(container._modules)), modules)
        return y
    out = _native_draws.draw_program(plan.lines, plan.numbers, plan.bounds, x.shape)
    params = _kept.params_of(container, plan.kinds, out)
    y = torch.ops.u8aug.pipeline(x, plan.steps, _kept.tensors_of(plan, modules, params, out))
    for module, param, size in zip(modules, params, plan.sizes):
        _state.commit(module, param.data, shape, device, None, data_keys=True)
        if size is not None:
            shape = (*shape[:-2], *size)
    _finish(container, params, modules)
    return y


def resolve_given(given, modules):
    """The tensors a kept call takes each call besides its draw (_kept.native_slots)."""
    return [modules[s[1]].flags[s[2]] if s[0] == "flag" else _kept.PLACEHOLDERS[s[0]] for s in given]


def transform_matrix(container):
    """The container's matrix, the product of its modules' (formed on first read after a fused call)."""
    pending = getattr(container, "_pending_matrix_modules", None)
    container._pending_matrix_modules = None
    for module in pending or ():
        container._update_transform_matrix_by_module(module)
    return _KORNIA_TRANSFORM_MATRIX.fget(container)


def clear_state(container) -> None:
    container._pending_matrix_modules = None
    _KORNIA_CLEAR_STATE(container)


def _clear_call_state(container) -> None:
    """clear_state's writes (kornia's: the params and the matrix cache; u8aug's pending matrices),
    each only where it changes something; _finish writes the params and pending matrices."""
    if _state.is_exporting():
        return
    if container._transform_matrix is not None:
        container._transform_matrix = None
    if container._transform_matrices:
        container._transform_matrices = []


def call(container, *inputs, input_names_to_handle=None, output_type="pt", **kwargs):
    """AugmentationSequential.__call__: one image tensor, no options, the image data key alone, goes
    straight to the module call; kornia's __call__ converts nothing there (a tensor is returned
    unchanged, the output is "pt") and keeps the output for show() and save(), as this does.
    Everything else is kornia's __call__."""
    if (
        len(inputs) == 1
        and not kwargs
        and input_names_to_handle is None
        and output_type == "pt"
        and isinstance(inputs[0], torch.Tensor)
        and not container._disable_features
        and len(container.data_keys) == 1
        and container.data_keys[0] == DataKey.INPUT
    ):
        # nn.Module's call, which is the forward alone where nothing hooks it (4 Python frames less)
        x = inputs[0]
        out = container.forward(x) if _guard.call_is_forward(container) else torch.nn.Module.__call__(container, x)
        if not _state.is_exporting() and isinstance(out, torch.Tensor):
            # kept for show() and save(): detached, as kornia keeps it (nothing to detach from unless
            # it requires grad)
            object.__setattr__(container, "_output_image", out.detach() if out.requires_grad else out)
        return out
    return _KORNIA_CALL(container, *inputs, input_names_to_handle=input_names_to_handle, output_type=output_type,
                        **kwargs)  # fmt: skip


def forward(container, *args, params=None, data_keys=None):
    """AugmentationSequential.forward: the fused path for one uint8 image batch, kornia's otherwise."""
    while args and args[-1] is None:  # kornia's own rule for the legacy ONNX tracer's trailing Nones
        args = args[:-1]
    found = None  # (plans, key) looked up by _kept_call, not looked up again by fused_forward
    if len(args) == 1 and params is None and data_keys is None:
        y, found = _kept_call(container, args[0])
        if y is not None:
            return y
    if args and _ragged.is_image_list(args[0]):  # images of different sizes (_ragged.py)
        return _ragged.sequential(container, list(args[0]), params, data_keys)
    if fusable_call(container, args, data_keys, params):
        x = args[0]
        return fused_forward(container, x if x.dim() == 4 else x.unsqueeze(0), params, x, found)
    return _KORNIA_FORWARD(container, *args, params=params, data_keys=data_keys)
