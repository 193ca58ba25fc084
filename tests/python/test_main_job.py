"""The README's main job still runs: the fidelity demo (every op in its class on real photos) and a
quick pass of the benchmark harness (tables, JSON and chart written)."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_fidelity_demo_passes():
    result = subprocess.run(
        [sys.executable, os.path.join(ROOT, "bench", "python", "fidelity_demo.py")],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "FAILS ITS CLASS" not in result.stdout
    assert "| color_jiggle |" in result.stdout


def test_benchmark_harness_quick(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            os.path.join(ROOT, "bench", "python", "run.py"),
            "--quick",
            "--ops",
            "hflip",
            "invert",
            "--libraries",
            "u8aug",
            "kornia float",
            "OpenCV",
            "memcpy",
            "--out",
            str(tmp_path),
            "--tag",
            "smoke",
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "| hflip | 8x3x64x64 | 1 |" in result.stdout
    with open(tmp_path / "smoke.json") as f:
        rows = json.load(f)["rows"]
    assert {r["op"] for r in rows} == {"hflip", "invert"}
    assert all(lib["images_per_s"] > 0 for r in rows for lib in r["libraries"].values())
    assert (tmp_path / "smoke.png").exists() and (tmp_path / "smoke.md").exists()
