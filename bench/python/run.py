"""The cross-library benchmark (../shared/BENCH.md): every op against every peer that has it, side
by side in one process, on the same inputs.

    python bench/python/run.py                    # CPU, 1 thread then all cores
    python bench/python/run.py --device cuda      # the GPU rows (CUDA events)
    python bench/python/run.py --quick            # small run for a smoke test

Prints Markdown tables, writes JSON and a PNG chart of the ratios under bench/results/.
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import torch
import torch.utils.benchmark as tbench

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers as peer_defs  # noqa: E402
import u8aug  # noqa: E402
from ratio_chart import save as save_chart  # noqa: E402
from ratio_chart import single_thread_rows  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "..", "results")

CPU_SHAPES = [(32, 3, 224, 224), (32, 3, 512, 512), (1, 3, 1080, 1920)]
GPU_SHAPES = [(256, 3, 224, 224)] + CPU_SHAPES


def set_threads(n: int) -> None:
    torch.set_num_threads(n)
    cv2 = peer_defs._optional("cv2")
    if cv2:
        cv2.setNumThreads(n)


def time_cpu(fn, min_run_time: float):
    fn()  # warm-up: compilation, allocator
    fn()
    m = tbench.Timer(stmt="fn()", globals={"fn": fn}, num_threads=torch.get_num_threads()).blocked_autorange(
        min_run_time=min_run_time
    )
    times = sorted(m.times)
    q1, q3 = times[len(times) // 4], times[(3 * len(times)) // 4]
    return m.median, (q3 - q1) / m.median if m.median else 0.0


def time_cuda(fn, min_run_time: float):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    once = max(start.elapsed_time(end) / 1e3, 1e-6)
    reps = max(1, int(0.05 / once))
    samples = []
    deadline = time.perf_counter() + min_run_time
    while time.perf_counter() < deadline or len(samples) < 5:
        start.record()
        for _ in range(reps):
            fn()
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end) / 1e3 / reps)
    samples.sort()
    med = statistics.median(samples)
    q1, q3 = samples[len(samples) // 4], samples[(3 * len(samples)) // 4]
    return med, (q3 - q1) / med


def environment(device: str) -> dict:
    def version(module):
        m = peer_defs._optional(module)
        return getattr(m, "__version__", "not installed") if m else "not installed"

    env = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": platform.machine(),
        "cpu": _cpu_name(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "kornia": version("kornia"),
        "torchvision": version("torchvision"),
        "albumentations": version("albumentations"),
        "opencv": version("cv2"),
        "u8aug": u8aug.build_info(),
        "commit": _git("rev-parse", "--short", "HEAD"),
        "device": device,
    }
    if device == "cuda":
        env["gpu"] = torch.cuda.get_device_name()
        env["nvidia-smi"] = _run(
            ["nvidia-smi", "--query-gpu=name,clocks.sm,clocks.mem,clocks.max.sm", "--format=csv,noheader"]
        )
    return env


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def _run(cmd) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _git(*args) -> str:
    return _run(["git", "-C", HERE, *args])


def make_input(op: str, shape) -> torch.Tensor:
    """Random bytes, or for content-dependent ops scikit-image's photos resized to the shape."""
    b, c, h, w = shape
    if op in peer_defs.CONTENT_DEPENDENT:
        from skimage import data

        photos = [
            torch.from_numpy(getattr(data, n)()).permute(2, 0, 1).float() for n in ("astronaut", "coffee", "chelsea")
        ]
        resized = [
            torch.nn.functional.interpolate(p[None], size=(h, w), mode="bilinear", align_corners=False)[0]
            for p in photos
        ]
        return (
            torch.stack([resized[i % len(resized)] for i in range(b)])
            .round()
            .clamp(0, 255)
            .to(torch.uint8)
            .contiguous()
        )
    g = torch.Generator().manual_seed(0)
    return torch.randint(0, 256, shape, dtype=torch.uint8, generator=g)


def shape_name(shape) -> str:
    b, c, h, w = shape
    return f"{b}x{c}x{h}x{w}"


def run(args) -> list:
    device = args.device
    timer = time_cuda if device == "cuda" else time_cpu
    shapes = [tuple(s) for s in args.shapes] if args.shapes else (GPU_SHAPES if device == "cuda" else CPU_SHAPES)
    thread_counts = [1, os.cpu_count()] if device == "cpu" else [torch.get_num_threads()]
    if args.threads:
        thread_counts = args.threads
    rows = []
    total = len(thread_counts) * sum(
        1 if op in peer_defs.PIPELINES and not args.quick else len(shapes) for op in args.ops
    )  # rows to do
    started = time.perf_counter()
    for threads in thread_counts:
        set_threads(threads)
        for op in args.ops:
            op_shapes = shapes
            if op in peer_defs.PIPELINES and not args.quick:
                op_shapes = [peer_defs.PIPELINE_SHAPE]
            for shape in op_shapes:
                torch._dynamo.reset()  # each row compiles afresh: no recompile limits across rows
                x = make_input(op, shape).to(device)
                row = {
                    "op": op,
                    "shape": shape_name(shape),
                    "threads": threads,
                    "batch": shape[0],
                    "bytes_moved": peer_defs.BYTES_PER_ELEMENT.get(op, 2) * x.numel(),
                    "libraries": {},
                }
                fns = {}
                for lib, factory in peer_defs.peers_for(op).items():
                    if args.libraries and lib not in args.libraries:
                        continue
                    fn = peer_attempt(row, lib, lambda: factory(x))
                    if fn is not None:
                        fns[lib] = fn
                # two passes, the libraries in order and then in reverse, each keeping its faster
                # median: a library timed first in a row ran up to 2x slower than the same code
                # timed later (this machine's heap and page-fault state), so no place is favoured
                timed = {}
                for order in (list(fns), list(reversed(fns))):
                    for lib in order:
                        if lib not in fns:  # it failed in the first pass
                            continue
                        result = peer_attempt(row, lib, lambda: timer(fns[lib], args.min_run_time))
                        if result is None:
                            del fns[lib]
                            timed.pop(lib, None)
                            continue
                        sec, iqr = result
                        if lib not in timed or sec < timed[lib][0]:
                            timed[lib] = (sec, iqr)
                for lib in fns:
                    sec, iqr = timed[lib]
                    moved = 2 * x.numel() if lib == "memcpy" else row["bytes_moved"]  # clone: same bytes in and out
                    row["libraries"][lib] = {
                        "seconds": sec,
                        "iqr_rel": iqr,
                        "images_per_s": shape[0] / sec,
                        "gb_per_s": moved / sec / 1e9,
                    }
                    print(
                        f"  {op:6s} {shape_name(shape):>16s} threads={threads:<2d} {lib:22s} "
                        f"{shape[0] / sec:12.0f} img/s  ±{100 * iqr:4.1f}%",
                        file=sys.stderr,
                        flush=True,
                    )
                rows.append(row)
                elapsed = time.perf_counter() - started
                left = elapsed / len(rows) * (total - len(rows))
                print(
                    f"[{len(rows)}/{total} rows done, {elapsed / 60:.1f} min so far, about {left / 60:.1f} min left]",
                    file=sys.stderr,
                    flush=True,
                )
    return rows


def peer_attempt(row, lib, attempt):
    """attempt()'s result, or None where a peer's own code raised (torch's compiler failing on kornia's
    float class, say): the row records why and goes on without it. u8aug's own failures raise."""
    try:
        return attempt()
    except Exception as e:
        if peer_defs.is_ours(lib):
            raise
        why = f"{type(e).__name__}: {(str(e).strip().splitlines() or [''])[0][:160]}"
        row.setdefault("failed", {})[lib] = why
        print(f"  {row['op']:6s} {row['shape']:>16s} {lib}: left out, it failed ({why})", file=sys.stderr, flush=True)
        return None


def summary_table(rows, memory_bound) -> str:
    libs = [lib for lib in peer_defs.LIBRARIES if any(lib in r["libraries"] for r in rows)]
    peers = [lib for lib in libs if peer_defs.is_peer(lib)]
    fast = "u8aug fast" in libs
    head = ["op", "shape", "thr"] + libs + ["u8aug GB/s ÷ memcpy GB/s", "u8aug ÷ fastest peer"]
    head += ["u8aug fast ÷ fastest peer"] if fast else []
    fast_alone = "u8aug fast kernels alone" in libs
    head += ["fast kernels alone ÷ fastest peer"] if fast_alone else []
    alone = "u8aug kernels alone" in libs
    head += ["non-kernel share (eager / compiled)"] if alone else []
    decode = "torchvision decode_jpeg alone" in libs
    head += ["decode's share (u8aug / albumentations)"] if decode else []
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        L = r["libraries"]
        ours = L.get("u8aug", {}).get("images_per_s")
        cells = [r["op"], r["shape"], str(r["threads"])]
        for lib in libs:
            cells.append(f"{L[lib]['images_per_s']:,.0f}" if lib in L else "–")
        if ours and "memcpy" in L and r["op"] in memory_bound:
            frac = L["u8aug"]["gb_per_s"] / L["memcpy"]["gb_per_s"]  # bytes per second against memcpy's
            cells.append(f"{100 * frac:.0f}% ({L['u8aug']['gb_per_s']:.1f} GB/s)")
        else:
            cells.append("–")
        best = max((L[p]["images_per_s"], p) for p in peers if p in L) if any(p in L for p in peers) else None
        cells.append(f"{ours / best[0]:.1f}x ({best[1]})" if ours and best else "–")
        if fast:
            quick = L.get("u8aug fast", {}).get("images_per_s")
            cells.append(f"{quick / best[0]:.1f}x ({best[1]})" if quick and best else "–")
        if fast_alone:
            quick = L.get("u8aug fast kernels alone", {}).get("images_per_s")
            cells.append(f"{quick / best[0]:.1f}x ({best[1]})" if quick and best else "–")
        if alone:
            cells.append(non_kernel_share(L))
        if decode:
            cells.append(decode_share(L))
        out.append("| " + " | ".join(cells) + " |")
    failed = [f"{r['op']} {r['shape']}, {lib}: {why}" for r in rows for lib, why in r.get("failed", {}).items()]
    out += ["", "Left out because they failed: " + "; ".join(failed)] if failed else []
    return "\n".join(out)


def decode_share(L) -> str:
    """The share of each side's time that is its JPEG decode (the per_sample_decode row): torchvision's
    decode_jpeg alone over u8aug's whole call, OpenCV's imdecode alone over albumentations'."""
    shares = [
        f"{100 * L[dec]['seconds'] / L[lib]['seconds']:.0f}%" if dec in L and lib in L else "–"
        for dec, lib in (("torchvision decode_jpeg alone", "u8aug"), ("OpenCV imdecode alone", "albumentations"))
    ]
    return " / ".join(shares)


def non_kernel_share(L) -> str:
    """The share of the pipeline's time that is not its kernels: 1 - (kernels alone) / (pipeline),
    for the eager and the compiled container (negative: the fused pass beat the kernels one by one)."""
    if "u8aug kernels alone" not in L:
        return "–"
    kernels = L["u8aug kernels alone"]["seconds"]
    shares = [
        f"{100 * (1 - kernels / L[lib]['seconds']):.0f}%" if lib in L else "–" for lib in ("u8aug", "u8aug compiled")
    ]
    return " / ".join(shares)


def ratio_chart(rows, path: str) -> None:
    if peer_defs._optional("matplotlib") is None:
        print("matplotlib not installed: no chart", file=sys.stderr)
        return
    first = single_thread_rows(rows)
    title = f"u8aug ÷ fastest peer, {first[0]['threads']} thread(s), each op's first shape" if first else ""
    save_chart(rows, path, title)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--ops", nargs="+", default=peer_defs.OPS, choices=peer_defs.OPS, metavar="OP")
    ap.add_argument("--libraries", nargs="+", default=None, choices=peer_defs.LIBRARIES, metavar="LIBRARY")
    ap.add_argument(
        "--shapes",
        nargs="+",
        type=lambda s: [int(v) for v in s.split("x")],
        default=None,
        help="BxCxHxW, e.g. 32x3x224x224",
    )
    ap.add_argument("--threads", nargs="+", type=int, default=None)
    ap.add_argument("--min-run-time", type=float, default=0.4)
    ap.add_argument("--quick", action="store_true", help="one small shape, short timings")
    ap.add_argument("--out", default=RESULTS)
    ap.add_argument("--tag", default=None, help="name of the result files (default: device and date)")
    ap.add_argument("--replot", default=None, metavar="JSON", help="only redraw the chart of a results file")
    ap.add_argument(
        "--cpu-target",
        default=None,
        metavar="TARGET",
        help="run u8aug's CPU kernels on this Highway target (AVX2, SSE4, ...; u8aug.set_cpu_target); "
        "recorded in the results as u8aug.cpu_target_chosen",
    )
    args = ap.parse_args(argv)
    if args.cpu_target:
        u8aug.set_cpu_target(args.cpu_target)
    if args.replot:
        with open(args.replot) as f:
            ratio_chart(json.load(f)["rows"], os.path.splitext(args.replot)[0] + ".png")
        return 0
    if args.quick:
        args.shapes = args.shapes or [[8, 3, 64, 64]]
        args.min_run_time = 0.05
        args.threads = args.threads or [1]
    if args.device == "cuda" and not torch.cuda.is_available():
        print("--device cuda: no CUDA device", file=sys.stderr)
        return 2

    env = environment(args.device)
    rows = run(args)
    table = summary_table(rows, peer_defs.MEMORY_BOUND)
    print(
        f"\nu8aug {env['u8aug']['version']} ({env['u8aug']['cpu_target_chosen']}), torch {env['torch']}, "
        f"kornia {env['kornia']}, {env.get('gpu', env['cpu'])}, {env['cores']} cores, {env['date']}"
    )
    print("images/s, median of blocked runs; parameter sampling inside the timing for every library\n")
    print(table)

    os.makedirs(args.out, exist_ok=True)
    tag = args.tag or f"{args.device}-{env['date'][:10]}"
    with open(os.path.join(args.out, f"{tag}.json"), "w") as f:
        json.dump({"environment": env, "rows": rows}, f, indent=1)
    with open(os.path.join(args.out, f"{tag}.md"), "w") as f:
        f.write(table + "\n")
    ratio_chart(rows, os.path.join(args.out, f"{tag}.png"))
    print(f"\nwrote {args.out}/{tag}.json, .md and .png", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
