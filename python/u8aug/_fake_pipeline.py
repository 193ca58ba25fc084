"""The pipeline's fake: its steps' own fakes, one after another (bindings/pipeline.inc's parse)."""

import torch

from ._fake import FAKES, _check_image, _fake, empty_output
from ._steps import STEPS

# The pipeline: its steps' own fakes, one after another, so the shape, strides and checks are the
# step-by-step chain's. A step's words and tensors are its op's arguments after img, in the order of
# the op's schema (the one list: bindings/pipeline_steps.h, read by _steps.py).


def _pipeline_step(cur, where, words, tensors):
    name, args = words[0], list(words[1:])
    torch._check(name in STEPS, lambda: f"u8aug.pipeline: {where}: unknown step '{name}'")

    def take_next(what):
        torch._check(
            bool(tensors), lambda: f"u8aug.pipeline: {where}: expected a tensor for {what}, but tensors ran out"
        )
        return tensors.pop(0)

    def word(what):
        torch._check(bool(args), lambda: f"u8aug.pipeline: {where}: expected {what} after its name")
        return args.pop(0)

    def integer(what):
        w = word(what)
        try:
            return int(w)
        except ValueError:
            raise RuntimeError(f"u8aug.pipeline: {where}: expected {what} as an integer, got '{w}'") from None

    gated, arguments = STEPS[name]
    if gated:
        take = take_next("take")
        batch = cur.shape[0] if cur.dim() == 4 else 1
        torch._check(
            take.numel() == 0 or (take.dtype == torch.bool and take.dim() == 1 and take.numel() == batch),
            lambda: f"u8aug.pipeline: {where}: expected take to be empty or a 1-D bool tensor of B = {batch} values",
        )
    values = []
    for a in arguments:
        if a.kind == "tensor":
            t = take_next(a.name)
            values.append(None if a.optional and t.numel() == 0 else t)
        elif a.kind == "ints":
            values.append([integer(a.name) for _ in range(a.count)])
        elif a.kind == "int":
            values.append(integer(a.name))
        elif a.kind == "bool":
            v = integer(a.name)
            torch._check(v in (0, 1), lambda: f"u8aug.pipeline: {where}: expected {a.name} as 0 or 1, got {v}")
            values.append(bool(v))
        else:  # str
            values.append(word(a.name))
    torch._check(not args, lambda: f"u8aug.pipeline: {where}: unexpected '{args[0]}'")
    return FAKES[name](cur, *values)


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
