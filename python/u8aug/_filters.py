"""The filters (kornia.filters on ``img / 255``, quantized): separable and 2-D correlations with
kornia's kernels, the box, the median. Part of :mod:`u8aug.ops` (re-exported there)."""

import sys

import torch

from ._params import samples

__all__ = [
    "filter2d_separable",
    "gaussian_blur2d",
    "filter2d",
    "median_blur",
    "box_blur",
    "box_blur_pooled",
    "box_blur_pools",
    "integer_box",
    "sharpness",
    "motion_blur",
]


def _pair(kernel_size, op: str):
    if isinstance(kernel_size, int):
        return int(kernel_size), int(kernel_size)
    if len(kernel_size) != 2:
        raise ValueError(f"u8aug.{op}: expected kernel_size = an int or (height, width), got {kernel_size!r}")
    return int(kernel_size[0]), int(kernel_size[1])


def filter2d_separable(
    img: torch.Tensor,
    kernel_x: torch.Tensor,
    kernel_y: torch.Tensor,
    border_type: str = "reflect",
    fidelity: str = "exact",
) -> torch.Tensor:
    """``kornia.filters.filter2d_separable`` on ``img / 255``, quantized: a horizontal pass with
    ``kernel_x``, then a vertical one with ``kernel_y`` (float32, (1, K) or (B, K): one kernel for the
    batch or one per sample; any K, an even one anchored at (K - 1) // 2 as kornia's), over the border ``"constant"`` (zeros), ``"reflect"``,
    ``"replicate"`` or ``"circular"``. Each output is the float32 sum of its taps accumulated from the
    first tap with one fused multiply-add each, the order torch's CPU convolution takes, so the bytes
    are kornia's (fidelity: exact).

    ``fidelity="fast"`` drops the taps below 2^-118 (a 23-tap Gaussian's tails for sigma under about
    1.2), whose products x86 computes in microcode at a tenth of the speed; they can change a byte
    only by breaking a rounding tie (the fast class: README, Fidelity)."""
    return torch.ops.u8aug.filter2d_separable(img, kernel_x, kernel_y, border_type, fidelity)


def gaussian_kernels(op: str, kernel_size, sigma, device):
    """kornia's (kernel_x, kernel_y) of ``gaussian_blur2d(input, kernel_size, sigma)``: float32 (N, K)
    rows from ``kornia.filters.get_gaussian_kernel1d`` of sigma (sigma_y, sigma_x), or a (N, 2) tensor."""
    from kornia.filters import get_gaussian_kernel1d

    ky, kx = (kernel_size, kernel_size) if isinstance(kernel_size, int) else kernel_size
    if not isinstance(sigma, torch.Tensor):  # numbers are checked as numbers: no read of a tensor under compile
        if not (float(sigma[0]) > 0 and float(sigma[1]) > 0):
            raise ValueError(f"u8aug.{op}: sigma must be positive, got {tuple(sigma)}")
        sigma = torch.tensor([[float(sigma[0]), float(sigma[1])]], dtype=torch.float32)
    elif sigma.dim() != 2 or sigma.shape[1] != 2:
        raise ValueError(f"u8aug.{op}: sigma must be (sigma_y, sigma_x) or of shape (B, 2), got {tuple(sigma.shape)}")
    elif not bool((sigma > 0).all()):
        raise ValueError(f"u8aug.{op}: sigma must be positive")
    sigma = sigma.to(device=device, dtype=torch.float32)
    n = sigma.shape[0]
    kernel_x = get_gaussian_kernel1d(int(kx), sigma[:, 1].view(n, 1))
    kernel_y = get_gaussian_kernel1d(int(ky), sigma[:, 0].view(n, 1))
    return kernel_x.contiguous(), kernel_y.contiguous()


def gaussian_blur2d(
    img: torch.Tensor, kernel_size, sigma, border_type: str = "reflect", fidelity: str = "exact"
) -> torch.Tensor:
    """``kornia.filters.gaussian_blur2d`` (separable): ``kernel_size`` an odd int or (kH, kW),
    ``sigma`` (sigma_y, sigma_x) or a float32 (1, 2) or (B, 2) tensor, positive. The kernels are
    kornia's own (``kornia.filters.get_gaussian_kernel1d``: this function needs kornia installed)."""
    kernel_x, kernel_y = gaussian_kernels("gaussian_blur2d", kernel_size, sigma, img.device)
    return torch.ops.u8aug.filter2d_separable(img, kernel_x, kernel_y, border_type, fidelity)


def filter2d(
    img: torch.Tensor, kernel: torch.Tensor, border_type: str = "reflect", fidelity: str = "exact"
) -> torch.Tensor:
    """``kornia.filters.filter2d`` (correlation, same size) on ``img / 255``, quantized: ``kernel``
    float32 (1, kh, kw) or (B, kh, kw), any sizes (kornia's anchor); the borders of :func:`filter2d_separable`. The taps
    are fused in row-major order from the top-left, as torch's CPU convolution sums them (fidelity:
    exact); ``fidelity="fast"`` drops taps below 2^-118 (see :func:`filter2d_separable`)."""
    return torch.ops.u8aug.filter2d(img, kernel, border_type, fidelity)


def median_blur(img: torch.Tensor, kernel_size, border_type: str = "reflect") -> torch.Tensor:
    """``kornia.filters.median_blur``: the median of each ``kernel_size = (kh, kw)`` window (an int for
    a square one; odd sizes, at most 15 x 15 values), over the borders of :func:`filter2d_separable`.
    A median is one of the window's values, so the bytes are kornia's exactly."""
    ks = [int(kernel_size), int(kernel_size)] if isinstance(kernel_size, int) else [int(k) for k in kernel_size]
    return torch.ops.u8aug.median_blur(img, ks, border_type)


def box_blur_pooled(img: torch.Tensor, kernel_size, border_type: str = "reflect", separable: bool = True):
    """kornia's pooled box blur (``kornia.filters.blur._box_blur_pool``, torch's ``avg_pool2d``): each
    ``kernel_size = (kh, kw)`` window's values summed in order, then divided by the window's size;
    ``separable``: a (1, kw) pass then a (kh, 1) pass, else one 2-D pass. Any sizes (an even extent
    reaches one further right and down: kornia's anchor), the borders of :func:`filter2d_separable`.
    Exact against kornia's pooled path; odd windows of 3 to 81 values (:func:`integer_box`) sum the
    bytes in integers, whose rounded mean is kornia's pooled and convolved result alike."""
    ky, kx = _pair(kernel_size, "box_blur_pooled")
    return torch.ops.u8aug.box_blur_pooled(img, [ky, kx], border_type, bool(separable))


# kornia 0.9's kornia.filters.blur._box_blur_pool_eligible, eager: with oneDNN (every CPU build of
# torch) it pools from this many elements and windows up to 15 (separable) or 5 (2-D), and convolves
# otherwise; without oneDNN, and on CUDA, it always pools. u8aug takes the CPU rule on every device so
# CPU and CUDA give one result (tests/python/test_filters.py checks the rule against kornia's).
_POOL_FROM_ELEMENTS = 1 << 22
_HAS_ONEDNN = torch.backends.mkldnn.is_available()  # read once: torch.compile does not trace it


# pixel/filter.h's kMaxIntegerBox: the largest odd window u8aug's box sums in integers
_MAX_INTEGER_BOX = 81


def integer_box(ky: int, kx: int) -> bool:
    """Whether a ``ky x kx`` box runs in integers (:func:`box_blur_pooled`): an odd count of 3 to 81
    values, whose rounded integer mean is kornia's float result in every order (pixel/filter.h)."""
    count = ky * kx
    return count % 2 == 1 and 3 <= count <= _MAX_INTEGER_BOX


def box_blur_pools(img: torch.Tensor, kernel_size, separable: bool = True) -> bool:
    """Whether kornia's ``box_blur`` on this image's float32 version pools (summed, then divided) or
    convolves with its 1/k taps (each tap a fused multiply-add): eager kornia on the CPU."""
    ky, kx = _pair(kernel_size, "box_blur")
    if not _HAS_ONEDNN:
        return True
    return img.numel() >= _POOL_FROM_ELEMENTS and max(ky, kx) <= (15 if separable else 5)


def box_blur_on(
    run, img: torch.Tensor, kernel_size, border_type: str = "reflect", separable: bool = True, fidelity: str = "exact"
):
    """:func:`box_blur` with the ops of ``run`` (u8aug.ops, or a fused pipeline's planner)."""
    from kornia.filters import get_box_kernel1d, get_box_kernel2d

    ky, kx = _pair(kernel_size, "box_blur")
    if fidelity not in ("exact", "fast"):
        raise ValueError(f"u8aug.box_blur: fidelity must be 'exact' or 'fast', got {fidelity!r}")
    if ky < 1 or kx < 1:  # before kornia's 1/k kernels are built
        raise ValueError(f"u8aug.box_blur: kernel_size must be at least 1 x 1, got {ky} x {kx}")
    # windows of an odd count up to 81 values: box_blur_pooled sums them in integers, whose bytes are
    # kornia's whichever order kornia takes (pooled or convolved; pixel/filter.h's integer_box), so
    # both tiers take it. An even window's mean falls on a rounding tie for about one pixel in 16,
    # where kornia's float sum lands on either side: its order is followed (the fast tier too).
    if integer_box(ky, kx):
        return run.box_blur_pooled(img, [ky, kx], border_type, separable)
    if box_blur_pools(img, (ky, kx), separable):
        return run.box_blur_pooled(img, [ky, kx], border_type, separable)
    if separable:
        return run.filter2d_separable(img, get_box_kernel1d(kx), get_box_kernel1d(ky), border_type)
    return run.filter2d(img, get_box_kernel2d((ky, kx)).to(torch.float32), border_type)


def box_blur(
    img: torch.Tensor, kernel_size, border_type: str = "reflect", separable: bool = True, fidelity: str = "exact"
) -> torch.Tensor:
    """``kornia.filters.box_blur``: the mean of each ``kernel_size`` window (an int or (kh, kw), any
    size; an even extent reaches one further right and down, kornia's anchor), over the borders of
    :func:`filter2d_separable`. kornia computes it two ways, and so does this function, choosing as
    kornia's eager CPU path does (:func:`box_blur_pools`): pooled (the window summed, then divided:
    :func:`box_blur_pooled`) for batches of 2^22 elements and more, else a convolution with kornia's
    1/k kernels (:func:`filter2d_separable`, :func:`filter2d`). Exact against eager kornia on the CPU;
    kornia on CUDA always pools (the two orders differ only where a window's mean falls on a
    rounding tie: even windows). Windows of an odd count of 3 to 81 values (:func:`integer_box`)
    sum in integers, exact in both orders, so ``fidelity="fast"`` (accepted for the fast-tier
    classes) gives the exact bytes too. Needs kornia installed (its kernels)."""
    return box_blur_on(sys.modules["u8aug.ops"], img, kernel_size, border_type, separable, fidelity)


def sharpness(img: torch.Tensor, factor) -> torch.Tensor:
    """``kornia.enhance.sharpness``: inside the one-pixel border, kornia's 3x3 smoothing kernel
    ([[1, 1, 1], [1, 5, 1], [1, 1, 1]] / 13) clamped, then blended with the pixel,
    ``clamp(d + (x - d) * factor, 0, 1)``: 0 gives the smoothed image, 1 the input, above 1 sharpens.
    ``factor``: a number or a float32 tensor of 1 or B values; images of at least 3 x 3. The taps are
    summed as torch's convolution sums them, so the bytes are kornia's (fidelity: exact)."""
    return torch.ops.u8aug.sharpness(img, samples(factor, img))


def motion_blur(
    img: torch.Tensor, kernel_size: int, angle, direction, border_type: str = "reflect", mode: str = "nearest"
) -> torch.Tensor:
    """``kornia.filters.motion_blur``: kornia's own motion kernels (``get_motion_kernel2d``: an odd
    ``kernel_size``, ``angle`` in degrees and ``direction`` in [-1, 1], numbers or (B,) tensors, the
    kernel rotated with ``mode`` "nearest" or "bilinear") through :func:`filter2d`, so the bytes are
    kornia's. Needs kornia installed (its kernels)."""
    from kornia.filters import get_motion_kernel2d

    if isinstance(angle, torch.Tensor) and not isinstance(direction, torch.Tensor):
        direction = torch.as_tensor(direction, device=angle.device, dtype=angle.dtype)
    elif isinstance(direction, torch.Tensor) and not isinstance(angle, torch.Tensor):
        angle = torch.as_tensor(angle, device=direction.device, dtype=direction.dtype)
    angle = torch.as_tensor(angle, dtype=torch.float32)
    direction = torch.as_tensor(direction, dtype=torch.float32)
    kernel = get_motion_kernel2d(int(kernel_size), angle, direction, mode)
    return torch.ops.u8aug.filter2d(
        img, kernel.to(device=img.device, dtype=torch.float32).contiguous(), border_type, "exact"
    )
