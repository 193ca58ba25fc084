"""The pipeline op's steps as Python reads them: the one list (bindings/pipeline_steps.h, through
u8aug._C.pipeline_steps()) with each step's op arguments after img taken from its schema, for the
pipeline's fake (_fake_pipeline.py) and the fused container's planner (kornia/_fused.py). Read once
at import: the planner also runs under torch.compile, where it only looks these constants up."""

from typing import Dict, NamedTuple, Tuple

import torch

from . import _C


class Argument(NamedTuple):
    name: str
    kind: str  # "tensor" (Tensor or Tensor?), "ints" (int[count]), "int", "bool" or "str"
    optional: bool = False  # a Tensor? (an empty tensor stands for None)
    count: int = 1  # the words an int[count] takes


def _argument(a) -> Argument:
    t = str(a.type)
    if "Tensor" in t:
        return Argument(a.name, "tensor", optional=t.startswith("Optional"))
    if t.startswith("List[int]"):
        return Argument(a.name, "ints", count=a.N)
    return Argument(a.name, t)


def _read() -> Dict[str, Tuple[bool, Tuple[Argument, ...]]]:
    steps = {}
    for name, gated in _C.pipeline_steps().items():
        arguments = getattr(torch.ops.u8aug, name).default._schema.arguments[1:]
        steps[name] = (gated, tuple(_argument(a) for a in arguments))
    return steps


# step name -> (whether it takes kornia's gate first, its op's arguments after img)
STEPS = _read()
