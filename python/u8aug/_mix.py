"""The batch mixes (kornia's RandomMixUpV2 and RandomCutMixV2) on the bytes: each output sample is
made from its own and other samples of the batch. Part of :mod:`u8aug.ops` (re-exported there)."""

import torch

from ._params import samples

__all__ = ["mix_up", "paste_boxes"]


def mix_up(img: torch.Tensor, pairs: torch.Tensor, lambdas) -> torch.Tensor:
    """kornia's RandomMixUpV2 blend ``x * (1 - lam) + x[pairs] * lam`` on ``img / 255`` in float32
    (each product and the sum rounded, as torch's eager kernels), quantized. ``pairs``: int64 (B,),
    each sample's partner in [0, B); ``lambdas``: a number or float32 tensor of 1 or B values. A
    lambda of 0 leaves its sample's bytes unchanged (how kornia's skipped samples are given).
    Exact."""
    return torch.ops.u8aug.mix_up(img, pairs, samples(lambdas, img))


def paste_boxes(img: torch.Tensor, sources: torch.Tensor, boxes: torch.Tensor) -> torch.Tensor:
    """kornia's RandomCutMixV2 on the bytes: K rounds; in round k, the pixels of sample b inside
    ``boxes[k, b]`` (float32 (K, B, 4) as (x_min, y_min, x_max, y_max) inclusive, kornia's
    ``bbox_to_mask`` comparisons) take sample ``sources[k, b]``'s pixels (int64 (K, B) in [0, B))
    from the input; a later round overwrites an earlier one. Exact (copies)."""
    return torch.ops.u8aug.paste_boxes(img, sources, boxes)
