"""Charts of benchmark results as ratios: u8aug's speed over the fastest peer's, one bar per row and
u8aug variant, a line at 1x. Used for the per-run chart (run.py) and the main job's picture
(picture_grid.py, headline rows only)."""

import peer_helpers as peer_defs

# The rows a newcomer looks at first (scripts/demo.sh runs just these by default).
HEADLINE_OPS = ["pipeline", "per_sample", "color_jitter", "resized_crop", "hflip"]
VARIANTS = {
    "u8aug": "eager",
    "u8aug compiled": "compiled",
    "u8aug fast": "fast tier",
    "u8aug fast compiled": "fast tier, compiled",
}
COLOURS = {
    "u8aug": "tab:blue",
    "u8aug compiled": "tab:green",
    "u8aug fast": "tab:orange",
    "u8aug fast compiled": "tab:red",
}


def fastest_peer(libraries: dict):
    """(images/s, name) of the fastest library that is not u8aug (nor a reference: memcpy, a decode alone), or None."""
    peers = [(v["images_per_s"], p) for p, v in libraries.items() if peer_defs.is_peer(p)]
    return max(peers) if peers else None


def single_thread_rows(rows, ops=None):
    """Each op's first row (its first shape; the pipeline rows have a shape of their own) at the
    fewest threads, in `ops` order when given, else in the order measured."""
    if not rows:
        return []
    fewest = [r for r in rows if r["threads"] == min(x["threads"] for x in rows)]
    ops = ops if ops is not None else list(dict.fromkeys(r["op"] for r in fewest))
    first = {}
    for r in fewest:
        if r["op"] in ops:
            first.setdefault(r["op"], r)
    return [first[op] for op in ops if op in first]


def draw(ax, rows, title: str, legend_outside: bool = False) -> None:
    """Horizontal bars: per row, u8aug (and its compiled and fast variants where measured) ÷ the
    fastest peer, on a log axis with a line at 1x; each label names the row and that peer. The
    legend goes right of the axes with `legend_outside` (a chart of its own: with few rows a legend
    inside covers bars), else in the lower right."""
    labels, k = [], 0
    variants = [lib for lib in VARIANTS if any(lib in r["libraries"] for r in rows)]  # the measured ones
    height = 0.8 / max(len(variants), 1)
    shown = set()
    for r in rows:
        best = fastest_peer(r["libraries"])
        if best is None or "u8aug" not in r["libraries"]:
            continue
        for i, lib in enumerate(variants):
            if lib not in r["libraries"]:
                continue
            ratio = r["libraries"][lib]["images_per_s"] / best[0]
            y = k + i * height
            ax.barh(y, ratio, height, color=COLOURS[lib], label=None if lib in shown else VARIANTS[lib])
            ax.text(ratio, y, f" {ratio:.1f}x", va="center", fontsize=7)
            shown.add(lib)
        labels.append((k + height, f"{r['op']} {r.get('shape', '')} (vs {best[1]})"))
        k += 1
    ax.axvline(1.0, color="black", lw=0.8)
    ax.set_xscale("log")
    # ratios as "2x", not matplotlib's log-axis "2 x 10^0"
    from matplotlib.ticker import FuncFormatter

    plain = FuncFormatter(lambda v, _: f"{v:g}x")
    # minor ticks labelled at 2, 3 and 5 of each decade only: 0.8x, 0.9x and 1x run together
    sparse = FuncFormatter(lambda v, _: f"{v:g}x" if f"{v:.0e}"[0] in "235" else "")
    ax.xaxis.set_major_formatter(plain)
    ax.xaxis.set_minor_formatter(sparse)
    ax.set_yticks([y for y, _ in labels], [text for _, text in labels], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("u8aug speed ÷ fastest peer's (log; right of the line is faster)")
    ax.set_title(title, fontsize=9)
    if shown and legend_outside:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    elif shown:
        ax.legend(fontsize=7, loc="lower right")


def save(rows, path: str, title: str, ops=None) -> None:
    """The chart of `rows` (single_thread_rows: each op's first row at the fewest threads; only
    `ops` if given) as a PNG sized for a page."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    single = single_thread_rows(rows, ops)
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.32 * max(1, len(single))))
    draw(ax, single, title, legend_outside=True)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
