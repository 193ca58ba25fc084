"""u8aug: uint8 image augmentation kernels (CPU SIMD and CUDA) as PyTorch custom ops.

Ops take uint8 images of shape (C, H, W) or (B, C, H, W), contiguous or channels_last, and return
new tensors in the input's memory format; inputs are never modified. They are registered as
``torch.ops.u8aug.*`` with fake implementations, so they run under
``torch.compile(fullgraph=True)``.
"""

import torch  # noqa: F401  (loads libtorch, which the compiled module links against)

try:
    from . import _C
except ImportError as e:  # pragma: no cover - exercised by a test that hides the module
    raise ImportError(
        "u8aug could not load its compiled module u8aug._C "
        f"({e}). u8aug was built against torch "
        "and Highway (libhwy): reinstall it with `pip install --no-build-isolation .` against the "
        f"torch you have now (torch {torch.__version__}), and make sure libhwy.so.1 is on the "
        "library path."
    ) from e

from . import _torch_rules  # noqa: E402

_C._set_torch_rules(**_torch_rules.measure())

from . import _fake  # noqa: F401,E402  (registers the fakes used by torch.compile)
from .ops import *  # noqa: E402,F401,F403
from .ops import __all__ as _ops_all  # noqa: E402

__version__ = _C.build_info()["version"]


def build_info() -> dict:
    """What this build of u8aug holds.

    Keys: ``version``; ``cpu_targets_compiled`` (Highway targets compiled in),
    ``cpu_targets_supported`` (those this CPU can run), ``cpu_target_chosen`` (what dynamic dispatch
    runs); ``cuda`` (CUDA kernels compiled in), ``cuda_architectures``, ``torch_ops_cuda`` (CUDA
    tensors accepted by the torch ops); ``torch_built_against`` (the torch it was compiled with),
    ``torch_oldest_supported`` (the oldest torch this build loads on: it uses only the stable ABI
    of that version), ``torch_rules`` (what u8aug measured of the running torch's internal float
    choices when it loaded, see ``u8aug._torch_rules``).
    """
    return dict(_C.build_info())


def catalogue() -> list:
    """The op catalogue (kernels/include/u8aug/ops.def): name, schema, kornia counterpart,
    fidelity class and summary of every op."""
    return [dict(op) for op in _C.catalogue()]


__all__ = [*_ops_all, "build_info", "catalogue", "__version__"]
