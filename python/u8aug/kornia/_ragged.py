"""Ragged batches: a list of uint8 (C, H_i, W_i) images of different sizes (what a DataLoader's
decoded images are) through a size-setting drop-in (RandomResizedCrop, Resize, CenterCrop), or an
AugmentationSequential that starts with one, into one (B, C, h, w) batch in one u8aug call
(``u8aug.resize_list``); the rest of the container then runs on that batch as on any other.

The rule for the draws: sample i gets the parameters kornia draws for sample i of a batch whose
images all have image i's size, under the same seed. The random numbers are drawn once for the
list, as kornia draws them for a batch; what depends on the size (RandomResizedCrop's areas, which
candidate fits, the crop's position) uses image i's own. So sample i of the output equals row i of
kornia's float class run on B copies of image i, and a list of images of one size gives exactly
what the stacked batch gives.
"""

import weakref

import torch
from kornia.augmentation.utils import _adapted_rsampling, _truncate_to_start
from kornia.augmentation.utils.helpers import _constant_tensor
from kornia.core.utils import _extract_device_dtype
from kornia.geometry.bbox import bbox_generator

from .. import ops
from ._apply_common import fidelity
from ._apply_geometry import _resample, _slice_mode

# the classes that take a list: the ones whose output size does not depend on the input's
RAGGED_CLASSES = ("RandomResizedCrop", "Resize", "CenterCrop")


def is_image_list(x) -> bool:
    return isinstance(x, (list, tuple)) and len(x) > 0 and all(isinstance(t, torch.Tensor) for t in x)


def _check_images(name, images):
    first = images[0]
    for i, img in enumerate(images):
        if img.dtype != torch.uint8 or img.dim() != 3:
            raise ValueError(
                f"u8aug.kornia.{name}: a list input must hold uint8 (C, H, W) images; image {i} is "
                f"{img.dtype} of shape {tuple(img.shape)}"
            )
        if img.shape[0] != first.shape[0] or img.device != first.device:
            raise ValueError(
                f"u8aug.kornia.{name}: the images of a list need one channel count and device; image {i} has "
                f"{img.shape[0]} channels on {img.device}, image 0 {first.shape[0]} on {first.device}"
            )


def _sizes(images):
    return torch.tensor([tuple(img.shape[-2:]) for img in images], dtype=torch.float32)


def _resized_crop_params(aug, sizes):
    """RandomResizedCrop's draws for images of the given (H, W) sizes (B, 2): kornia's generator
    (ten candidate areas and log ratios a sample, the first that fits, torchvision's fallback,
    then the position), each size-dependent step with the sample's own size."""
    gen = aug._param_generator
    device, dtype = _extract_device_dtype([gen.scale, gen.ratio])
    b, same = sizes.shape[0], aug.same_on_batch
    h_in, w_in = (sizes[:, i : i + 1].to(device=device, dtype=dtype) for i in (0, 1))
    rand = _adapted_rsampling((b, 10), gen.rand_sampler, same).to(device=device, dtype=dtype)
    scale = torch.as_tensor(gen.scale).to(device=device, dtype=dtype)
    area = (rand * (scale[1] - scale[0]) + scale[0]) * h_in * w_in
    log_ratio = _adapted_rsampling((b, 10), gen.log_ratio_sampler, same).to(device=device, dtype=dtype)
    aspect = torch.exp(log_ratio)
    w = torch.sqrt(area * aspect).round().floor()
    h = torch.sqrt(area / aspect).round().floor()
    fits = ((0 < w) * (w <= w_in) * (0 < h) * (h <= h_in)).int()
    found, first = ((fits.cumsum(1) == 1) & fits.bool()).int().max(1)
    rows = torch.arange(b, device=device)
    h_out, w_out = h[rows, first], w[rows, first]
    # where no candidate fits: the whole image, its width or its height at the nearest ratio
    lo, hi = (float(r) for r in torch.as_tensor(gen.ratio).aminmax())
    h_in, w_in = h_in[:, 0], w_in[:, 0]
    in_ratio = w_in.double() / h_in.double()
    narrow, wide = in_ratio < lo, in_ratio > hi
    h_whole = torch.where(narrow, torch.round(w_in / lo), h_in).floor()
    w_whole = torch.where(wide, torch.round(h_in * hi), w_in).floor()
    h_out = torch.clamp(torch.where(found.bool(), h_out, h_whole), torch.ones_like(h_in), h_in)
    w_out = torch.clamp(torch.where(found.bool(), w_out, w_whole), torch.ones_like(w_in), w_in)
    x_diff = (w_in - w_out + 1).clamp(0)
    y_diff = (h_in - h_out + 1).clamp(0)
    x_start = _truncate_to_start(_adapted_rsampling((b,), gen.rand_sampler, same), x_diff)
    y_start = _truncate_to_start(_adapted_rsampling((b,), gen.rand_sampler, same), y_diff)
    src = bbox_generator(
        x_start.view(-1).to(device=device, dtype=dtype), y_start.view(-1).to(device=device, dtype=dtype), w_out, h_out
    )
    oh, ow = gen.resize_to
    dst = _constant_tensor([[[0, 0], [ow - 1, 0], [ow - 1, oh - 1], [0, oh - 1]]], device=device, dtype=dtype)
    return {
        "src": src,
        "dst": dst.repeat(b, 1, 1),
        "input_size": sizes.to(device=device, dtype=torch.long),
        "output_size": _constant_tensor(gen.resize_to, device=device, dtype=torch.long).expand(b, -1),
    }


def _params_by_size(aug, images):
    """kornia's own draw-free parameters (Resize, CenterCrop), one generator call per distinct size."""
    c = images[0].shape[0]
    by_size = {}
    for img in images:
        hw = tuple(img.shape[-2:])
        if hw not in by_size:
            by_size[hw] = aug.generate_parameters(torch.Size((1, c, *hw)))
    per_image = [by_size[tuple(img.shape[-2:])] for img in images]
    return {k: torch.cat([p[k] for p in per_image]) for k in per_image[0] if isinstance(per_image[0][k], torch.Tensor)}


def _resized_crop(aug, images, params, flags):
    _slice_mode("RandomResizedCrop", flags)
    mode = _resample("RandomResizedCrop", flags)
    mode = "nearest-exact" if mode == "nearest" else mode
    align = bool(flags["align_corners"]) and mode != "nearest-exact"
    size = (int(flags["size"][0]), int(flags["size"][1]))
    boxes = params["src"].to(device=images[0].device, dtype=torch.float32)
    return ops.resize_list(images, boxes, size, mode, align, fidelity=fidelity(aug))


def _resize(aug, images, params, flags):
    mode = _resample("Resize", flags)
    if not isinstance(flags["size"], (tuple, list)):
        raise ValueError(
            "u8aug.kornia.Resize: an int size gives each image of a list its own output size; a list needs "
            "Resize((h, w))"
        )
    size = (int(flags["size"][0]), int(flags["size"][1]))
    mode = "nearest-exact" if mode == "nearest" else mode
    align = bool(flags["align_corners"]) and mode != "nearest-exact"
    if flags["antialias"] and any(img.shape[-2] > size[0] or img.shape[-1] > size[1] for img in images):
        # kornia's Gaussian pre-blur where an axis shrinks: image by image
        def one(img):
            if img.shape[-2] > size[0] or img.shape[-1] > size[1]:
                kx, ky = ops.antialias_kernels(img.shape[-2:], size, img.device)
                return ops.resize_antialias(img[None], size, kx, ky, mode, align)[0]
            return ops.resize(img[None], size, mode, align)[0]

        return torch.stack([one(img) for img in images])
    return ops.resize_list(images, None, size, mode, align, fidelity=fidelity(aug))


def _center_crop(aug, images, params, flags):
    _slice_mode("CenterCrop", flags)
    size = (int(flags["size"][0]), int(flags["size"][1]))
    boxes = params["src"].to(device=images[0].device, dtype=torch.float32)
    return ops.resize_list(images, boxes, size, "bilinear", False)


_RUN = {"RandomResizedCrop": _resized_crop, "Resize": _resize, "CenterCrop": _center_crop}


def forward(aug, images, params=None, **kwargs):
    """A size-setting class's forward on a list of images: the (B, C, h, w) uint8 batch."""
    name = type(aug).__name__
    _check_images(name, images)
    if not (aug.p == 1.0 and aug.p_batch == 1.0):
        raise ValueError(
            f"u8aug.kornia.{name}: a list of images needs p=1.0 and p_batch=1.0 (a sample left alone would keep "
            "its own size, and a batch has one)"
        )
    if params is None:
        if name == "RandomResizedCrop":
            params = _resized_crop_params(aug, _sizes(images))
        else:
            params = _params_by_size(aug, images)
        params["batch_prob"] = torch.ones(len(images), device=aug.device, dtype=aug.dtype)
    params, flags = aug._process_kwargs_to_params_and_flags(params, aug.flags, **kwargs)
    aug._params = params
    return _RUN[name](aug, images, params, flags)


_REST = weakref.WeakKeyDictionary()  # container -> (its children, the container of all but the first)


def sequential(container, images, params=None, data_keys=None):
    """AugmentationSequential on a list: its first class (a size-setting one) makes the batch, the
    rest run on it as one container (fused where they fuse)."""
    from kornia.augmentation.container.params import ParamItem
    from kornia.constants import DataKey

    keys = container.data_keys if data_keys is None else [DataKey.get(k) for k in data_keys]
    children = list(container.named_children())
    if params is not None or container.random_apply or list(keys) != [DataKey.INPUT]:
        raise NotImplementedError(
            "u8aug.kornia.AugmentationSequential: a list of images runs with data_keys=['input'], without "
            "random_apply and without given params"
        )
    if not children or type(children[0][1]).__name__ not in RAGGED_CLASSES:
        raise ValueError(
            "u8aug.kornia.AugmentationSequential: a list of images of different sizes needs a first class that "
            f"sets one output size ({', '.join(RAGGED_CLASSES)}); this container starts with "
            f"{type(children[0][1]).__name__ if children else 'nothing'}"
        )
    (first_name, first), rest = children[0], [m for _, m in children[1:]]
    batch = first(images)
    items = [ParamItem(first_name, first._params)]
    if rest:
        saved = _REST.get(container)
        if saved is None or saved[0] != children:
            saved = (children, type(container)(*rest, data_keys=["input"]))
            _REST[container] = saved
        batch = saved[1](batch)
        # the rest's draws, under the names this container gives its classes
        items += [ParamItem(name, item.data) for (name, _), item in zip(children[1:], saved[1]._params)]
    container._params = items
    return batch
