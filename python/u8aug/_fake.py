"""Fake (meta) implementations of every op, for torch.compile and torch.library.opcheck.

A fake gives the output's shape, dtype, device and strides. Strides follow the output-layout rule
of bindings/tensor_image.h, restated here: channels_last when the input is densely channels_last
and not also contiguous, contiguous otherwise. Fakes check their inputs as the kernels do, so a
bad input fails with the same message at trace time.
"""

import torch

_OPS_WITH_FAKES = []


def _fake(name):
    def register(fn):
        torch.library.register_fake(f"u8aug::{name}")(fn)
        _OPS_WITH_FAKES.append(name)
        return fn

    return register


def _check_image(op: str, img: torch.Tensor) -> None:
    torch._check(
        img.dtype == torch.uint8,
        lambda: f"u8aug.{op}: expected img of dtype torch.uint8, got {img.dtype}",
    )
    torch._check(
        img.dim() in (3, 4),
        lambda: f"u8aug.{op}: expected img of shape (C, H, W) or (B, C, H, W), got a "
        f"{img.dim()}-D tensor of shape {tuple(img.shape)}",
    )
    for s in img.shape:
        torch._check(
            s >= 1,
            lambda: f"u8aug.{op}: every dimension of img must be >= 1, got shape {tuple(img.shape)}",
        )


def _dense_strides(sizes, interleaved: bool):
    c, h, w = sizes[-3], sizes[-2], sizes[-1]
    strides = [1, w * c, c] if interleaved else [h * w, w, 1]
    if len(sizes) == 4:
        strides.insert(0, c * h * w)
    return strides


def _has_strides(sizes, strides, dense) -> bool:
    return all(s == 1 or st == d for s, st, d in zip(sizes, strides, dense))


def output_is_channels_last(img: torch.Tensor) -> bool:
    """The output-layout rule, the same as the kernels' (bindings/tensor_image.h)."""
    sizes, strides = img.shape, img.stride()
    return not _has_strides(sizes, strides, _dense_strides(sizes, False)) and _has_strides(
        sizes, strides, _dense_strides(sizes, True)
    )


def empty_output(img: torch.Tensor, sizes) -> torch.Tensor:
    return img.new_empty_strided(sizes, _dense_strides(sizes, output_is_channels_last(img)))


def _unary_image_fake(name):
    @_fake(name)
    def fake(img):
        _check_image(name, img)
        return empty_output(img, img.shape)

    return fake


for _name in ("hflip", "vflip"):
    _unary_image_fake(_name)
