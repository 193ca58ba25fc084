"""u8aug: uint8 image augmentation kernels (CPU SIMD and CUDA) as PyTorch custom ops.

Ops take uint8 images of shape (C, H, W) or (B, C, H, W), contiguous or channels_last, and return
new tensors in the input's memory format; inputs are never modified. They are registered as
``torch.ops.u8aug.*`` with fake implementations, so they run under
``torch.compile(fullgraph=True)``.
"""

import os

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

from . import _cuda_backend, _torch_rules  # noqa: E402

_torch_rules.scalar_path_warning()
_rules = _torch_rules.measure()
_C._set_torch_rules(**_rules)
_cuda_backend.load(_rules)

# registers the fakes used by torch.compile, and defines torch.ops.u8aug.rand
from . import _fake, _rng  # noqa: F401,E402
from .ops import *  # noqa: E402,F401,F403
from .ops import __all__ as _ops_all  # noqa: E402

__version__ = _C.build_info()["version"]


def set_cpu_target(name: str = "auto") -> str:
    """Run u8aug's CPU kernels on one Highway target among those this CPU supports and u8aug
    compiled (``build_info()["cpu_targets_supported"]``: "AVX3_DL", "AVX3", "AVX2", "SSE4", "SSSE3",
    "SCALAR" on x86), e.g. to run or benchmark the AVX2 path on an AVX-512 machine; ``"auto"``
    returns to the best one. Returns the target now chosen; raises ValueError naming the possible
    targets for any other name. Process-wide. The environment variable ``U8AUG_CPU_TARGET`` does the
    same when u8aug is imported. Every target gives the same bytes (tested)."""
    if not isinstance(name, str):
        raise TypeError(f"u8aug.set_cpu_target: expected a target name (str), got {type(name).__name__}")
    return _C.set_cpu_target(name)


if os.environ.get("U8AUG_CPU_TARGET"):
    try:
        set_cpu_target(os.environ["U8AUG_CPU_TARGET"])
    except ValueError as e:
        raise ImportError(f"U8AUG_CPU_TARGET={os.environ['U8AUG_CPU_TARGET']!r}: {e}") from e


def build_info() -> dict:
    """What this build of u8aug holds.

    Keys: ``version``; ``cpu_targets_compiled`` (Highway targets compiled in),
    ``cpu_targets_supported`` (those this CPU can run), ``cpu_target_chosen`` (what dynamic dispatch
    runs), ``cpu_target_requested`` (``set_cpu_target``'s last name, or "auto"); ``cuda`` (CUDA
    kernels compiled in), ``cuda_architectures`` (machine code for each "NN-real", PTX for the
    "NN-virtual"), ``torch_ops_cuda`` (CUDA tensors accepted by the torch ops: the CUDA backend
    u8aug._C_cuda loaded and holds kernels), ``cuda_backend`` ("loaded", or why it is not: a torch
    without CUDA never loads it, python/u8aug/_cuda_backend.py); ``highway_runtime``
    ("static": Highway's run-time linked in, as in the portable wheel; "shared": needs libhwy.so);
    ``torch_built_against`` (the torch it was compiled with),
    ``torch_oldest_supported`` (the oldest torch this build loads on: it uses only the stable ABI
    of that version), ``torch_rules`` (what u8aug measured of the running torch's internal float
    choices when it loaded, see ``u8aug._torch_rules``).
    """
    info = dict(_C.build_info())
    backend = _cuda_backend.STATE
    info["torch_ops_cuda"] = bool(backend["loaded"] and backend["info"].get("torch_ops_cuda"))
    info["cuda_backend"] = backend["reason"]
    return info


def catalogue() -> list:
    """The op catalogue (kernels/include/u8aug/ops.def): name, schema, kornia counterpart,
    fidelity class and summary of every op."""
    return [dict(op) for op in _C.catalogue()]


def output_cache_info() -> dict:
    """u8aug's cache of freed CPU outputs. Outputs of 128 KiB and more are made in memory that an
    earlier output of the same size (to the page) gave back when torch freed it: fresh memory can
    cost a page fault and a zeroed page for every 4 KiB written (in a fresh process, a one-image
    call of the standard recipe took 0.82-0.99 ms that way, 0.74-0.75 with the cache). Keys:
    ``limit_bytes`` (the most the freed buffers hold, 64 MiB a process unless changed),
    ``cached_bytes`` and ``cached_buffers`` (held now, free for the next output),
    ``reused`` and ``allocated`` (outputs served from a freed buffer, and those that needed a new
    one, since the process started)."""
    return dict(_C.output_cache_info())


def set_output_cache_limit(limit_bytes: int) -> None:
    """Sets the most memory u8aug keeps in freed CPU outputs for the next ones (see
    ``output_cache_info``); what it holds beyond that goes back to the system at once, least
    recently freed first. 0 turns the cache off: every output then comes from torch's allocator.
    The environment variable ``U8AUG_OUTPUT_CACHE_BYTES`` does the same when u8aug is imported."""
    if isinstance(limit_bytes, bool) or not isinstance(limit_bytes, int):
        raise TypeError(f"u8aug.set_output_cache_limit: expected a number of bytes (int), got {limit_bytes!r}")
    if limit_bytes < 0:
        raise ValueError(f"u8aug.set_output_cache_limit: expected limit_bytes >= 0, got {limit_bytes}")
    _C.set_output_cache_limit(min(limit_bytes, 2**63))  # more than any memory: no limit


if os.environ.get("U8AUG_OUTPUT_CACHE_BYTES"):
    try:
        set_output_cache_limit(int(os.environ["U8AUG_OUTPUT_CACHE_BYTES"]))
    except ValueError as e:
        raise ImportError(f"U8AUG_OUTPUT_CACHE_BYTES={os.environ['U8AUG_OUTPUT_CACHE_BYTES']!r}: {e}") from e


__all__ = [
    *_ops_all,
    "build_info",
    "catalogue",
    "output_cache_info",
    "set_cpu_target",
    "set_output_cache_limit",
    "__version__",
]
