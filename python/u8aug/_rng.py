"""``torch.ops.u8aug.rand(size)``: torch.rand on the CPU (float32, the default generator), the same
numbers in the same order, and the generator left where torch.rand leaves it, made several times faster
for large draws. torch's CPU kernel takes its engine's words one at a time; u8aug regenerates and
tempers them in SIMD lanes (``u8aug/mersenne.h``, ``cpu/mersenne.cc``) from the generator's state
bytes (``torch.get_rng_state()``), then sets the advanced state back.

kornia's plasma classes draw about 90,000 numbers a map (a 257 x 257 fractal a sample and channel):
torch.rand was most of their time. ``u8aug.kornia`` draws them here (``kornia/_plasma.py``).

The op is opaque to torch.compile and tagged ``nondeterministic_seeded``: a compiled graph neither
merges two identical calls nor drops an unused one, and runs this same code. Like any use of the
default generator it is not safe against another thread drawing from that generator at the same
time (torch.rand takes the generator's lock; this reads and writes its state in two steps).
"""

import math
from typing import List

import torch

_lib = torch.library.Library("u8aug", "FRAGMENT")
_lib.define("rand(SymInt[] size) -> Tensor", tags=(torch.Tag.nondeterministic_seeded,))


def _rand(size: List[int]) -> torch.Tensor:
    if any(s < 0 for s in size):
        raise RuntimeError(f"u8aug.rand: expected a size of non-negative numbers, got {list(size)}")
    state = torch.get_rng_state()
    out = torch.ops.u8aug.torch_uniform(state, math.prod(size))
    torch.set_rng_state(state)
    return out.view(size)


_lib.impl("rand", _rand, "CompositeExplicitAutograd")


@torch.library.register_fake("u8aug::rand")
def _rand_fake(size):
    torch._check(all(s >= 0 for s in size), lambda: f"u8aug.rand: expected a size of non-negative numbers, got {size}")
    return torch.empty(size, dtype=torch.float32, device="cpu")


def rand(*size) -> torch.Tensor:
    """``torch.rand(*size)`` on the CPU in float32 from the default generator, faster for large sizes."""
    if len(size) == 1 and isinstance(size[0], (list, tuple, torch.Size)):
        size = tuple(size[0])
    return torch.ops.u8aug.rand(list(size))
