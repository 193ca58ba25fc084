"""The geometric ops (kornia.geometry on ``img / 255``, quantized): warps, resizes, crops, pads,
quarter turns and sampling at a given grid. Part of :mod:`u8aug.ops` (re-exported there)."""

from typing import Optional

import torch

__all__ = [
    "warp_affine",
    "warp_perspective",
    "resize",
    "resize_antialias",
    "antialias_kernels",
    "crop_and_resize",
    "resize_list",
    "crop",
    "center_crop",
    "pad",
    "rot90",
    "grid_sample",
    "elastic_transform",
    "elastic_transform2d",
]


def _batched_matrix(M: torch.Tensor) -> torch.Tensor:
    if M.dim() == 2:
        M = M[None]
    return M if M.dtype == torch.float32 else M.float()


def _fill(fill, img: torch.Tensor) -> Optional[torch.Tensor]:
    if fill is None or isinstance(fill, torch.Tensor):
        return fill
    return torch.tensor(fill, dtype=torch.float32, device=img.device).reshape(-1)


def warp_affine(
    img: torch.Tensor,
    M: torch.Tensor,
    dsize,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool = True,
    fill=None,
    fidelity: str = "exact",
) -> torch.Tensor:
    """Warp by per-sample 2x3 pixel matrices ``M`` (source pixels -> destination pixels; (B, 2, 3),
    (1, 2, 3) or (2, 3)) into a ``dsize = (h, w)`` output: ``kornia.geometry.transform.warp_affine``
    as it is in the pinned kornia, including its normalisation and closed-form inverse, followed by
    torch's CPU ``grid_sample``. ``mode``: ``"bilinear"``, ``"nearest"`` or ``"bicubic"``; ``padding_mode``:
    ``"zeros"``, ``"border"``, ``"reflection"`` or ``"fill"`` (``fill``: 1 or C values in kornia's
    float units, i.e. a fraction of 255).

    ``fidelity``: ``"exact"`` (default: kornia's bytes) or ``"fast"``, the opt-in fast class (every
    byte at most 1 from the exact tier's, at least 95% identical, no drift; docs/fast-tier.md):
    bilinear samples blended in 16-bit fixed point, except where the matrix puts the samples on a
    coarse dyadic grid (half pixels, quarter turns), where the exact arithmetic runs.
    """
    return torch.ops.u8aug.warp_affine(
        img, _batched_matrix(M), list(dsize), mode, padding_mode, align_corners, _fill(fill, img), fidelity
    )


def warp_perspective(
    img: torch.Tensor,
    M: torch.Tensor,
    dsize,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool = True,
    fill=None,
    fidelity: str = "exact",
) -> torch.Tensor:
    """Warp by per-sample 3x3 pixel homographies: ``kornia.geometry.transform.warp_perspective``
    (arguments as :func:`warp_affine`)."""
    return torch.ops.u8aug.warp_perspective(
        img, _batched_matrix(M), list(dsize), mode, padding_mode, align_corners, _fill(fill, img), fidelity
    )


def resize(
    img: torch.Tensor, size, mode: str = "bilinear", align_corners: Optional[bool] = None, fidelity: str = "exact"
) -> torch.Tensor:
    """Resize to ``size = (h, w)``: ``kornia.geometry.transform.resize`` (``F.interpolate``) with
    ``interpolation`` ``"bilinear"``, ``"bicubic"``, ``"nearest"`` or ``"nearest-exact"`` and no
    antialias (kornia's ``antialias=True`` is :func:`resize_antialias` where an axis shrinks).
    ``align_corners=None`` means False, as torch takes it. Every mode is exact by default (torch's
    float32 arithmetic, kornia's bytes). ``fidelity="fast"`` runs bilinear and bicubic in fixed
    point on 16-bit lanes (the fast class: every byte within 1 of the exact tier, at least 95%
    identical, no drift); nearest modes are copies in both tiers."""
    return torch.ops.u8aug.resize(img, list(size), mode, bool(align_corners), fidelity)


def antialias_kernels(in_size, out_size, device=None):
    """kornia's resize(antialias=True) Gaussian for an (H, W) image shrunk to (h, w), as
    (kernel_x, kernel_y) float32 (1, K) rows: sigma ``max((factor - 1) / 2, 0.001)`` per axis, an odd
    size of at least 3 near 4 sigma, one tap on an axis of one pixel (kornia's rule; its
    ``get_gaussian_kernel1d``, so this needs kornia installed)."""
    from ._filters import gaussian_kernels

    (h, w), (oh, ow) = (int(v) for v in in_size), (int(v) for v in out_size)
    sigmas = (max((h / oh - 1.0) / 2.0, 0.001), max((w / ow - 1.0) / 2.0, 0.001))
    ks = [int(max(2.0 * 2 * s, 3)) for s in sigmas]
    ks = [k if k % 2 else k + 1 for k in ks]
    return gaussian_kernels("resize", (1 if h == 1 else ks[0], 1 if w == 1 else ks[1]), sigmas, device)


def resize_antialias(
    img: torch.Tensor, size, kernel_x: torch.Tensor, kernel_y: torch.Tensor, mode: str = "bilinear",
    align_corners: bool = False,
) -> torch.Tensor:  # fmt: skip
    """What kornia's ``resize(img, size, mode, antialias=True)`` runs where it shrinks:
    ``gaussian_blur2d`` with the float32 (1, K) or (B, K) kernels ``kernel_x`` and ``kernel_y``
    over the reflect border, kept in float32 (kornia does not quantize between its blur and its
    resize), then resized to ``size = (h, w)`` by ``mode`` (as :func:`resize`) and quantized once.
    Exact (kornia's bytes). kornia's own kernels for a shrink are :func:`antialias_kernels`:
    ``resize_antialias(img, size, *antialias_kernels(img.shape[-2:], size, img.device))`` is
    kornia's ``resize(img / 255, size, antialias=True)``, quantized (u8aug.kornia's Resize runs it)."""
    return torch.ops.u8aug.resize_antialias(img, list(size), kernel_x, kernel_y, mode, bool(align_corners))


def crop_and_resize(
    img: torch.Tensor,
    boxes: torch.Tensor,
    size,
    mode: str = "bilinear",
    align_corners: bool = True,
    fidelity: str = "exact",
) -> torch.Tensor:
    """kornia's ``crop_by_indices``, what RandomResizedCrop and RandomCrop run: sample b's box
    ``boxes[b]`` (4 corners (x, y) clockwise from top-left, float32, inside the image; cast to int
    as kornia does) is sliced out and resized to ``size = (h, w)`` (copied when it already has that
    size). ``fidelity``: as :func:`resize`."""
    return torch.ops.u8aug.crop_and_resize(img, boxes.float(), list(size), mode, align_corners, fidelity)


def resize_list(
    imgs,
    boxes: Optional[torch.Tensor],
    size,
    mode: str = "bilinear",
    align_corners: bool = False,
    fidelity: str = "exact",
) -> torch.Tensor:
    """A ragged batch made one: ``imgs`` is a list of uint8 (C, H_i, W_i) images of any sizes (the
    same C, on one device); with ``boxes=None`` each is resized to ``size = (h, w)``, otherwise
    its box ``boxes[i]`` ((B, 4, 2), as :func:`crop_and_resize`) is cropped and resized, into one (B, C, h, w) batch in one
    call. Sample i has the bytes :func:`resize` (or :func:`crop_and_resize`) gives ``imgs[i]``
    alone. The output is channels_last when every image is (an HWC array viewed as CHW), otherwise
    contiguous. ``fidelity``: as :func:`resize`."""
    if isinstance(imgs, torch.Tensor) or len(imgs) == 0:
        raise ValueError("u8aug.resize_list: expected a non-empty list of (C, H, W) uint8 images")
    boxes = None if boxes is None else boxes.float()
    return torch.ops.u8aug.resize_list(list(imgs), boxes, list(size), mode, bool(align_corners), fidelity)


def crop(img: torch.Tensor, top: int, left: int, height: int, width: int) -> torch.Tensor:
    """The same window of every sample, copied (a contiguous tensor in the input's memory format)."""
    H, W = img.shape[-2], img.shape[-1]
    if not (0 <= top and 0 <= left and height >= 1 and width >= 1 and top + height <= H and left + width <= W):
        raise ValueError(f"u8aug.crop: window top={top}, left={left}, {height}x{width} is not inside the {H}x{W} image")
    window = img[..., top : top + height, left : left + width]
    return window.contiguous(memory_format=torch.channels_last) if _channels_last(img) else window.contiguous()


def center_crop(img: torch.Tensor, size) -> torch.Tensor:
    """The centred ``size = (h, w)`` window, as kornia's CenterCrop slices it (top = (H - h) // 2)."""
    h, w = size
    return crop(img, (img.shape[-2] - h) // 2, (img.shape[-1] - w) // 2, h, w)


def _channels_last(img: torch.Tensor) -> bool:
    from u8aug._fake import output_is_channels_last

    return img.dim() == 4 and output_is_channels_last(img)


def pad(img: torch.Tensor, padding, mode: str = "constant", value: int = 0) -> torch.Tensor:
    """Pad by ``padding = (left, right, top, bottom)``: ``torch.nn.functional.pad`` with mode
    ``"constant"`` (``value`` a byte), ``"reflect"`` or ``"replicate"``."""
    return torch.ops.u8aug.pad(img, list(padding), mode, int(value))


def rot90(img: torch.Tensor, k: int = 1) -> torch.Tensor:
    """``k`` quarter turns counter-clockwise: ``torch.rot90(img, k, (-2, -1))``."""
    return torch.ops.u8aug.rot90(img, int(k))


def grid_sample(
    img: torch.Tensor,
    grid: torch.Tensor,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool = False,
) -> torch.Tensor:
    """``torch.nn.functional.grid_sample(img / 255, grid, mode, padding_mode, align_corners)``,
    quantized: ``grid`` float32 (B, H', W', 2) or (1, H', W', 2) for the whole batch, (x, y) in
    [-1, 1], any strides; the output is (B, C, H', W'). ``mode`` "bilinear", "nearest" or "bicubic",
    ``padding_mode`` "zeros", "border" or "reflection". Each output is grid_sample's own float32
    arithmetic (its unnormalisation, padding and the fused sum of the four corners, as the warps
    compute them), so the bytes are torch's (fidelity: exact)."""
    return torch.ops.u8aug.grid_sample(img, grid, mode, padding_mode, bool(align_corners))


def elastic_transform(
    img: torch.Tensor,
    noise: torch.Tensor,
    kernel_x: torch.Tensor,
    kernel_y: torch.Tensor,
    alpha: torch.Tensor,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool = False,
) -> torch.Tensor:
    """kornia's ``elastic_transform2d`` on ``img / 255``, quantized, given its kernels: ``noise``
    float32 (B, 2, H, W) or (1, 2, H, W) (plane 0 the x, plane 1 the y displacement), smoothed by the
    float32 (1, K) kernels ``kernel_x`` (along W) and ``kernel_y`` (along H) with zero padding as
    ``filter2d_separable`` does, times ``alpha`` (float32 (2,): x, y), added to the identity grid,
    then :func:`grid_sample` there. Every step is torch's float32 arithmetic (the convolutions' own
    chain of fused multiply-adds per output), so the grid and the bytes are kornia's (fidelity:
    exact)."""
    return torch.ops.u8aug.elastic_transform(
        img, noise, kernel_x, kernel_y, alpha, mode, padding_mode, bool(align_corners)
    )


def elastic_transform2d(
    img: torch.Tensor,
    noise: torch.Tensor,
    kernel_size=(63, 63),
    sigma=(32.0, 32.0),
    alpha=(1.0, 1.0),
    align_corners: bool = False,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
) -> torch.Tensor:
    """``kornia.geometry.transform.elastic_transform2d`` with its signature: ``kernel_size`` (kH, kW),
    ``sigma`` (y, x) and ``alpha`` (x, y) as numbers or tensors; the kernels are kornia's own
    (``kornia.filters.get_gaussian_kernel1d``: this function needs kornia installed), the rest is
    :func:`elastic_transform`."""
    from kornia.filters import get_gaussian_kernel1d

    f32 = dict(device=img.device, dtype=torch.float32)
    sigma = sigma.to(**f32).expand(2)[None, ...] if isinstance(sigma, torch.Tensor) else torch.tensor([sigma], **f32)
    kernel_x = get_gaussian_kernel1d(int(kernel_size[1]), sigma[:, 1, None], **f32)
    kernel_y = get_gaussian_kernel1d(int(kernel_size[0]), sigma[:, 0, None], **f32)
    alpha = alpha.to(**f32).reshape(2) if isinstance(alpha, torch.Tensor) else torch.tensor(alpha, **f32)
    return elastic_transform(img, noise, kernel_x, kernel_y, alpha, mode, padding_mode, align_corners)
