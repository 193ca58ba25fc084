"""kornia's transformation matrices, computed by kornia's own code in eager kernels, also under
torch.compile.

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


def matrix_of(kornia_name: str, input: torch.Tensor, params: dict) -> torch.Tensor:
    """The matrix of a uint8 batch through the op (only the tensor parameters are read)."""
    keys = [k for k, v in params.items() if isinstance(v, torch.Tensor)]
    return kornia_matrix([params[k] for k in keys], ",".join(keys), kornia_name, list(input.shape), input.device)
