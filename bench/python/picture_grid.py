"""The main job's picture: real photos through the standard and a SimCLR-style pipeline, u8aug's
fused uint8 container beside kornia's float pipeline (same seed, quantized once at the end) with
their difference map, and the benchmark's ratio chart when a results file is given.

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


def _ratio_panel(ax, results_path):
    with open(results_path) as f:
        rows = json.load(f)["rows"]
    single = [r for r in rows if r["threads"] == min(x["threads"] for x in rows)]
    bars = []
    for r in single:
        L = r["libraries"]
        if "u8aug" not in L:
            continue
        peers = [(v["images_per_s"], p) for p, v in L.items() if not p.startswith("u8aug") and p != "memcpy"]
        if peers:
            best, who = max(peers)
            bars.append((f"{r['op']}\n({who})", L["u8aug"]["images_per_s"] / best))
    ax.barh([b[0] for b in bars], [b[1] for b in bars], color="tab:blue")
    for k, (_, v) in enumerate(bars):
        ax.text(v, k, f" {v:.1f}x", va="center", fontsize=6)
    ax.axvline(1.0, color="black", lw=0.8)
    ax.set_xlabel("u8aug ÷ fastest peer (one thread)")
    ax.tick_params(axis="y", labelsize=6)
    ax.set_title(os.path.basename(results_path), fontsize=8)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--results", default=None, help="a bench/python/run.py results file for the ratio chart (default: the newest)"
    )
    ap.add_argument("--out", default=os.path.join(HERE, "..", "results", "pictures.png"))
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    if args.results is None:
        folder = os.path.join(HERE, "..", "results")
        found = (
            [os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".json")]
            if os.path.isdir(folder)
            else []
        )
        args.results = max(found, key=os.path.getmtime) if found else None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = _photos()
    names = list(pipelines(__import__("kornia.augmentation", fromlist=["x"])))
    ratio = args.results and os.path.exists(args.results)
    fig, axes = plt.subplots(
        len(names) * 2, x.shape[0] + (1 if ratio else 0), figsize=(2.2 * (x.shape[0] + ratio), 2.3 * 2 * len(names))
    )
    for i, name in enumerate(names):
        ours, theirs = run_pair(name, x, args.seed + i)
        diff = (ours.int() - theirs.int()).abs()
        same = (diff == 0).float().mean().item()
        print(f"{name}: max diff {diff.max().item()}, {100 * same:.2f}% identical bytes", file=sys.stderr)
        for j in range(x.shape[0]):
            top, bottom = axes[2 * i, j], axes[2 * i + 1, j]
            top.imshow(np.concatenate([ours[j].permute(1, 2, 0).numpy(), theirs[j].permute(1, 2, 0).numpy()], 1))
            top.set_title(f"{name}: u8aug | kornia float", fontsize=6)
            d = diff[j].max(0).values.numpy()
            bottom.imshow(np.minimum(d * 64, 255), cmap="magma", vmin=0, vmax=255)
            bottom.set_title(f"|difference| x64, max {d.max()}, {100 * (d == 0).mean():.1f}% same", fontsize=6)
            for a in (top, bottom):
                a.axis("off")
        if ratio:
            axes[2 * i, -1].axis("off")
            axes[2 * i + 1, -1].axis("off")
    if ratio:
        for a in axes[:, -1]:
            a.remove()
        _ratio_panel(fig.add_subplot(1, x.shape[0] + 1, x.shape[0] + 1), args.results)
    fig.suptitle("u8aug's fused uint8 pipelines beside kornia's float pipelines (same seed)", fontsize=10)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    fig.savefig(args.out, dpi=110)
    print(f"wrote {os.path.relpath(args.out)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
