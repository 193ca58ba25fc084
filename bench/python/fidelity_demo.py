"""Fidelity demo: every op of the catalogue on real photos against its kornia oracle
(../shared/FIDELITY.md: to_u8(kornia(x / 255)); float outputs compared as float32), contiguous and
channels_last, with the identical fraction and the largest difference per op.
"""

import importlib
import sys

import numpy as np
import torch

import u8aug


def photos():
    from skimage import data

    out = []
    for name in ("astronaut", "chelsea", "coffee", "rocket"):
        img = np.asarray(getattr(data, name)())
        out.append(torch.from_numpy(np.ascontiguousarray(img)).permute(2, 0, 1).contiguous())
    return out


def resolve(dotted: str):
    module, _, attr = dotted.rpartition(".")
    return getattr(importlib.import_module(module), attr)


def _t(*v):
    return torch.tensor(v, dtype=torch.float32)


def _kornia_class(name, **kwargs):
    """(ours, theirs) running u8aug.kornia's and kornia's class with the same parameters."""
    import kornia.augmentation as K

    import u8aug.kornia as UK

    def ours(x):
        torch.manual_seed(0)
        return getattr(UK, name)(**kwargs)(x)

    def theirs(xf):
        torch.manual_seed(0)
        return getattr(K, name)(**kwargs)(xf)

    return ours, theirs


def cases():
    """op -> list of (ours(x), theirs(x / 255)). Ops not listed run with no parameters."""

    imagenet = (_t(0.485, 0.456, 0.406), _t(0.229, 0.224, 0.225))
    with_args = {
        "adjust_brightness": [(_t(-0.2),), (_t(0.15),)],
        "adjust_brightness_accumulative": [(_t(0.7),), (_t(1.3),)],
        "adjust_contrast": [(_t(0.6),), (_t(1.4),)],
        "adjust_gamma": [(_t(0.6), _t(1.0)), (_t(1.8), _t(1.1))],
        "solarize": [(_t(0.5), _t(0.0)), (_t(0.3), _t(0.2))],
        "posterize": [(torch.tensor([2]),), (torch.tensor([5]),)],
        "normalize": [imagenet],
        "adjust_saturation": [(_t(0.3),), (_t(1.7),)],
        "adjust_hue": [(_t(-1.0),), (_t(2.5),)],
    }
    out = {}
    for op in u8aug.catalogue():
        name = op["name"]
        if name in with_args:
            kornia_fn = resolve(op["kornia"])
            out[name] = [(lambda x, a=a, n=name: getattr(u8aug, n)(x, *a), lambda xf, a=a, f=kornia_fn: f(xf, *a))
                         for a in with_args[name]]
    out["to_float"] = [(u8aug.to_float, lambda xf: xf)]
    keep, swap = torch.tensor([True]), torch.tensor([False])
    out["select_samples"] = [(lambda x: u8aug.select_samples(keep, x, u8aug.invert(x)), lambda xf: xf),
                             (lambda x: u8aug.select_samples(swap, u8aug.invert(x), x), lambda xf: xf)]
    out["grayscale"] = [_kornia_class("RandomGrayscale", p=1.0)]
    out["color_jiggle"] = [_kornia_class("ColorJiggle", brightness=0.3, contrast=0.3, saturation=0.3, hue=0.1)]
    out["color_jitter"] = [_kornia_class("ColorJitter", brightness=0.3, contrast=0.3, saturation=0.3, hue=0.1)]
    return out


def main() -> int:
    info = u8aug.build_info()
    print(f"u8aug {info['version']}: fidelity against kornia on scikit-image photos "
          f"(CPU target {info['cpu_target_chosen']})\n")
    print("| op | kornia counterpart | class | runs | values compared | identical | max abs diff | verdict |")
    print("|---|---|---|---|---|---|---|---|")
    table = cases()
    failed = False
    for op in u8aug.catalogue():
        name = op["name"]
        runs = table.get(name) or [(getattr(u8aug, name), resolve(op["kornia"]))]
        total = same = n = 0
        worst = 0.0
        for img in photos():
            batch = img.unsqueeze(0)
            for x in (batch, batch.contiguous(memory_format=torch.channels_last)):
                for ours, theirs in runs:
                    got = ours(x)
                    expected = theirs(x.float() / 255)
                    if got.dtype == torch.uint8:
                        expected = (expected * 255).round().clamp(0, 255).to(torch.uint8)
                    diff = (got.double() - expected.double()).abs()
                    total += diff.numel()
                    same += int((diff == 0).sum())
                    worst = max(worst, float(diff.max()))
                    n += 1
        frac = same / total
        ok = (frac == 1.0) if op["fidelity"] == "exact" else (worst <= 1 and frac >= 0.999)
        failed |= not ok
        print(f"| {name} | {op['kornia']} | {op['fidelity']} | {n} | {total:,} | "
              f"{100 * frac:.4f}% | {worst:g} | {'ok' if ok else 'FAILS ITS CLASS'} |")
    print()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
