"""Determinism and concurrency, for every catalogued op from its sample inputs (op_samples.py): the
same bytes at 1, 2 and 4 torch threads, from many Python threads at once, and in DataLoader workers
started by fork and by spawn; the drop-in classes give the same outputs under the same seed in a
worker as in the main process."""

from concurrent.futures import ThreadPoolExecutor

import pytest
import torch
from torch.utils.data import DataLoader, Dataset

import u8aug
import u8aug.kornia as UK
from op_samples import SAMPLES

NAMES = [op["name"] for op in u8aug.catalogue()]


def _image(name, seed=0):
    # Large enough that torch's thread pool splits the work. resize and crop_and_resize follow the
    # kernel torch's own interpolate would pick, which for 3 channels depends on torch's thread count
    # (pixel/resize.h, torch_blend_order): 4 channels keep that choice fixed.
    c = 4 if name in ("resize", "crop_and_resize") else 3
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 256, (3, c, 96, 130), dtype=torch.uint8, generator=g)


def _run(name, seed=0):
    return getattr(torch.ops.u8aug, name)(*SAMPLES[name](_image(name, seed)))


@pytest.fixture
def restore_threads():
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)


@pytest.mark.parametrize("name", NAMES)
def test_same_bytes_at_every_thread_count(name, restore_threads):
    torch.manual_seed(0)
    results = []
    for threads in (1, 2, 4):
        torch.set_num_threads(threads)
        torch.manual_seed(0)  # samples drawing random values draw the same ones
        results.append(_run(name))
    for r in results[1:]:
        assert torch.equal(r, results[0])


def test_many_python_threads_at_once():
    torch.manual_seed(0)
    args = {name: SAMPLES[name](_image(name)) for name in NAMES}
    expected = {name: getattr(torch.ops.u8aug, name)(*args[name]) for name in NAMES}
    jobs = [name for name in NAMES for _ in range(4)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        for name, out in pool.map(lambda n: (n, getattr(torch.ops.u8aug, n)(*args[n])), jobs):
            assert torch.equal(out, expected[name]), name


class OpOutputs(Dataset):
    """Item i: every op's output on the sample inputs of seed i (the random fill of
    warp_perspective drawn after torch.manual_seed(i))."""

    def __len__(self):
        return 2

    def __getitem__(self, i):
        out = {}
        for name in NAMES:
            torch.manual_seed(i)
            out[name] = _run(name, seed=i)
        return out


class DropinOutputs(Dataset):
    """Item i: kornia-style augmentations through u8aug.kornia under torch.manual_seed(i)."""

    def __len__(self):
        return 2

    def __getitem__(self, i):
        torch.manual_seed(i)
        aug = UK.AugmentationSequential(
            UK.RandomResizedCrop((40, 40)),
            UK.RandomHorizontalFlip(),
            UK.ColorJitter(0.4, 0.4, 0.4, 0.1, p=0.8),
            UK.RandomGrayscale(p=0.3),
            UK.RandomAffine(20, p=0.7),
        )
        g = torch.Generator().manual_seed(100 + i)
        x = torch.randint(0, 256, (4, 3, 64, 80), dtype=torch.uint8, generator=g)
        return aug(x)


def _in_workers(dataset, context):
    loader = DataLoader(dataset, batch_size=None, num_workers=2, multiprocessing_context=context)
    return list(loader)


def _same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return torch.equal(a, b)


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_dataloader_workers_give_the_main_process_bytes(context):
    dataset = OpOutputs()
    main = [dataset[i] for i in range(len(dataset))]
    workers = _in_workers(dataset, context)
    assert len(workers) == len(main)
    for w, m in zip(workers, main):
        assert _same(w, m)


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_dropin_classes_in_workers_match_the_main_process_under_a_seed(context):
    dataset = DropinOutputs()
    main = [dataset[i] for i in range(len(dataset))]
    workers = _in_workers(dataset, context)
    for w, m in zip(workers, main):
        assert w.dtype == torch.uint8 and torch.equal(w, m)
    assert not torch.equal(main[0], main[1])  # the seeds matter: the check can fail
