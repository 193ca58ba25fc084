"""CUDA only (skipped without a device; scripts/gpu_check.sh runs them on the GPU machine): no op
synchronises the host, and a compiled pipeline captured in a CUDA graph (torch.compile's
mode="reduce-overhead") replays with the bytes of eager."""

import pytest
import torch

import u8aug
import u8aug.kornia as UK
from conftest import requires_cuda
from op_samples import SAMPLES, sample_images

NAMES = [op["name"] for op in u8aug.catalogue()]


@requires_cuda
@pytest.mark.cuda
@pytest.mark.parametrize("name", NAMES)
def test_no_op_synchronises_the_host(name):
    images = sample_images("cuda")
    samples = [SAMPLES[name](x) for x in images.values()]  # built before the check: torch.rand may sync
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        for args in samples:
            getattr(torch.ops.u8aug, name)(*args)
    finally:
        torch.cuda.set_sync_debug_mode("default")
    torch.cuda.synchronize()


@requires_cuda
@pytest.mark.cuda
@pytest.mark.compile
def test_compiled_pipeline_replays_from_a_cuda_graph():
    def pipeline(x, factor, M, boxes):
        x = u8aug.crop_and_resize(x, boxes, (48, 48))
        x = u8aug.hflip(x)
        x = u8aug.adjust_contrast(x, factor)
        x = u8aug.warp_affine(x, M, (48, 48))
        return u8aug.normalize(x, torch.full((3,), 0.5, device=x.device), torch.full((3,), 0.25, device=x.device))

    g = torch.Generator().manual_seed(0)
    x = torch.randint(0, 256, (8, 3, 64, 64), dtype=torch.uint8, generator=g).cuda()
    factor = torch.rand(8, generator=g).cuda() + 0.5
    M = (torch.eye(3)[None, :2] + 0.05 * torch.randn(8, 2, 3, generator=g)).contiguous().cuda()
    boxes = torch.tensor([[[2.0, 3.0], [50.0, 3.0], [50.0, 60.0], [2.0, 60.0]]]).expand(8, 4, 2).contiguous().cuda()
    expected = pipeline(x, factor, M, boxes)
    compiled = torch.compile(pipeline, fullgraph=True, mode="reduce-overhead")
    for _ in range(4):  # warm-up, recording, then replays of the graph
        out = compiled(x, factor, M, boxes).clone()
        assert torch.equal(out, expected)
    factor.fill_(1.3)  # new values in the same buffers: the replay reads them
    assert torch.equal(compiled(x, factor, M, boxes).clone(), pipeline(x, factor, M, boxes))


@requires_cuda
@pytest.mark.cuda
@pytest.mark.compile
def test_compiled_dropin_augmentation_in_a_cuda_graph_matches_eager():
    aug = UK.AugmentationSequential(UK.RandomHorizontalFlip(p=1.0), UK.ColorJiggle(0.2, 0.2, 0.2, 0.05, p=1.0))
    x = torch.randint(0, 256, (4, 3, 32, 32), dtype=torch.uint8).cuda()
    torch.manual_seed(3)
    expected = aug(x)
    # mode="reduce-overhead" is triton.cudagraphs; spelled as options to add kornia's draw order
    compiled = torch.compile(aug, fullgraph=True, options={"triton.cudagraphs": True, **UK.COMPILE_OPTIONS})
    torch.manual_seed(3)
    assert torch.equal(compiled(x).clone(), expected)
