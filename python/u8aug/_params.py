"""Per-sample parameters as the ops take them: a float32 tensor of 1 or B values, or a Python number
made into a one-value tensor on the image's device (shared by ops.py and its family files)."""

from typing import Union

import torch

Param = Union[float, torch.Tensor]


def samples(value: Param, img: torch.Tensor) -> torch.Tensor:
    if isinstance(value, torch.Tensor):
        return value
    return torch.full((1,), float(value), dtype=torch.float32, device=img.device)
