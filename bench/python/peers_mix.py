"""Benchmark peers of the batch mixes (see peer_helpers.py): each library's MixUp and CutMix on a
batch with its labels. albumentations and OpenCV have none (they transform one image at a time);
torchvision v2's MixUp takes float images only (on uint8 it raises), so it runs on x / 255."""

import warnings

import torch

from peer_helpers import _memcpy, _optional

# op: (kornia / u8aug.kornia class, its arguments, torchvision v2 class)
MIXES = {
    "mixup": ("RandomMixUpV2", dict(p=1.0), "MixUp"),
    "cutmix": ("RandomCutMixV2", dict(p=1.0, use_correct_lambda=True), "CutMix"),
}


def _mix_peers(op):
    K = _optional("kornia.augmentation")
    UK = _optional("u8aug.kornia")
    v2 = _optional("torchvision.transforms.v2")
    name, kwargs, tv_name = MIXES[op]

    def labels(x):
        return torch.arange(x.shape[0], device=x.device) % 10

    def make(module):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return getattr(module, name)(data_keys=["input", "class"], **kwargs)

    def ours(compiled):
        def factory(x):
            aug, y = make(UK), labels(x)
            fn = torch.compile(aug, fullgraph=True, options=UK.COMPILE_OPTIONS) if compiled else aug
            return lambda: fn(x, y)

        return factory

    def kornia(compiled):
        def factory(x):
            aug, y, xf = make(K), labels(x), x.float() / 255
            fn = torch.compile(aug) if compiled else aug  # kornia's mixes break the graph: not fullgraph
            return lambda: fn(xf, y)

        return factory

    def torchvision(x):
        t, y = getattr(v2, tv_name)(num_classes=10), labels(x)
        inp = x.float() / 255 if op == "mixup" else x
        return lambda: t(inp, y)

    peers = {
        "u8aug": UK and ours(False),
        "u8aug compiled": UK and ours(True),
        "kornia float": K and kornia(False),
        "kornia float compiled": K and kornia(True),
        "torchvision v2": v2 and torchvision,
        "memcpy": _memcpy,
    }
    return {n: f for n, f in peers.items() if f}
