"""kornia's per-call state written cheaply: the names kornia's classes and containers write on
every call (their params, matrices and the records kornia checks them by; the container's output
image) are plain Python attributes, never a parameter, buffer or submodule, yet each write went
through nn.Module.__setattr__'s Parameter, Buffer and Module checks: about 3 us a write, 19 writes a
call of the fused standard recipe (as much as its native draw). ``__setattr__`` here writes those
names straight into the instance and leaves every other name to nn.Module's. kornia's own writers
(``_commit_state``, ``_record_matrix_params``, its forward) stay in charge of what is written and
when (nothing inside an export); torch.compile replays the writes after a compiled call as it does
nn.Module's (tested on torch 2.11 and 2.15: tests/python/test_kept.py).

The drop-ins and u8aug's containers have it; install() gives it to kornia's classes it touches and
uninstall() takes it back.
"""

import torch

STATE_NAMES = frozenset(
    {
        "_params",
        "_transform_matrix",
        "_lazy_matrix_args",
        "_transform_matrix_params",
        "_transform_matrix_params_snapshot",
        "_transform_matrices",
        "_pending_matrix_modules",
        "_output_image",
        "_u8aug_kept_plans",
        "_u8aug_thin",
    }
)


def state_setattr(self, name: str, value) -> None:
    if name in STATE_NAMES:  # never registered as a parameter, buffer or submodule
        object.__setattr__(self, name, value)
    else:
        if self.__dict__.get("_u8aug_thin") is not None:
            object.__setattr__(self, "_u8aug_thin", None)  # a setting changed: the class's kept plans (_thin.py) go
        torch.nn.Module.__setattr__(self, name, value)
