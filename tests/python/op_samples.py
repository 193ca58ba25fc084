"""One table of sample inputs per catalogued op (extension-cpp's ``sample_inputs``): what
test_catalogue.py feeds to opcheck, to the compile == eager check and to the bad-input checks of
every op. A new op adds its catalogue line (kernels/include/u8aug/ops.def) and one entry here;
test_catalogue.py fails until both exist.

Each entry maps an image ``x`` (uint8, (B, C, H, W) or (C, H, W), C = 3, on any device) to the op's
full argument tuple. ``IMAGE_ARGUMENT`` names the argument that is the image where it is not ``img``.
"""

import math

import torch

import u8aug


def _per_sample(x, *values):
    """One float32 tensor of B values per given value (B = 1 for a 3-D image), on x's device."""
    b = x.shape[0] if x.dim() == 4 else 1
    return tuple(torch.full((b,), float(v), device=x.device) for v in values)


def _per_channel(x, *values):
    return tuple(torch.full((x.shape[-3],), float(v), device=x.device) for v in values)


def _matrices(x, rows):
    b = x.shape[0] if x.dim() == 4 else 1
    angle = torch.linspace(0.2, 2.9, b)
    m = torch.zeros(b, 3, 3)
    m[:, 0, 0], m[:, 0, 1], m[:, 0, 2] = torch.cos(angle) * 1.1, -torch.sin(angle), 0.7
    m[:, 1, 0], m[:, 1, 1], m[:, 1, 2] = torch.sin(angle), torch.cos(angle) * 0.9, -0.4
    m[:, 2, 0], m[:, 2, 1], m[:, 2, 2] = 0.01, -0.02, 1.0
    return m[:, :rows].contiguous().to(x.device)


def _boxes(x):
    b = x.shape[0] if x.dim() == 4 else 1
    box = torch.tensor([[1.0, 1.0], [3.0, 1.0], [3.0, 4.0], [1.0, 4.0]])
    return box.expand(b, 4, 2).contiguous().to(x.device)


def _jiggle(x):
    order = torch.tensor([3, 0, 2, 1], device=x.device)
    return (x, *_per_sample(x, 1.1, 0.9, 1.2, 0.05), order)


SAMPLES = {
    "hflip": lambda x: (x,),
    "vflip": lambda x: (x,),
    "adjust_brightness": lambda x: (x, *_per_sample(x, 0.2)),
    "adjust_brightness_accumulative": lambda x: (x, *_per_sample(x, 1.3)),
    "adjust_contrast": lambda x: (x, *_per_sample(x, 0.7)),
    "adjust_contrast_with_mean": lambda x: (x, *_per_sample(x, 0.7, 0.4)),
    "image_mean": lambda x: (x,),
    "adjust_gamma": lambda x: (x, *_per_sample(x, 1.5, 0.8)),
    "solarize": lambda x: (x, *_per_sample(x, 0.5, 0.1)),
    "posterize": lambda x: (x, *_per_sample(x, 3)),
    "invert": lambda x: (x,),
    "normalize": lambda x: (x, *_per_channel(x, 0.45, 0.22)),
    "to_float": lambda x: (x,),
    "rgb_to_grayscale": lambda x: (x,),
    "grayscale": lambda x: (x,),
    "adjust_saturation": lambda x: (x, *_per_sample(x, 0.6)),
    "adjust_hue": lambda x: (x, *_per_sample(x, math.pi / 5)),
    "color_jiggle": _jiggle,
    "equalize": lambda x: (x,),
    "color_jitter": _jiggle,
    "select_samples": lambda x: (
        torch.arange(x.shape[0] if x.dim() == 4 else 1, device=x.device) % 2 == 0,
        x,
        torch.flip(x, (-1,)),
    ),
    "warp_affine": lambda x: (x, _matrices(x, 2), [6, 4], "bicubic", "reflection", False, None),
    "warp_perspective": lambda x: (
        x,
        _matrices(x, 3),
        [3, 8],
        "nearest",
        "fill",
        True,
        torch.rand(x.shape[-3], device=x.device),
    ),
    "resize": lambda x: (x, [9, 4], "bicubic", False),
    "crop_and_resize": lambda x: (x, _boxes(x), [5, 5], "bilinear", True),
    "resize_list": lambda x: (as_image_argument("resize_list", x), _boxes(x), [5, 6], "bilinear", True),
    "resize_antialias": lambda x: (
        x,
        [2, 3],
        torch.tensor([[0.25, 0.5, 0.25]], device=x.device),
        torch.tensor([[0.2, 0.6, 0.2]], device=x.device),
        "bilinear",
        False,
    ),
    "grid_sample": lambda x: (
        x,
        torch.linspace(-1.2, 1.1, 4 * 6 * 2, device=x.device).view(1, 4, 6, 2).flip(-1),
        "bilinear",
        "reflection",
        True,
    ),
    "elastic_transform": lambda x: (
        x,
        torch.linspace(-3.0, 2.5, 2 * x.shape[-2] * x.shape[-1], device=x.device).view(1, 2, *x.shape[-2:]),
        torch.tensor([[0.25, 0.5, 0.25]], device=x.device),
        torch.tensor([[0.1, 0.2, 0.4, 0.2, 0.1]], device=x.device),
        torch.tensor([0.3, 0.2], device=x.device),
        "bilinear",
        "border",
        False,
    ),
    "pad": lambda x: (x, [1, 2, 3, 0], "reflect", 0),
    "rot90": lambda x: (x, 3),
    "filter2d_separable": lambda x: (x, _kernels(x, 3, True), _kernels(x, 5, False), "reflect"),
    "filter2d": lambda x: (x, _kernels(x, 9, True).view(-1, 3, 3), "replicate"),
    "median_blur": lambda x: (x, [3, 5], "reflect"),
    "box_blur_pooled": lambda x: (x, [2, 3], "replicate", True),
    "auto_contrast": lambda x: (x,),
    "erase_boxes": lambda x: (
        x,
        torch.tensor([[1.0, 0.5, 3.0, 2.2]], device=x.device),
        torch.linspace(0.0, 1.0, x.shape[0] if x.dim() == 4 else 1, device=x.device),
    ),
    "mix_up": lambda x: (
        x,
        torch.arange(x.shape[0] if x.dim() == 4 else 1, device=x.device).flip(0),
        torch.linspace(0.0, 1.0, x.shape[0] if x.dim() == 4 else 1, device=x.device),
    ),
    "paste_boxes": lambda x: (
        x,
        torch.arange(x.shape[0] if x.dim() == 4 else 1, device=x.device).flip(0).repeat(2, 1),
        torch.tensor([[1.0, 0.0, 3.0, 2.0], [0.0, 1.0, 1.0, 5.0]], device=x.device)[:, None]
        .expand(2, x.shape[0] if x.dim() == 4 else 1, 4)
        .contiguous(),
    ),
    "add_offset": lambda x: (x, torch.linspace(-0.5, 0.5, x.numel(), device=x.device).view(x.shape)),
    "rain": lambda x: _rain(x),
    # a 2 x 2 grid fits every image the tables use (3 x 3 and up)
    "clahe": lambda x: (x, torch.linspace(0.0, 40.0, _batch(x), device=x.device), [2, 2]),
    "jpeg": lambda x: (x, u8aug.jpeg_tables(torch.linspace(5.0, 95.0, _batch(x))).to(x.device)),
    "snow": lambda x: (
        x,
        torch.linspace(0.2, 0.8, _batch(x), device=x.device),
        torch.linspace(1.0, 3.0, _batch(x), device=x.device),
    ),
    "plasma_brightness": lambda x: (x, _plasma(x), torch.linspace(0.0, 1.0, _batch(x), device=x.device)),
    "plasma_contrast": lambda x: (x, _plasma(x)),
    "plasma_shadow": lambda x: (
        x,
        _plasma(x)[..., :1, :, :],
        torch.linspace(-1.0, 0.0, _batch(x), device=x.device),
        torch.linspace(0.2, 0.8, _batch(x), device=x.device),
    ),
    "sharpness": lambda x: (x, torch.linspace(0.0, 2.0, x.shape[0] if x.dim() == 4 else 1, device=x.device)),
    "pipeline": lambda x: _pipeline(x),
}


def _batch(x):
    return x.shape[0] if x.dim() == 4 else 1


def _rain(x):
    # drops of one to three pixels down and across, inside every image the tables use (3 x 3 and up)
    b = _batch(x)
    coordinates = torch.linspace(0.0, 0.999, b * 5 * 2, device=x.device).view(b, 5, 2)
    drops = torch.arange(b, device=x.device) % 5 + 1
    heights = torch.arange(b, device=x.device) % 2 + 1
    widths = torch.arange(b, device=x.device) % 3 - 1
    return x, coordinates, drops, heights, widths


def _plasma(x):
    # a map in [0, 1] of x's shape, as kornia's diamond_square gives
    return torch.linspace(0.0, 1.0, x.numel(), device=x.device).view(x.shape).flip(-1)


def _kernels(x, taps, per_sample):
    """Normalised Gaussian-like kernels: one per sample (B, taps), or one for the batch (1, taps)."""
    b = (x.shape[0] if x.dim() == 4 else 1) if per_sample else 1
    w = torch.exp(-((torch.arange(taps) - taps // 2).float() ** 2) / 2)[None] * torch.linspace(1.0, 1.5, b)[:, None]
    return (w / w.sum(1, keepdim=True)).to(x.device)


def _pipeline(x):
    b = x.shape[0] if x.dim() == 4 else 1
    every = torch.empty(0, dtype=torch.bool, device=x.device)
    odd = torch.arange(b, device=x.device) % 2 == 1
    steps = [
        "crop_and_resize 4 5 bilinear 1 exact",
        "hflip",
        "adjust_brightness",
        "warp_affine 4 5 bilinear zeros 1 exact",
        "grayscale",
    ]
    tensors = [
        _boxes(x),
        every,
        odd,
        *_per_sample(x, 0.2),
        every,
        _matrices(x, 2),
        torch.empty(0, device=x.device),
        odd,
    ]
    return (x, steps, tensors)


IMAGE_ARGUMENT = {"select_samples": "b", "resize_list": "imgs"}
LIST_IMAGE_OPS = {"resize_list"}  # their image argument is a list of (C, H, W) images


def as_image_argument(name, image):
    """What an op takes as its image argument for this image: the image, or for a list op the
    samples of a 4-D image (the image alone, in a list, where it has no samples or is not 4-D)."""
    if name in LIST_IMAGE_OPS:
        return list(image.unbind(0)) if image.dim() == 4 and image.shape[0] > 0 else [image]
    return image


def image_name_in_errors(name):
    """How an op's errors name its (first) image."""
    return "imgs[0]" if name in LIST_IMAGE_OPS else IMAGE_ARGUMENT.get(name, "img")


def sample_images(device="cpu"):
    """The images every op is sampled on: contiguous, channels_last, and 3-D (an HWC tensor viewed
    as CHW)."""
    g = torch.Generator().manual_seed(3)
    x = torch.randint(0, 256, (2, 3, 5, 7), dtype=torch.uint8, generator=g)
    hwc = torch.randint(0, 256, (6, 9, 3), dtype=torch.uint8, generator=g)
    return {
        "contiguous": x.to(device),
        "channels_last": x.contiguous(memory_format=torch.channels_last).to(device),
        "3d": hwc.permute(2, 0, 1).to(device),
    }
