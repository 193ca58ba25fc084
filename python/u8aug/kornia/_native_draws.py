"""kornia's ``forward_parameters`` made natively: a chain of modules' gates and draws in one C++ call
on torch's CPU generator (u8aug/kornia_draws.h, bindings/draws.cpp), the same parameters bit for
bit and the generator left where kornia's draws leave it.

A module's draw is written as one line of a program ("KIND SAME INTS..."), its numbers (p, the
ranges' ends, in one float64 tensor) and its samplers' bounds (one float32 tensor), read by the
C++ draw as kornia holds them (its log-ratio bounds are torch.log's results). ``program_line`` says whether a module's draw can run natively: kornia's own
``forward_parameters``, ``__batch_prob_generator__`` and ``generate_parameters`` (or u8aug's
replica of it), p_batch 1, float32 draws on the CPU, and a generator this file knows: none (the
flips, grayscale, normalize...), RandomResizedCrop's, ColorJitter's and ColorJiggle's, RandomAffine's,
RandomPerspective's, RandomPosterize's, and the uniform draws of UNIFORM_CLASSES. Anything else returns None and the
module draws as before (_containers.module_parameters).

The ops ``u8aug::kornia_forward_parameters`` and ``u8aug::kept_call`` (the draw, then a kept
pipeline) are C++ kernels that ask torch's CPU generator itself for the numbers the draw takes
(torch.rand and torch.randperm through torch's dispatcher, bindings/torch_numbers.cpp), in as few calls as
the chain allows; like ``u8aug.rand`` they are opaque to torch.compile and tagged
``nondeterministic_seeded``, and eager and compiled calls run this same code.
"""

from typing import Dict, List, Optional, Tuple

import torch
from kornia.augmentation import random_generator as rg
from kornia.augmentation.base import _BasicAugmentationBase
from kornia.augmentation.random_generator.base import UniformDistribution as _UniformDistribution

from . import _containers, _draws
from ._apply import KERNELS, _bits, _less_one, _turns_to_radians
from ._apply_filters import _gaussian_kernels

_lib = torch.library.Library("u8aug", "FRAGMENT")
_lib.define(
    "kornia_forward_parameters(str[] program, Tensor numbers, Tensor bounds, SymInt[] shape) -> Tensor[]",
    tags=(torch.Tag.nondeterministic_seeded,),
)
# Its CPU kernel is bindings/torch_numbers.cpp's: the draw asks torch's generator itself for its
# numbers, through torch's dispatcher (torch.rand, torch.randperm), so no Python reads or writes
# the state.

# each draw's tensors after the gate (float32 and bool) and the input shape it saw, in the C++ order
# (a uniform draw's kind names its factors: "uniform:brightness_factor", keys_of)
KEYS = {
    "none": (),
    "resized_crop": ("src", "dst", "input_size", "output_size"),
    "color_jitter": ("brightness_factor", "contrast_factor", "hue_factor", "saturation_factor", "order"),
    "affine": ("translations", "center", "scale", "angle", "shear_x", "shear_y"),
    "perspective": ("start_points", "end_points"),
    "posterize": ("bits_factor",),
}
PER_MODULE = 3  # batch_prob, the gate as bool, forward_input_shape
UNIFORM = "uniform:"

# The classes whose uniform draws (PlainUniformGenerator's factors, RandomGaussianBlur's sigma) run
# natively: their apply functions hand each factor to their op as a tensor, or one made from it by
# a recorded recipe (_apply_common.derived), so the steps a kept plan holds do not depend on the draw.
UNIFORM_CLASSES = (
    "RandomBrightness",
    "RandomContrast",
    "RandomSaturation",
    "RandomHue",
    "RandomSharpness",
    "RandomGamma",
    "RandomSolarize",
    "RandomSnow",
    "RandomGaussianBlur",
    "RandomRotation",  # a warp: its matrix a recipe of the draw (_thin.py)
)


def keys_of(kind: str) -> Tuple[str, ...]:
    """The params a draw of this kind gives after the gate's, in the op's order."""
    if kind.startswith(UNIFORM):
        return tuple(kind[len(UNIFORM) :].split(","))
    return KEYS[kind]


@torch.library.register_fake("u8aug::kornia_forward_parameters")
def _forward_parameters_fake(program, numbers, bounds, shape):
    shape = list(shape)
    b = shape[0]
    out = []
    for line in program:
        words = line.split()
        out += [torch.empty(b), torch.empty(b, dtype=torch.bool), torch.empty(len(shape), dtype=torch.int64)]
        if words[0] == "resized_crop":
            out += [torch.empty(b, 4, 2), torch.empty(b, 4, 2)]
            out += [torch.empty(b, 2, dtype=torch.int64), torch.empty(b, 2, dtype=torch.int64)]
            shape[-2:] = [int(words[-2]), int(words[-1])]
        elif words[0] == "color_jitter":
            out += [torch.empty(b) for _ in range(4)] + [torch.empty(4, dtype=torch.int64)]
        elif words[0] == "uniform":
            out += [torch.empty(b) for _ in range(int(words[2]))]
        elif words[0] == "affine":
            out += [torch.empty(b, 2) for _ in range(3)] + [torch.empty(b) for _ in range(3)]
        elif words[0] == "perspective":
            out += [torch.empty(b, 4, 2), torch.empty(b, 4, 2)]
        elif words[0] == "posterize":
            out += [torch.empty(b, dtype=torch.int32)]
    return out


# A kept container call (_kept.py): the chain's draw and its pipeline in one op (bindings/kept_call.inc),
# the draw's tensors returned as one uint8 record and unpacked only where its state is read. The
# program's lines and the steps each one text, joined by newlines (``joined``): a list of strings
# is a string object made and freed on each side of the call per line, about a tenth of the op's
# own cost on a small image.
_lib.define(
    "kept_call(Tensor img, str program, Tensor numbers, Tensor bounds, str steps, int[] slots, Tensor[] extra)"
    " -> (Tensor, Tensor)",
    tags=(torch.Tag.nondeterministic_seeded,),
)


# The recipes (_apply_common.derived) a kept call makes in C++ from the draw's tensors, by their
# numbers in bindings/kept_call.inc: a slot RECIPE_SLOT * r + i is recipe r of the draw's i-th
# tensor, r % 8 the recipe's number here and r // 8 its whole-number argument (recipe_slot).
RECIPE_SLOT = 1 << 20
NATIVE_RECIPES = {_less_one: 1, _turns_to_radians: 2, _bits: 3, _gaussian_kernels: 4}


def recipe_slot(recipe, arguments, place: int) -> Optional[int]:
    """The kept call's slot for ``recipe`` of the draw's tensor at ``place``, given the recipe's
    other arguments (as _kept's slots: ("const", value)); None where the kept call cannot make it:
    _bits's device must be the CPU's, the Gaussian kernels' size a whole number and same_on_batch a
    bool."""
    number = NATIVE_RECIPES.get(recipe)
    values = [a[1] for a in arguments if a[0] == "const"]
    if number is None or len(values) != len(arguments):
        return None
    if recipe is _bits:
        return RECIPE_SLOT * number + place if values == [torch.device("cpu")] else None
    if recipe is _gaussian_kernels:
        if len(values) != 2 or type(values[0]) is not int or type(values[1]) is not bool or not 1 <= values[0] <= 4096:
            return None
        return RECIPE_SLOT * (number + 8 * (2 * values[0] + values[1])) + place
    return RECIPE_SLOT * number + place if not values else None


# Its CPU kernel is bindings/kept_call.inc's (the draw as kornia_forward_parameters makes it, then
# the pipeline): no Python runs inside the op.
KEPT_CALL = torch.ops.u8aug.kept_call.default  # its callers' handle (an overload, not the packet)

DRAW_ALIGN = 16  # where each of the draw's tensors starts in the record (bindings/draws.h's kDrawAlign)


def _record_places(tensors) -> Tuple[List[int], int]:
    """Where each of the draw's tensors (their shapes and dtypes: the fake's) starts in the record,
    and the record's size."""
    places, end = [], 0
    for t in tensors:
        end = (end + DRAW_ALIGN - 1) // DRAW_ALIGN * DRAW_ALIGN
        places.append(end)
        end = end + t.numel() * t.element_size()
    return places, end


def joined(lines) -> str:
    """A kept call's program or steps as the op takes them: one text, a line each."""
    return "\n".join(lines)


def lines_of(text: str) -> List[str]:
    """``joined``'s lines again (none in an empty text)."""
    return text.split("\n") if text else []


@torch.library.register_fake("u8aug::kept_call")
def _kept_call_fake(img, program, numbers, bounds, steps, slots, extra):
    from u8aug._fake_pipeline import _pipeline_fake

    program, steps = lines_of(program), lines_of(steps)
    drawn = _forward_parameters_fake(program, numbers, bounds, img.shape)
    tensors = [
        extra[-1 - s] if s < 0 else drawn[s] if s < RECIPE_SLOT else _recipe_fake(s, drawn[s % RECIPE_SLOT])
        for s in slots
    ]
    return _pipeline_fake(img, steps, tensors), torch.empty(_record_places(drawn)[1], dtype=torch.uint8)


def _recipe_fake(slot: int, drawn: torch.Tensor) -> torch.Tensor:
    r = slot // RECIPE_SLOT
    if r % 8 == NATIVE_RECIPES[_gaussian_kernels]:  # (B, size), or (1, size) with same_on_batch
        size, same = divmod(r // 8, 2)
        return torch.empty(1 if same else drawn.shape[0], size)
    return torch.empty_like(drawn, dtype=torch.float32)


def unpack(record: torch.Tensor, program, shape) -> List[torch.Tensor]:
    """The draw's tensors from a kept call's record, as kornia_forward_parameters gives them (views
    of the record)."""
    like = _forward_parameters_fake(program, None, None, shape)
    places, end = _record_places(like)
    if record.numel() != end:
        raise RuntimeError(f"u8aug: a kept call's record holds {record.numel()} bytes, its program {end}")
    return [record[at : at + t.numel() * t.element_size()].view(t.dtype).view(t.shape) for at, t in zip(places, like)]


def drawn_params(drawn: list, i: int) -> Dict[str, torch.Tensor]:
    """Module i's params from a kept call's record: ``drawn`` is [record, program, kinds, shape, the
    modules' params once unpacked (None before)], shared by the chain's modules and its container,
    so that all read the same tensors, as after kornia's forward."""
    if drawn[4] is None:
        out = unpack(drawn[0], drawn[1], drawn[3])
        params, start = [], 0
        for kind in drawn[2]:
            data, start = parameters_of(out, start, kind)
            params.append(data)
        drawn[4] = params
    return drawn[4][i]


JITTER_SAMPLERS = ("brightness_sampler", "contrast_sampler", "hue_sampler", "saturation_sampler")


def own_generate_parameters(module) -> bool:
    """Whether the module draws with kornia's base generate_parameters or u8aug's replica of its
    class's (the same numbers), not a subclass's or an instance's own."""
    own = type(module).generate_parameters
    return "generate_parameters" not in module.__dict__ and (
        own is _BasicAugmentationBase.generate_parameters or getattr(own, "u8aug_replica", False)
    )


def program_line(module) -> Optional[Tuple[str, str, Tuple[float, ...]]]:
    """(the module's program line, its kind, its numbers), or None where its draw is not native.
    The numbers (p, then RandomResizedCrop's scale and ratio ends) travel as floats, not text: a
    traced float need not be printed."""
    if module.p_batch != 1 or not (0 <= module.p <= 1):
        return None
    if not (
        _containers._kornias_own(module, "forward_parameters")
        and _containers._kornias_own(module, "__batch_prob_generator__")
        and own_generate_parameters(module)
    ):
        return None
    if module.dtype != torch.float32 or torch.device(module.device).type != "cpu":
        return None
    if torch.get_default_dtype() != torch.float32 or torch.empty(0).device.type != "cpu":
        return None  # kornia draws in the default dtype on the default device
    same = "1" if module.same_on_batch else "0"
    gen = module._param_generator
    if gen is None:
        return f"none {same}", "none", (float(module.p),)
    if type(gen) is rg.ResizedCropGenerator:
        if isinstance(gen.scale, torch.Tensor) or isinstance(gen.ratio, torch.Tensor):
            return None
        if not _draws._cpu_float32(gen.rand_sampler, gen.log_ratio_sampler):
            return None
        height, width = gen.resize_to
        numbers = (
            float(module.p),
            float(gen.scale[0]),
            float(gen.scale[1]),
            float(min(gen.ratio)),
            float(max(gen.ratio)),
        )
        return f"resized_crop {same} {int(height)} {int(width)}", "resized_crop", numbers
    if type(gen) in (rg.ColorJitterGenerator, rg.ColorJiggleGenerator):
        if not _draws._cpu_float32(*(getattr(gen, s) for s in JITTER_SAMPLERS)):
            return None
        return f"color_jitter {same}", "color_jitter", (float(module.p),)
    if type(gen) is rg.AffineGenerator:
        samplers = affine_samplers(gen)
        if samplers is None:
            return None
        translate, scales, shear = samplers[0]
        return f"affine {same} {int(translate)} {scales} {int(shear)}", "affine", (float(module.p),)
    if type(gen) is rg.PerspectiveGenerator:
        if not perspective_native(gen):
            return None
        method = 1 if gen.sampling_method == "area_preserving" else 0
        return f"perspective {same} {method}", "perspective", (float(module.p),)
    if type(gen) is rg.PosterizeGenerator:
        if not posterize_native(gen):
            return None
        return f"posterize {same}", "posterize", (float(module.p),)
    samplers = uniform_samplers(module)
    if samplers is not None:
        names = ",".join(samplers)
        return f"uniform {same} {len(samplers)}", UNIFORM + names, (float(module.p),)
    return None


def uniform_samplers(module) -> Optional[Dict[str, object]]:
    """{param name: its Uniform sampler} of a uniform draw that runs natively (UNIFORM_CLASSES), in
    the generator's order; None for any other."""
    gen = module._param_generator
    kernel = getattr(type(module).apply_transform, "u8aug_kernel", None)
    if kernel is None or kernel not in _UNIFORM_KERNELS:
        return None
    if type(gen) is rg.PlainUniformGenerator:
        samplers = getattr(gen, "sampler_dict", None)
        # the factors' own device and dtype are the params' (its forward's .to)
        factors = [f for f, *_ in gen.samplers if isinstance(f, torch.Tensor)]
        if not samplers or not all(f.dtype == torch.float32 and f.device.type == "cpu" for f in factors):
            return None
    elif type(gen) is rg.RandomGaussianBlurGenerator:
        samplers = {"sigma": getattr(gen, "sigma_sampler", None)}
    else:
        return None
    if not 1 <= len(samplers) <= 8:
        return None
    for d in samplers.values():
        if type(d) is not _UniformDistribution or d.low.dim() != 0 or d.high.dim() != 0:
            return None
    return samplers if _draws._cpu_float32(*samplers.values()) else None


# made at import: a global first written inside a compiled call is a side effect torch.compile must
# rebuild after it, and torch 2.11 fails to rebuild a frozenset (a fresh class's first call, compiled)
_UNIFORM_KERNELS = frozenset(KERNELS[n] for n in UNIFORM_CLASSES)


def affine_samplers(gen):
    """((translate, scales, shear), the samplers in the draw's order) of an AffineGenerator whose draw
    runs natively, else None: its settings float32 on the CPU where they are tensors (its params take
    their dtype), each sampler a float32 Uniform with scalar bounds."""
    for setting in (gen.degrees, gen.translate, gen.scale, gen.shear):
        if isinstance(setting, torch.Tensor) and (setting.dtype != torch.float32 or setting.device.type != "cpu"):
            return None
    names = ["degree_sampler"]
    translate = gen.translate_x_sampler is not None and gen.translate_y_sampler is not None
    scales = 0 if gen.scale_2_sampler is None else 2 if gen.scale_4_sampler is None else 4
    shear = gen.shear_x_sampler is not None and gen.shear_y_sampler is not None
    names += ["scale_2_sampler"] if scales else []
    names += ["scale_4_sampler"] if scales == 4 else []
    names += ["translate_x_sampler", "translate_y_sampler"] if translate else []
    names += ["shear_x_sampler", "shear_y_sampler"] if shear else []
    samplers = [getattr(gen, n, None) for n in names]
    for d in samplers:
        if type(d) is not _UniformDistribution or d.low.dim() != 0 or d.high.dim() != 0:
            return None
    return ((translate, scales, shear), samplers) if _draws._cpu_float32(*samplers) else None


def perspective_native(gen) -> bool:
    """Whether a PerspectiveGenerator's draw runs natively: its settings float32 on the CPU, its
    sampler a Uniform with scalar bounds, a sampling method kornia has. Its distortion scale and
    the sampler's bounds travel as bounds (bounds_of): tensors, read in C++."""
    scale = getattr(gen, "_distortion_scale", None)
    setting = gen.distortion_scale
    if isinstance(setting, torch.Tensor) and (setting.dtype != torch.float32 or setting.device.type != "cpu"):
        return False
    if not isinstance(scale, torch.Tensor) or scale.dtype != torch.float32 or scale.device.type != "cpu":
        return False
    d = getattr(gen, "rand_val_sampler", None)
    if gen.sampling_method not in ("basic", "area_preserving") or type(d) is not torch.distributions.Uniform:
        return False
    return scale.dim() == 0 and d.low.dim() == 0 and d.high.dim() == 0 and _draws._cpu_float32(d)


def posterize_native(gen) -> bool:
    """Whether a PosterizeGenerator's draw runs natively: its bits on the CPU where a tensor (its
    params' device), its sampler a float32 Uniform with scalar bounds."""
    bits = gen.bits_factor
    if isinstance(bits, torch.Tensor) and bits.device.type != "cpu":
        return False
    d = getattr(gen, "bit_sampler", None)
    return type(d) is _UniformDistribution and d.low.dim() == 0 and d.high.dim() == 0 and _draws._cpu_float32(d)


def bounds_of(module, kind: str) -> List[torch.Tensor]:
    """The sampler bounds a module's draw reads, as its generator holds them (one-element float32
    tensors; bounds_tensor stacks them for the op)."""
    gen = module._param_generator
    if kind == "resized_crop":
        return [gen.log_ratio_sampler.low, gen.log_ratio_sampler.high]
    if kind == "color_jitter":
        return [t for s in JITTER_SAMPLERS for t in (getattr(gen, s).low, getattr(gen, s).high)]
    if kind.startswith(UNIFORM):
        return [t for d in uniform_samplers(module).values() for t in (d.low, d.high)]
    if kind == "affine":
        return [t for d in affine_samplers(gen)[1] for t in (d.low, d.high)]
    if kind == "perspective":
        return [gen._distortion_scale, gen.rand_val_sampler.low, gen.rand_val_sampler.high]
    if kind == "posterize":
        return [gen.bit_sampler.low, gen.bit_sampler.high]
    return []


def numbers_tensor(numbers) -> torch.Tensor:
    """The program's numbers as the op takes them: one float64 tensor (as a list of floats, each would
    be a graph input of its own under torch.compile, converted on every call)."""
    return torch.tensor(numbers, dtype=torch.float64)


def bounds_tensor(bounds: List[torch.Tensor]) -> torch.Tensor:
    """The bounds as the op takes them: one float32 tensor (the same reason as numbers_tensor)."""
    if not bounds:
        return torch.empty(0, dtype=torch.float32)
    return torch.stack([b.reshape(()) for b in bounds])


def parameters_of(out: List[torch.Tensor], start: int, kind: str) -> Tuple[Dict[str, torch.Tensor], int]:
    """A module's params from the op's output at ``start``, as kornia's forward_parameters gives
    them (its draw's keys, then batch_prob and forward_input_shape); and where the next one starts."""
    keys = keys_of(kind)
    end = start + PER_MODULE + len(keys)
    params = dict(zip(keys, out[start + PER_MODULE : end]))
    params["batch_prob"] = out[start]
    params["forward_input_shape"] = out[start + 2]
    return params, end


def draw(module, batch_shape) -> Optional[Dict[str, torch.Tensor]]:
    """One module's forward_parameters natively, or None where its draw is not native."""
    line = program_line(module)
    if line is None or len(batch_shape) < 3 or batch_shape[0] < 1:
        return None
    text, kind, numbers = line
    out = draw_program([text], numbers_tensor(numbers), bounds_tensor(bounds_of(module, kind)), batch_shape)
    return parameters_of(out, 0, kind)[0]


def draw_program(lines, numbers: torch.Tensor, bounds: torch.Tensor, batch_shape) -> List[torch.Tensor]:
    """A program's draws (one module's, or a kept chain's: _kept.py), from the default generator."""
    return torch.ops.u8aug.kornia_forward_parameters(list(lines), numbers, bounds, list(batch_shape))


def forward_parameters(module, batch_shape) -> Optional[Dict[str, torch.Tensor]]:
    """A class on its own: its draw natively where it has a generator; None where its draw is not
    native or is its gate alone, one torch.rand, which Python draws in less time than a call of
    the op takes (a flip's draw: 12.7 us against 19.6 us, Zen 4; a crop's: 53.7 us against 35.2 us)."""
    if module._param_generator is None:
        return None
    return draw(module, batch_shape)
