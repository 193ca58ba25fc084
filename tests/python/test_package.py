"""The package itself: build_info, the op catalogue's coverage, and the import error."""

import importlib.metadata
import os
import shutil
import subprocess
import sys

import pytest
import torch

import u8aug
from u8aug import _torch_rules


def test_build_info():
    info = u8aug.build_info()
    assert info["version"] == importlib.metadata.version("u8aug") == u8aug.__version__
    assert info["cpu_target_chosen"] in info["cpu_targets_supported"]
    assert set(info["cpu_targets_supported"]) <= set(info["cpu_targets_compiled"])
    # one build serves every torch from the oldest it targets on (the stable ABI)
    version = lambda v: tuple(int(p) for p in v.split("+")[0].split(".")[:2])  # noqa: E731
    assert version(info["torch_oldest_supported"]) <= version(info["torch_built_against"]) <= version(torch.__version__)
    assert info["torch_rules"] == _torch_rules.measure()
    assert isinstance(info["cuda"], bool)
    if info["cuda"]:
        assert info["cuda_architectures"]


def test_cuda_architectures_cover_torchs():
    """The CUDA kernels carry machine code for every architecture the torch they were built
    against was built for, and PTX for the newest, so later GPUs JIT (CMakeLists.txt reads
    torch._C._cuda_getArchFlags() at build time)."""
    info = u8aug.build_info()
    if not info["cuda"]:
        pytest.skip("this u8aug was built without CUDA (no nvcc)")
    built = info["cuda_architectures"].split(",")
    real = {int(a.split("-")[0]) for a in built if a.endswith("-real")}
    virtual = [int(a.split("-")[0]) for a in built if a.endswith("-virtual")]
    assert virtual == [max(real)], built
    if info["torch_built_against"].split("+")[0] == torch.__version__.split("+")[0] and torch.version.cuda:
        # nvcc 13.0 targets every architecture of torch 2.11's CUDA 13.0 build
        torch_archs = {int(f.removeprefix("sm_")) for f in torch._C._cuda_getArchFlags().split()}
        assert torch_archs and torch_archs <= real, (torch_archs, built)
    # the generations torch 2.11's CUDA 13.0 build serves: Turing to Blackwell
    assert {75, 80, 86, 90, 100, 120} <= real, built


def test_torch_rules_known_versions():
    """What u8aug measured of the torch versions CI runs (README, torch versions)."""
    fuses = u8aug.build_info()["torch_rules"]["generic_bilinear_fuses_index"]
    known = {(2, 11): True, (2, 15): False}
    version = tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2])
    if version in known:
        assert fuses == known[version]


def test_import_error_names_the_cause(tmp_path):
    """A package whose compiled module cannot load says so, and why, at import."""
    pkg = os.path.dirname(u8aug.__file__)
    shutil.copytree(pkg, tmp_path / "u8aug", ignore=shutil.ignore_patterns("_C*", "__pycache__"))
    result = subprocess.run(
        [sys.executable, "-c", "import u8aug"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert result.returncode != 0
    assert "u8aug could not load its compiled module u8aug._C" in result.stderr
    assert "operator does not exist" not in result.stderr


def test_cpu_target_switch_runs_every_supported_target_with_the_same_bytes():
    info = u8aug.build_info()
    x = torch.randint(0, 256, (3, 3, 37, 53), dtype=torch.uint8)
    factor = torch.tensor([0.5, 1.2, 0.0])
    expected = (u8aug.hflip(x), u8aug.adjust_contrast(x, factor), u8aug.resize(x, (20, 90)))
    try:
        for name in info["cpu_targets_supported"]:
            assert u8aug.set_cpu_target(name) == name
            now = u8aug.build_info()
            assert now["cpu_target_chosen"] == name and now["cpu_target_requested"] == name
            got = (u8aug.hflip(x), u8aug.adjust_contrast(x, factor), u8aug.resize(x, (20, 90)))
            assert all(torch.equal(a, b) for a, b in zip(got, expected)), name
        with pytest.raises(ValueError, match="is not a target this CPU supports.*" + info["cpu_targets_supported"][0]):
            u8aug.set_cpu_target("NOT_A_TARGET")
        with pytest.raises(TypeError, match="expected a target name"):
            u8aug.set_cpu_target(2)
    finally:
        assert u8aug.set_cpu_target("auto") == info["cpu_target_chosen"]
    assert u8aug.build_info()["cpu_target_requested"] == "auto"


def test_cpu_target_environment_variable(tmp_path):
    script = "import u8aug; print(u8aug.build_info()['cpu_target_chosen'])"
    run = lambda value: subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,  # noqa: E731
        env={**os.environ, "U8AUG_CPU_TARGET": value},
    )
    lowest = u8aug.build_info()["cpu_targets_supported"][-1]
    ok = run(lowest.lower())
    assert ok.returncode == 0 and ok.stdout.strip() == lowest, ok.stderr
    bad = run("AVX9000")
    assert bad.returncode != 0 and "U8AUG_CPU_TARGET='AVX9000'" in bad.stderr and "is not a target" in bad.stderr


MISSING_CUDA_BACKEND = """
import sys, torch
import u8aug
from op_samples import SAMPLES

info = u8aug.build_info()
assert not info["torch_ops_cuda"], info
print("cuda_backend:", info["cuda_backend"])
x = torch.randint(0, 256, (2, 3, 21, 30), dtype=torch.uint8)
for layout in (x, x.contiguous(memory_format=torch.channels_last)):
    for name, sample in SAMPLES.items():
        getattr(torch.ops.u8aug, name)(*sample(layout))
print("ran", len(SAMPLES), "ops")
if torch.version.cuda is not None:
    # the CUDA kernel every op has now: an error that says why (called with a CPU tensor by
    # redispatching to the CUDA key, as no CUDA tensor may exist here)
    keys = torch._C.DispatchKeySet(torch._C.DispatchKey.CUDA)
    try:
        torch.ops.u8aug.hflip.default.redispatch(keys, x)
    except RuntimeError as e:
        print("cuda error:", e)
"""


def test_every_cpu_op_runs_without_the_cuda_backend(tmp_path):
    """u8aug's core needs no CUDA library: with the CUDA backend (u8aug._C_cuda) absent, as on a torch
    without CUDA or where it cannot load, u8aug imports, says why in build_info, runs every CPU op,
    and a CUDA tensor would meet an error naming the cause."""
    pkg = os.path.dirname(u8aug.__file__)
    shutil.copytree(pkg, tmp_path / "u8aug", ignore=shutil.ignore_patterns("_C_cuda*", "__pycache__"))
    assert list((tmp_path / "u8aug").glob("_C.*")) and not list((tmp_path / "u8aug").glob("_C_cuda*"))
    tests = os.path.dirname(os.path.abspath(__file__))
    result = subprocess.run(
        [sys.executable, "-c", MISSING_CUDA_BACKEND],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{tests}"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    from op_samples import SAMPLES

    assert f"ran {len(SAMPLES)} ops" in result.stdout
    if torch.version.cuda is None:
        assert f"cuda_backend: torch {torch.__version__} was built without CUDA" in result.stdout
    else:
        assert "cuda_backend: ModuleNotFoundError: No module named 'u8aug._C_cuda'" in result.stdout
        assert (
            "cuda error: u8aug.hflip: got a CUDA tensor, but u8aug's CUDA backend (u8aug._C_cuda) could not be loaded"
            in result.stdout
        )


def test_the_core_module_needs_no_cuda_library():
    """`readelf -d` on u8aug._C lists no CUDA library (the CUDA runtime, libtorch_cuda, the driver):
    the core loads on a torch built without CUDA."""
    core = [p for p in os.listdir(os.path.dirname(u8aug.__file__)) if p.startswith("_C.") and p.endswith(".so")]
    assert len(core) == 1, core
    dynamic = subprocess.run(
        ["readelf", "-d", os.path.join(os.path.dirname(u8aug.__file__), core[0])],
        capture_output=True,
        text=True,
        check=True,
    )
    needed = [line.split("[")[1].rstrip("]") for line in dynamic.stdout.splitlines() if "(NEEDED)" in line]
    assert "libtorch_cpu.so" in needed, needed
    assert not [n for n in needed if "cuda" in n or "cudart" in n or n.startswith("libnv")], needed
