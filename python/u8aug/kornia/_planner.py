"""The fused container's planner: it stands in for ``u8aug.ops`` while a chain's modules run their
uint8 apply functions, and turns each op call into a step of ``u8aug.pipeline`` (its words, and the
tensors it reads), returning a stand-in of the output's shape (_fused.py runs the plan)."""

from typing import List, Optional

import torch

from .. import ops
from .._steps import STEPS


class _NotFused(Exception):
    """The module's step cannot join a fused chain; it runs on its own."""


def _stand_in(base: torch.Tensor, shape) -> torch.Tensor:
    # what the apply functions read of their input: shape, dtype and device, no memory (a view of
    # the planner's one uint8 scalar)
    return base.expand(*shape)


def _size(x, hw):
    return (*x.shape[:-2], int(hw[0]), int(hw[1]))


class Planner:
    """Stands in for ``u8aug.ops`` while a chain is planned: each op call appends a step ("name
    arg ...", the tensors it reads) and returns a stand-in of the output's shape."""

    def __init__(self, device: torch.device):
        self.device = device
        self.steps: List[str] = []
        self.calls: List[tuple] = []  # each step as its op's call: (name, the arguments after img, gated)
        self.tensors: List[torch.Tensor] = []
        self.take: Optional[torch.Tensor] = None  # the current module's gate; None: every sample
        self.normalized = False
        self._all = torch.empty(0, dtype=torch.bool, device=device)
        self.scalar = torch.empty((), dtype=torch.uint8, device=device)
        self.current = None  # the planned image's shape: what the next step must read
        self.derived: List[tuple] = []  # (tensor, recipe, arguments): _apply_common.derived
        self.image = None  # the stand-in of the planned image a recipe read (a warp's matrix: _fused.py)

    def record_derived(self, made, recipe, args):
        self.derived.append((made, recipe, args))

    def _op(self, name, x, *args, shape=None):
        """A step of op ``name``: ``args`` are the op's arguments after img in its schema's order,
        written as the pipeline reads them (bindings/pipeline_steps.h): tensors to the tensors (an
        absent optional one as an empty tensor), the rest to words; a gated step's gate first."""
        if self.normalized:
            raise _NotFused("normalize ends a fused chain")
        if tuple(x.shape) != self.current:
            # an apply function sliced its stand-in (PadTo cropping by a negative amount): a view
            # is not a step, so the module runs on its own
            raise _NotFused(f"{name} reads a view of the planned image, not the image")
        gated, arguments = STEPS[name]
        shape = tuple(x.shape) if shape is None else tuple(shape)
        if (not gated or shape != tuple(x.shape)) and self.take is not None:
            raise _NotFused("a step that skips samples cannot change the shape")
        words = [name]
        if gated:
            self.tensors.append(self._all if self.take is None else self.take)
        if len(args) != len(arguments):
            raise TypeError(
                f"u8aug.pipeline: the planner gave {name} {len(args)} arguments, its schema has {len(arguments)}"
            )
        for a, value in zip(arguments, args):
            if a.kind in ("ints", "int") and any(
                isinstance(v, torch.SymInt) for v in (value if a.kind == "ints" else [value])
            ):
                raise _NotFused(f"{name}'s sizes are known only when the compiled call runs")
            if a.kind == "tensor":
                self.tensors.append(self._all.new_empty(0, dtype=torch.float32) if value is None else value)
            elif a.kind == "ints":
                words.extend(str(int(v)) for v in value)
            elif a.kind == "bool":
                words.append("1" if value else "0")
            else:
                words.append(str(int(value)) if a.kind == "int" else str(value))
        self.steps.append(" ".join(words))
        self.calls.append((name, args, gated and self.take is not None))
        self.current = shape
        return _stand_in(self.scalar, shape)

    @staticmethod
    def _f32(t) -> torch.Tensor:
        if not isinstance(t, torch.Tensor):
            t = torch.tensor([float(t)], dtype=torch.float32)
        if t.dtype == torch.float32 and t.dim() == 1 and t.is_contiguous():
            return t  # what the apply functions pass: no conversion calls (a call costs a microsecond)
        return t.to(torch.float32).reshape(-1).contiguous()

    def _values(self, *values):
        values = tuple(self._f32(v) for v in values)
        return tuple(v if v.device == self.device else v.to(self.device) for v in values)

    def hflip(self, x):
        return self._op("hflip", x)

    def vflip(self, x):
        return self._op("vflip", x)

    def invert(self, x):
        return self._op("invert", x)

    def grayscale(self, x):
        return self._op("grayscale", x)

    def auto_contrast(self, x):
        return self._op("auto_contrast", x)

    def equalize(self, x):
        return self._op("equalize", x)

    def adjust_brightness(self, x, factor):
        return self._op("adjust_brightness", x, *self._values(factor))

    def adjust_contrast(self, x, factor):
        return self._op("adjust_contrast", x, *self._values(factor))

    def sharpness(self, x, factor):
        return self._op("sharpness", x, *self._values(factor))

    def posterize(self, x, bits):
        return self._op("posterize", x, *self._values(bits))

    def adjust_gamma(self, x, gamma, gain=1.0):
        return self._op("adjust_gamma", x, *self._values(gamma, gain))

    def solarize(self, x, thresholds=0.5, additions=None):
        return self._op("solarize", x, *self._values(thresholds, 0.0 if additions is None else additions))

    def adjust_saturation(self, x, factor, fidelity="exact"):
        return self._op("adjust_saturation", x, *self._values(factor), fidelity)

    def adjust_hue(self, x, factor, fidelity="exact"):
        return self._op("adjust_hue", x, *self._values(factor), fidelity)

    def _jiggle(self, name, x, brightness, contrast, saturation, hue, order, fidelity):
        order = order.to(device=self.device, dtype=torch.int64)
        if order.dim() != 1 or not order.is_contiguous():  # the drawn order as it is, where it already fits
            order = order.reshape(-1).contiguous()
        return self._op(name, x, *self._values(brightness, contrast, saturation, hue), order, fidelity)

    def color_jiggle(self, x, brightness, contrast, saturation, hue, order, fidelity="exact"):
        return self._jiggle("color_jiggle", x, brightness, contrast, saturation, hue, order, fidelity)

    def color_jitter(self, x, brightness, contrast, saturation, hue, order, fidelity="exact"):
        return self._jiggle("color_jitter", x, brightness, contrast, saturation, hue, order, fidelity)

    def _warp(self, name, x, M, dsize, mode, padding_mode, align_corners, fill, fidelity):
        M = (M[None] if M.dim() == 2 else M).to(torch.float32)
        fill = None if fill is None else self._f32(fill).to(self.device)
        shape = _size(x, dsize)
        return self._op(name, x, M, dsize, mode, padding_mode, align_corners, fill, fidelity, shape=shape)

    def warp_affine(self, x, M, dsize, mode="bilinear", padding_mode="zeros", align_corners=True, fill=None,
                    fidelity="exact"):  # fmt: skip
        return self._warp("warp_affine", x, M, dsize, mode, padding_mode, align_corners, fill, fidelity)

    def warp_perspective(self, x, M, dsize, mode="bilinear", padding_mode="zeros", align_corners=True, fill=None,
                         fidelity="exact"):  # fmt: skip
        return self._warp("warp_perspective", x, M, dsize, mode, padding_mode, align_corners, fill, fidelity)

    def resize_antialias(self, x, size, kernel_x, kernel_y, mode="bilinear", align_corners=False):
        raise _NotFused("resize_antialias")  # a blur of the whole input first: it runs on its own

    def resize(self, x, size, mode="bilinear", align_corners=None, fidelity="exact"):
        return self._op("resize", x, size, mode, align_corners, fidelity, shape=_size(x, size))

    def crop_and_resize(self, x, boxes, size, mode="bilinear", align_corners=True, fidelity="exact"):
        boxes = boxes.to(torch.float32)
        return self._op("crop_and_resize", x, boxes, size, mode, align_corners, fidelity, shape=_size(x, size))

    def pad(self, x, padding, mode="constant", value=0):
        left, right, top, bottom = (int(p) for p in padding)
        shape = (*x.shape[:-2], x.shape[-2] + top + bottom, x.shape[-1] + left + right)
        return self._op("pad", x, (left, right, top, bottom), mode, value, shape=shape)

    def filter2d_separable(self, x, kernel_x, kernel_y, border_type="reflect", fidelity="exact"):
        kernels = tuple(k.to(device=self.device, dtype=torch.float32).contiguous() for k in (kernel_x, kernel_y))
        return self._op("filter2d_separable", x, *kernels, border_type, fidelity)

    def filter2d(self, x, kernel, border_type="reflect", fidelity="exact"):
        kernel = kernel.to(device=self.device, dtype=torch.float32).contiguous()
        return self._op("filter2d", x, kernel, border_type, fidelity)

    def median_blur(self, x, kernel_size, border_type="reflect"):
        ky, kx = (kernel_size, kernel_size) if isinstance(kernel_size, int) else kernel_size
        return self._op("median_blur", x, (ky, kx), border_type)

    def box_blur_pooled(self, x, kernel_size, border_type="reflect", separable=True):
        return self._op("box_blur_pooled", x, kernel_size, border_type, separable)

    def box_blur(self, x, kernel_size, border_type="reflect", separable=True, fidelity="exact"):
        return ops._filters.box_blur_on(self, x, kernel_size, border_type, separable, fidelity)

    def snow(self, x, coefficient, brightness):
        return self._op("snow", x, *self._values(coefficient, brightness))

    def rain(self, x, coordinates, drops, heights, widths):
        return self._op("rain", x, coordinates, drops, heights, widths)

    def plasma_brightness(self, x, plasma, intensity):
        return self._op("plasma_brightness", x, plasma, *self._values(intensity))

    def plasma_contrast(self, x, plasma):
        return self._op("plasma_contrast", x, plasma)

    def plasma_shadow(self, x, plasma, shade_intensity, shade_quantity):
        return self._op("plasma_shadow", x, plasma, *self._values(shade_intensity, shade_quantity))

    def add_offset(self, x, offset):
        return self._op("add_offset", x, offset)

    def erase_boxes(self, x, boxes, values):
        return self._op("erase_boxes", x, boxes, *self._values(values))

    def normalize(self, x, mean, std):
        out = self._op("normalize", x, *self._values(mean, std))
        self.normalized = True
        return out
