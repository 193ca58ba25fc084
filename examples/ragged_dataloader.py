"""A DataLoader of decoded uint8 images of different sizes, augmented a batch at a time.

Images of different sizes cannot be stacked, which is why augmentation usually runs image by
image inside the dataset. With u8aug the collate function hands the list itself to the pipeline:
RandomResizedCrop draws each image's crop for its own size (as kornia would for that image) and
makes one (B, 3, 224, 224) batch in one call; the flip, ColorJitter and Normalize then run on that
batch. Run it: python examples/ragged_dataloader.py
"""

import torch
from torch.utils.data import DataLoader, Dataset

import u8aug.kornia as UK

MEAN, STD = torch.tensor([0.485, 0.456, 0.406]), torch.tensor([0.229, 0.224, 0.225])


class DecodedImages(Dataset):
    """Stands in for a folder of JPEGs: uint8 (3, H, W) images of ImageNet-like sizes, as
    torchvision.io.decode_jpeg returns them."""

    SIZES = [(333, 500), (375, 500), (500, 375), (480, 640), (640, 480), (500, 500)]

    def __init__(self, count=64):
        self.count = count

    def __len__(self):
        return self.count

    def __getitem__(self, i):
        h, w = self.SIZES[i % len(self.SIZES)]
        g = torch.Generator().manual_seed(i)
        return torch.randint(0, 256, (3, h, w), dtype=torch.uint8, generator=g), i % 10


class AugmentRaggedBatch:
    """The collate function: a list of (image, label) pairs -> (augmented float32 batch, labels)."""

    def __init__(self):
        self.augment = UK.AugmentationSequential(
            UK.RandomResizedCrop((224, 224)),
            UK.RandomHorizontalFlip(),
            UK.ColorJitter(0.4, 0.4, 0.4, 0.1),
            UK.Normalize(MEAN, STD),
        )

    def __call__(self, samples):
        images = [image for image, _ in samples]
        labels = torch.tensor([label for _, label in samples])
        return self.augment(images), labels


def main(batches=2, workers=0):
    loader = DataLoader(DecodedImages(), batch_size=32, collate_fn=AugmentRaggedBatch(), num_workers=workers)
    for step, (x, y) in enumerate(loader):
        print(f"batch {step}: {tuple(x.shape)} {x.dtype}, labels {tuple(y.shape)}")
        if step + 1 == batches:
            break


if __name__ == "__main__":
    main()
