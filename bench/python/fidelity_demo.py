"""Fidelity demo: every op of the catalogue on real photos against its kornia oracle
(../shared/FIDELITY.md: to_u8(kornia_fn(x / 255))), contiguous and channels_last, with the
identical-byte fraction and the largest difference per op.
"""

import importlib
import os
import sys

import numpy as np
import torch

import u8aug

def _t(*v):
    return torch.tensor(v, dtype=torch.float32)


# Parameter sets per op (positional arguments after the image), the same for kornia and u8aug.
CASES = {
    "adjust_brightness": [(_t(-0.2),), (_t(0.15),)],
    "adjust_brightness_accumulative": [(_t(0.7),), (_t(1.3),)],
    "adjust_contrast": [(_t(0.6),), (_t(1.4),)],
    "adjust_gamma": [(_t(0.6), _t(1.0)), (_t(1.8), _t(1.1))],
    "solarize": [(_t(0.5), _t(0.0)), (_t(0.3), _t(0.2))],
    "posterize": [(torch.tensor([2]),), (torch.tensor([5]),)],
}


def photos():
    from skimage import data

    out = []
    for name in ("astronaut", "chelsea", "coffee", "rocket"):
        img = np.asarray(getattr(data, name)())
        out.append((name, torch.from_numpy(np.ascontiguousarray(img)).permute(2, 0, 1).contiguous()))
    return out


def resolve(dotted: str):
    module, _, attr = dotted.rpartition(".")
    return getattr(importlib.import_module(module), attr)


def main() -> int:
    info = u8aug.build_info()
    print(f"u8aug {info['version']}: fidelity against kornia on scikit-image photos "
          f"(CPU target {info['cpu_target_chosen']})\n")
    print("| op | kornia counterpart | class | images | bytes compared | identical | max abs diff | verdict |")
    print("|---|---|---|---|---|---|---|---|")
    failed = False
    for op in u8aug.catalogue():
        ours, theirs = getattr(u8aug, op["name"]), resolve(op["kornia"])
        total = same = worst = n = 0
        for _, img in photos():
            batch = img.unsqueeze(0)
            for x in (batch, batch.contiguous(memory_format=torch.channels_last)):
                for args in CASES.get(op["name"], [()]):
                    expected = (theirs(x.float() / 255, *args) * 255).round().clamp(0, 255).to(torch.uint8)
                    got = ours(x, *args)
                    diff = (got.int() - expected.int()).abs()
                    total += diff.numel()
                    same += int((diff == 0).sum())
                    worst = max(worst, int(diff.max()))
                    n += 1
        frac = same / total
        ok = (frac == 1.0) if op["fidelity"] == "exact" else (worst <= 1 and frac >= 0.999)
        failed |= not ok
        print(f"| {op['name']} | {op['kornia']} | {op['fidelity']} | {n} | {total:,} | "
              f"{100 * frac:.4f}% | {worst} | {'ok' if ok else 'FAILS ITS CLASS'} |")
    print()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
