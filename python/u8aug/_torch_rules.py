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
"""

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


def measure() -> dict:
    """What the running torch does, as the keyword arguments of ``_C._set_torch_rules``."""
    got = _torch_output()
    fused, plain = _expected(True), _expected(False)
    assert not torch.equal(fused, plain), "the probe must tell the two rules apart"
    if torch.equal(got, fused):
        return {"generic_bilinear_fuses_index": True}
    if torch.equal(got, plain):
        return {"generic_bilinear_fuses_index": False}
    raise ImportError(
        f"u8aug: torch {torch.__version__}'s CPU bilinear interpolate matches neither index rule u8aug "
        "knows (fused as on torch 2.11, rounded after the multiply as on 2.15); u8aug's resize would "
        "not be byte-exact with kornia on this torch. Please report it with this torch version."
    )
