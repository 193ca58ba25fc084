"""kornia's parameter generators in fewer tensor ops: the same draws, bit for bit.

On one image a call, kornia's parameter generation costs more than u8aug's kernels: its
ResizedCropGenerator alone issues about 120 small tensor ops (range checks, distribution objects,
constants stacked scalar by scalar), about 0.75 ms a call on one core. What is cut here is only
that work: each replica makes the same ``torch.rand`` calls with the same shapes, in the same
order, on the same generator, and carries out the same float32 operations on them in the same
order (where kornia's result does not depend on a step, such as a floor after a round, the step
is left out), so its parameters equal kornia's bit for bit and the random state after the call is
kornia's (tests/python/test_draws.py checks both over many seeds, shapes and ranges).

A replica runs only for the configuration it reproduces: kornia's own generator class, float32
samplers on the CPU (kornia's default), a range given as numbers rather than tensors. Anything
else returns None and kornia's generator runs.
"""

from typing import Dict, Optional

import numpy as np
import torch
from kornia.augmentation import random_generator as rg
from kornia.augmentation.utils import _adapted_rsampling, _common_param_check
from kornia.core.utils import _extract_device_dtype


def _float32(x) -> float:
    return float(np.float32(x))


def _cpu_float32(*samplers) -> bool:
    return all(s.low.dtype == torch.float32 and s.low.device.type == "cpu" for s in samplers)


def _uniform(rows: int, batch: int, *shape: int) -> torch.Tensor:
    """kornia's _adapted_rsampling of Uniform(0, 1): low + rand * (high - low) is rand itself for
    these bounds; with same_on_batch (rows = 1) the one draw is repeated over the batch."""
    r = torch.rand(rows, *shape)
    return r if rows == batch else r.repeat(batch, *(1,) * len(shape))


def resized_crop(gen, batch_shape, same_on_batch: bool, sizes=None) -> Optional[Dict[str, torch.Tensor]]:
    """ResizedCropGenerator.forward (ten candidate areas and aspect ratios a sample, the first that
    fits, torchvision's fallback where none does, then the crop's position), or None where this
    replica does not apply. ``sizes``: int64 (B, 2), each sample's own (H, W) instead of the
    batch's (a ragged batch, _ragged.py: every size-dependent step with the sample's size)."""
    if (
        type(gen) is not rg.ResizedCropGenerator
        or isinstance(gen.scale, torch.Tensor)
        or isinstance(gen.ratio, torch.Tensor)
        or torch.get_default_dtype() != torch.float32  # kornia's arithmetic runs in the default dtype,
        or torch.empty(0).device.type != "cpu"  # on the default device (read as kornia reads it: dynamo traces this)
        or not _cpu_float32(gen.rand_sampler, gen.log_ratio_sampler)
        or batch_shape[0] == 0
    ):
        return None
    b = batch_shape[0]
    if sizes is None:
        sizes = torch.tensor([batch_shape[-2], batch_shape[-1]])
    rows = 1 if same_on_batch else b
    s0, s1 = (_float32(s) for s in gen.scale)
    area = _uniform(rows, b, 10)
    lo, hi = gen.log_ratio_sampler.low, gen.log_ratio_sampler.high
    aspect = torch.exp(lo + _uniform(rows, b, 10) * (hi - lo))  # torch's exp, as kornia's
    x, y = _uniform(rows, b), _uniform(rows, b)
    # the rest of kornia's float32 steps, one sample at a time in C++ (u8aug/draws.h)
    boxes = torch.ops.u8aug.resized_crop_boxes(
        area,
        aspect,
        x,
        y,
        sizes,
        s0,
        _float32(np.float32(s1) - np.float32(s0)),
        float(min(gen.ratio)),
        float(max(gen.ratio)),
        *gen.resize_to,
    )
    return {
        "src": boxes[0],
        "dst": boxes[1],
        "input_size": sizes.expand(b, -1),
        "output_size": torch.tensor(gen.resize_to).expand(b, -1),
    }


def color_jitter(gen, batch_shape, same_on_batch: bool) -> Optional[Dict[str, torch.Tensor]]:
    """ColorJitterGenerator.forward (a uniform factor a sample for brightness, contrast, hue and
    saturation, in that order, then the steps' order), or None where this replica does not apply."""
    samplers = ("brightness_sampler", "contrast_sampler", "hue_sampler", "saturation_sampler")
    if type(gen) is not rg.ColorJitterGenerator or not _cpu_float32(*(getattr(gen, s) for s in samplers)):
        return None
    b = batch_shape[0]
    rows = 1 if same_on_batch else b
    params = {}
    for name in samplers:  # Uniform.rsample: low + rand * (high - low)
        s = getattr(gen, name)
        params[name.replace("_sampler", "_factor")] = s.low + _uniform(rows, b) * (s.high - s.low)
    params["order"] = torch.randperm(4, dtype=torch.long)
    return params


def salt_and_pepper(gen, batch_shape, same_on_batch: bool) -> Optional[Dict[str, torch.Tensor]]:
    """SaltAndPepperGenerator.forward (a uniform amount and salt share a sample, then two (B, 1, H, W)
    uniform maps thresholded into the salt and pepper masks), or None where this replica does not
    apply. The two maps are most of the draw: their torch.rand numbers come from u8aug.rand (the same
    numbers from the same generator state, _rng.py), and Uniform(0, 1)'s ``0 + rand * (1 - 0)``,
    which is rand itself, is left out."""
    if (
        type(gen) is not rg.SaltAndPepperGenerator
        or len(batch_shape) != 4
        or torch.get_default_dtype() != torch.float32  # the maps are drawn in the default dtype,
        or torch.empty(0).device.type != "cpu"  # on the default device
        or not _cpu_float32(gen.amount_sampler, gen.salt_and_pepper_sampler)
    ):
        return None
    batch, channels, height, width = batch_shape
    _common_param_check(batch, same_on_batch)
    device, dtype = _extract_device_dtype([gen.amount, gen.salt_and_pepper])
    amount = _adapted_rsampling((batch,), gen.amount_sampler, same_on_batch).to(device=device, dtype=dtype)
    share = _adapted_rsampling((batch,), gen.salt_and_pepper_sampler, same_on_batch).to(device=device, dtype=dtype)
    rows = 1 if same_on_batch else batch

    def uniform_map():
        u = torch.ops.u8aug.rand([rows, 1, height, width])
        return u if rows == batch else u.repeat(batch, 1, 1, 1)

    noise = uniform_map() < amount.view(batch, 1, 1, 1)
    salt = uniform_map() < share.view(batch, 1, 1, 1)
    if channels > 1:
        noise, salt = noise.repeat(1, channels, 1, 1), salt.repeat(1, channels, 1, 1)
    return {
        "amount_factor": amount,
        "salt_and_pepper_factor": share,
        "mask_salt": (salt & noise).to(device=device),
        "mask_pepper": (~salt & noise).to(device=device),
    }


def gate(module, batch_shape) -> Optional[torch.Tensor]:
    """kornia's __batch_prob_generator__ where p_batch is 1 (its default) and p is 1 or a per-sample
    draw: the product with the batch gate's ones is left out (its value is the per-sample gate's).
    None elsewhere: kornia's runs."""
    p, b = module.p, batch_shape[0]
    if module.p_batch != 1 or (module.same_on_batch and p not in (0, 1)):
        return None
    if p == 1:
        return torch.ones(b, device=module.device, dtype=module.dtype)
    if p == 0:
        return torch.zeros(b, device=module.device, dtype=module.dtype)
    return (torch.rand(b, device=module.device) < p).to(module.dtype)


# The classes whose kornia draw has a replica here, and the replica: their drop-ins draw through it,
# and so do kornia's own classes after install() (kornia's generator runs wherever a replica returns
# None; a subclass's or an instance's own generate_parameters comes first, as always).
REPLICAS = {
    "RandomResizedCrop": resized_crop,
    "ColorJitter": color_jitter,
    "RandomSaltAndPepperNoise": salt_and_pepper,
}


def replicated_generate_parameters(kornia_cls):
    """``generate_parameters`` for kornia's class ``kornia_cls``: its replica, else kornia's own."""
    replica = REPLICAS[kornia_cls.__name__]
    kornias = kornia_cls.generate_parameters

    def generate_parameters(self, batch_shape):
        params = replica(self._param_generator, batch_shape, self.same_on_batch)
        return kornias(self, batch_shape) if params is None else params

    generate_parameters.u8aug_replica = True  # _native_draws: the same numbers, so its native draw may stand in
    generate_parameters.__doc__ = (
        f"kornia's {kornia_cls.__name__} draw, bit for bit, in fewer tensor ops (u8aug.kornia._draws)"
    )
    return generate_parameters
