"""normalize and to_float: float32 outputs equal (torch.equal) to kornia's normalize on x / 255."""

import kornia
import kornia.enhance as KE
import pytest
import torch

import u8aug
from conftest import photos, random_image, requires_cuda

IMAGENET = (torch.tensor([0.485, 0.456, 0.406]), torch.tensor([0.229, 0.224, 0.225]))
ALL_VALUES = torch.arange(256, dtype=torch.uint8).view(1, 1, 16, 16).expand(2, 3, 16, 16).contiguous()


def stats():
    g = torch.Generator().manual_seed(3)
    yield IMAGENET
    yield torch.tensor([0.5]), torch.tensor([0.5])
    yield torch.tensor([0.0]), torch.tensor([1.0])
    yield torch.rand(3, generator=g) * 2 - 1, torch.rand(3, generator=g) * 3 + 0.01
    yield torch.tensor([-0.3, 0.0, 1.7]), torch.tensor([-0.5, 1e-3, 7.0])


@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
def test_exact_on_every_value(layout):
    x = ALL_VALUES if layout == "contiguous" else ALL_VALUES.contiguous(memory_format=torch.channels_last)
    for mean, std in stats():
        out = u8aug.normalize(x, mean, std)
        assert out.dtype == torch.float32
        assert out.is_contiguous(
            memory_format=torch.channels_last if layout == "channels_last" else torch.contiguous_format
        )
        assert torch.equal(out, KE.normalize(x.float() / 255, mean, std)), (mean, std)
    assert torch.equal(u8aug.to_float(x), x.float() / 255)


def test_equals_the_augmentation_class_on_photos():
    aug = kornia.augmentation.Normalize(mean=IMAGENET[0], std=IMAGENET[1], p=1.0)
    for photo in photos().values():
        if photo.shape[0] != 3:
            continue
        x = photo.unsqueeze(0)
        before = x.clone()
        assert torch.equal(u8aug.normalize(x, *IMAGENET), aug(x.float() / 255))
        assert torch.equal(u8aug.normalize(photo, *IMAGENET), aug(x.float() / 255)[0])
        assert torch.equal(x, before)


def test_python_numbers_and_sequences():
    x = random_image((2, 3, 5, 6))
    assert torch.equal(
        u8aug.normalize(x, 0.5, 0.25), KE.normalize(x.float() / 255, torch.tensor([0.5]), torch.tensor([0.25]))
    )
    assert torch.equal(
        u8aug.normalize(x, [0.1, 0.2, 0.3], (1.0, 2.0, 3.0)),
        KE.normalize(x.float() / 255, torch.tensor([0.1, 0.2, 0.3]), torch.tensor([1.0, 2.0, 3.0])),
    )


@pytest.mark.compile
def test_compile_fullgraph_equals_eager():
    def pipeline(x, mean, std):
        return u8aug.normalize(u8aug.hflip(x), mean, std) + u8aug.to_float(x)

    compiled = torch.compile(pipeline, fullgraph=True)
    for x in (random_image((4, 3, 16, 20)), random_image((4, 3, 16, 20)).contiguous(memory_format=torch.channels_last)):
        assert torch.equal(compiled(x, *IMAGENET), pipeline(x, *IMAGENET))


@pytest.mark.parametrize(
    "mean,std,message",
    [
        (torch.tensor([0.5, 0.5]), torch.tensor([0.5]), "mean must hold 1 or C = 3 values, got 2"),
        (torch.tensor([0.5]), torch.tensor([0.0]), "std must not be 0"),
        (torch.tensor([float("nan")]), torch.tensor([0.5]), "mean must be finite"),
        (torch.tensor([0.5]), torch.tensor([float("inf")]), "std must be finite"),
        (torch.tensor([0.5], dtype=torch.float64), torch.tensor([0.5]), "float32"),
    ],
)
def test_bad_parameters(mean, std, message):
    with pytest.raises(RuntimeError, match=f"u8aug.normalize: .*{message}"):
        torch.ops.u8aug.normalize(random_image((2, 3, 4, 4)), mean, std)


@requires_cuda
@pytest.mark.cuda
def test_cuda_equals_cpu():
    for x in (ALL_VALUES, ALL_VALUES.contiguous(memory_format=torch.channels_last), random_image((8, 3, 224, 224))):
        for mean, std in stats():
            cpu = u8aug.normalize(x, mean, std)
            gpu = u8aug.normalize(x.cuda(), mean.cuda(), std.cuda())
            assert torch.equal(gpu.cpu(), cpu) and gpu.stride() == cpu.stride()
        assert torch.equal(u8aug.to_float(x.cuda()).cpu(), u8aug.to_float(x))
