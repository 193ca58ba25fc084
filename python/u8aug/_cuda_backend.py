"""u8aug's CUDA backend, the module u8aug._C_cuda, loaded apart from the core u8aug._C.

The core needs no CUDA library, so ``import u8aug`` works on every torch: CPU builds, aarch64 and
macOS wheels among them. On a torch built with CUDA (``torch.version.cuda`` set) u8aug imports the
backend as it loads: that torch's import has already loaded the CUDA runtime and libtorch_cuda, so
the backend costs one small dlopen, and a CUDA tensor is the only thing that can reach it. On a torch
without CUDA no CUDA tensor can exist, and the backend is never loaded.

If the backend cannot load (the module is missing, or the CUDA runtime it needs is not the one
torch brought), every op's CUDA implementation is one that raises an error saying why, instead of
torch's "Could not run 'u8aug::...' with arguments from the 'CUDA' backend"."""

import importlib
from typing import Optional

import torch

STATE = {"loaded": False, "reason": "not tried", "info": {}}
_error_impls: Optional[torch.library.Library] = None


def _u8aug_ops():
    """Every op of the u8aug namespace, as registered by the core (schemas and CPU kernels)."""
    names = torch._C._dispatch_get_registrations_for_dispatch_key("CPU")
    return sorted({n.split("::", 1)[1].split(".")[0] for n in names if n.startswith("u8aug::")})


def _register_errors(reason: str) -> None:
    """A CUDA implementation for every u8aug op that raises ``reason``."""
    global _error_impls
    _error_impls = torch.library.Library("u8aug", "IMPL")

    def unavailable(name):
        def impl(*args, **kwargs):
            raise RuntimeError(
                f"u8aug.{name}: got a CUDA tensor, but u8aug's CUDA backend (u8aug._C_cuda) could not be "
                f"loaded: {reason}. Move the image to the CPU, or reinstall u8aug built against this torch "
                f"(torch {torch.__version__}, CUDA {torch.version.cuda})."
            )

        return impl

    for name in _u8aug_ops():
        if not torch._C._dispatch_has_kernel_for_dispatch_key(f"u8aug::{name}", "CUDA"):
            _error_impls.impl(name, unavailable(name), "CUDA")


def load(torch_rules: dict) -> None:
    """Imports u8aug._C_cuda on a torch with CUDA and hands it the measured torch rules; otherwise,
    or when it fails, records why (``u8aug.build_info()["cuda_backend"]``)."""
    if torch.version.cuda is None:
        STATE.update(loaded=False, reason=f"torch {torch.__version__} was built without CUDA")
        return
    try:
        _C_cuda = importlib.import_module(f"{__package__}._C_cuda")
    except ImportError as e:
        STATE.update(loaded=False, reason=f"{type(e).__name__}: {e}")
        _register_errors(STATE["reason"])
        return
    _C_cuda._set_torch_rules(**torch_rules)
    STATE.update(loaded=True, reason="loaded", info=dict(_C_cuda.build_info()))
