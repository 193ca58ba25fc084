"""kornia classes that u8aug does not run on uint8 and that say so by name on a uint8 image, rather
than failing inside kornia with a dtype error (tests/python/test_coverage.py lists every kornia class
without a uint8 path and why)."""

import kornia.augmentation as K
import torch


class RandomDissolving(K.RandomDissolving):
    """kornia.augmentation.RandomDissolving, which refuses uint8 images: its transform is one reverse
    step of a Stable Diffusion model (the ``diffusers`` package and a downloaded checkpoint, built in
    the constructor), a float network u8aug has no kernel for. Float input is kornia's own path."""

    def transform_tensor(self, input, *, shape=None, match_channel=True):
        if input.dtype == torch.uint8:
            raise NotImplementedError(
                "u8aug.kornia.RandomDissolving: no uint8 path: the transform runs a Stable Diffusion model "
                "(diffusers) in float; pass x.float() / 255"
            )
        return K.RandomDissolving.transform_tensor(self, input, shape=shape, match_channel=match_channel)
