"""The wheel, as a user gets it: `pip wheel --no-build-isolation .` built from this checkout against
the running torch, installed into a fresh virtual environment, and used from there; the portable
wheel scripts/setup.sh makes (build/dist) installed the same way, with no libhwy anywhere; and a
plain `pip install .` (build isolation on) stopping with a message that says what to run."""

import os
import site
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from pathlib import Path

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SMOKE = textwrap.dedent(
    """
    import sys, torch, u8aug
    assert u8aug.__file__.startswith(sys.prefix), (u8aug.__file__, sys.prefix)
    info = u8aug.build_info()
    x = torch.randint(0, 256, (2, 3, 17, 9), dtype=torch.uint8)
    assert torch.equal(u8aug.hflip(x), x.flip(-1))
    pipeline = torch.compile(lambda x: u8aug.vflip(u8aug.hflip(x)), fullgraph=True)
    assert torch.equal(pipeline(x), x.flip(-1).flip(-2))
    try:
        u8aug.hflip(x.float())
    except RuntimeError as e:
        assert "u8aug.hflip: expected img of dtype torch.uint8" in str(e), e
    else:
        raise AssertionError("a float image was accepted")
    print("smoke ok", torch.__version__, info["cpu_target_chosen"])
    """
)


def fresh_venv_with(tmp_path, wheel):
    """A fresh environment whose torch is this interpreter's (a .pth file after its own
    site-packages; `venv --system-site-packages` would see the base interpreter's instead), and
    whose u8aug comes only from `wheel`. Returns its python."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    own = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    with open(os.path.join(own, "running_torch.pth"), "w") as f:
        f.write("\n".join(site.getsitepackages()) + "\n")
    subprocess.run(
        [
            python,
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            "--no-deps",
            "--no-index",
            "--ignore-installed",
            str(wheel),
        ],
        check=True,
    )
    return python


def test_wheel_builds_installs_into_a_fresh_venv_and_runs(tmp_path):
    torch_version = torch.__version__.split("+")[0]
    # a build folder per torch version (the CI lanes build against two), two levels under the
    # checkout like setup.sh's wheel and build/cpp: ccache keys objects by their path relative to the
    # build folder, so the kernels compiled there are this build's too (only the bindings differ)
    build_dir = os.path.join(ROOT, "build", f"wheel-torch{torch_version}-{{wheel_tag}}")
    dist = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--disable-pip-version-check",
            "--no-build-isolation",
            "--no-deps",
            ROOT,
            "-w",
            str(dist),
            f"--config-settings=build-dir={build_dir}",
            # one CUDA architecture: this test is about building against this torch's headers; the
            # architecture list is the release wheel's (test_portable_wheel_*, test_package.py)
            "--config-settings=cmake.define.U8AUG_CUDA_ARCHITECTURES=ours",
        ],
        check=True,
    )
    wheels = list(dist.glob("u8aug-*.whl"))
    assert len(wheels) == 1, wheels

    python = fresh_venv_with(tmp_path, wheels[0])
    built_here = SMOKE + 'assert info["torch_built_against"].split("+")[0] == torch.__version__.split("+")[0], info\n'
    result = subprocess.run([python, "-c", built_here], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "smoke ok" in result.stdout


# What the portable wheel's modules may need at run time: the C and C++ runtimes and torch's CPU
# libraries; the CUDA backend also libtorch_cuda and the CUDA runtime torch brings; nothing else
# (no libhwy).
ALLOWED_NEEDED = ("libc.so", "libm.so", "libstdc++.so", "libgcc_s.so", "ld-linux", "libtorch_cpu.so", "libc10.so")
ALLOWED_NEEDED_CUDA = (*ALLOWED_NEEDED, "libtorch_cuda.so", "libc10_cuda.so", "libcudart.so")

PORTABLE_SMOKE = SMOKE + textwrap.dedent(
    """
    assert info["highway_runtime"] == "static", info
    # built against the pinned torch, loaded by whichever torch this lane runs (the stable ABI)
    oldest = tuple(int(p) for p in info["torch_oldest_supported"].split("."))
    assert oldest <= tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2]), info
    maps = open("/proc/self/maps").read()
    assert "libhwy" not in maps, [line for line in maps.splitlines() if "libhwy" in line]
    print("no libhwy mapped")
    """
)


def test_portable_wheel_needs_no_libhwy_and_has_a_manylinux_tag(tmp_path):
    """scripts/setup.sh's wheel (build/dist), as a stranger installs it: a manylinux tag that
    `auditwheel show` confirms, a module that names no library but the allowed ones, and a fresh
    environment where it imports and runs with no libhwy mapped into the process."""
    wheels = sorted(Path(ROOT, "build", "dist").glob("u8aug-*.whl"))
    assert len(wheels) == 1, f"scripts/setup.sh makes one wheel in build/dist, found {wheels}"
    wheel = wheels[0]
    assert "-manylinux_" in wheel.name, wheel.name
    shown = subprocess.run([sys.executable, "-m", "auditwheel", "show", str(wheel)], capture_output=True, text=True)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    tag = wheel.name.split("-")[-1].removesuffix(".whl")
    assert f'"{tag}"' in " ".join(shown.stdout.split()), shown.stdout

    with zipfile.ZipFile(wheel) as z:
        modules = sorted(n for n in z.namelist() if n.startswith("u8aug/_C") and n.endswith(".so"))
        # the core, and the CUDA backend wherever the torch it was built against has CUDA
        assert len(modules) == (2 if torch.version.cuda else 1), z.namelist()
        for module in modules:
            z.extract(module, tmp_path)
    for module in modules:
        dynamic = subprocess.run(["readelf", "-d", str(tmp_path / module)], capture_output=True, text=True, check=True)
        needed = [line.split("[")[1].rstrip("]") for line in dynamic.stdout.splitlines() if "(NEEDED)" in line]
        allowed = ALLOWED_NEEDED_CUDA if "/_C_cuda." in module else ALLOWED_NEEDED
        assert needed and not [n for n in needed if not n.startswith(allowed)], (module, needed)

    python = fresh_venv_with(tmp_path, wheel)
    result = subprocess.run([python, "-c", PORTABLE_SMOKE], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "smoke ok" in result.stdout and "no libhwy mapped" in result.stdout


def test_pip_install_with_build_isolation_says_what_to_run(tmp_path):
    """`pip install .` as users type it: pip's isolated build has no torch, and the build stops
    at once with a message naming `--no-build-isolation` (it does not build half an extension)."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--disable-pip-version-check",
            "--no-deps",
            ROOT,
            "-w",
            str(tmp_path / "dist"),
            f"--config-settings=build-dir={tmp_path / 'build'}",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode != 0, result.stdout
    message = " ".join((result.stdout + result.stderr).split())
    assert "with --no-build-isolation" in message and "install torch>=2.11 first" in message, message[-3000:]
    assert "install torch>=2.11 first" in message, message[-3000:]
    assert not list((tmp_path / "dist").glob("*.whl"))


def test_sdist_holds_the_sources_and_installs_the_way_users_type_it(tmp_path):
    """The source distribution (scikit-build-core's build_sdist, what `python -m build --sdist`
    calls) holds everything a build needs, and `pip install u8aug-*.tar.gz` (build isolation on)
    stops with the same message as `pip install .`."""
    built = subprocess.run(
        [
            sys.executable,
            "-c",
            f"from scikit_build_core.build import build_sdist; print(build_sdist({str(tmp_path)!r}))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    sdist = tmp_path / built.stdout.strip().splitlines()[-1]
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for needed in (
        "CMakeLists.txt",
        "pyproject.toml",
        "cmake/highway_static.cmake",
        "cmake/cuda_architectures.cmake",
        "kernels/include/u8aug/ops.def",
        "cpu/resize.cc",
        "cuda/resize.cu",
        "bindings/torch_ops.cpp",
        "python/u8aug/__init__.py",
    ):
        assert needed in names, needed
    assert not [n for n in names if n.startswith("build/")], "the sdist carries build outputs"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--disable-pip-version-check", "--no-deps", str(sdist),
         "-w", str(tmp_path / "dist")],
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    assert result.returncode != 0
    message = " ".join((result.stdout + result.stderr).split())
    assert "with --no-build-isolation" in message and "install torch>=2.11 first" in message, message[-3000:]
