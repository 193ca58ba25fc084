"""The README's main job still runs: the fidelity demo (every op in its class on real photos) and a
quick pass of the benchmark harness (tables, JSON and chart written)."""

import json
import os
import subprocess
import sys

import pytest

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
    assert "[2/2 rows done" in result.stderr  # the progress line
    with open(tmp_path / "smoke.json") as f:
        rows = json.load(f)["rows"]
    assert {r["op"] for r in rows} == {"hflip", "invert"}
    assert all(lib["images_per_s"] > 0 for r in rows for lib in r["libraries"].values())
    assert (tmp_path / "smoke.png").exists() and (tmp_path / "smoke.md").exists()


def _quick_row(tmp_path, op, *arguments):
    """A quick benchmark run of one op: its output, and its row of the table."""
    result = subprocess.run(
        [sys.executable, os.path.join(ROOT, "bench", "python", "run.py"), "--quick", "--ops", op, *arguments,
         "--out", str(tmp_path), "--tag", "q"],
        capture_output=True,
        text=True,
        timeout=900,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout, next(line for line in result.stdout.splitlines() if line.startswith(f"| {op} |"))


def test_benchmark_pipeline_row_prints_its_non_kernel_share(tmp_path):
    out, row = _quick_row(tmp_path, "pipeline", "--libraries", "u8aug", "u8aug kernels alone", "albumentations")
    assert "non-kernel share (eager / compiled)" in out
    assert row.rstrip(" |").endswith("/ –") and "% / –" in row


def test_picture_grid(tmp_path):
    out = tmp_path / "pictures.png"
    results = tmp_path / "r.json"
    rows = [
        {"op": "hflip", "threads": 1, "libraries": {"u8aug": {"images_per_s": 4.0}, "OpenCV": {"images_per_s": 2.0}}}
    ]
    results.write_text(json.dumps({"rows": rows}))
    result = subprocess.run(
        [sys.executable, os.path.join(ROOT, "bench", "python", "picture_grid.py"), "--out", str(out), "--results", str(results)],
        capture_output=True,
        text=True,
        timeout=900,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "standard: max diff" in result.stderr and out.stat().st_size > 10000


def test_main_job_runs_to_the_end_when_a_fidelity_row_fails(tmp_path):
    # scripts/main_job.sh with a stand-in Python whose fidelity demo fails: the benchmark and the
    # picture still run, and the job's exit status is the demo's
    calls = tmp_path / "calls"
    fake = tmp_path / "python"
    fake.write_text(
        f'#!/usr/bin/env bash\necho "$(basename "$1") ${{*:2}}" >> {calls}\n'
        '[[ $(basename "$1") == fidelity_demo.py ]] && exit 3\nexit 0\n'
    )
    fake.chmod(0o755)
    result = subprocess.run(
        ["bash", os.path.join(ROOT, "scripts", "main_job.sh"), "--ops", "hflip"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHON": str(fake)},
    )
    assert result.returncode == 3, result.stdout + result.stderr
    assert calls.read_text().splitlines() == ["fidelity_demo.py ", "run.py --ops hflip", "picture_grid.py "]
    assert "the fidelity demo failed (exit 3)" in result.stderr


def test_benchmark_per_sample_decode_row_reports_decodes_share(tmp_path):
    out, row = _quick_row(tmp_path, "per_sample_decode")
    assert "decode's share (u8aug / albumentations)" in out
    # the decodes alone are references, not peers: the fastest peer is albumentations
    assert "(albumentations)" in row and row.rstrip(" |").count("%") == 2


def test_a_failing_peer_is_left_out_and_said_but_a_failing_u8aug_column_raises(monkeypatch):
    monkeypatch.syspath_prepend(os.path.join(ROOT, "bench", "python"))
    import run

    def boom():
        raise RuntimeError("C++ compile error\nmore lines")

    row = {"op": "clahe", "shape": "8x3x64x64", "threads": 1, "libraries": {}}
    assert run.peer_attempt(row, "kornia float compiled", boom) is None
    assert row["failed"] == {"kornia float compiled": "RuntimeError: C++ compile error"}
    assert "Left out because they failed: clahe 8x3x64x64, kornia float compiled" in run.summary_table([row], set())
    with pytest.raises(RuntimeError, match="compile error"):
        run.peer_attempt(row, "u8aug compiled", boom)
    assert run.peer_attempt(row, "albumentations", lambda: 7) == 7
