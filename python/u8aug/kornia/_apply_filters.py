"""The uint8 apply functions of the filter drop-ins (kornia's blur and sharpness classes): kornia's
own kernels and checks, u8aug's filter ops."""

import torch

from .. import ops
from ._apply_common import derived, fidelity
from ._apply_common import f32 as _f32


def _motion_blur(aug, x, params, flags, transform, run=ops):
    from kornia.augmentation.utils import _check_filter_min_size
    from kornia.filters import get_motion_kernel2d

    if aug._fixed_kernel_size is None:
        raise NotImplementedError(
            "u8aug.kornia.RandomMotionBlur: uint8 images need one kernel_size (an int), not a range"
        )
    k = aug._fixed_kernel_size
    border = flags["border_type"].name.lower()
    _check_filter_min_size("RandomMotionBlur", x, k, border_type=border)
    angle, direction = (_f32(params, key, x) for key in ("angle_factor", "direction_factor"))
    kernel = get_motion_kernel2d(k, angle, direction, flags["resample"].name.lower())  # kornia's own kernels
    return run.filter2d(x, kernel.to(torch.float32).contiguous(), border, fidelity(aug))


def _median_blur(aug, x, params, flags, transform, run=ops):
    from kornia.augmentation.utils import _check_filter_min_size

    _check_filter_min_size("RandomMedianBlur", x, flags["kernel_size"], border_type="reflect")
    return run.median_blur(x, flags["kernel_size"], "reflect")


def _box_blur(aug, x, params, flags, transform, run=ops):
    from kornia.augmentation.utils import _check_filter_min_size

    border = flags["border_type"].name.lower()
    _check_filter_min_size("RandomBoxBlur", x, flags["kernel_size"], border_type=border)
    # kornia's box_blur with separable = the class's `normalized` flag; pooled or convolved as kornia chooses
    return run.box_blur(x, flags["kernel_size"], border, bool(flags["normalized"]), fidelity(aug))


def _sharpness(aug, x, params, flags, transform, run=ops):
    return run.sharpness(x, _f32(params, "sharpness", x))


def _gaussian_blur(aug, x, params, flags, transform, run=ops):
    from kornia.filters import get_gaussian_kernel1d
    from kornia.filters.kernels import _check_kernel_size, _unpack_2d_ks

    if not flags["separable"]:
        raise NotImplementedError(
            "u8aug.kornia.RandomGaussianBlur: uint8 images need separable=True (kornia's default)"
        )
    # kornia's own checks first, with its messages (an even kernel size, an image too small for reflect)
    from kornia.augmentation.utils import _check_filter_min_size

    border = flags["border_type"].name.lower()
    _check_kernel_size(_unpack_2d_ks(flags["kernel_size"]), 0)
    _check_filter_min_size("RandomGaussianBlur", x, flags["kernel_size"], border_type=border)
    sigma = params["sigma"].to(device=x.device, dtype=torch.float32)
    ky, kx = _unpack_2d_ks(flags["kernel_size"])
    if sigma.device.type == "cpu":  # kornia's kernels made natively, the same floats
        kernel_x = derived(run, _gaussian_kernels, sigma, kx, aug.same_on_batch)
        kernel_y = kernel_x if ky == kx else derived(run, _gaussian_kernels, sigma, ky, aug.same_on_batch)
        return run.filter2d_separable(x, kernel_x, kernel_y, border, fidelity(aug))
    if aug.same_on_batch:
        sigma = sigma[:1]  # one kernel for the batch, as kornia builds it
    n = sigma.shape[0]
    kernel_x = get_gaussian_kernel1d(kx, sigma.view(n, 1))  # on the image's device, as kornia computes it
    kernel_y = kernel_x if ky == kx else get_gaussian_kernel1d(ky, sigma.view(n, 1))  # kornia's, computed once
    return run.filter2d_separable(x, kernel_x, kernel_y, border, fidelity(aug))


def _gaussian_kernels(sigma, size, same_on_batch):
    """kornia's get_gaussian_kernel1d(size, sigma) for each sample's sigma (the first alone with
    same_on_batch, one kernel for the batch as kornia builds it), for a float32 sigma on the CPU:
    u8aug's op, with torch's exp and sum (u8aug/kornia_draws.h), 3 us against kornia's 70."""
    return torch.ops.u8aug.gaussian_kernel1d(sigma[:1] if same_on_batch else sigma, size)
