"""Ragged batches: a list of uint8 (C, H_i, W_i) images of different sizes (what a DataLoader's
decoded images are) through a size-setting drop-in (RandomResizedCrop, RandomCrop, CenterCrop,
Resize((h, w)), PadTo), or an AugmentationSequential that starts with one, into one (B, C, h, w)
batch (the resizes and crops in one u8aug call, ``u8aug.resize_list``); the rest of the container
then runs on that batch as on any other. LongestMaxSize, SmallestMaxSize and Resize(int) give each
image a size of its own, so they take a list and give a list (image by image), which a later
class in the container makes one batch.

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
from . import _draws
from ._apply_common import fidelity
from ._apply_geometry import _resample, _slice_mode

# the classes that take a list: those that give every image one size make it a batch; those that
# give each image a size of its own (LongestMaxSize, SmallestMaxSize, Resize(int)) keep it a list
BATCH_MAKERS = ("RandomResizedCrop", "RandomCrop", "CenterCrop", "Resize", "PadTo")
RAGGED_CLASSES = (*BATCH_MAKERS, "LongestMaxSize", "SmallestMaxSize")


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
    b, same = sizes.shape[0], aug.same_on_batch
    drawn = _draws.resized_crop(gen, (b,), same, sizes.to(torch.int64).contiguous())  # kornia's steps in C++
    if drawn is not None:
        return drawn
    device, dtype = _extract_device_dtype([gen.scale, gen.ratio])
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
    return _crop_params(gen, h_in, w_in, h_out, w_out, same, device, dtype)


def _crop_params(gen, h_in, w_in, h_out, w_out, same, device, dtype):
    """kornia's crop generator's position draw (one uniform x and y a sample, scaled to the room the
    crop leaves in that sample's image) and its boxes and sizes, for (B,) image and crop sizes."""
    b = h_in.shape[0]
    x_diff = (w_in - w_out + 1).clamp(0)
    y_diff = (h_in - h_out + 1).clamp(0)
    x_start = _truncate_to_start(_adapted_rsampling((b,), gen.rand_sampler, same), x_diff)
    y_start = _truncate_to_start(_adapted_rsampling((b,), gen.rand_sampler, same), y_diff)
    src = bbox_generator(
        x_start.view(-1).to(device=device, dtype=dtype), y_start.view(-1).to(device=device, dtype=dtype), w_out, h_out
    )
    zeros = torch.zeros(b, device=device, dtype=dtype)
    if gen.resize_to is None:  # RandomCrop: the crop is the output
        dst, out_size = bbox_generator(zeros, zeros, w_out, h_out), torch.stack([h_out, w_out], 1).long()
    else:  # RandomResizedCrop: the crop is resized to resize_to
        oh, ow = gen.resize_to
        dst = bbox_generator(zeros, zeros, torch.full_like(zeros, ow), torch.full_like(zeros, oh))
        out_size = _constant_tensor(gen.resize_to, device=device, dtype=torch.long).expand(b, -1)
    sizes = torch.stack([h_in, w_in], 1).to(dtype=torch.long)
    return {"src": src, "dst": dst, "input_size": sizes, "output_size": out_size}


def _random_crop_params(aug, sizes):
    """RandomCrop's draws (no padding) for images of the given (H, W) sizes (B, 2)."""
    gen = aug._param_generator
    device, dtype = sizes.device, sizes.dtype
    h_in, w_in = sizes[:, 0], sizes[:, 1]
    h, w = (torch.full_like(h_in, float(v)) for v in aug.flags["size"])
    return _crop_params(gen, h_in, w_in, h, w, aug.same_on_batch, device, dtype)


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
    if not isinstance(flags["size"], (tuple, list)):  # each image its own size: a list out
        return _image_by_image(aug, images)
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


def _random_crop(aug, images, params, flags):
    _slice_mode("RandomCrop", flags)
    size = (int(flags["size"][0]), int(flags["size"][1]))
    boxes = params["src"].to(device=images[0].device, dtype=torch.float32)
    return ops.resize_list(images, boxes, size, "bilinear", False)


def _pad_to(aug, images, params, flags):
    from ._apply_geometry import _pad_to as pad_one

    return torch.stack([pad_one(aug, img[None], params, flags, None)[0] for img in images])


def _image_by_image(aug, images):
    """The class on each image alone (its outputs differ in size: a list), kornia's parameters of
    each concatenated."""
    outputs, drawn = [], []
    for img in images:
        outputs.append(aug(img[None])[0])
        drawn.append(aug._params)
    keys = [k for k, v in drawn[0].items() if isinstance(v, torch.Tensor) and v.dim() >= 1 and v.shape[0] == 1]
    aug._params = {k: torch.cat([d[k] for d in drawn]) for k in keys}
    return outputs


_RUN = {
    "RandomResizedCrop": _resized_crop,
    "RandomCrop": _random_crop,
    "CenterCrop": _center_crop,
    "Resize": _resize,
    "PadTo": _pad_to,
}


def forward(aug, images, params=None, **kwargs):
    """A size-setting class's forward on a list of images: the (B, C, h, w) uint8 batch."""
    name = type(aug).__name__
    _check_images(name, images)
    if not (aug.p == 1.0 and aug.p_batch == 1.0):
        raise ValueError(
            f"u8aug.kornia.{name}: a list of images needs p=1.0 and p_batch=1.0 (a sample left alone would keep "
            "its own size, and a batch has one)"
        )
    if name in ("LongestMaxSize", "SmallestMaxSize"):
        if params is not None or kwargs:
            raise NotImplementedError(f"u8aug.kornia.{name}: a list of images takes no given params")
        return _image_by_image(aug, images)
    if name == "RandomCrop" and any(any(aug.compute_padding((1, *img.shape))) for img in images):
        raise NotImplementedError(
            "u8aug.kornia.RandomCrop: on a list of images, padding (padding=, or pad_if_needed for an image "
            "smaller than the crop) is not supported; pad first (PadTo) or crop images at least the crop's size"
        )
    if params is None:
        if name == "RandomResizedCrop":
            params = _resized_crop_params(aug, _sizes(images))
        elif name == "RandomCrop":
            params = _random_crop_params(aug, _sizes(images))
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
    batch, items, k = images, [], 0
    while isinstance(batch, list) and k < len(children):  # the classes that take the list
        name, aug = children[k]
        if type(aug).__name__ not in RAGGED_CLASSES:
            raise ValueError(
                "u8aug.kornia.AugmentationSequential: a list of images of different sizes must be made one "
                f"size ({', '.join(BATCH_MAKERS)}) before {type(aug).__name__}, class {k} of this container"
            )
        batch = aug(batch)
        items.append(ParamItem(name, aug._params))
        k += 1
    rest = [m for _, m in children[k:]]
    if rest:  # the rest, on the batch, as one container (fused where they fuse)
        saved = _REST.get(container)
        if saved is None or saved[0] != children:
            saved = (children, type(container)(*rest, data_keys=["input"]))
            _REST[container] = saved
        batch = saved[1](batch)
        # the rest's draws, under the names this container gives its classes
        items += [ParamItem(name, item.data) for (name, _), item in zip(children[k:], saved[1]._params)]
    container._params = items
    return batch
