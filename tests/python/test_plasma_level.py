"""The plasma_level helper op (one level of the plasma classes' fractal, outside the image-op catalogue)
against u8aug.kornia._plasma._level, kornia's own arithmetic in torch ops, every float bit for bit;
opcheck; the errors; CUDA against the CPU. The whole map against kornia's diamond_square is
test_intensity.py's test_plasma_draw_is_kornias_diamond_square_bit_for_bit."""

import pytest
import torch

from conftest import requires_cuda
from u8aug.kornia import _plasma


def _inputs(n, h, w, seed=0, device="cpu"):
    gen = torch.Generator().manual_seed(seed)
    grid = torch.rand(n, 1, h, w, generator=gen)
    scale = torch.rand(n, 1, 1, 1, generator=gen) ** 3  # kornia's roughness powers
    draws = torch.rand(n, 1, 2 * h - 1, 2 * w - 1, generator=gen)
    return grid.to(device), scale.to(device), draws.to(device)


@pytest.mark.parametrize("n,h,w", [(1, 2, 2), (3, 2, 5), (2, 5, 2), (4, 3, 3), (2, 9, 17), (5, 65, 33), (1, 129, 129)])
def test_a_level_is_kornias_arithmetic_bit_for_bit(n, h, w):
    grid, scale, draws = _inputs(n, h, w, seed=h * 100 + w)
    got = torch.ops.u8aug.plasma_level(grid, scale, draws)
    expected = _plasma._level(grid, scale, draws)
    assert got.dtype == torch.float32 and got.shape == expected.shape
    assert torch.equal(got, expected)
    assert torch.equal(torch.ops.u8aug.plasma_level(grid, scale.reshape(-1), draws), expected)  # (N,) scales


def test_opcheck():
    torch.library.opcheck(torch.ops.u8aug.plasma_level.default, _inputs(2, 5, 4))


def test_errors():
    grid, scale, draws = _inputs(2, 5, 4)
    with pytest.raises(
        RuntimeError, match=r"plasma_level: expected grid to be a float32 tensor of shape \(N, 1, h, w\)"
    ):
        torch.ops.u8aug.plasma_level(grid[:, :, :1], scale, draws)
    with pytest.raises(RuntimeError, match=r"plasma_level: expected grid to be a float32"):
        torch.ops.u8aug.plasma_level(grid.double(), scale, draws)
    with pytest.raises(RuntimeError, match=r"plasma_level: expected scale to be float32 with one value per map \(2\)"):
        torch.ops.u8aug.plasma_level(grid, scale[:1], draws)
    with pytest.raises(RuntimeError, match=r"plasma_level: expected draws to be float32 of shape \(2, 1, 9, 7\)"):
        torch.ops.u8aug.plasma_level(grid, scale, draws[..., :-1])
    with pytest.raises(RuntimeError, match="plasma_level: grid, scale and draws must be on one device"):
        torch.ops.u8aug.plasma_level(grid, scale.to("meta"), draws)


def test_strided_inputs_are_read_as_their_values():
    grid, scale, draws = _inputs(3, 6, 7, seed=3)
    wide = torch.rand(3, 1, 11, 26)
    strided = wide[..., ::2]  # (3, 1, 11, 13): not contiguous
    strided.copy_(draws)
    assert torch.equal(torch.ops.u8aug.plasma_level(grid, scale, strided), _plasma._level(grid, scale, draws))


@requires_cuda
def test_cuda_gives_the_cpus_floats():
    grid, scale, draws = _inputs(3, 33, 17, seed=4)
    cpu = torch.ops.u8aug.plasma_level(grid, scale, draws)
    assert torch.equal(torch.ops.u8aug.plasma_level(grid.cuda(), scale.cuda(), draws.cuda()).cpu(), cpu)
