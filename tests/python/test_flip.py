"""hflip and vflip: fidelity against kornia (exact), layouts, opcheck, torch.compile, errors."""

import itertools

import kornia
import pytest
import torch

import u8aug
from conftest import oracle, photos, random_image, requires_cuda

FLIPS = [
    (u8aug.hflip, kornia.geometry.transform.hflip, "hflip"),
    (u8aug.vflip, kornia.geometry.transform.vflip, "vflip"),
]
SIZES = [(1, 1), (1, 9), (9, 1), (3, 5), (257, 129), (224, 224)]


def layouts(x):
    """The same image contiguous and channels_last (for 3-D: an HWC tensor viewed as CHW)."""
    if x.dim() == 4:
        return {"contiguous": x.contiguous(), "channels_last": x.contiguous(memory_format=torch.channels_last)}
    return {"contiguous": x.contiguous(), "channels_last": x.permute(1, 2, 0).contiguous().permute(2, 0, 1)}


@pytest.mark.parametrize("ours,theirs,name", FLIPS, ids=[f[2] for f in FLIPS])
@pytest.mark.parametrize(
    "b,c,hw",
    [(b, c, hw) for b, c, hw in itertools.product((1, 3, 8), (1, 3, 4), SIZES) if b * c * hw[0] * hw[1] < 3_000_000],
)
def test_exact_against_kornia(ours, theirs, name, b, c, hw):
    x = random_image((b, c) + hw, seed=b * 100 + c)
    expected = oracle(theirs, x)
    for layout, xi in layouts(x).items():
        before = xi.clone()
        out = ours(xi)
        assert torch.equal(out, expected), f"{name} {layout} differs from kornia"
        assert torch.equal(xi, before), f"{name} modified its input"


@pytest.mark.parametrize("ours,theirs,name", FLIPS, ids=[f[2] for f in FLIPS])
def test_exact_on_photos_and_3d_input(ours, theirs, name):
    for photo_name, img in photos().items():
        for layout, xi in layouts(img).items():
            out = ours(xi)
            assert out.shape == img.shape
            assert torch.equal(out, oracle(theirs, img)), f"{name} on {photo_name} ({layout})"


@pytest.mark.parametrize("ours,theirs,name", FLIPS, ids=[f[2] for f in FLIPS])
def test_output_keeps_memory_format(ours, theirs, name):
    x = random_image((2, 3, 6, 7))
    cl = x.contiguous(memory_format=torch.channels_last)
    assert ours(x).is_contiguous()
    assert ours(cl).is_contiguous(memory_format=torch.channels_last)
    hwc = x[0].permute(1, 2, 0).contiguous().permute(2, 0, 1)
    assert ours(hwc).stride() == hwc.stride()
    # A non-dense view (every other column) gives a dense contiguous output with the right bytes.
    strided = random_image((2, 3, 6, 14))[..., ::2]
    out = ours(strided)
    assert out.is_contiguous() and torch.equal(out, ours(strided.contiguous()))
    # Broadcast (stride 0) inputs are read, never written.
    expanded = random_image((1, 3, 6, 7)).expand(4, 3, 6, 7)
    assert torch.equal(ours(expanded), ours(expanded.contiguous()))


@pytest.mark.compile
def test_compile_fullgraph_equals_eager():
    def pipeline(x):
        return u8aug.vflip(u8aug.hflip(x))

    compiled = torch.compile(pipeline, fullgraph=True, dynamic=False)
    for shape in [(4, 3, 32, 48), (3, 17, 5)]:
        for xi in layouts(random_image(shape)).values():
            out = compiled(xi)
            assert torch.equal(out, pipeline(xi))
            assert out.stride() == pipeline(xi).stride()


@pytest.mark.compile
def test_compile_dynamic_shapes():
    compiled = torch.compile(u8aug.hflip, fullgraph=True, dynamic=True)
    for shape in [(2, 3, 10, 12), (3, 3, 7, 9), (1, 1, 5, 33)]:
        x = random_image(shape)
        assert torch.equal(compiled(x), u8aug.hflip(x))


def test_thread_count_does_not_change_bytes():
    x = random_image((8, 3, 123, 257))
    old = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one = (u8aug.hflip(x), u8aug.vflip(x))
        torch.set_num_threads(max(2, old))
        many = (u8aug.hflip(x), u8aug.vflip(x))
    finally:
        torch.set_num_threads(old)
    assert torch.equal(one[0], many[0]) and torch.equal(one[1], many[1])


BAD_INPUTS = [
    (torch.zeros(1, 3, 4, 4), "dtype torch.uint8"),
    (torch.zeros(1, 3, 4, 4, dtype=torch.bool), "dtype torch.uint8"),
    (torch.zeros(4, 4, dtype=torch.uint8), "2-D"),
    (torch.zeros(1, 1, 3, 4, 4, dtype=torch.uint8), "5-D"),
    (torch.zeros(0, 3, 4, 4, dtype=torch.uint8), ">= 1"),
    (torch.zeros(1, 3, 0, 4, dtype=torch.uint8), ">= 1"),
    (torch.zeros(3, 4, 0, dtype=torch.uint8), ">= 1"),
]


@pytest.mark.parametrize("name", ["hflip", "vflip"])
@pytest.mark.parametrize("bad,message", BAD_INPUTS, ids=[m + str(i) for i, (_, m) in enumerate(BAD_INPUTS)])
def test_bad_input_gives_clear_error(name, bad, message):
    before = bad.clone()
    with pytest.raises(RuntimeError, match=f"u8aug.{name}: .*{message}"):
        getattr(u8aug, name)(bad)
    assert torch.equal(bad, before)


@pytest.mark.compile
def test_bad_input_under_compile_gives_the_same_error():
    compiled = torch.compile(u8aug.hflip, fullgraph=True)
    with pytest.raises(Exception, match="u8aug.hflip: expected img of dtype torch.uint8"):
        compiled(torch.zeros(1, 3, 4, 4))


def test_cuda_kernel_refuses_a_tensor_it_cannot_run():
    """Whatever this build is, the CUDA registration answers with a message that names CUDA: either
    'no CUDA kernels' (built without nvcc) or 'expected a CUDA tensor' (a CPU tensor routed there)."""
    x = random_image((1, 3, 4, 4))
    keyset = torch._C.DispatchKeySet(torch._C.DispatchKey.CUDA)
    with pytest.raises(RuntimeError, match="u8aug.hflip: .*CUDA"):
        torch.ops.u8aug.hflip.default.redispatch(keyset, x)


@requires_cuda
@pytest.mark.cuda
@pytest.mark.parametrize("name", ["hflip", "vflip"])
def test_cuda_equals_cpu(name):
    op = getattr(u8aug, name)
    for shape in [(1, 1, 1, 1), (3, 3, 257, 129), (8, 4, 224, 224), (3, 9, 5), (2, 5, 31, 1)]:
        for xi in layouts(random_image(shape)).values():
            out = op(xi.cuda())
            assert out.is_cuda and out.stride() == op(xi).stride()
            assert torch.equal(out.cpu(), op(xi))


@requires_cuda
@pytest.mark.cuda
@pytest.mark.parametrize("name", ["hflip", "vflip"])
def test_cuda_opcheck_and_compile(name):
    op = getattr(torch.ops.u8aug, name)
    for xi in layouts(random_image((2, 3, 5, 7))).values():
        torch.library.opcheck(op, (xi.cuda(),))
    compiled = torch.compile(getattr(u8aug, name), fullgraph=True)
    x = random_image((4, 3, 64, 48), device="cuda")
    assert torch.equal(compiled(x), getattr(u8aug, name)(x))


def test_select_samples_is_torch_where_per_sample():
    a, b = random_image((6, 3, 9, 11), seed=1), random_image((6, 3, 9, 11), seed=2)
    take = torch.tensor([True, False, False, True, True, False])
    expected = torch.where(take[:, None, None, None], a, b)
    for fmt in (torch.contiguous_format, torch.channels_last):
        ai, bi = a.contiguous(memory_format=fmt), b.contiguous(memory_format=fmt)
        assert torch.equal(u8aug.select_samples(take, ai, bi), expected)
    assert torch.equal(u8aug.select_samples(take, a, b.contiguous(memory_format=torch.channels_last)), expected)
    assert torch.equal(u8aug.select_samples(take, a, b[..., :]), expected)
    for x in (a, a.contiguous(memory_format=torch.channels_last)):
        torch.library.opcheck(torch.ops.u8aug.select_samples, (take, x, b))
    compiled = torch.compile(u8aug.select_samples, fullgraph=True)
    assert torch.equal(compiled(take, a, b), expected)
    with pytest.raises(RuntimeError, match="take to be a 1-D bool tensor of B = 6"):
        u8aug.select_samples(take[:3], a, b)
    with pytest.raises(RuntimeError, match="same shape"):
        u8aug.select_samples(take, a, b[:, :, :8])


@requires_cuda
@pytest.mark.cuda
def test_select_samples_cuda():
    a, b = random_image((6, 3, 9, 11), seed=1), random_image((6, 3, 9, 11), seed=2)
    take = torch.tensor([True, False, False, True, True, False])
    assert torch.equal(u8aug.select_samples(take.cuda(), a.cuda(), b.cuda()).cpu(), u8aug.select_samples(take, a, b))
