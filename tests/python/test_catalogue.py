"""Every catalogued op, from one table of sample inputs (op_samples.py): the catalogue is complete
(a kernel per backend, a fake with the schema's argument names, a documented function in u8aug, a
sample), and each op passes opcheck, gives the same bytes compiled (fullgraph) as eager, and refuses
a bad image with an error naming the op, without touching its inputs."""

import inspect

import pytest
import torch

import u8aug
from conftest import cuda_ready, requires_cuda
from op_samples import IMAGE_ARGUMENT, SAMPLES, as_image_argument, sample_images
from u8aug import _fake

NAMES = [op["name"] for op in u8aug.catalogue()]


def _op(name):
    return getattr(torch.ops.u8aug, name)


def _image_index(name):
    return _fake.schema_arguments(name).index(IMAGE_ARGUMENT.get(name, "img"))


def test_every_catalogued_op_has_samples_and_nothing_else_does():
    assert sorted(SAMPLES) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_catalogued_op_is_complete(name):
    entry = next(op for op in u8aug.catalogue() if op["name"] == name)
    assert entry["fidelity"] in ("exact", "near")
    assert entry["schema"].startswith(name + "(")
    for key in ("CPU", "CUDA"):
        assert torch._C._dispatch_has_kernel_for_dispatch_key(f"u8aug::{name}", key), f"no {key} kernel"
    assert name in u8aug.__all__ and callable(getattr(u8aug, name)), "no function in u8aug"
    assert getattr(u8aug, name).__doc__, "undocumented"
    schema = _fake.schema_arguments(name)
    assert list(inspect.signature(getattr(u8aug, name)).parameters) == schema, "u8aug's function and the schema differ"
    fake = _fake.FAKES.get(name)
    assert fake is not None, "no fake registered"
    names = getattr(fake, "argument_names", None) or list(inspect.signature(fake).parameters)
    assert names == schema, "the fake's arguments and the schema differ"


def _devices():
    return ["cpu", pytest.param("cuda", marks=requires_cuda)]


@pytest.mark.parametrize("device", _devices())
@pytest.mark.parametrize("name", NAMES)
def test_opcheck(name, device):
    for x in sample_images(device).values():
        torch.library.opcheck(_op(name), SAMPLES[name](x))


@pytest.mark.compile
@pytest.mark.parametrize("device", _devices())
@pytest.mark.parametrize("name", NAMES)
def test_compile_fullgraph_equals_eager(name, device):
    torch._dynamo.reset()
    op = _op(name)
    compiled = torch.compile(lambda *args: op(*args), fullgraph=True)
    for layout, x in sample_images(device).items():
        args = SAMPLES[name](x)
        assert torch.equal(compiled(*args), op(*args)), layout


def _to_cuda(arg):
    if isinstance(arg, torch.Tensor):
        return arg.cuda()
    if isinstance(arg, (list, tuple)):
        return type(arg)(_to_cuda(a) for a in arg)
    return arg


# CPU and CUDA give the same bytes for every op, on every sample layout (the sample's tensors made
# on the CPU, then copied with their strides): the catalogue-wide form of the per-family CUDA tests.
@requires_cuda
@pytest.mark.parametrize("name", NAMES)
def test_cuda_equals_cpu(name):
    for layout, x in sample_images("cpu").items():
        args = SAMPLES[name](x)
        expected = _op(name)(*args)
        got = _op(name)(*_to_cuda(args))
        assert got.device.type == "cuda" and got.stride() == expected.stride(), layout
        assert torch.equal(got.cpu(), expected), layout


def _bad_images(x):
    return {
        "float32": x.float(),
        "2-D": x[0, 0] if x.dim() == 4 else x[0],
        "5-D": x.unsqueeze(0),
        "empty": x[..., :0],
    }


@pytest.mark.parametrize("device", _devices())
@pytest.mark.parametrize("name", NAMES)
def test_bad_image_is_refused_naming_the_op(name, device):
    x = sample_images(device)["contiguous"]
    k = _image_index(name)
    for what, bad in _bad_images(x).items():
        args = list(SAMPLES[name](x))
        args[k] = as_image_argument(name, bad)
        before = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        with pytest.raises((RuntimeError, ValueError), match=f"u8aug.{name}: "):
            _op(name)(*args)
        for a, b in zip(args, before):
            if isinstance(a, torch.Tensor):
                assert torch.equal(a, b), f"{what}: an input changed"


def test_cuda_is_only_skipped_without_a_device():
    """The CUDA rows above skip only where there is no CUDA device (as on CI's CPU machine)."""
    assert cuda_ready() == (torch.cuda.is_available() and u8aug.build_info()["torch_ops_cuda"])
