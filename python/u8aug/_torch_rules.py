"""The internal float32 choices of the running torch that u8aug's byte-exactness depends on,
measured once when u8aug loads.

One build of u8aug serves every torch from 2.11 on (the stable ABI), and torch versions differ in
how their CPU kernels round: the oracle is kornia's float path on the torch that is running
(FIDELITY.md), so u8aug asks that torch rather than assuming a version's rule.

- ``generic_bilinear_fuses_index``: torch's generic CPU bilinear interpolate kernel (the one a
  1-channel image resized to more than 128 rows + columns takes) computes the align_corners=False
  source index ``scale * (d + 0.5) - 0.5`` as one fused multiply-add on torch 2.11 and rounds after
  the multiply on torch 2.15. A row of alternating 0s and 1s resized from 41 to 200 columns puts
  each output's weight of the right-hand tap in its value, which tells the two apart.
- ``bicubic_reflection_chains``: torch's bicubic CPU grid_sample sums a row's four taps as
  ``(fma(v0, w0, v1 * w1) + v2 * w2) + v3 * w3``, except that on torch 2.11 its reflection-padding
  copy of the kernel was compiled into one chain ``fma(v3, w3, fma(v2, w2, fma(v1, w1, v0 * w0)))``
  (pixel/cubic.h). A one-row image sampled at whole row coordinates shows the row sum alone: one-hot
  rows give torch's four weights, a row of bytes then tells the two orders apart.
"""

import warnings

import torch

_PROBE_IN, _PROBE_OUT = 41, 200


def _expected(fused: bool) -> torch.Tensor:
    """torch's output for the probe row under either index rule, computed op by op in float32
    (each torch op rounds once; float64 gives the one rounding of a fused multiply-add, the product
    and the sum being exact in float64 at these sizes)."""
    scale = torch.tensor(_PROBE_IN, dtype=torch.float32) / torch.tensor(_PROBE_OUT, dtype=torch.float32)
    centre = torch.arange(_PROBE_OUT, dtype=torch.float32) + 0.5
    if fused:
        r = (scale.double() * centre.double() - 0.5).float()
    else:
        r = scale * centre - 0.5
    r = r.clamp_min(0.0)
    i0 = r.floor().clamp_max(_PROBE_IN - 1)
    l1 = (r - i0).clamp(0.0, 1.0)
    l0 = 1.0 - l1
    v0 = (i0.long() % 2).float()
    v1 = ((i0.long() + 1).clamp_max(_PROBE_IN - 1) % 2).float()
    # fma(v0, l0, v1 * l1) with v0, v1 in {0, 1}: exact either way
    return v0 * l0 + v1 * l1


def _torch_output() -> torch.Tensor:
    row = (torch.arange(_PROBE_IN) % 2).to(torch.float32).reshape(1, 1, 1, _PROBE_IN)
    with torch.no_grad():
        out = torch.nn.functional.interpolate(row, size=(1, _PROBE_OUT), mode="bilinear", align_corners=False)
    return out.reshape(-1)


def _fma(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    return (a.double() * b.double() + c.double()).float()


def _bicubic_reflection_chains() -> bool:
    width = 12
    # 64 grid points whose four taps lie inside the row (so reflection never moves them)
    x = torch.linspace(-0.55, 0.55, 64, dtype=torch.float32).reshape(1, 1, 64, 1)
    grid = torch.cat([x, torch.zeros_like(x)], -1)  # y = 0: the one row, weights (0, 1, 0, 0) down

    def sample(rows: torch.Tensor) -> torch.Tensor:
        out = torch.nn.functional.grid_sample(
            rows.reshape(-1, 1, 1, width),
            grid.expand(rows.shape[0], -1, -1, -1),
            mode="bicubic",
            padding_mode="reflection",
            align_corners=True,
        )
        return out.reshape(rows.shape[0], -1)

    with torch.no_grad():
        taps = ((x.reshape(-1) + 1.0) * ((width - 1) / 2.0)).floor().long()
        weights = sample(torch.eye(width))  # weights[k, p]: tap column k's weight at point p
        w = torch.stack([weights[taps + k - 1, torch.arange(64)] for k in range(4)])
        row = (torch.arange(width, dtype=torch.float32) * 89 % 256) / 255.0
        v = torch.stack([row[taps + k - 1] for k in range(4)])
        got = sample(row[None])[0]
    chain = _fma(v[3], w[3], _fma(v[2], w[2], _fma(v[1], w[1], v[0] * w[0])))
    pair = _fma(v[0], w[0], v[1] * w[1])
    adds = (pair + v[2] * w[2]) + v[3] * w[3]
    assert not torch.equal(chain, adds), "the probe must tell the two orders apart"
    if torch.equal(got, chain):
        return True
    if torch.equal(got, adds):
        return False
    if torch.backends.cpu.get_cpu_capability() == "DEFAULT":
        return False  # torch's scalar kernels: no fused multiply-add at all (see scalar_path_warning)
    raise ImportError(
        f"u8aug: torch {torch.__version__}'s bicubic grid_sample sums its taps in an order u8aug does not "
        "know; u8aug's bicubic warps would not be byte-exact with kornia on this torch. Please report it "
        "with this torch version."
    )


# What docs/fidelity.md measured with ATEN_CPU_CAPABILITY=default on torch 2.11 (the fidelity demo's
# photos): these ops' oracle moves there, since torch's scalar kernels sum without fused
# multiply-adds and compute transcendentals with libm rather than Sleef.
SCALAR_PATH_OPS = (
    "rgb_to_grayscale, grayscale, warp_affine, warp_perspective, resize, crop_and_resize, resize_list, "
    "resize_antialias, grid_sample, elastic_transform, filter2d_separable, clahe, snow and the pipeline"
)


def scalar_path_warning() -> None:
    """Warns when torch runs its scalar CPU kernels (capability DEFAULT: a CPU without AVX2, or
    ATEN_CPU_CAPABILITY=default): u8aug reproduces torch's vectorized kernels (AVX2, AVX512), and on
    the scalar ones kornia's float result differs at rounding ties."""
    capability = torch.backends.cpu.get_cpu_capability()
    if capability == "DEFAULT":
        warnings.warn(
            f"u8aug: torch {torch.__version__} runs its scalar CPU kernels (capability {capability}); u8aug "
            "reproduces kornia's float path as torch's vectorized kernels (AVX2, AVX512) compute it. Here "
            f"{SCALAR_PATH_OPS} differ from kornia at rounding ties (99.98% or more identical on photos, "
            "warp_affine up to 29 apart on 0.002% of bytes: docs/fidelity.md, reference paths)",
            stacklevel=3,
        )


def measure() -> dict:
    """What the running torch does, as the keyword arguments of ``_C._set_torch_rules``."""
    got = _torch_output()
    fused, plain = _expected(True), _expected(False)
    assert not torch.equal(fused, plain), "the probe must tell the two rules apart"
    chains = _bicubic_reflection_chains()
    if torch.equal(got, fused):
        return {"generic_bilinear_fuses_index": True, "bicubic_reflection_chains": chains}
    if torch.equal(got, plain):
        return {"generic_bilinear_fuses_index": False, "bicubic_reflection_chains": chains}
    raise ImportError(
        f"u8aug: torch {torch.__version__}'s CPU bilinear interpolate matches neither index rule u8aug "
        "knows (fused as on torch 2.11, rounded after the multiply as on 2.15); u8aug's resize would "
        "not be byte-exact with kornia on this torch. Please report it with this torch version."
    )
