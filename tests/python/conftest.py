"""Shared fixtures: the FIDELITY.md oracle, test images (random and real photos), devices."""

import numpy as np
import pytest
import torch

import u8aug


def to_u8(y: torch.Tensor) -> torch.Tensor:
    """FIDELITY.md's quantizer: round half to even, clamp, uint8."""
    return (y * 255).round().clamp(0, 255).to(torch.uint8)


def oracle(kornia_fn, x: torch.Tensor, *args, **kwargs) -> torch.Tensor:
    """kornia's float32 op on x/255, eagerly on the CPU, quantized back to uint8."""
    return to_u8(kornia_fn(x.cpu().float() / 255, *args, **kwargs))


def assert_near(got, expected, what="") -> float:
    """FIDELITY.md's near class: at most 1 apart and at least 99.9% of bytes identical. Prints and
    returns the identical share."""
    diff = (got.int() - expected.int()).abs()
    identical = float((diff == 0).float().mean())
    print(f"{what}: identical {100 * identical:.4f}%, max diff {int(diff.max())}")
    assert int(diff.max()) <= 1 and identical >= 0.999, (what, identical, int(diff.max()))
    return identical


def photos():
    """Real photos shipped with scikit-image, as (C, H, W) uint8 tensors."""
    from skimage import data

    out = {}
    for name in ("astronaut", "chelsea", "coffee", "camera"):
        img = np.asarray(getattr(data, name)())
        if img.ndim == 2:
            img = img[:, :, None]
        out[name] = torch.from_numpy(np.ascontiguousarray(img)).permute(2, 0, 1).contiguous()
    return out


def random_image(shape, seed=0, device="cpu"):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 256, shape, dtype=torch.uint8, generator=g).to(device)


def cuda_ready() -> bool:
    return torch.cuda.is_available() and u8aug.build_info()["torch_ops_cuda"]


requires_cuda = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA device and u8aug built with CUDA")


# The test modules whose oracle runs through arithmetic that depends on the CPU's reference path
# (MKL's matrix products, torch's vectorized kernels: docs/fidelity.md, reference paths). CI runs
# them a second time under another path (`-m reference_path`, scripts/test.sh); compile tests are
# left out of that run (the path changes no graph).
REFERENCE_PATH_MODULES = {
    "test_jpeg",
    "test_gray",
    "test_geometry",
    "test_bicubic",
    "test_antialias",
    "test_elastic",
    "test_filters",
    "test_clahe",
    "test_color",
    "test_kornia_dropin",
    "test_fused",
    "test_recipes",
}
REFERENCE_PATH_TESTS = {"test_main_job.py::test_fidelity_demo_passes"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1]
        if module in REFERENCE_PATH_MODULES or item.nodeid.rsplit("/", 1)[-1] in REFERENCE_PATH_TESTS:
            item.add_marker(pytest.mark.reference_path)
