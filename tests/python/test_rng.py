"""torch.ops.u8aug.rand (u8aug/_rng.py) against torch.rand: the same numbers, the generator left in
the same state (its bytes, and the draws after it), across regeneration boundaries; under
torch.compile(fullgraph=True) beside torch.rand and itself; the torch_uniform helper's errors, which
leave the state unchanged. The plasma map drawn with it is test_intensity.py's
test_plasma_draw_is_kornias_diamond_square_bit_for_bit."""

import pytest
import torch

import u8aug
import u8aug.kornia as UK
from u8aug import _rng

# 624 words a regeneration: sizes and earlier draws on both sides of its boundaries
SIZES = [0, 1, 5, 623, 624, 625, 1247, 1248, 1249, 4096, 100_003]
BEFORE = [0, 1, 300, 622, 623, 624, 625]


@pytest.mark.parametrize("before", BEFORE)
@pytest.mark.parametrize("size", SIZES)
def test_rand_is_torch_rand_and_leaves_its_state(size, before):
    torch.manual_seed(size * 7 + before)
    torch.rand(before)
    expected, state, after = torch.rand(size), torch.get_rng_state(), torch.rand(9)
    torch.manual_seed(size * 7 + before)
    torch.rand(before)
    got = torch.ops.u8aug.rand([size])
    assert got.dtype == torch.float32 and got.device.type == "cpu" and got.shape == (size,)
    assert torch.equal(got, expected)
    assert torch.equal(torch.get_rng_state(), state)
    assert torch.equal(torch.rand(9), after)


def test_shapes_and_the_normal_cache_stay_torchs():
    torch.manual_seed(11)
    expected = [torch.randn(3), torch.rand(2, 3, 257, 129), torch.randn(5), torch.rand(1, 0, 4), torch.rand([])]
    torch.manual_seed(11)
    got = [torch.randn(3), _rng.rand(2, 3, 257, 129), torch.randn(5), _rng.rand((1, 0, 4)), _rng.rand()]
    for g, e in zip(got, expected):
        assert g.shape == e.shape and torch.equal(g, e)


def test_a_seeded_generator_state_from_set_rng_state():
    torch.manual_seed(0)
    torch.rand(1000)
    saved = torch.get_rng_state()
    expected = torch.rand(3000)
    torch.set_rng_state(saved)
    assert torch.equal(u8aug._rng.rand(3000), expected)


def _draws(x):
    a = torch.ops.u8aug.rand([4])
    b = torch.ops.u8aug.rand([4])  # the same call again: not merged with a
    c = torch.rand(4)
    d = torch.ops.u8aug.rand([x.shape[0], 700])
    torch.ops.u8aug.rand([3])  # unused: still drawn
    return x + a, b, c, d


@pytest.mark.parametrize("dynamic", [False, True])
def test_compiled_draws_are_eagers(dynamic):
    x = torch.zeros(4)
    torch.manual_seed(5)
    expected, after = _draws(x), torch.rand(5)
    torch._dynamo.reset()
    compiled = torch.compile(_draws, fullgraph=True, dynamic=dynamic, options=UK.COMPILE_OPTIONS)
    for _ in range(2):
        torch.manual_seed(5)
        got = compiled(x)
        for g, e in zip(got, expected):
            assert torch.equal(g, e)
        assert torch.equal(torch.rand(5), after)


def test_opcheck():
    torch.library.opcheck(
        torch.ops.u8aug.torch_uniform.default,
        (torch.get_rng_state(), 1000),
        test_utils=("test_schema", "test_autograd_registration", "test_faketensor"),
    )


def test_errors_leave_the_state_unchanged():
    state = torch.get_rng_state()
    with pytest.raises(RuntimeError, match=r"torch_uniform: expected the CPU generator's state .* 5056 bytes"):
        torch.ops.u8aug.torch_uniform(state[:-1].clone(), 4)
    with pytest.raises(RuntimeError, match=r"torch_uniform: expected the CPU generator's state"):
        torch.ops.u8aug.torch_uniform(state.float(), 4)
    with pytest.raises(RuntimeError, match=r"torch_uniform: expected count >= 0, got -1"):
        torch.ops.u8aug.torch_uniform(state.clone(), -1)
    corrupt = state.clone()
    corrupt[8:12] = torch.tensor([0, 0, 0, 0], dtype=torch.uint8)  # the engine's `left` made 0
    before = corrupt.clone()
    with pytest.raises(RuntimeError, match=r"torch_uniform: expected a count >= 0 and a Mersenne Twister state"):
        torch.ops.u8aug.torch_uniform(corrupt, 4)
    assert torch.equal(corrupt, before)
    with pytest.raises(RuntimeError, match=r"u8aug.rand: expected a size of non-negative numbers"):
        torch.ops.u8aug.rand([2, -1])
    assert torch.equal(torch.get_rng_state(), state)
