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
crop-and-resize, resize or crop kernels; the elastic class runs u8aug's elastic_transform (kornia's
smoothing of its drawn noise, in F.conv2d's order, then the sampling); the thin-plate-spline and
fisheye classes build kornia's own sampling grid from their draws and run u8aug's grid_sample. Resampling is bilinear,
bicubic or nearest (kornia's nearest-exact for its crops and Resize); RandomResizedCrop also takes
``cropping_mode="resample"``, as do RandomCrop and CenterCrop. Options u8aug has no kernel for
raise NotImplementedError on uint8 input.

The batch mixes RandomMixUpV2 and RandomCutMixV2 (``u8aug.kornia._mix``) take ``(images, labels)``
as kornia's do and return kornia's labels; ``install()`` gives kornia's own mix classes their uint8
forward too.
"""

import kornia.augmentation as K
import torch

from . import _containers, _draws, _plasma
from ._apply import KERNELS
from ._mix import (  # noqa: F401  (their own forward: kornia's mix base)
    RandomCutMixV2,
    RandomJigsaw,
    RandomMixUpV2,
    RandomMosaic,
    RandomTransplantation,
)
from ._patch import install, installed, uint8_dropin, uninstall
from ._refused import RandomDissolving  # noqa: F401  (refuses uint8 by name)

# One class per entry of KERNELS, declared so that IDEs and type checkers see them; each is
# kornia's own class with the uint8 methods (tests/python/test_kornia_dropin.py checks the two
# lists agree).


@uint8_dropin
class RandomAffine(K.RandomAffine):
    """kornia.augmentation.RandomAffine that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomRotation(K.RandomRotation):
    """kornia.augmentation.RandomRotation that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomRotation90(K.RandomRotation90):
    """kornia.augmentation.RandomRotation90 that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomShear(K.RandomShear):
    """kornia.augmentation.RandomShear that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomTranslate(K.RandomTranslate):
    """kornia.augmentation.RandomTranslate that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomPerspective(K.RandomPerspective):
    """kornia.augmentation.RandomPerspective that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomElasticTransform(K.RandomElasticTransform):
    """kornia.augmentation.RandomElasticTransform that also takes uint8 images (u8aug kernels)."""

    def generate_parameters(self, shape):
        # kornia's draw, its torch.rand numbers made by u8aug.rand on the CPU in float32 (the same
        # numbers from the same generator state, faster: _rng.py)
        probe = torch.empty(0, device=self.device, dtype=self.dtype)
        if probe.device.type != "cpu" or probe.dtype != torch.float32 or len(shape) != 4:
            return super().generate_parameters(shape)
        b, _, h, w = shape
        noise = torch.ops.u8aug.rand([1 if self.same_on_batch else b, 2, h, w])
        if self.same_on_batch:
            noise = noise.expand(b, 2, h, w)
        return {"noise": noise * 2 - 1}


@uint8_dropin
class RandomThinPlateSpline(K.RandomThinPlateSpline):
    """kornia.augmentation.RandomThinPlateSpline that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomFisheye(K.RandomFisheye):
    """kornia.augmentation.RandomFisheye that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomResizedCrop(K.RandomResizedCrop):
    """kornia.augmentation.RandomResizedCrop that also takes uint8 images (u8aug kernels)."""

    # kornia's draws, bit for bit, in fewer tensor ops (_draws.py)
    generate_parameters = _draws.replicated_generate_parameters(K.RandomResizedCrop)


@uint8_dropin
class RandomCrop(K.RandomCrop):
    """kornia.augmentation.RandomCrop that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class CenterCrop(K.CenterCrop):
    """kornia.augmentation.CenterCrop that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class Resize(K.Resize):
    """kornia.augmentation.Resize that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class LongestMaxSize(K.LongestMaxSize):
    """kornia.augmentation.LongestMaxSize that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class SmallestMaxSize(K.SmallestMaxSize):
    """kornia.augmentation.SmallestMaxSize that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class PadTo(K.PadTo):
    """kornia.augmentation.PadTo that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomChannelShuffle(K.RandomChannelShuffle):
    """kornia.augmentation.RandomChannelShuffle that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomHorizontalFlip(K.RandomHorizontalFlip):
    """kornia.augmentation.RandomHorizontalFlip that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomVerticalFlip(K.RandomVerticalFlip):
    """kornia.augmentation.RandomVerticalFlip that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomBrightness(K.RandomBrightness):
    """kornia.augmentation.RandomBrightness that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomContrast(K.RandomContrast):
    """kornia.augmentation.RandomContrast that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomGamma(K.RandomGamma):
    """kornia.augmentation.RandomGamma that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomSolarize(K.RandomSolarize):
    """kornia.augmentation.RandomSolarize that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomPosterize(K.RandomPosterize):
    """kornia.augmentation.RandomPosterize that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomSaturation(K.RandomSaturation):
    """kornia.augmentation.RandomSaturation that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomHue(K.RandomHue):
    """kornia.augmentation.RandomHue that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomEqualize(K.RandomEqualize):
    """kornia.augmentation.RandomEqualize that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomGaussianBlur(K.RandomGaussianBlur):
    """kornia.augmentation.RandomGaussianBlur that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomRGBShift(K.RandomRGBShift):
    """kornia.augmentation.RandomRGBShift that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomChannelDropout(K.RandomChannelDropout):
    """kornia.augmentation.RandomChannelDropout that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomErasing(K.RandomErasing):
    """kornia.augmentation.RandomErasing that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomGaussianNoise(K.RandomGaussianNoise):
    """kornia.augmentation.RandomGaussianNoise that also takes uint8 images (kornia's noise, quantized)."""


@uint8_dropin
class RandomSaltAndPepperNoise(K.RandomSaltAndPepperNoise):
    """kornia.augmentation.RandomSaltAndPepperNoise that also takes uint8 images."""

    # kornia's draws, bit for bit, in fewer tensor ops (_draws.py)
    generate_parameters = _draws.replicated_generate_parameters(K.RandomSaltAndPepperNoise)


@uint8_dropin
class RandomBoxBlur(K.RandomBoxBlur):
    """kornia.augmentation.RandomBoxBlur that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomSharpness(K.RandomSharpness):
    """kornia.augmentation.RandomSharpness that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomLinearIllumination(K.RandomLinearIllumination):
    """kornia.augmentation.RandomLinearIllumination that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomLinearCornerIllumination(K.RandomLinearCornerIllumination):
    """kornia.augmentation.RandomLinearCornerIllumination that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomGaussianIllumination(K.RandomGaussianIllumination):
    """kornia.augmentation.RandomGaussianIllumination that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomRain(K.RandomRain):
    """kornia.augmentation.RandomRain that also takes uint8 images (u8aug's rain op on kornia's own
    draws)."""


@uint8_dropin
class RandomSnow(K.RandomSnow):
    """kornia.augmentation.RandomSnow that also takes uint8 images (u8aug's snow op: kornia's HLS
    round trip, exact)."""


@uint8_dropin
class RandomPlasmaBrightness(K.RandomPlasmaBrightness):
    """kornia.augmentation.RandomPlasmaBrightness that also takes uint8 images (u8aug kernels on
    kornia's fractal map, drawn by u8aug.kornia._plasma: kornia's numbers bit for bit, faster)."""

    def generate_parameters(self, shape):
        return _plasma.generate_parameters(self, K.RandomPlasmaBrightness, shape, channels=None)


@uint8_dropin
class RandomPlasmaContrast(K.RandomPlasmaContrast):
    """kornia.augmentation.RandomPlasmaContrast that also takes uint8 images (u8aug kernels on
    kornia's fractal map, drawn by u8aug.kornia._plasma: kornia's numbers bit for bit, faster)."""

    def generate_parameters(self, shape):
        return _plasma.generate_parameters(self, K.RandomPlasmaContrast, shape, channels=None)


@uint8_dropin
class RandomPlasmaShadow(K.RandomPlasmaShadow):
    """kornia.augmentation.RandomPlasmaShadow that also takes uint8 images (u8aug kernels on kornia's
    fractal map, drawn by u8aug.kornia._plasma: kornia's numbers bit for bit, faster)."""

    def generate_parameters(self, shape):
        return _plasma.generate_parameters(self, K.RandomPlasmaShadow, shape, channels=1)


@uint8_dropin
class RandomAutoContrast(K.RandomAutoContrast):
    """kornia.augmentation.RandomAutoContrast that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomPlanckianJitter(K.RandomPlanckianJitter):
    """kornia.augmentation.RandomPlanckianJitter that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomClahe(K.RandomClahe):
    """kornia.augmentation.RandomClahe that also takes uint8 images (u8aug's clahe op on kornia's drawn
    clip limits; with ``slow_and_differentiable=True``, kornia's own float CLAHE on x / 255, quantized)."""


@uint8_dropin
class RandomJPEG(K.RandomJPEG):
    """kornia.augmentation.RandomJPEG that also takes uint8 images (u8aug's jpeg op: kornia's
    differentiable JPEG codec on each sample's drawn quality, in kornia's float32 order)."""


@uint8_dropin
class RandomMotionBlur(K.RandomMotionBlur):
    """kornia.augmentation.RandomMotionBlur that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomMedianBlur(K.RandomMedianBlur):
    """kornia.augmentation.RandomMedianBlur that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomInvert(K.RandomInvert):
    """kornia.augmentation.RandomInvert that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class RandomGrayscale(K.RandomGrayscale):
    """kornia.augmentation.RandomGrayscale that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class Normalize(K.Normalize):
    """kornia.augmentation.Normalize that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class ColorJiggle(K.ColorJiggle):
    """kornia.augmentation.ColorJiggle that also takes uint8 images (u8aug kernels)."""


@uint8_dropin
class ColorJitter(K.ColorJitter):
    """kornia.augmentation.ColorJitter that also takes uint8 images (u8aug kernels)."""

    # kornia's draws, bit for bit, in fewer tensor ops (_draws.py)
    generate_parameters = _draws.replicated_generate_parameters(K.ColorJitter)


# kornia's Denormalize maps a normalized float image back to [0, 1] floats: its input is never
# uint8, so it is kornia's class itself, here so that a pipeline can name every class from one module.
Denormalize = K.Denormalize

# kornia's containers, with a batch shape torch.compile traces on every supported torch
AugmentationSequential = _containers.AugmentationSequential
ImageSequential = _containers.ImageSequential

# Inductor options under which a compiled augmentation draws kornia's random numbers exactly as
# eager does: random ops run as eager's own kernels (fallback_random), and the scheduler keeps
# independent draws in program order (reorder_for_locality would swap, say, RandomAffine's angle and
# scale draws; reorder_for_peak_memory swapped the draws of a pipeline of three colour
# augmentations, which then differed from eager on every seed). Pass them per call:
# torch.compile(aug, fullgraph=True, options=COMPILE_OPTIONS). size_asserts off: a compiled call
# no longer checks each op's inputs and output against its fake (9-28 us of a one-image call of
# the standard recipe, measured on a Zen 3 EPYC); the fakes are checked against the kernels by the
# tests instead (opcheck on every op, test_kept's kept-call fakes).
COMPILE_OPTIONS = {
    "fallback_random": True,
    "reorder_for_locality": False,
    "reorder_for_peak_memory": False,
    "size_asserts": False,
}

__all__ = [
    *KERNELS,
    "RandomMixUpV2",
    "RandomCutMixV2",
    "RandomJigsaw",
    "RandomMosaic",
    "RandomTransplantation",
    "RandomDissolving",
    "Denormalize",
    "AugmentationSequential",
    "ImageSequential",
    "install",
    "uninstall",
    "installed",
    "KERNELS",
    "COMPILE_OPTIONS",
]
