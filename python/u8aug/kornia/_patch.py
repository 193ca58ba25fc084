"""How a kornia augmentation class learns uint8: the methods that route a uint8 batch to its u8aug
apply function (python/u8aug/kornia/_apply.py) and everything else to kornia's own, used both by the
drop-in subclasses (``uint8_dropin``) and by ``install()``, which sets them on kornia's own classes."""

import inspect
from typing import Dict

import kornia.augmentation as K
import torch
from kornia.augmentation.base import _BasicAugmentationBase
from kornia.augmentation.utils import _transform_input
from kornia.augmentation.utils.helpers import _transform_output_shape

from .. import ops
from . import _containers, _draws, _fused, _mix, _ragged, _state, _thin
from ._apply import FAST_CLASSES, KERNELS, WARP_KERNELS
from ._matrix import ORIGINAL_MATRICES, matrix_of


def _uint8_methods(kornia_cls, kernel):
    """transform_tensor, validate_tensor, apply_transform and transform_inputs that take uint8 to
    u8aug and everything else to kornia_cls's own (original) methods."""
    orig_transform, orig_validate, orig_apply, orig_inputs, orig_matrix = (
        kornia_cls.transform_tensor,
        kornia_cls.validate_tensor,
        kornia_cls.apply_transform,
        kornia_cls.transform_inputs,
        getattr(kornia_cls, "compute_transformation", None),
    )
    substitutes = getattr(kornia_cls, "SUBSTITUTE_SKIPPED_SAMPLES", False)

    def transform_inputs(self, input, params, flags, transform=None, **kwargs):
        # kornia fills skipped samples with 0.5 before gamma and equalize (skipped float samples
        # may hold values those reject); on uint8 that fill would promote the batch to float. Every
        # byte is a valid input and skipped samples are blended out, so uint8 runs the same gate and
        # blend (kornia's own _gate / _blend_by_prob) without the fill.
        if not (substitutes and input.dtype == torch.uint8):
            return orig_inputs(self, input, params, flags, transform, **kwargs)
        params, flags = self._process_kwargs_to_params_and_flags(
            self._params if params is None else params, flags, **kwargs
        )
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
            return kernel(self, input, params, flags, transform)
        return orig_apply(self, input, params, flags, transform)

    apply_transform.u8aug_kernel = kernel  # what a fused container plans this class's uint8 step with

    warps = kernel in WARP_KERNELS
    if orig_matrix is not None and warps:
        ORIGINAL_MATRICES.setdefault(kornia_cls.__name__, orig_matrix)

    def compute_transformation(self, input, params, flags):
        # kornia builds the transformation matrix (for boxes, keypoints, inverse) in the input's
        # dtype; a uint8 matrix cannot hold -1. It only reads dtype, device and shape: hand it a
        # float32 stand-in of the same shape that owns no memory. The warps' matrices, which the
        # kernels sample with, come from kornia's code run eagerly also under compile (_matrix.py).
        if input.dtype == torch.uint8:
            if warps:
                return matrix_of(kornia_cls.__name__, input, params)
            input = torch.zeros((), dtype=torch.float32, device=input.device).expand(input.shape)
        return orig_matrix(self, input, params, flags)

    orig_blend = kornia_cls._blend_by_prob

    def blend_by_prob(transformed, not_transformed, to_apply):
        # kornia keeps applied samples with torch.where over the whole batch, about 1 GB/s on
        # uint8 CPU tensors; u8aug copies each sample once from the side it keeps.
        if (
            transformed.dtype == torch.uint8
            and not_transformed.dtype == torch.uint8
            and transformed.shape == not_transformed.shape
            and transformed.dim() == 4
            and to_apply.dim() == 1
            and to_apply.shape[0] == transformed.shape[0]
        ):
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

    orig_forward = kornia_cls.forward

    def forward(self, input, *args, **kwargs):
        # a list of images of different sizes: one batch (python/u8aug/kornia/_ragged.py)
        if _ragged.is_image_list(input):
            return _ragged.forward(self, list(input), *args, **kwargs)
        return orig_forward(self, input, *args, **kwargs)

    forward.u8aug_forward = True  # kornia's forward for everything but an image list: _thin.py may stand in for it

    methods = {
        "__call__": _thin.call,
        "_u8aug_thin": None,  # the class's kept plans (_thin.py), per instance
        "_u8aug_settings": None,  # a token renewed when a setting is written (_state.state_setattr)
        "_u8aug_lazy_class": None,  # kornia's classes write their state at once (_state.commit)
        "transform_tensor": transform_tensor,
        "validate_tensor": validate_tensor,
        "apply_transform": apply_transform,
        "transform_inputs": transform_inputs,
        "_blend_by_prob": staticmethod(blend_by_prob),
        "__setattr__": _state.state_setattr,
        "__getstate__": _state.getstate,  # less the kept plans
    }
    if kornia_cls.forward_parameters is _BasicAugmentationBase.forward_parameters:
        methods["forward_parameters"] = _containers.forward_parameters_of_module
    if kornia_cls.__name__ in _ragged.RAGGED_CLASSES:
        methods["forward"] = forward
    if orig_inverse is not None and kernel in WARP_KERNELS:
        methods["inverse_transform"] = inverse_transform
        methods["get_transformation_matrix"] = get_transformation_matrix
    if orig_matrix is not None:
        methods["compute_transformation"] = compute_transformation
        if kernel in WARP_KERNELS:
            compute_transformation.u8aug_matrix_of = kornia_cls.__name__  # _matrix.direct_op
    return methods


_FIDELITY_DOC = """
    fidelity: ``"exact"`` (default) gives kornia's bytes on uint8 input; ``"fast"`` opts into u8aug's
        fast tier (every byte at most 1 from kornia's, at least 99% identical; float input is kornia's
        own path either way). The random draws are kornia's in both."""


def _fidelity_init(cls: type, kornia_cls: type) -> None:
    """kornia's constructor plus a keyword-only ``fidelity``, shown in the signature and the repr."""

    def __init__(self, *args, fidelity: str = "exact", **kwargs):
        if fidelity not in ("exact", "fast"):
            raise ValueError(f"u8aug.kornia.{cls.__name__}: fidelity must be 'exact' or 'fast', got {fidelity!r}")
        kornia_cls.__init__(self, *args, **kwargs)
        self.fidelity = fidelity

    def __repr__(self):
        text = kornia_cls.__repr__(self)
        if self.fidelity == "exact" or not text.endswith(")"):
            return text
        return f"{text[:-1]}, fidelity={self.fidelity!r})"

    signature = inspect.signature(kornia_cls.__init__)
    keyword = inspect.Parameter("fidelity", inspect.Parameter.KEYWORD_ONLY, default="exact", annotation=str)
    parameters = list(signature.parameters.values())
    at = next((i for i, p in enumerate(parameters) if p.kind == inspect.Parameter.VAR_KEYWORD), len(parameters))
    __init__.__signature__ = signature.replace(parameters=[*parameters[:at], keyword, *parameters[at:]])
    __init__.__doc__ = kornia_cls.__init__.__doc__
    cls.__init__ = __init__
    cls.__repr__ = __repr__


def uint8_dropin(cls: type) -> type:
    """Class decorator: ``cls``, declared as a subclass of the kornia class of its name, gets the
    uint8 methods of that class's apply function and kornia's docstring after its own (and, for the
    classes with a fast tier, the ``fidelity`` keyword)."""
    kornia_cls = cls.__bases__[0]
    assert kornia_cls is getattr(K, cls.__name__), f"{cls.__name__} must subclass kornia's class of its name"
    for name, method in _uint8_methods(kornia_cls, KERNELS[cls.__name__]).items():
        setattr(cls, name, method)
    for name, attribute in _state.lazy_state_attributes().items():
        setattr(cls, name, attribute)
    cls._u8aug_lazy_class = cls
    cls.__doc__ = f"{cls.__doc__}\n\n{kornia_cls.__doc__ or ''}"
    if cls.__name__ in FAST_CLASSES:
        _fidelity_init(cls, kornia_cls)
        cls.__doc__ += _FIDELITY_DOC
    _adopting_init(cls)
    return cls


def _adopting_init(cls: type) -> None:
    """The constructor, then the instance's state attributes (_state.adopt)."""
    init = cls.__init__

    def __init__(self, *args, **kwargs):
        init(self, *args, **kwargs)
        _state.adopt(self)

    __init__.__signature__ = inspect.signature(init)
    __init__.__doc__ = init.__doc__
    cls.__init__ = __init__


_ORIGINALS: Dict[str, dict] = {}


def install() -> None:
    """Make kornia's own classes accept uint8 images and run them with u8aug, and kornia's own
    containers track their batch shape as u8aug.kornia.AugmentationSequential does (so they compile
    with fullgraph=True on every supported torch) and fuse uint8 chains as it does. Idempotent."""
    if "ImageSequential" not in _ORIGINALS:
        _ORIGINALS["ImageSequential"] = {"forward_parameters": K.ImageSequential.__dict__.get("forward_parameters")}
        K.ImageSequential.forward_parameters = _containers.forward_parameters
    if "AugmentationSequential" not in _ORIGINALS:
        fused = {
            "forward": _fused.forward,
            "__call__": _fused.call,
            "__setattr__": _state.state_setattr,
            "__getstate__": _state.getstate,
            "_u8aug_settings": None,
            "_u8aug_key_cache": None,
            "clear_state": _fused.clear_state,
            "transform_matrix": property(_fused.transform_matrix),
            "_preproc_mask": _containers.preproc_mask,
        }
        _ORIGINALS["AugmentationSequential"] = {m: K.AugmentationSequential.__dict__.get(m) for m in fused}
        for m, fn in fused.items():
            setattr(K.AugmentationSequential, m, fn)
    for name, kernel in KERNELS.items():
        if name not in _ORIGINALS:
            methods = _uint8_methods(getattr(K, name), kernel)
            if name in _draws.REPLICAS:  # kornia's draw in fewer tensor ops, the same numbers
                methods["generate_parameters"] = _draws.replicated_generate_parameters(getattr(K, name))
            _set_methods(name, methods)
    for name, dropin in _mix.MIX_DROPINS.items():
        if name not in _ORIGINALS:
            _set_methods(name, _mix_methods(dropin, getattr(K, name)))


def _set_methods(name, methods):
    """Sets methods on kornia's class `name`, keeping what they replace for uninstall()."""
    kornia_cls = getattr(K, name)
    _ORIGINALS[name] = {m: kornia_cls.__dict__.get(m) for m in methods}
    for m, fn in methods.items():
        setattr(kornia_cls, m, fn)


def _mix_methods(dropin, kornia_cls):
    """What the mix drop-in adds to kornia's class (its own forward on uint8 and what that calls,
    the float path staying kornia's own forward): the attributes of the classes between them."""
    mro = dropin.__mro__
    methods = {}
    for klass in reversed(mro[: mro.index(kornia_cls)]):
        methods.update({k: v for k, v in vars(klass).items() if not k.startswith("__")})
    return methods


def uninstall() -> None:
    """Undo install(): kornia's classes are exactly as before."""
    for name, saved in _ORIGINALS.items():
        kornia_cls = getattr(K, name)  # a KERNELS class, ImageSequential or AugmentationSequential
        for m, fn in saved.items():
            if fn is None:
                delattr(kornia_cls, m)
            else:
                setattr(kornia_cls, m, fn)
    _ORIGINALS.clear()


def installed() -> bool:
    return bool(_ORIGINALS)
