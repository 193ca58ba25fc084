"""Ragged batches: a list of uint8 (C, H_i, W_i) images of different sizes made one batch by
u8aug.resize_list, by the size-setting drop-ins and by AugmentationSequential (the rule in
python/u8aug/kornia/_ragged.py: sample i is row i of kornia run on B copies of image i)."""

import kornia.augmentation as K
import pytest
import torch

import u8aug
import u8aug.kornia as UK

SIZES = [(333, 500), (375, 500), (500, 375), (480, 640), (64, 300), (300, 40), (224, 224)]


def _images(sizes=SIZES, c=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [torch.randint(0, 256, (c, h, w), dtype=torch.uint8, generator=g) for h, w in sizes]


def _quantize(x):
    return (x * 255).round().clamp(0, 255).to(torch.uint8)


def _hwc_views(imgs):
    return [img.permute(1, 2, 0).contiguous().permute(2, 0, 1) for img in imgs]


@pytest.mark.parametrize("fidelity", ["exact", "fast"])
@pytest.mark.parametrize(
    "mode,align", [("bilinear", False), ("bilinear", True), ("bicubic", False), ("nearest-exact", False)]
)
def test_resize_list_gives_each_image_its_own_op_bytes(mode, align, fidelity):
    imgs = _images()
    boxes = torch.tensor([[[3, 5], [30, 5], [30, 60], [3, 60]]] * len(imgs), dtype=torch.float32)
    for layout in (imgs, _hwc_views(imgs)):
        out = u8aug.resize_list(layout, None, (61, 47), mode, align, fidelity)
        ref = torch.stack([u8aug.resize(i[None], (61, 47), mode, align, fidelity)[0] for i in layout])
        assert torch.equal(out, ref)
        out = u8aug.resize_list(layout, boxes, (20, 30), mode, align, fidelity)
        ref = [
            u8aug.crop_and_resize(i[None], b[None], (20, 30), mode, align, fidelity)[0] for i, b in zip(layout, boxes)
        ]
        assert torch.equal(out, torch.stack(ref))
        assert out.is_contiguous(memory_format=torch.channels_last) == (layout is not imgs)


def test_resize_list_compiles_fullgraph():
    imgs = _images(SIZES[:3])
    run = torch.compile(lambda images: u8aug.resize_list(images, None, (32, 40)), fullgraph=True)
    assert torch.equal(run(imgs), u8aug.resize_list(imgs, None, (32, 40)))


def test_resize_list_refuses_bad_lists_clearly():
    a, b = _images(SIZES[:2])
    rows = [
        ([], ValueError, "non-empty list"),
        ([a, b.float()], RuntimeError, r"imgs\[1\] of dtype torch.uint8"),
        ([a, b[None]], RuntimeError, r"imgs\[1\] of shape \(C, H, W\)"),
        ([a, b[:2]], RuntimeError, "the same channel count"),
    ]
    for imgs, error, needle in rows:
        with pytest.raises(error, match=needle):
            u8aug.resize_list(imgs, None, (8, 8))
    with pytest.raises(RuntimeError, match=r"boxes of dtype torch.float32 and shape \(B, 4, 2\) with B = 2"):
        u8aug.resize_list([a, b], torch.zeros(3, 4, 2), (8, 8))
    outside = torch.tensor(
        [[[0, 0], [9, 0], [9, 9], [0, 9]], [[0, 0], [600, 0], [600, 9], [0, 9]]], dtype=torch.float32
    )
    with pytest.raises(RuntimeError, match=r"u8aug.resize_list: imgs\[1\]: .*inside the 375x500 image"):
        u8aug.resize_list([a, b], outside, (8, 8))


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"scale": (0.5, 1.0), "ratio": (0.5, 2.0)},
        {"scale": (1.5, 2.0)},  # no candidate fits: kornia's whole-image fallback, narrow and wide images
        {"ratio": (2.0, 3.0), "scale": (0.9, 1.0)},
        {"same_on_batch": True},
        {"resample": "bicubic"},
    ],
    ids=["default", "ranges", "fallback", "wide-ratio", "same_on_batch", "bicubic"],
)
def test_random_resized_crop_on_a_list_is_kornia_per_image_size(kwargs):
    imgs = _images()
    torch.manual_seed(5)
    aug = UK.RandomResizedCrop((96, 80), **kwargs)
    out = aug(imgs)
    assert out.shape == (len(imgs), 3, 96, 80) and out.dtype == torch.uint8
    assert torch.equal(aug._params["input_size"], torch.tensor(SIZES))
    for i, img in enumerate(imgs):
        torch.manual_seed(5)
        kornia_aug = K.RandomResizedCrop((96, 80), **kwargs)
        ref = kornia_aug(img[None].expand(len(imgs), -1, -1, -1).float() / 255)
        assert torch.equal(kornia_aug._params["src"][i], aug._params["src"][i]), i
        assert torch.equal(_quantize(ref[i]), out[i]), i


@pytest.mark.parametrize("same_on_batch", [False, True])
def test_random_crop_on_a_list_is_kornia_per_image_size(same_on_batch):
    imgs = _images()
    torch.manual_seed(6)
    aug = UK.RandomCrop((40, 36), same_on_batch=same_on_batch)
    out = aug(imgs)
    for i, img in enumerate(imgs):
        torch.manual_seed(6)
        kornia_aug = K.RandomCrop((40, 36), same_on_batch=same_on_batch)
        ref = kornia_aug(img[None].expand(len(imgs), -1, -1, -1).float() / 255)
        for key in ("src", "dst", "input_size", "output_size"):
            assert torch.equal(kornia_aug._params[key][i], aug._params[key][i]), (i, key)
        assert torch.equal(_quantize(ref[i]), out[i]), i


def test_a_list_of_one_size_is_the_stacked_batch():
    imgs = _images([(120, 90)] * 5)
    for aug in (UK.RandomResizedCrop((64, 64)), UK.RandomCrop((64, 50)), UK.Resize((50, 70)), UK.CenterCrop((60, 80))):
        torch.manual_seed(2)
        a = aug(imgs)
        torch.manual_seed(2)
        assert torch.equal(a, aug(torch.stack(imgs))), type(aug).__name__


@pytest.mark.parametrize(
    "aug", [UK.Resize((64, 72)), UK.Resize((64, 72), antialias=True), UK.CenterCrop((40, 36)), UK.PadTo((700, 700))]
)
def test_draw_free_classes_on_a_list_are_the_class_per_image(aug):
    imgs = _images()
    out = aug(imgs)
    if "src" in aug._params:
        assert aug._params["src"].shape[0] == len(imgs)
    assert torch.equal(out, torch.stack([aug(img[None])[0] for img in imgs]))


@pytest.mark.parametrize("aug", [UK.LongestMaxSize(200), UK.SmallestMaxSize(100), UK.Resize(90)])
def test_classes_that_size_each_image_its_own_way_give_a_list(aug):
    imgs = _images()
    out = aug(imgs)
    assert isinstance(out, list) and len(out) == len(imgs)
    for got, img in zip(out, imgs):
        assert torch.equal(got, aug(img[None])[0])


def test_a_list_stays_a_list_until_a_class_gives_one_size():
    imgs = _images()
    seq = UK.AugmentationSequential(UK.LongestMaxSize(256), UK.PadTo((256, 256)), UK.RandomHorizontalFlip())
    torch.manual_seed(0)
    got = seq(imgs)
    torch.manual_seed(0)
    padded = torch.stack([UK.PadTo((256, 256))(UK.LongestMaxSize(256)(img[None]))[0] for img in imgs])
    assert torch.equal(got, UK.RandomHorizontalFlip()(padded))
    assert [item.name for item in seq._params] == [name for name, _ in seq.named_children()]


def test_augmentation_sequential_on_a_list_is_the_first_class_then_the_rest():
    imgs = _images()
    mean, std = torch.tensor([0.485, 0.456, 0.406]), torch.tensor([0.229, 0.224, 0.225])

    def rest():
        return [UK.RandomHorizontalFlip(), UK.ColorJitter(0.4, 0.4, 0.4, 0.1), UK.RandomGrayscale(p=0.2)]

    seq = UK.AugmentationSequential(UK.RandomResizedCrop((64, 64)), *rest(), UK.Normalize(mean, std))
    for seed in (0, 1):
        torch.manual_seed(seed)
        got = seq(imgs)
        torch.manual_seed(seed)
        batch = UK.RandomResizedCrop((64, 64))(imgs)
        want = UK.AugmentationSequential(*rest(), UK.Normalize(mean, std))(batch)
        assert got.dtype == torch.float32 and torch.equal(got, want)
    names = [item.name for item in seq._params]
    assert names == [name for name, _ in seq.named_children()]


def test_install_gives_kornias_own_classes_lists():
    UK.install()
    try:
        imgs = _images(SIZES[:3])
        torch.manual_seed(4)
        a = K.AugmentationSequential(K.RandomResizedCrop((32, 32)), K.RandomHorizontalFlip())(imgs)
        torch.manual_seed(4)
        b = UK.AugmentationSequential(UK.RandomResizedCrop((32, 32)), UK.RandomHorizontalFlip())(imgs)
        assert torch.equal(a, b)
    finally:
        UK.uninstall()


def test_lists_are_refused_where_they_cannot_be_one_batch():
    imgs = _images(SIZES[:3])
    rows = [
        (UK.RandomResizedCrop((32, 32), p=0.5), ValueError, "needs p=1.0"),
        (UK.AugmentationSequential(UK.RandomHorizontalFlip(), UK.Resize((32, 32))), ValueError, "made one size"),
        (UK.AugmentationSequential(UK.LongestMaxSize(64), UK.ColorJitter(0.1)), ValueError, "before ColorJitter"),
        (UK.RandomCrop((400, 400), pad_if_needed=True), NotImplementedError, "padding"),
        (UK.AugmentationSequential(UK.Resize((32, 32)), data_keys=["input", "mask"]), NotImplementedError, "data_keys"),
    ]
    for aug, error, needle in rows:
        with pytest.raises(error, match=needle):
            aug(imgs)
    with pytest.raises(ValueError, match="uint8 \\(C, H, W\\) images; image 1"):
        UK.Resize((32, 32))([imgs[0], imgs[1].float() / 255])
    with pytest.raises(ValueError, match="one channel count"):
        UK.Resize((32, 32))([imgs[0], imgs[1][:1]])
    before = [img.clone() for img in imgs]
    UK.RandomResizedCrop((32, 32))(imgs)
    assert all(torch.equal(a, b) for a, b in zip(imgs, before)), "an input changed"


def test_the_dataloader_example_runs(capsys):
    import runpy
    from pathlib import Path

    example = runpy.run_path(str(Path(__file__).parents[2] / "examples" / "ragged_dataloader.py"))
    example["main"](batches=1, workers=1)
    assert "batch 0: (32, 3, 224, 224) torch.float32, labels (32,)" in capsys.readouterr().out
