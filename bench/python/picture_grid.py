"""The main job's picture: real photos through the standard and a SimCLR-style pipeline, u8aug's
fused uint8 container beside kornia's float pipeline (same seed, quantized once at the end) with
their difference map, and a chart of the benchmark's headline rows when a results file is given.

    python bench/python/picture_grid.py [--results bench/results/cpu.json] [--out bench/results/pictures.png]

The difference is what "a u8aug pipeline is uint8 between steps" means (README, "What a pipeline
means"): each step equals kornia's on the previous step's bytes, so pixels differ from kornia's
float chain by the roundings between steps, mostly by 1 or 2.
"""

import argparse
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ratio_chart import HEADLINE_OPS, draw, single_thread_rows  # noqa: E402


def _photos(size=256):
    from skimage import data

    out = []
    for name in ("astronaut", "chelsea", "coffee", "rocket"):
        img = torch.from_numpy(np.ascontiguousarray(getattr(data, name)())).permute(2, 0, 1).float()
        img = torch.nn.functional.interpolate(img[None], size=(size, size), mode="bilinear", align_corners=False)
        out.append(img.round().clamp(0, 255).to(torch.uint8))
    return torch.cat(out)


def pipelines(mod):
    """name -> the pipeline in library `mod` (kornia.augmentation or u8aug.kornia), uint8 out."""
    return {
        "standard": lambda: mod.AugmentationSequential(
            mod.RandomResizedCrop((224, 224)),
            mod.RandomHorizontalFlip(),
            mod.ColorJitter(0.4, 0.4, 0.4, 0.1),
            mod.RandomGrayscale(p=0.2),
        ),
        # SimCLR's recipe (its blur with 23 taps, as at 224x224)
        "SimCLR-style": lambda: mod.AugmentationSequential(
            mod.RandomResizedCrop((224, 224)),
            mod.RandomHorizontalFlip(),
            mod.ColorJitter(0.4, 0.4, 0.4, 0.1, p=0.8),
            mod.RandomGrayscale(p=0.2),
            mod.RandomGaussianBlur(23, (0.1, 2.0), p=0.5),
            mod.RandomSolarize(0.1, 0.1, p=0.2),
        ),
    }


def run_pair(name, x, seed):
    import kornia.augmentation as K

    import u8aug.kornia as UK

    torch.manual_seed(seed)
    ours = pipelines(UK)[name]()(x)
    torch.manual_seed(seed)
    theirs = pipelines(K)[name]()(x.float() / 255)
    theirs = (theirs * 255).round().clamp(0, 255).to(torch.uint8)
    return ours, theirs


def _newest_results():
    folder = os.path.join(HERE, "..", "results")
    found = (
        [os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".json")] if os.path.isdir(folder) else []
    )
    return max(found, key=os.path.getmtime) if found else None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--results", default=None, help="a bench/python/run.py results file for the chart (default: the newest)"
    )
    ap.add_argument("--out", default=os.path.join(HERE, "..", "results", "pictures.png"))
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    args.results = args.results or _newest_results()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import BoundaryNorm, ListedColormap

    x = _photos()
    names = list(pipelines(__import__("kornia.augmentation", fromlist=["x"])))
    rows = []
    if args.results and os.path.exists(args.results):
        with open(args.results) as f:
            rows = single_thread_rows(json.load(f)["rows"], HEADLINE_OPS)
    n = x.shape[0]
    # Per pipeline three rows of photos: u8aug's output, kornia's, their difference; then the chart.
    heights = [1.0] * 3 * len(names) + ([0.3 + 0.2 * len(rows)] if rows else [])
    fig = plt.figure(figsize=(2.6 * n + 0.6, 2.7 * sum(heights)))
    grid = fig.add_gridspec(
        len(heights), n + 1, height_ratios=heights, width_ratios=[1] * n + [0.06],
        left=0.02, right=0.93, top=0.95, bottom=0.04, hspace=0.3, wspace=0.05,
    )  # fmt: skip
    # |difference| 0, 1, 2, 3 and more: the roundings between uint8 steps, in distinct colours
    cmap = ListedColormap(["#f7f7f7", "#fdae61", "#d7191c", "#5e3c99"])
    norm = BoundaryNorm([-0.5, 0.5, 1.5, 2.5, 255.5], cmap.N)
    for i, name in enumerate(names):
        ours, theirs = run_pair(name, x, args.seed + i)
        diff = (ours.int() - theirs.int()).abs()
        same = (diff == 0).float().mean().item()
        print(f"{name}: max diff {diff.max().item()}, {100 * same:.2f}% identical bytes", file=sys.stderr)
        for j in range(n):
            d = diff[j].max(0).values.numpy()
            panels = [
                (ours[j].permute(1, 2, 0).numpy(), {}, f"{name}: u8aug (uint8)"),
                (theirs[j].permute(1, 2, 0).numpy(), {}, f"{name}: kornia (float32)"),
                (
                    d,
                    dict(cmap=cmap, norm=norm, interpolation="nearest"),
                    f"|difference|: max {d.max()}, {100 * (d == 0).mean():.0f}% equal",
                ),
            ]
            for k, (image, style, title) in enumerate(panels):
                ax = fig.add_subplot(grid[3 * i + k, j])
                shown = ax.imshow(image, **style)
                ax.set_title(title, fontsize=9)
                ax.axis("off")
        bar = fig.colorbar(shown, cax=fig.add_subplot(grid[3 * i + 2, n]), ticks=[0, 1, 2, 3])
        bar.ax.set_yticklabels(["0", "1", "2", "3+"], fontsize=8)
        bar.set_label("|u8aug - kornia|, max over RGB", fontsize=8)
    if rows:
        ax = fig.add_subplot(grid[-1, :])
        # room on the left for the row labels ("per_sample 32x3x256x256 (vs albumentations)") and on
        # the right for the legend, outside the bars
        box = ax.get_position()
        ax.set_position([0.36, box.y0, 0.46, box.height])
        where = f"{rows[0]['threads']} thread(s)"
        draw(ax, rows, f"headline benchmark rows, {where}: {os.path.basename(args.results)}", legend_outside=True)
    fig.suptitle("u8aug's fused uint8 pipelines beside kornia's float pipelines (same seed)", fontsize=14)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    fig.savefig(args.out, dpi=72)
    print(f"wrote {os.path.relpath(args.out)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
