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


_AFFINE_KEYS = ("translations", "center", "scale", "angle", "shear_x", "shear_y")


def matrix_of(kornia_name: str, input: torch.Tensor, params: dict) -> torch.Tensor:
    """The matrix of a uint8 batch through the op (only the tensor parameters are read).
    RandomAffine's on the CPU is made natively (``u8aug.kornia_affine_matrix``: kornia's float32
    steps in C++, torch's own sin, cos, tan and bmm through the dispatcher; 10 us against 280)."""
    if kornia_name == "RandomAffine" and input.device.type == "cpu" and _affine_params(params, input.shape[0]):
        # kornia takes its params to the input's float32 first (compute_transformation)
        return torch.ops.u8aug.kornia_affine_matrix(*[_f32(params[k]) for k in _AFFINE_KEYS])
    if (
        kornia_name == "RandomPerspective"
        and input.device.type == "cpu"
        and _perspective_params(params, input.shape[0])
    ):
        return torch.ops.u8aug.kornia_perspective_matrix(_f32(params["start_points"]), _f32(params["end_points"]))
    keys = [k for k, v in params.items() if isinstance(v, torch.Tensor)]
    return kornia_matrix([params[k] for k in keys], ",".join(keys), kornia_name, list(input.shape), input.device)


def _affine_params(params: dict, batch: int) -> bool:
    """Whether RandomAffine's params are the generator's: each a CPU tensor of the shape it draws."""
    for k, shape in zip(_AFFINE_KEYS, ((batch, 2), (batch, 2), (batch, 2), (batch,), (batch,), (batch,))):
        v = params.get(k)
        if not isinstance(v, torch.Tensor) or v.device.type != "cpu" or tuple(v.shape) != shape:
            return False
        if not v.dtype.is_floating_point:
            return False
    return True


def _perspective_params(params: dict, batch: int) -> bool:
    """Whether RandomPerspective's params are the generator's: two CPU (B, 4, 2) tensors (kornia takes
    them to the float32 stand-in's dtype first)."""
    for k in ("start_points", "end_points"):
        v = params.get(k)
        if not isinstance(v, torch.Tensor) or v.device.type != "cpu" or tuple(v.shape) != (batch, 4, 2):
            return False
        if not v.dtype.is_floating_point:
            return False
    return True


def _f32(t: torch.Tensor) -> torch.Tensor:
    """A param as the matrix ops take it: float32 and contiguous (the native draw's already are)."""
    return t if t.dtype == torch.float32 and t.is_contiguous() else t.to(torch.float32).contiguous()
