"""kornia's flagship augmentation benchmark, run the same way, with u8aug's columns beside it.

kornia's ``benchmarks/augmentation/flagship.py`` times each library's random augmentation classes,
parameter sampling included, on 3 x 256 x 256 images at batches 1, 8 and 32: kornia and torchvision
v2 on a float32 (B, C, H, W) batch, albumentations, OpenCV and PIL on uint8 HWC images one at a
time. Its eight ops and their parameters are restated here (issue 48), and two columns added:

- ``u8aug install()``: the same kornia class after ``u8aug.kornia.install()``, fed the batch as uint8;
- ``u8aug.kornia``: u8aug's drop-in class of that name on the uint8 batch.

Each cell is images a second (the batch's images over the median time of a call, torch's
``blocked_autorange``), at one thread unless told. The summary counts the cells where a u8aug column
is the fastest and the geometric mean of the better u8aug column over the fastest other one.

    python bench/python/flagship.py [--batches 1,8,32] [--size 256] [--threads 1] [--json out.json]
"""

import argparse
import json
import math
import random
import sys

import kornia.augmentation as K
import numpy as np
import torch
import torch.utils.benchmark as tbench

import u8aug
import u8aug.kornia as UK

OURS = ("u8aug install()", "u8aug.kornia")


def _optional(name):
    try:
        return __import__(name, fromlist=["_"])
    except ImportError:
        return None


def ops(h: int, w: int):
    """{op: (kornia class, its arguments, torchvision v2 maker, albumentations maker, OpenCV call, PIL call)},
    as kornia's flagship benchmark sets them (v2 and albumentations from the module given)."""
    dst = (h // 2, w // 2)
    return {
        "RandomHorizontalFlip": (
            K.RandomHorizontalFlip,
            dict(p=1.0),
            lambda T2: T2.RandomHorizontalFlip(p=1.0),
            lambda A: A.HorizontalFlip(p=1.0),
            lambda cv2, im: cv2.flip(im, 1),
            lambda Image, im: Image.fromarray(im).transpose(Image.Transpose.FLIP_LEFT_RIGHT),
        ),
        "RandomAffine": (
            K.RandomAffine,
            dict(degrees=30.0, translate=(0.1, 0.1), scale=(0.8, 1.2), p=1.0),
            lambda T2: T2.RandomAffine(degrees=30.0, translate=(0.1, 0.1), scale=(0.8, 1.2)),
            lambda A: A.Affine(rotate=(-30.0, 30.0), translate_percent=(0.0, 0.1), scale=(0.8, 1.2), p=1.0),
            None,
            None,
        ),
        "RandomPerspective": (
            K.RandomPerspective,
            dict(distortion_scale=0.5, p=1.0),
            lambda T2: T2.RandomPerspective(distortion_scale=0.5, p=1.0),
            lambda A: A.Perspective(scale=(0.05, 0.1), p=1.0),
            None,
            None,
        ),
        "RandomResizedCrop": (
            K.RandomResizedCrop,
            dict(size=dst),
            lambda T2: T2.RandomResizedCrop(dst, antialias=False),
            lambda A: A.RandomResizedCrop(size=dst, p=1.0),
            None,
            None,
        ),
        "ColorJiggle": (
            K.ColorJiggle,
            dict(brightness=0.2, contrast=0.2, saturation=0.2, hue=0.1, p=1.0),
            lambda T2: T2.ColorJitter(0.2, 0.2, 0.2, 0.1),
            lambda A: A.ColorJitter(0.2, 0.2, 0.2, 0.1, p=1.0),
            None,
            None,
        ),
        "RandomGaussianBlur": (
            K.RandomGaussianBlur,
            dict(kernel_size=(5, 5), sigma=(0.1, 2.0), p=1.0),
            lambda T2: T2.GaussianBlur(5, sigma=(0.1, 2.0)),
            lambda A: A.GaussianBlur(blur_limit=(5, 5), sigma_limit=(0.1, 2.0), p=1.0),
            None,
            None,
        ),
        "RandomBrightness": (
            K.RandomBrightness,
            dict(brightness=(0.8, 1.2), p=1.0),
            lambda T2: T2.ColorJitter(brightness=(0.8, 1.2)),
            lambda A: A.RandomBrightnessContrast(brightness_limit=0.2, contrast_limit=0.0, p=1.0),
            None,
            None,
        ),
        "RandomGrayscale": (
            K.RandomGrayscale,
            dict(p=1.0),
            lambda T2: T2.RandomGrayscale(p=1.0),
            lambda A: A.ToGray(p=1.0),
            lambda cv2, im: cv2.cvtColor(im, cv2.COLOR_RGB2GRAY),
            lambda Image, im: Image.fromarray(im).convert("L"),
        ),
    }


def images_per_second(fn, images: int, min_run_time: float) -> float:
    fn()  # warm-up: allocator, caches
    fn()
    m = tbench.Timer(stmt="fn()", globals={"fn": fn}, num_threads=torch.get_num_threads())
    return images / m.blocked_autorange(min_run_time=min_run_time).median


def run(batches, size: int, min_run_time: float):
    T2 = _optional("torchvision.transforms.v2")
    A = _optional("albumentations")
    cv2 = _optional("cv2")
    Image = _optional("PIL.Image")
    rng = np.random.default_rng(0)
    rows = []
    for b in batches:
        hwc = [(rng.random((size, size, 3)) * 255).astype(np.uint8) for _ in range(b)]
        x = torch.stack([torch.from_numpy(im).permute(2, 0, 1) for im in hwc]).contiguous()
        xf = x.float() / 255
        for op, (cls, kwargs, tv, alb, cv, pil) in ops(size, size).items():
            cells = {}
            UK.uninstall()
            kornia = cls(**kwargs)
            cells["kornia (float)"] = images_per_second(lambda: kornia(xf), b, min_run_time)
            if T2:
                t = tv(T2)
                cells["torchvision v2"] = images_per_second(lambda: t(xf), b, min_run_time)
            if A:
                a = alb(A)
                cells["albumentations"] = images_per_second(
                    lambda: [a(image=im)["image"] for im in hwc], b, min_run_time
                )
            if cv and cv2:
                cells["OpenCV"] = images_per_second(lambda: [cv(cv2, im) for im in hwc], b, min_run_time)
            if pil and Image:
                cells["PIL"] = images_per_second(lambda: [pil(Image, im) for im in hwc], b, min_run_time)
            UK.install()
            try:
                installed = cls(**kwargs)
                cells["u8aug install()"] = images_per_second(lambda: installed(x), b, min_run_time)
            finally:
                UK.uninstall()
            dropin = getattr(UK, op)(**kwargs)
            cells["u8aug.kornia"] = images_per_second(lambda: dropin(x), b, min_run_time)
            rows.append({"op": op, "batch": b, "images_per_s": cells})
            print(f"  {op} batch {b}: done", file=sys.stderr, flush=True)
    return rows


def summary(rows) -> str:
    columns = list(dict.fromkeys(c for r in rows for c in r["images_per_s"]))
    lines = [
        "| op | batch | " + " | ".join(columns) + " | u8aug / fastest other |",
        "|---|---|" + "---|" * (len(columns) + 1),
    ]
    fastest, ratios = 0, []
    for r in rows:
        cells = r["images_per_s"]
        ours = max(cells[c] for c in OURS if c in cells)
        best_other, who = max((v, c) for c, v in cells.items() if c not in OURS)
        ratio = ours / best_other
        ratios.append(ratio)
        fastest += ratio > 1
        shown = " | ".join(f"{cells[c]:,.0f}" if c in cells else "–" for c in columns)
        lines.append(f"| {r['op']} | {r['batch']} | {shown} | {ratio:.2f}x ({who}) |")
    mean = math.exp(sum(math.log(q) for q in ratios) / len(ratios))
    lines.append("")
    lines.append(
        f"u8aug the fastest column in {fastest} of {len(rows)} cells; geometric mean {mean:.2f}x the fastest other column"
    )
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batches", default="1,8,32", help="comma-separated batch sizes")
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--min-run-time", type=float, default=0.3, help="seconds a cell is timed for, at least")
    ap.add_argument("--json", default=None, help="write the rows to this file")
    args = ap.parse_args(argv)
    batches = [int(b) for b in args.batches.split(",")]
    torch.set_num_threads(args.threads)
    cv2 = _optional("cv2")
    if cv2:
        cv2.setNumThreads(args.threads)
    torch.manual_seed(0)
    np.random.seed(0)  # albumentations draws from numpy's global generator
    random.seed(0)
    info = u8aug.build_info()
    print(
        f"flagship: 3x{args.size}x{args.size}, batches {batches}, {args.threads} thread(s), "
        f"u8aug CPU target {info['cpu_target_chosen']}, torch {torch.__version__}"
    )
    rows = run(batches, args.size, args.min_run_time)
    print(summary(rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"threads": args.threads, "size": args.size, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
