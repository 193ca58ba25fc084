"""The cache of freed CPU outputs (bindings/output_cache.h): an output of 128 KiB or more reuses the
memory a freed output of the same size gave back. What must hold: every op still writes every byte
of its output (a reused buffer holds the last output's bytes, not zeros), outputs stay valid
tensors (shared memory, DataLoader workers, other threads), and the limit bounds what is kept."""

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch
from torch.utils.data import DataLoader, Dataset

import u8aug
from op_samples import SAMPLES

NAMES = [op["name"] for op in u8aug.catalogue()]
LARGE = (3, 3, 128, 160)  # 184 KB of uint8: over the cache's 128 KiB


DEFAULT_LIMIT = 64 << 20


@pytest.fixture(autouse=True)
def default_limit():
    u8aug.set_output_cache_limit(DEFAULT_LIMIT)
    yield
    u8aug.set_output_cache_limit(DEFAULT_LIMIT)


def _image(seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 256, LARGE, dtype=torch.uint8, generator=g)


def _outputs(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


RESAMPLERS = {"warp_affine", "warp_perspective", "resize", "crop_and_resize", "resize_list", "resize_antialias"}


def _enlarged(name, args):
    # the resamplers' samples ask for tiny outputs: their (h, w) argument becomes LARGE's
    args = list(args)
    if name not in RESAMPLERS:
        return args
    for i, a in enumerate(args):
        if isinstance(a, list) and len(a) == 2 and all(isinstance(v, int) for v in a):
            args[i] = list(LARGE[-2:])
            break
    return args


def _run(name):
    torch.manual_seed(0)  # some samples draw their arguments (a fill value)
    x = _image() if name != "rgb_to_grayscale" else _image().repeat(1, 1, 2, 2)  # one channel out
    return _outputs(getattr(torch.ops.u8aug, name)(*_enlarged(name, SAMPLES[name](x))))


# outputs under 128 KiB whatever the image: they come from torch's allocator
SMALL_OUTPUTS = {"image_mean", "grid_sample", "pipeline"}


def test_the_byte_check_below_covers_every_op_with_a_large_output():
    small = {n for n in NAMES if any(t.numel() * t.element_size() < 128 << 10 for t in _run(n))}
    assert small == SMALL_OUTPUTS


@pytest.mark.parametrize("name", NAMES)
def test_every_op_writes_every_byte_of_a_reused_output(name):
    first = _run(name)
    expected = [t.clone() for t in first]
    for i in range(len(first)):  # poisoned, then given back to the cache for the second call to reuse
        first[i].fill_(77 if first[i].dtype == torch.uint8 else float("nan"))
    del first
    before = u8aug.output_cache_info()["reused"]
    second = _run(name)
    large = [t for t in expected if t.numel() * t.element_size() >= 128 << 10]
    assert u8aug.output_cache_info()["reused"] - before >= len(large)
    for got, want in zip(second, expected):
        assert torch.equal(got, want) or (want.is_floating_point() and torch.allclose(got, want, equal_nan=True))


def test_a_freed_output_is_reused_and_the_counts_say_so():
    x = _image()
    y = u8aug.hflip(x)
    pointer = y.data_ptr()
    assert pointer % 64 == 0
    del y
    info = u8aug.output_cache_info()
    assert info["cached_buffers"] >= 1 and info["cached_bytes"] >= x.numel()
    z = u8aug.hflip(x)
    assert z.data_ptr() == pointer and torch.equal(z, x.flip(-1))
    assert u8aug.output_cache_info()["reused"] == info["reused"] + 1


def test_small_outputs_come_from_torch():
    x = torch.randint(0, 256, (1, 3, 64, 64), dtype=torch.uint8)  # 12 KB
    before = u8aug.output_cache_info()
    del_me = u8aug.hflip(x)
    del del_me
    after = u8aug.output_cache_info()
    assert (after["reused"], after["allocated"]) == (before["reused"], before["allocated"])


def test_limit_zero_turns_it_off_and_frees_what_it_holds():
    x = _image()
    del_me = u8aug.hflip(x)
    del del_me
    assert u8aug.output_cache_info()["cached_bytes"] > 0
    u8aug.set_output_cache_limit(0)
    info = u8aug.output_cache_info()
    assert (info["limit_bytes"], info["cached_bytes"], info["cached_buffers"]) == (0, 0, 0)
    y = u8aug.hflip(x)
    del y
    after = u8aug.output_cache_info()
    assert (after["reused"], after["allocated"], after["cached_bytes"]) == (info["reused"], info["allocated"], 0)


def test_the_limit_keeps_the_most_recently_freed():
    x = _image()
    outputs = [u8aug.hflip(x) for _ in range(4)]
    one = u8aug.output_cache_info()
    del outputs
    held = u8aug.output_cache_info()["cached_bytes"] - one["cached_bytes"]
    assert held >= 4 * x.numel()
    u8aug.set_output_cache_limit(held // 4 + 4096)  # room for one
    info = u8aug.output_cache_info()
    assert info["cached_buffers"] == 1 and info["cached_bytes"] <= info["limit_bytes"]
    big = u8aug.hflip(torch.zeros(8, 3, 256, 256, dtype=torch.uint8))  # over the limit alone
    del big
    assert u8aug.output_cache_info()["cached_bytes"] <= info["limit_bytes"]


def test_a_limit_beyond_any_memory_is_no_limit():
    u8aug.set_output_cache_limit(2**70)
    assert u8aug.output_cache_info()["limit_bytes"] == 2**63


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (1.5, TypeError), ("1", TypeError), (True, TypeError)])
def test_bad_limits_are_refused(bad, error):
    with pytest.raises(error, match="set_output_cache_limit"):
        u8aug.set_output_cache_limit(bad)


def test_outputs_move_to_shared_memory_and_back():
    x = _image()
    y = u8aug.hflip(x)
    y.share_memory_()
    assert y.is_shared() and torch.equal(y, x.flip(-1))
    y.add_(1)
    assert torch.equal(y, x.flip(-1) + 1)


class _Batches(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return u8aug.hflip(_image(i))


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_dataloader_workers_send_cached_outputs(context):
    loader = DataLoader(_Batches(), batch_size=None, num_workers=2, multiprocessing_context=context)
    for i, got in enumerate(loader):
        assert torch.equal(got, _image(i).flip(-1))


def test_outputs_freed_on_other_threads():
    x = _image()

    def work(seed):
        for _ in range(20):
            y = u8aug.hflip(x)
            assert torch.equal(y, x.flip(-1))
        return seed

    with ThreadPoolExecutor(4) as pool:
        assert sorted(pool.map(work, range(8))) == list(range(8))
    assert u8aug.output_cache_info()["cached_bytes"] <= u8aug.output_cache_info()["limit_bytes"]


def test_environment_variable_sets_the_limit(tmp_path):
    script = "import u8aug; print(u8aug.output_cache_info()['limit_bytes'])"

    def run(value):
        env = {**os.environ, "U8AUG_OUTPUT_CACHE_BYTES": value}
        return subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, env=env)

    assert run("").stdout.strip() == str(DEFAULT_LIMIT)  # unset: the default
    ok = run("0")
    assert ok.returncode == 0 and ok.stdout.strip() == "0", ok.stderr
    bad = run("lots")
    assert bad.returncode != 0 and "U8AUG_OUTPUT_CACHE_BYTES='lots'" in bad.stderr
