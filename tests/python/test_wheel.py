"""The wheel, as a user gets it: `pip wheel --no-build-isolation .` built from this checkout against
the running torch, installed into a fresh virtual environment, and used from there."""

import os
import site
import subprocess
import sys
import textwrap

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SMOKE = textwrap.dedent(
    """
    import sys, torch, u8aug
    assert u8aug.__file__.startswith(sys.prefix), (u8aug.__file__, sys.prefix)
    info = u8aug.build_info()
    assert info["torch_built_against"].split("+")[0] == torch.__version__.split("+")[0], info
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


def test_wheel_builds_installs_into_a_fresh_venv_and_runs(tmp_path):
    torch_version = torch.__version__.split("+")[0]
    # a build folder per torch version: the CI lanes build against two
    build_dir = os.path.join(ROOT, "build", f"wheel-torch{torch_version}", "{wheel_tag}")
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
        ],
        check=True,
    )
    wheels = list(dist.glob("u8aug-*.whl"))
    assert len(wheels) == 1, wheels

    # A fresh environment whose torch is this interpreter's (a .pth file after its own site-packages;
    # `venv --system-site-packages` would see the base interpreter's instead), and whose u8aug
    # comes only from the wheel.
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
            str(wheels[0]),
        ],
        check=True,
    )
    result = subprocess.run([python, "-c", SMOKE], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "smoke ok" in result.stdout
