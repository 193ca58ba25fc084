"""kornia's transformation matrices, computed by kornia's own code in eager kernels, also under
torch.compile (RandomAffine's and RandomPerspective's on the CPU natively, the same floats:
u8aug/kornia_matrix.h).

Inductor compiles kornia's matrix arithmetic into its own kernels, and its sin, cos and tan of a
few-element tensor differ from eager's by an ulp or two for many angles (35 of 50 random angles for
sin, measured on torch 2.11): a compiled RandomAffine then warped with a slightly different matrix
and moved bytes against eager. The warp classes' uint8 path therefore computes the matrix through
one opaque op, ``u8aug::kornia_matrix``, whose body is kornia's own ``compute_transformation`` run
eagerly: the same code and the same kernels whether the caller is compiled or not. It is a custom op
with a fake, so fullgraph holds. Those methods read only their parameters and the input's shape,
device and dtype (kornia 0.9), which is all the op passes them.
"""

from typing import Callable, Dict, List

import torch
from kornia.augmentation._2d.base import RigidAffineAugmentationBase2D
from kornia.core.utils import is_autocast_enabled as _autocast

_KORNIA_GENERATE = RigidAffineAugmentationBase2D.generate_transformation_matrix

# kornia class name -> its own compute_transformation, recorded before install() patches it.
ORIGINAL_MATRICES: Dict[str, Callable] = {}


@torch.library.custom_op("u8aug::kornia_matrix", mutates_args=())
def kornia_matrix(
    values: List[torch.Tensor], keys: str, augmentation: str, shape: List[int], device: torch.device
) -> torch.Tensor:
    """kornia's ``augmentation.compute_transformation`` for an input of ``shape`` on ``device``
    (float32, as for a float input) with parameters ``dict(zip(keys.split(","), values))`` (custom
    ops take no list of strings): (B, 3, 3) float32."""
    standin = torch.zeros((), dtype=torch.float32, device=device).expand(shape)
    params = dict(zip(keys.split(","), values)) if keys else {}
    matrix = ORIGINAL_MATRICES[augmentation](None, standin, params, {})
    return matrix.clone(memory_format=torch.contiguous_format)


@kornia_matrix.register_fake
def _kornia_matrix_fake(values, keys, augmentation, shape, device):
    return torch.empty((shape[0], 3, 3), dtype=torch.float32, device=device)


# each native matrix's op, and the params it reads with their shapes after the batch's
_NATIVE = {
    "RandomAffine": (
        "kornia_affine_matrix",
        {"translations": (2,), "center": (2,), "scale": (2,), "angle": (), "shear_x": (), "shear_y": ()},
    ),
    "RandomPerspective": ("kornia_perspective_matrix", {"start_points": (4, 2), "end_points": (4, 2)}),
}


def matrix_of(kornia_name: str, input: torch.Tensor, params: dict) -> torch.Tensor:
    """The matrix of a uint8 batch through the op (only the tensor parameters are read).
    RandomAffine's and RandomPerspective's on the CPU are made natively (u8aug/kornia_matrix.h:
    kornia's float32 steps in C++, torch's own trig, cross, sum and bmm through the dispatcher;
    RandomAffine's 31 us against 345)."""
    native = _NATIVE.get(kornia_name)
    if native is not None and input.device.type == "cpu":
        op, shapes = native
        values = _native_params(params, shapes, input.shape[0])
        if values is not None:
            return getattr(torch.ops.u8aug, op)(
                *values
            )  # kornia takes its params to the float32 stand-in's dtype first
    keys = [k for k, v in params.items() if isinstance(v, torch.Tensor)]
    return kornia_matrix([params[k] for k in keys], ",".join(keys), kornia_name, list(input.shape), input.device)


def _native_params(params: dict, shapes: dict, batch: int):
    """The params a native matrix reads, float32 and contiguous (the native draw's already are), where
    they are the generator's: floating CPU tensors of the shapes it draws; else None."""
    values = []
    for key, shape in shapes.items():
        v = params.get(key)
        if not isinstance(v, torch.Tensor) or v.device.type != "cpu" or tuple(v.shape) != (batch, *shape):
            return None
        if not v.dtype.is_floating_point:
            return None
        values.append(v if v.dtype == torch.float32 and v.is_contiguous() else v.to(torch.float32).contiguous())
    return values


def direct_op(module, image: torch.Tensor, params: dict):
    """(the native matrix op, the params it reads, in order) where kornia's
    ``generate_transformation_matrix`` of this module would return that op's matrix unchanged:
    kornia's own method at p = 1 (its fast path, returning ``compute_transformation``'s matrix)
    around u8aug's ``compute_transformation`` of RandomAffine or RandomPerspective, on the CPU, with
    no autocast, the params the op's own (float32, contiguous, the draw's shapes). A kept plan then
    makes its matrix by the op alone (15 us, against 37 through kornia's method). None otherwise."""
    cls = type(module)
    name = getattr(cls.compute_transformation, "u8aug_matrix_of", None)
    native = _NATIVE.get(name)
    if native is None or cls.generate_transformation_matrix is not _KORNIA_GENERATE:
        return None
    if "compute_transformation" in module.__dict__ or "generate_transformation_matrix" in module.__dict__:
        return None
    if not (module.p == 1.0 and module.p_batch == 1.0) or image.device.type != "cpu" or _autocast():
        return None
    op, shapes = native
    values = _native_params(params, shapes, image.shape[0])
    if values is None or any(v is not params[k] for v, k in zip(values, shapes)):
        return None
    return getattr(torch.ops.u8aug, op).default, tuple(shapes)
