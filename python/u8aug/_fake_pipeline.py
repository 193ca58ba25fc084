"""The pipeline's fake: its steps' own fakes, one after another (bindings/pipeline.inc's parse)."""

import torch

from ._fake import FAKES, _check_image, _fake, empty_output

# The pipeline: its steps' own fakes, one after another, so the shape, strides and checks are the
# step-by-step chain's. The words are parsed as bindings/pipeline.inc parses them.
_GATED = {
    "hflip": 0, "vflip": 0, "invert": 0, "grayscale": 0, "equalize": 0, "auto_contrast": 0, "adjust_brightness": 1,
    "adjust_brightness_accumulative": 1, "adjust_contrast": 1, "posterize": 1, "adjust_gamma": 2, "solarize": 2,
    "adjust_saturation": 1, "adjust_hue": 1, "sharpness": 1, "color_jiggle": 5, "color_jitter": 5,
}  # fmt: skip


def _pipeline_step(cur, where, words, tensors):
    name, args = words[0], words[1:]

    def take_next(what):
        torch._check(
            bool(tensors), lambda: f"u8aug.pipeline: {where}: expected a tensor for {what}, but tensors ran out"
        )
        return tensors.pop(0)

    def ints(n):
        torch._check(len(args) >= n, lambda: f"u8aug.pipeline: {where}: expected {n} numbers after its name")
        try:
            return [int(a) for a in args[:n]]
        except ValueError:
            raise RuntimeError(f"u8aug.pipeline: {where}: expected integers, got {args[:n]}") from None

    if name in _GATED:
        fidelity = args[0] if name in ("adjust_saturation", "adjust_hue", "color_jiggle", "color_jitter") else None
        torch._check(len(args) == (fidelity is not None), lambda: f"u8aug.pipeline: {where}: unexpected arguments")
        take = take_next("take")
        batch = cur.shape[0] if cur.dim() == 4 else 1
        torch._check(
            take.numel() == 0 or (take.dtype == torch.bool and take.dim() == 1 and take.numel() == batch),
            lambda: f"u8aug.pipeline: {where}: expected take to be empty or a 1-D bool tensor of B = {batch} values",
        )
        params = [take_next(f"argument {i}") for i in range(_GATED[name])]
        return FAKES[name](cur, *params, *([fidelity] if fidelity else []))
    if name in ("warp_affine", "warp_perspective"):
        h, w = ints(2)
        torch._check(len(args) == 6, lambda: f"u8aug.pipeline: {where}: expected H W mode padding_mode align_corners F")
        take_next("take")
        M, fill = take_next("M"), take_next("fill")
        return FAKES[name](
            cur, M, [h, w], args[2], args[3], bool(int(args[4])), fill if fill.numel() else None, args[5]
        )
    if name in ("resize", "crop_and_resize"):
        h, w = ints(2)
        torch._check(len(args) == 5, lambda: f"u8aug.pipeline: {where}: expected H W mode align_corners F")
        extra = [take_next("boxes")] if name == "crop_and_resize" else []
        return FAKES[name](cur, *extra, [h, w], args[2], bool(int(args[3])), args[4])
    if name == "pad":
        left, right, top, bottom = ints(4)
        torch._check(len(args) == 6, lambda: f"u8aug.pipeline: {where}: expected left right top bottom mode value")
        return FAKES["pad"](cur, [left, right, top, bottom], args[4], int(args[5]))
    if name == "filter2d_separable":
        torch._check(len(args) == 2, lambda: f"u8aug.pipeline: {where}: expected border_type F")
        take_next("take")
        return FAKES[name](cur, take_next("kernel_x"), take_next("kernel_y"), args[0], args[1])
    if name == "filter2d":
        torch._check(len(args) == 2, lambda: f"u8aug.pipeline: {where}: expected border_type F")
        take_next("take")
        return FAKES[name](cur, take_next("kernel"), args[0], args[1])
    if name == "median_blur":
        ky, kx = ints(2)
        torch._check(len(args) == 3, lambda: f"u8aug.pipeline: {where}: expected KH KW border_type")
        take_next("take")
        return FAKES[name](cur, [ky, kx], args[2])
    if name == "box_blur_pooled":
        ky, kx = ints(2)
        torch._check(len(args) == 4, lambda: f"u8aug.pipeline: {where}: expected KH KW border_type separable")
        take_next("take")
        return FAKES[name](cur, [ky, kx], args[2], bool(int(args[3])))
    if name == "normalize":
        return FAKES["normalize"](cur, take_next("mean"), take_next("std"))
    raise RuntimeError(f"u8aug.pipeline: {where}: unknown step '{name}'")


@_fake("pipeline")
def _pipeline_fake(img, steps, tensors):
    _check_image("pipeline", img)
    tensors = list(tensors)
    cur = img
    for i, text in enumerate(steps):
        where = f"step {i} ('{text}')"
        torch._check(
            cur.dtype == torch.uint8, lambda: f"u8aug.pipeline: {where}: follows normalize, which must end the pipeline"
        )
        words = text.split()
        torch._check(bool(words), lambda: f"u8aug.pipeline: {where}: is empty")
        cur = _pipeline_step(cur, where, words, tensors)
    torch._check(not tensors, lambda: f"u8aug.pipeline: {len(tensors)} tensors left over after the last step")
    return empty_output(img, img.shape) if cur is img else cur
