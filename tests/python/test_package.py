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
