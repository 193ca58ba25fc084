"""A DataLoader whose workers augment one decoded uint8 image a call, the usual habit, with u8aug's
drop-in container, and the same recipe with albumentations beside it.

Each worker runs the standard recipe (RandomResizedCrop to 224, a flip, ColorJitter at p=1,
Normalize) on one (3, H, W) uint8 image at a time, as a dataset's ``__getitem__`` does; the
DataLoader stacks the float32 results. ``--measure`` times both libraries at the same worker
count (images a second over a few passes, one thread a worker) and prints them side by side.

    python examples/per_image_dataloader.py                      # two batches, u8aug
    python examples/per_image_dataloader.py --measure --workers 2
"""

import argparse
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

import u8aug.kornia as UK

MEAN, STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
SIZES = [(333, 500), (375, 500), (500, 375), (480, 640), (640, 480), (500, 500)]


def _photo(i):
    """Stands in for a decoded JPEG: a uint8 (3, H, W) image of an ImageNet-like size."""
    h, w = SIZES[i % len(SIZES)]
    g = torch.Generator().manual_seed(i)
    return torch.randint(0, 256, (3, h, w), dtype=torch.uint8, generator=g)


class U8augImages(Dataset):
    def __init__(self, count):
        self.count = count
        self.images = [_photo(i) for i in range(len(SIZES))]
        self.augment = UK.AugmentationSequential(
            UK.RandomResizedCrop((224, 224)),
            UK.RandomHorizontalFlip(),
            UK.ColorJitter(0.4, 0.4, 0.4, 0.1, p=1.0),
            UK.Normalize(torch.tensor(MEAN), torch.tensor(STD)),
        )

    def __len__(self):
        return self.count

    def __getitem__(self, i):
        return self.augment(self.images[i % len(self.images)])[0], i % 10  # (1, 3, 224, 224) -> (3, 224, 224)


class AlbumentationsImages(Dataset):
    def __init__(self, count):
        import albumentations as A

        self.count = count
        self.images = [np.ascontiguousarray(_photo(i).permute(1, 2, 0).numpy()) for i in range(len(SIZES))]
        self.augment = A.Compose(
            [
                A.RandomResizedCrop(size=(224, 224)),
                A.HorizontalFlip(),
                A.ColorJitter(0.4, 0.4, 0.4, 0.1, p=1.0),
                A.Normalize(mean=MEAN, std=STD),
                A.ToTensorV2(),
            ]
        )

    def __len__(self):
        return self.count

    def __getitem__(self, i):
        return self.augment(image=self.images[i % len(self.images)])["image"], i % 10


def _one_thread(_):
    torch.set_num_threads(1)
    try:
        import cv2

        cv2.setNumThreads(1)
    except ImportError:
        pass


def images_per_second(dataset, workers, passes=3):
    loader = DataLoader(
        dataset, batch_size=32, num_workers=workers, worker_init_fn=_one_thread, persistent_workers=workers > 0
    )
    best = 0.0
    for _ in range(passes):
        start = time.perf_counter()
        n = sum(x.shape[0] for x, _ in loader)
        best = max(best, n / (time.perf_counter() - start))
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--images", type=int, default=512, help="images a pass when measuring")
    ap.add_argument("--measure", action="store_true", help="time u8aug and albumentations side by side")
    args = ap.parse_args(argv)
    if not args.measure:
        loader = DataLoader(U8augImages(64), batch_size=32, num_workers=args.workers)
        for step, (x, y) in enumerate(loader):
            print(f"batch {step}: {tuple(x.shape)} {x.dtype}, labels {tuple(y.shape)}")
        return
    print(f"{args.workers} worker(s), one thread each, {args.images} images a pass, the best of 3 passes:")
    for name, dataset in (("u8aug.kornia", U8augImages), ("albumentations", AlbumentationsImages)):
        print(f"  {name}: {images_per_second(dataset(args.images), args.workers):,.0f} images/s")


if __name__ == "__main__":
    main()
