"""What a kept plan was made from, compared on every call: a fused container's kept key
(_kept.plans_for) and a class's kept plans (_thin.py) hold a guard of each module, made here, and
plan anew when ``same`` finds it changed.

A guard holds the module's class's methods (a method patched on the class makes a new plan and
runs), the methods set on the instance, its flags' values and its generator with what the
generator's native draw reads (its samplers, by id). Settings written on a u8aug class renew its
settings token instead (_state.state_setattr), which the callers hold beside the guard.
"""

import operator
from typing import Sequence, Tuple

import torch
from kornia.augmentation import random_generator as rg
from torch.nn.modules import module as _nn_module

from . import _native_draws


def guard(module, ident=None) -> Tuple[tuple, Sequence]:
    """What a kept plan was made from, compared on each call (``same``): (the values, compared by
    identity or as equal settings; the objects watched by identity, as ``ident`` gives them: by_id
    where None, as they are where ``AS_IS``). The generator and its samplers are watched by id:
    torch.compile checks an id in its own C++ guards, while an object kept in the guard and found
    again through the module is one more check of identity, in Python, on every call. Whoever keeps
    a guard keeps the objects too (the guard made with ``held``), so that no id is reused while it
    is kept. The ids apart from the values: an id is a new int each call, so the values alone can
    be found identical in one C loop (``same``)."""
    cls = type(module)
    attributes = module.__dict__
    # the generator without nn.Module's __getattr__ (a Python call, 1.4 us of the guard): kornia's is
    # a submodule, or None set as a plain attribute
    gen = attributes.get("_param_generator")
    if gen is None:
        gen = attributes["_modules"].get("_param_generator")
    flags = module.flags
    if gen is None:  # a flip, Normalize
        settings, watched = (None,), ()  # by_id(()) and held(()) without a call
    else:
        settings, watched = _generator_settings(gen)
    values = (
        cls.forward,
        cls.forward_parameters,
        cls.__batch_prob_generator__,
        cls.generate_parameters,
        cls.apply_transform,
        cls.transform_inputs,
        getattr(cls, "generate_transformation_matrix", None),  # a warp's matrix recipe (_matrix.direct_op)
        getattr(cls, "compute_transformation", None),
        attributes.get("generate_parameters"),
        attributes.get("forward_parameters"),
        len(flags),
        *flags.values(),
        *settings,
        torch.get_default_dtype(),
    )
    if ident is None:
        return values, (by_id(watched) if watched else ())
    return values, (watched if ident is AS_IS else ident(watched))


AS_IS = object()  # guard's ``ident`` for the objects watched as they are (_kept._key_guard)


def _generator_settings(gen) -> Tuple[tuple, Sequence]:
    """(The generator's settings its native draw's plan holds, the generator and its samplers):
    a generator drawn in Python reads its settings itself each call. A setting kornia reads only
    when it makes its samplers (ColorJitter's four ranges, the affine and perspective settings) is
    left out: a new value does not change kornia's draw either, and a float in the guard is a float
    that torch.compile converts and checks in Python on every call, and never finds identical (the
    compiled call then planned anew each time). Those settings still count where they are not
    floats: a tensor setting gives the params their dtype and device."""
    if type(gen) is rg.ResizedCropGenerator:
        return (gen.scale, gen.ratio, gen.resize_to), [gen, gen.rand_sampler, gen.log_ratio_sampler]
    if type(gen) in (rg.ColorJitterGenerator, rg.ColorJiggleGenerator):
        return (), [gen, *[getattr(gen, s) for s in _native_draws.JITTER_SAMPLERS]]
    if type(gen) is rg.PlainUniformGenerator:
        samplers = getattr(gen, "sampler_dict", None)
        return ((*samplers,) if samplers else (samplers,)), [gen, *(samplers.values() if samplers else ())]
    if type(gen) is rg.RandomGaussianBlurGenerator:
        return (), [gen, getattr(gen, "sigma_sampler", None)]
    if type(gen) is rg.PerspectiveGenerator:
        settings = (*_unless_float(gen.distortion_scale), gen._distortion_scale, gen.sampling_method)
        return settings, [gen, gen.rand_val_sampler]
    if type(gen) is rg.PosterizeGenerator:
        return _unless_float(gen.bits_factor), [gen, gen.bit_sampler]
    if type(gen) is rg.AffineGenerator:
        samplers = (gen.degree_sampler, gen.translate_x_sampler, gen.translate_y_sampler, gen.scale_2_sampler,
                    gen.scale_4_sampler, gen.shear_x_sampler, gen.shear_y_sampler)  # fmt: skip
        return _unless_float(gen.degrees, gen.translate, gen.scale, gen.shear), [gen, *samplers]
    return (), [gen]


def _unless_float(*settings) -> tuple:
    return tuple(s for s in settings if type(s) is not float)


def by_id(watched) -> tuple:
    """guard's ``ident`` for the call's guard: each object's id (None as it is, an affine's absent
    shear sampler: torch.compile takes no id of None)."""
    if None in watched:
        return tuple([None if v is None else id(v) for v in watched])
    return tuple(map(id, watched))


def held(watched) -> tuple:
    """guard's ``ident`` for the objects a kept guard holds."""
    return tuple(watched)


def same(a: Tuple[tuple, tuple], b: Tuple[tuple, tuple]) -> bool:
    """Whether two guards (``guard``, _kept._key_guard) find nothing changed: the same ids, and each
    value the very object or an equal setting (_equal_constant)."""
    values, ids = a
    other_values, other_ids = b
    if ids != other_ids or len(values) != len(other_values):
        return False
    if all(map(operator.is_, values, other_values)):
        return True  # every value the very object (each call, eagerly): one C loop
    for u, v in zip(values, other_values):
        if u is v:
            continue
        if type(u) is int and type(v) is int:  # an int setting torch.compile made anew
            if u == v:
                continue
            return False
        if not _equal_constant(u, v):
            return False
    return True


# a number torch.compile traces as a symbol (a float setting it has made dynamic)
_NUMBERS = (int, float, torch.SymInt, torch.SymFloat)


def _equal_constant(u, v) -> bool:
    """Equal numbers, or equal tuples of numbers and strings: torch.compile makes a float or tuple it
    reads anew, so ``is`` never finds them identical in a compiled call (which then planned anew on
    every call); equal, they are the same setting."""
    if isinstance(u, _NUMBERS) and isinstance(v, _NUMBERS):
        if type(u) is bool or type(v) is bool:
            return False
        if type(u) in (int, float) and type(v) in (int, float) and type(u) is not type(v):
            return False  # an int and a float: different settings, as before
        return bool(u == v)
    if type(u) is not type(v):
        return False
    if type(u) is str:  # a module's name, which a compiled call that made the guard may have copied
        return u == v
    return type(u) is tuple and all(isinstance(e, (*_NUMBERS, str)) for e in u + v) and bool(u == v)


def call_is_forward(module) -> bool:
    """Whether nn.Module's call of the module would be its ``forward`` alone: no hook (its own check,
    in the same order of cheapness), not compiled in place (``Module.compile``), no jit trace."""
    return not (
        module._forward_hooks
        or module._forward_pre_hooks
        or module._backward_hooks
        or module._backward_pre_hooks
        or _nn_module._global_forward_hooks
        or _nn_module._global_forward_pre_hooks
        or _nn_module._global_backward_hooks
        or _nn_module._global_backward_pre_hooks
        or module._compiled_call_impl is not None
        or torch._C._get_tracing_state() is not None
    )
