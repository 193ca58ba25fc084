"""Helpers shared by the drop-ins' uint8 apply functions (_apply.py and its family files)."""

import torch


def f32(params, key, x):
    return params[key].to(device=x.device, dtype=torch.float32)


def fidelity(aug) -> str:
    """The drop-in's tier (its ``fidelity`` keyword; kornia's own classes after install() take
    ``aug.fidelity = "fast"``): "exact" unless set."""
    return getattr(aug, "fidelity", "exact")


def derived(run, recipe, *args):
    """``recipe(*args)``: a tensor an apply function makes from its params (a factor - 1, a Gaussian
    kernel from sigma). A planner records how it was made, so that a kept plan makes it again from
    each call's draw (_kept.slot_of); ``recipe`` is a module-level function of its arguments alone."""
    made = recipe(*args)
    record = getattr(run, "record_derived", None)
    if record is not None:
        record(made, recipe, args)
    return made
