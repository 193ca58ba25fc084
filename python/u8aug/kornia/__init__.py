"""Drop-in uint8 versions of kornia's augmentation classes.

``u8aug.kornia.RandomHorizontalFlip`` and friends are kornia's own classes (same names,
constructor signatures, parameter generation, ``p``/``p_batch``/``same_on_batch`` and random draws),
taught to accept uint8 images: a uint8 (C, H, W) or (B, C, H, W) input runs the u8aug kernel and
returns uint8 (Normalize: float32); a float input runs kornia's own float path unchanged. Under the
same seed the uint8 output equals kornia's float output on ``x / 255``, quantized by round half to
even (../FIDELITY.md), and samples kornia's gate leaves alone are the input's bytes.

``install()`` teaches kornia's own classes the same (``kornia.augmentation.RandomHorizontalFlip``
then accepts uint8 too); ``uninstall()`` undoes it. Without ``install()`` kornia is untouched.

Geometric classes take kornia's own matrices and boxes (``compute_transformation`` and the
generated ``src`` boxes, so ``transform_matrix`` and ``inverse`` stay kornia's) and run u8aug's warp,
crop-and-resize, resize or crop kernels. Options u8aug has no kernel for (bicubic, nearest-exact,
antialias, ``cropping_mode="resample"``, RandomCrop padding) raise NotImplementedError on uint8 input.
"""

import math
from typing import Callable, Dict

import kornia.augmentation as K
import numpy as np
import torch
from kornia.augmentation.utils import _transform_input
from kornia.augmentation.utils.helpers import _transform_output_shape

from kornia.constants import Resample

from .. import ops
from . import _containers


def _f32(params, key, x):
    return params[key].to(device=x.device, dtype=torch.float32)


def _invert(aug, x, params, flags):
    max_val = flags.get("max_val", 1.0)
    if not (isinstance(max_val, (int, float)) and float(max_val) == 1.0):
        raise NotImplementedError(f"u8aug.kornia.RandomInvert: uint8 images need max_val=1.0, got {max_val!r}")
    return ops.invert(x)


def _grayscale(aug, x, params, flags):
    if getattr(aug, "rgb_weights", None) is not None:
        raise NotImplementedError("u8aug.kornia.RandomGrayscale: custom rgb_weights are not supported for uint8 images")
    return ops.grayscale(x)


def _normalize(aug, x, params, flags):
    if aug.p != 1.0 or aug.p_batch != 1.0:
        raise NotImplementedError("u8aug.kornia.Normalize: uint8 images need p=1 (a skipped sample would stay uint8)")
    mean, std = (flags[k].to(device=x.device, dtype=torch.float32).flatten() for k in ("mean", "std"))
    return ops.normalize(x, mean, std)


def _jiggle(fused):
    def run(aug, x, params, flags):
        return fused(x, _f32(params, "brightness_factor", x), _f32(params, "contrast_factor", x),
                     _f32(params, "saturation_factor", x), _f32(params, "hue_factor", x),
                     params["order"].to(device=x.device, dtype=torch.int64))

    return run


def _resample(name, flags):
    mode = flags["resample"].name.lower()
    if mode not in ("bilinear", "nearest"):
        raise NotImplementedError(f"u8aug.kornia.{name}: resample={mode!r} has no uint8 kernel (bilinear and nearest do)")
    return mode


def _matrix(transform, x, rows=2):
    return transform[:, :rows, :].to(device=x.device, dtype=torch.float32).contiguous()


def _warp_affine(name, padding=True):
    def run(aug, x, params, flags, transform):
        pad = flags["padding_mode"].name.lower() if padding else "zeros"
        fill = None
        if pad == "fill":
            fill = flags.get("fill_value")
            fill = None if fill is None else fill.to(device=x.device, dtype=torch.float32).reshape(-1)
        # one matrix for the batch (1, 2, 3) broadcasts in the kernel, as kornia's warp does
        return ops.warp_affine(x, _matrix(transform, x), (x.shape[-2], x.shape[-1]), _resample(name, flags), pad,
                               flags["align_corners"], fill)

    return run


def _perspective(aug, x, params, flags, transform):
    return ops.warp_perspective(x, _matrix(transform, x, 3), (x.shape[-2], x.shape[-1]),
                                _resample("RandomPerspective", flags), "zeros", flags["align_corners"])


def _slice_mode(name, flags):
    if flags.get("cropping_mode", "slice") != "slice":
        raise NotImplementedError(f"u8aug.kornia.{name}: uint8 images need cropping_mode='slice' (kornia's default)")


def _resized_crop(aug, x, params, flags, transform):
    _slice_mode("RandomResizedCrop", flags)
    if flags["resample"] != Resample.BILINEAR:
        raise NotImplementedError("u8aug.kornia.RandomResizedCrop: uint8 images need resample='bilinear'")
    boxes = params["src"].to(device=x.device, dtype=torch.float32)
    return ops.crop_and_resize(x, boxes, tuple(flags["size"]), "bilinear", bool(flags["align_corners"]))


def _crop(aug, x, params, flags, transform):
    _slice_mode("RandomCrop", flags)
    padding = aug.compute_padding(x.shape, flags)  # kornia's own (left, right, top, bottom), from the shape
    if any(padding):
        mode = flags["padding_mode"]
        if mode not in ("constant", "reflect", "replicate"):
            raise NotImplementedError(f"u8aug.kornia.RandomCrop: padding_mode={mode!r} has no uint8 kernel")
        fill = flags["fill"]
        if not isinstance(fill, (int, float)):
            raise NotImplementedError("u8aug.kornia.RandomCrop: uint8 images need one fill value for all channels")
        # fill is in kornia's float units: the byte the oracle makes of it, float32 (fill * 255)
        # rounded half to even (Python's round) and clamped
        x = ops.pad(x, padding, mode, min(255, max(0, round(float(np.float32(fill) * np.float32(255))))))
    boxes = params["src"].to(device=x.device, dtype=torch.float32)
    return ops.crop_and_resize(x, boxes, tuple(flags["size"]), "bilinear", False)


def _center_crop(aug, x, params, flags, transform):
    _slice_mode("CenterCrop", flags)
    return ops.center_crop(x, (int(flags["size"][0]), int(flags["size"][1])))


def _resize(aug, x, params, flags, transform):
    from kornia.geometry.transform.affwarp import _side_to_image_size

    if flags["resample"] != Resample.BILINEAR or flags["antialias"]:
        raise NotImplementedError("u8aug.kornia.Resize: uint8 images need resample='bilinear' and antialias=False")
    if isinstance(flags["size"], (tuple, list)):
        size = (int(flags["size"][0]), int(flags["size"][1]))
    else:  # kornia's own rule for an int size, from the input's shape (what params["output_size"] holds)
        h, w = x.shape[-2:]
        size = _side_to_image_size(int(flags["size"]), w / h, flags["side"])
    return ops.resize(x, size, "bilinear", bool(flags["align_corners"]))


def _channel_shuffle(aug, x, params, flags, transform):
    # a permutation of whole planes: torch's own gather on uint8 is already the exact copy
    batch_index = torch.arange(x.shape[0], device=x.device).view(-1, 1)
    return x[batch_index, params["channels"].to(x.device)]


# kornia class name -> the uint8 apply_transform: (augmentation, uint8 batch, params, flags, transform) -> output.
# Every float32 step kornia takes on its parameters (factor - 1, factor * 2 * pi) is taken the same way.
KERNELS: Dict[str, Callable] = {
    "RandomAffine": _warp_affine("RandomAffine"),
    "RandomRotation": _warp_affine("RandomRotation", padding=False),
    "RandomRotation90": _warp_affine("RandomRotation90", padding=False),
    "RandomShear": _warp_affine("RandomShear"),
    "RandomTranslate": _warp_affine("RandomTranslate"),
    "RandomPerspective": _perspective,
    "RandomResizedCrop": _resized_crop,
    "RandomCrop": _crop,
    "CenterCrop": _center_crop,
    "Resize": _resize,
    "RandomChannelShuffle": _channel_shuffle,
    "RandomHorizontalFlip": lambda aug, x, p, f: ops.hflip(x),
    "RandomVerticalFlip": lambda aug, x, p, f: ops.vflip(x),
    "RandomBrightness": lambda aug, x, p, f: ops.adjust_brightness(x, _f32(p, "brightness_factor", x) - 1),
    "RandomContrast": lambda aug, x, p, f: ops.adjust_contrast(x, _f32(p, "contrast_factor", x)),
    "RandomGamma": lambda aug, x, p, f: ops.adjust_gamma(x, _f32(p, "gamma_factor", x), _f32(p, "gain_factor", x)),
    "RandomSolarize": lambda aug, x, p, f: ops.solarize(x, _f32(p, "thresholds", x), _f32(p, "additions", x)),
    "RandomPosterize": lambda aug, x, p, f: ops.posterize(x, p["bits_factor"].to(x.device)),
    "RandomSaturation": lambda aug, x, p, f: ops.adjust_saturation(x, _f32(p, "saturation_factor", x)),
    "RandomHue": lambda aug, x, p, f: ops.adjust_hue(x, _f32(p, "hue_factor", x) * 2 * math.pi),
    "RandomEqualize": lambda aug, x, p, f: ops.equalize(x),
    "RandomInvert": _invert,
    "RandomGrayscale": _grayscale,
    "Normalize": _normalize,
    "ColorJiggle": _jiggle(ops.color_jiggle),
    "ColorJitter": _jiggle(ops.color_jitter),
}

# The classes whose inverse() is a warp by kornia's inverse matrix.
WARP_KERNELS = {KERNELS[n] for n in ("RandomAffine", "RandomRotation", "RandomRotation90", "RandomShear",
                                     "RandomTranslate", "RandomPerspective")}


def _uint8_methods(kornia_cls, kernel):
    """transform_tensor, validate_tensor, apply_transform and transform_inputs that take uint8 to
    u8aug and everything else to kornia_cls's own (original) methods."""
    orig_transform, orig_validate, orig_apply, orig_inputs, orig_matrix = (
        kornia_cls.transform_tensor, kornia_cls.validate_tensor, kornia_cls.apply_transform,
        kornia_cls.transform_inputs, getattr(kornia_cls, "compute_transformation", None))
    substitutes = getattr(kornia_cls, "SUBSTITUTE_SKIPPED_SAMPLES", False)
    takes_transform = kernel.__code__.co_argcount == 5

    def transform_inputs(self, input, params, flags, transform=None, **kwargs):
        # kornia fills skipped samples with 0.5 before gamma and equalize (skipped float samples
        # may hold values those reject); on uint8 that fill would promote the batch to float. Every
        # byte is a valid input and skipped samples are blended out, so uint8 runs the same gate and
        # blend (kornia's own _gate / _blend_by_prob) without the fill.
        if not (substitutes and input.dtype == torch.uint8):
            return orig_inputs(self, input, params, flags, transform, **kwargs)
        params, flags = self._process_kwargs_to_params_and_flags(
            self._params if params is None else params, flags, **kwargs)
        in_tensor = self.transform_tensor(input)
        self.validate_tensor(in_tensor)
        output = self.apply_transform(in_tensor, params, flags, transform=transform)
        if not (self.p == 1.0 and self.p_batch == 1.0):
            skipped = self.apply_non_transform(in_tensor, params, flags, transform=transform)
            output = self._blend_by_prob(output, skipped, self._gate(params))
        return _transform_output_shape(output, input.shape) if self.keepdim else output

    def transform_tensor(self, input, *, shape=None, match_channel=True):
        if input.dtype == torch.uint8 and shape is None:
            return _transform_input(input)  # (H, W) / (C, H, W) -> (B, C, H, W), no dtype change
        return orig_transform(self, input, shape=shape, match_channel=match_channel)

    def validate_tensor(self, input):
        if input.dtype == torch.uint8:
            if input.dim() != 4:
                raise RuntimeError(f"Expect (B, C, H, W). Got {tuple(input.shape)}.")
            return
        orig_validate(self, input)

    def apply_transform(self, input, params, flags, transform=None):
        if input.dtype == torch.uint8:
            return kernel(self, input, params, flags, transform) if takes_transform else kernel(self, input, params, flags)
        return orig_apply(self, input, params, flags, transform)

    def compute_transformation(self, input, params, flags):
        # kornia builds the transformation matrix (for boxes, keypoints, inverse) in the input's
        # dtype; a uint8 matrix cannot hold -1. It only reads dtype, device and shape: hand it a
        # float32 stand-in of the same shape that owns no memory.
        if input.dtype == torch.uint8:
            input = torch.zeros((), dtype=torch.float32, device=input.device).expand(input.shape)
        return orig_matrix(self, input, params, flags)

    orig_blend = kornia_cls._blend_by_prob

    def blend_by_prob(transformed, not_transformed, to_apply):
        # kornia keeps applied samples with torch.where over the whole batch, about 1 GB/s on
        # uint8 CPU tensors; u8aug copies each sample once from the side it keeps.
        if (transformed.dtype == torch.uint8 and not_transformed.dtype == torch.uint8
                and transformed.shape == not_transformed.shape and transformed.dim() == 4
                and to_apply.dim() == 1 and to_apply.shape[0] == transformed.shape[0]):
            take = to_apply.to(device=transformed.device, dtype=torch.bool)
            return ops.select_samples(take, transformed, not_transformed)
        return orig_blend(transformed, not_transformed, to_apply)

    orig_inverse = kornia_cls.__dict__.get("inverse_transform")
    orig_get_matrix = getattr(kornia_cls, "get_transformation_matrix", None)

    def get_transformation_matrix(self, input, params=None, flags=None):
        # kornia returns the matrix in the input's dtype (inverse() then inverts it): float32 for uint8
        if input.dtype == torch.uint8:
            input = torch.zeros((), dtype=torch.float32, device=input.device).expand(input.shape)
        return orig_get_matrix(self, input, params, flags)

    def inverse_transform(self, input, flags, transform=None, size=None):
        # kornia casts the inverse matrix to the input's dtype before warping; a uint8 matrix is
        # garbage. uint8 input keeps the float32 matrix and runs the same warp kernel.
        if input.dtype == torch.uint8:
            if not isinstance(transform, torch.Tensor):
                raise TypeError(f"Expected the `transform` be a torch.Tensor. Got {type(transform)}.")
            matrix = transform.to(device=input.device, dtype=torch.float32)
            return self.apply_transform(input, params=self._params, flags=flags, transform=matrix)
        return orig_inverse(self, input, flags, transform, size)

    methods = {"transform_tensor": transform_tensor, "validate_tensor": validate_tensor,
               "apply_transform": apply_transform, "transform_inputs": transform_inputs,
               "_blend_by_prob": staticmethod(blend_by_prob)}
    if orig_inverse is not None and kernel in WARP_KERNELS:
        methods["inverse_transform"] = inverse_transform
        methods["get_transformation_matrix"] = get_transformation_matrix
    if orig_matrix is not None:
        methods["compute_transformation"] = compute_transformation
    return methods


def _dropin(name):
    kornia_cls = getattr(K, name)
    cls = type(name, (kornia_cls,), {**_uint8_methods(kornia_cls, KERNELS[name]), "__module__": __name__})
    cls.__doc__ = f"kornia.augmentation.{name} that also takes uint8 images (u8aug kernels).\n\n{kornia_cls.__doc__ or ''}"
    return cls


for _name in KERNELS:
    globals()[_name] = _dropin(_name)

_ORIGINALS: Dict[str, dict] = {}


def install() -> None:
    """Make kornia's own classes accept uint8 images and run them with u8aug, and kornia's own
    containers track their batch shape as u8aug.kornia.AugmentationSequential does (so they compile
    with fullgraph=True on every supported torch). Idempotent."""
    if "ImageSequential" not in _ORIGINALS:
        _ORIGINALS["ImageSequential"] = {"forward_parameters": K.ImageSequential.__dict__.get("forward_parameters")}
        K.ImageSequential.forward_parameters = _containers.forward_parameters
    for name, kernel in KERNELS.items():
        if name in _ORIGINALS:
            continue
        kornia_cls = getattr(K, name)
        methods = _uint8_methods(kornia_cls, kernel)
        _ORIGINALS[name] = {m: kornia_cls.__dict__.get(m) for m in methods}
        for m, fn in methods.items():
            setattr(kornia_cls, m, fn)


def uninstall() -> None:
    """Undo install(): kornia's classes are exactly as before."""
    for name, saved in _ORIGINALS.items():
        kornia_cls = getattr(K, name)  # a KERNELS class, or ImageSequential
        for m, fn in saved.items():
            if fn is None:
                delattr(kornia_cls, m)
            else:
                setattr(kornia_cls, m, fn)
    _ORIGINALS.clear()


def installed() -> bool:
    return bool(_ORIGINALS)


# kornia's containers, with a batch shape torch.compile traces on every supported torch
AugmentationSequential = _containers.AugmentationSequential
ImageSequential = _containers.ImageSequential

# Inductor options under which a compiled augmentation draws kornia's random numbers exactly as
# eager does: random ops run as eager's own kernels (fallback_random), and the scheduler keeps
# independent draws in program order (reorder_for_locality would swap, say, RandomAffine's angle and
# scale draws). Pass them per call: torch.compile(aug, fullgraph=True, options=COMPILE_OPTIONS).
COMPILE_OPTIONS = {"fallback_random": True, "reorder_for_locality": False}

__all__ = [*KERNELS, "AugmentationSequential", "ImageSequential", "install", "uninstall", "installed", "KERNELS", "COMPILE_OPTIONS"]
