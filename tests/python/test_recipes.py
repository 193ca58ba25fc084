"""Every data key beside a uint8 image, through kornia's containers: masks (uint8, int64, bool and
float; (B, H, W) and (B, 1, H, W)), boxes and keypoints come out exactly as kornia's float pipeline
gives them under the same seed, and the image keeps its dtype. Lists of data keys and dict inputs."""

import kornia.augmentation as K
import pytest
import torch
from dropin_cases import CASES

import u8aug.kornia as UK

B, H, W = 2, 20, 24
MASKS = {
    "uint8 (B, H, W)": lambda g: torch.randint(0, 5, (B, H, W), generator=g).to(torch.uint8),
    "int64 (B, 1, H, W)": lambda g: torch.randint(0, 5, (B, 1, H, W), generator=g),
    "bool (B, 1, H, W)": lambda g: torch.rand((B, 1, H, W), generator=g) > 0.5,
    "float (B, 1, H, W)": lambda g: torch.randint(0, 5, (B, 1, H, W), generator=g).float(),
    "float (B, H, W)": lambda g: torch.rand((B, H, W), generator=g),
}


def inputs(seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(0, 256, (B, 3, H, W), dtype=torch.uint8, generator=g)
    boxes = torch.tensor([[[2.0, 3.0, 12.0, 15.0]], [[5.0, 1.0, 20.0, 18.0]]])
    keypoints = torch.tensor([[[4.0, 5.0], [10.0, 12.0]], [[15.0, 3.0], [7.0, 16.0]]])
    return g, x, boxes, keypoints


def cases():
    seen = set()
    for name, kwargs in CASES:
        if name in seen:
            continue
        seen.add(name)
        yield pytest.param(name, kwargs, id=name)


def run(mod, name, kwargs, image, mask, boxes, keypoints, as_dict):
    torch.manual_seed(7)
    aug = mod.AugmentationSequential(
        getattr(mod, name)(**kwargs), data_keys=None if as_dict else ["input", "mask", "bbox_xyxy", "keypoints"]
    )
    if as_dict:
        out = aug({"image": image, "mask": mask, "bbox_xyxy": boxes, "keypoints": keypoints})
        return out["image"], out["mask"], out["bbox_xyxy"], out["keypoints"]
    return aug(image, mask, boxes, keypoints)


def check(name, kwargs, mask_kind, as_dict):
    g, x, boxes, keypoints = inputs()
    mask = MASKS[mask_kind](g)
    before = (x.clone(), mask.clone())
    try:
        theirs = run(K, name, kwargs, x.float() / 255, mask.clone(), boxes, keypoints, as_dict)
    except Exception as e:  # what kornia's float pipeline refuses, u8aug refuses the same way
        with pytest.raises(type(e)):
            run(UK, name, kwargs, x, mask, boxes, keypoints, as_dict)
        return
    ours = run(UK, name, kwargs, x, mask, boxes, keypoints, as_dict)
    assert torch.equal(x, before[0]) and torch.equal(mask, before[1]), "the inputs were changed"
    assert ours[0].dtype == (torch.float32 if name == "Normalize" else torch.uint8)
    assert ours[0].shape == theirs[0].shape
    assert ours[1].dtype == theirs[1].dtype == mask.dtype
    assert torch.equal(ours[1], theirs[1]), f"{name}: mask differs from kornia's float pipeline"
    for a, b in zip(ours[2:], theirs[2:]):
        assert torch.equal(a, b), f"{name}: boxes or keypoints differ"


@pytest.mark.parametrize("mask_kind", list(MASKS))
@pytest.mark.parametrize("name,kwargs", cases())
def test_every_mask_kind_boxes_and_keypoints_match_korninas_float_pipeline(name, kwargs, mask_kind):
    check(name, kwargs, mask_kind, as_dict=False)


@pytest.mark.parametrize("name,kwargs", cases())
def test_dict_input(name, kwargs):
    check(name, kwargs, "float (B, 1, H, W)", as_dict=True)


def test_nested_image_sequential_with_every_key():
    """A segmentation-and-detection recipe: an ImageSequential inside an AugmentationSequential."""

    def recipe(mod):
        return mod.AugmentationSequential(
            mod.ImageSequential(mod.RandomHorizontalFlip(), mod.RandomAffine(10.0, p=0.8)),
            mod.RandomResizedCrop((16, 16)),
            mod.ColorJitter(0.2, 0.2, 0.2, 0.05),
            data_keys=["input", "mask", "bbox_xyxy", "keypoints"],
        )

    g, x, boxes, keypoints = inputs(1)
    for kind, make in MASKS.items():
        mask = make(g)
        torch.manual_seed(3)
        theirs = recipe(K)(x.float() / 255, mask, boxes, keypoints)
        torch.manual_seed(3)
        ours = recipe(UK)(x, mask, boxes, keypoints)
        assert ours[0].dtype == torch.uint8 and ours[1].dtype == mask.dtype, kind
        for a, b in zip(ours[1:], theirs[1:]):
            assert torch.equal(a, b), kind


def one_image_recipes(mod):
    mean, std = torch.tensor([0.485, 0.456, 0.406]), torch.tensor([0.229, 0.224, 0.225])
    return {
        "standard": lambda: mod.AugmentationSequential(
            mod.RandomResizedCrop((16, 16)),
            mod.RandomHorizontalFlip(),
            mod.ColorJitter(0.4, 0.4, 0.4, 0.1),
            mod.Normalize(mean=mean, std=std),
        ),
        "geometric and an unfused step": lambda: mod.AugmentationSequential(
            mod.RandomAffine(15.0, p=0.7),
            mod.RandomClahe(p=0.5),
            mod.RandomGrayscale(p=0.5),
            mod.CenterCrop((12, 14)),
        ),
        "keepdim": lambda: mod.AugmentationSequential(
            mod.RandomHorizontalFlip(keepdim=True), mod.RandomGaussianBlur(3, (0.5, 1.0), keepdim=True)
        ),
    }


@pytest.mark.parametrize("recipe", list(one_image_recipes(UK)))
def test_one_image_a_call_takes_the_fused_path_with_kornias_draws_and_shape(recipe):
    """A (C, H, W) image (the DataLoader habit) runs fused as a batch of one: the bytes of the
    module-by-module path on the same image, kornia's output shape, the same draws."""
    from u8aug.kornia import _fused

    _, x, _, _ = inputs(2)
    for image in x:  # (C, H, W)
        torch.manual_seed(11)
        theirs = one_image_recipes(K)[recipe]()(image.float() / 255)
        torch.manual_seed(11)
        stepwise = _fused._KORNIA_FORWARD(one_image_recipes(UK)[recipe](), image)
        torch.manual_seed(11)
        aug = one_image_recipes(UK)[recipe]()
        ours = aug(image)
        assert ours.shape == theirs.shape == stepwise.shape
        assert torch.equal(ours, stepwise)
        assert _fused.fusable_call(aug, (image,), None, None) == (recipe != "keepdim")


# ---- recipes of public training code, on uint8 against kornia's float pipeline under one seed ----


def _quantize(x):
    return (x * 255).round().clamp(0, 255).to(torch.uint8)


def _same_as_kornia(make, x, seed=11):
    """make(module) -> the container; it runs on uint8 x and on kornia's float x / 255."""
    torch.manual_seed(seed)
    ours = make(UK)(x)
    torch.manual_seed(seed)
    theirs = make(K)(x.float() / 255)
    assert ours.dtype == torch.uint8 and ours.shape == theirs.shape
    assert torch.equal(ours, _quantize(theirs))


def test_ssl_two_views_of_one_batch():
    """SimCLR/BYOL trainers: two independently drawn views of the same uint8 batch. Each view is a
    chain, so kornia's side runs it class by class, quantized after each (the bytes a uint8 chain
    promises: ../shared/FIDELITY.md's pipelines), with the same draws."""
    g = torch.Generator().manual_seed(1)
    x = torch.randint(0, 256, (4, 3, 48, 40), dtype=torch.uint8, generator=g)

    def steps(mod):
        return [
            mod.RandomResizedCrop((32, 32), scale=(0.2, 1.0)),
            mod.RandomHorizontalFlip(),
            mod.ColorJitter(0.4, 0.4, 0.2, 0.1, p=0.8),
            mod.RandomGrayscale(p=0.2),
        ]

    torch.manual_seed(11)
    aug = UK.AugmentationSequential(*steps(UK))
    ours = torch.stack([aug(x), aug(x)])
    torch.manual_seed(11)
    kornia_steps, views = steps(K), []
    for _ in range(2):
        y = x
        for step in kornia_steps:
            y = _quantize(step(y.float() / 255))
        views.append(y)
    assert torch.equal(ours, torch.stack(views))


def test_rl_frame_stack_as_channels():
    """Pixel-based RL (DrQ's random shift): a stack of 9 frame channels, padded and cropped back."""
    g = torch.Generator().manual_seed(2)
    x = torch.randint(0, 256, (8, 9, 42, 42), dtype=torch.uint8, generator=g)
    _same_as_kornia(
        lambda mod: mod.AugmentationSequential(mod.RandomCrop((42, 42), padding=4, padding_mode="replicate")), x
    )


def test_multispectral_crops_and_flips():
    """Remote sensing: 13-band images through geometric classes."""
    g = torch.Generator().manual_seed(3)
    x = torch.randint(0, 256, (2, 13, 40, 36), dtype=torch.uint8, generator=g)
    _same_as_kornia(
        lambda mod: mod.AugmentationSequential(
            mod.RandomResizedCrop((32, 32)),
            mod.RandomHorizontalFlip(),
            mod.RandomVerticalFlip(),
            mod.RandomRotation90((0, 3)),
        ),
        x,
    )


def test_video_clips_one_draw_per_clip():
    """VideoSequential (B, T, C, H, W): one draw per clip, every frame alike."""
    g = torch.Generator().manual_seed(4)
    x = torch.randint(0, 256, (2, 4, 3, 24, 28), dtype=torch.uint8, generator=g)
    _same_as_kornia(
        lambda mod: K.VideoSequential(  # kornia's container holding the drop-ins
            mod.RandomResizedCrop((16, 16)), mod.RandomHorizontalFlip(), data_format="BTCHW", same_on_frame=True
        ),
        x,
    )
