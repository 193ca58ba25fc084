// One level of kornia's plasma fractal (kornia.contrib.diamond_square's _one_diamond_one_square),
// as u8aug.kornia._plasma draws it: a (h, w) grid grows to (2h - 1, 2w - 1). The old cells are
// copied; a diamond cell (odd row, odd column) mixes its draw with its four corners' quarters, a
// square cell (one odd index) with the quarters of its two old and two diamond neighbours (kornia's
// two filter2d convolutions: torch sums a cell's taps as fused multiply-adds in tap order, and with
// taps of 0.25 and 0 every product is exact, so the sum is the quarters added in tap order). A
// square cell on the first or last row (column) lacks one diamond and takes kornia's border
// compensation, 1 / 0.75. Every step a float32 rounding in kornia's order. Shared by the CPU loop
// and the CUDA kernel.
#pragma once

#include <cstdint>

#include "u8aug/hd.h"

namespace u8aug {

// float32(1 / 0.75): the Python scalar torch multiplies by.
constexpr float kPlasmaBorder = 0x1.555556p+0f;

// `maps` grids of height x width (contiguous), their scale (one per map) and draws ((2h - 1) x
// (2w - 1) per map, contiguous), and the output of the draws' shape.
struct PlasmaLevel {
  const float* grid = nullptr;
  const float* scale = nullptr;
  const float* draws = nullptr;
  float* out = nullptr;
  int64_t maps = 0, height = 0, width = 0;
  U8AUG_HD int64_t out_height() const { return 2 * height - 1; }
  U8AUG_HD int64_t out_width() const { return 2 * width - 1; }
  U8AUG_HD int64_t out_plane() const { return out_height() * out_width(); }
};

// kornia's mix of a cell's draw with its neighbours' sum: rand * scale + (1 - scale) * sum.
U8AUG_HD float plasma_mix(float draw, float scale, float sum) { return draw * scale + (1.0f - scale) * sum; }

// A diamond cell from its four corners' quarters (row by row) and its draw.
U8AUG_HD float plasma_diamond(float q00, float q01, float q10, float q11, float draw, float scale) {
  return plasma_mix(draw, scale, ((q00 + q01) + q10) + q11);
}

// A square cell's sum: its four neighbours' quarters in tap order, or the three of a border cell
// (its missing diamond a zero tap) times the compensation.
U8AUG_HD float plasma_four(float a, float b, float c, float d) { return ((a + b) + c) + d; }
U8AUG_HD float plasma_three(float a, float b, float c) { return ((a + b) + c) * kPlasmaBorder; }

// A square cell on an even row (odd column): north and south are diamonds' quarters (absent on the
// first and last rows), west and east the old cells' quarters, in tap order north, west, east, south.
U8AUG_HD float plasma_row_square(bool first, bool last, float north, float west, float east, float south) {
  if (first) return plasma_three(west, east, south);
  if (last) return plasma_three(north, west, east);
  return plasma_four(north, west, east, south);
}
// A square cell on an odd row (even column): north and south the old cells' quarters, west and east
// diamonds' quarters (absent on the first and last columns).
U8AUG_HD float plasma_column_square(bool first, bool last, float north, float west, float east, float south) {
  if (first) return plasma_three(north, east, south);
  if (last) return plasma_three(north, west, south);
  return plasma_four(north, west, east, south);
}

// The quarter of old cell (r, c) of map n.
U8AUG_HD float plasma_quarter(const PlasmaLevel& p, int64_t n, int64_t r, int64_t c) {
  return p.grid[(n * p.height + r) * p.width + c] * 0.25f;
}

// Output cell (i, j) of map n.
U8AUG_HD float plasma_level_cell(const PlasmaLevel& p, int64_t n, int64_t i, int64_t j) {
  const float s = p.scale[n];
  const float* draws = p.draws + n * p.out_plane();
  auto diamond = [&](int64_t ii, int64_t jj) {  // a diamond cell (both indices odd)
    const int64_t r = ii / 2, c = jj / 2;
    return plasma_diamond(plasma_quarter(p, n, r, c), plasma_quarter(p, n, r, c + 1), plasma_quarter(p, n, r + 1, c),
                          plasma_quarter(p, n, r + 1, c + 1), draws[ii * p.out_width() + jj], s);
  };
  const bool first = (i % 2 == 0 ? i : j) == 0;
  const bool last = i % 2 == 0 ? i == p.out_height() - 1 : j == p.out_width() - 1;
  if (i % 2 == 0 && j % 2 == 0) return p.grid[(n * p.height + i / 2) * p.width + j / 2];
  if (i % 2 == 1 && j % 2 == 1) return diamond(i, j);
  const float draw = draws[i * p.out_width() + j];
  if (i % 2 == 0) {
    const float north = first ? 0.0f : diamond(i - 1, j) * 0.25f, south = last ? 0.0f : diamond(i + 1, j) * 0.25f;
    return plasma_mix(draw, s,
                      plasma_row_square(first, last, north, plasma_quarter(p, n, i / 2, j / 2),
                                        plasma_quarter(p, n, i / 2, j / 2 + 1), south));
  }
  const float west = first ? 0.0f : diamond(i, j - 1) * 0.25f, east = last ? 0.0f : diamond(i, j + 1) * 0.25f;
  return plasma_mix(draw, s,
                    plasma_column_square(first, last, plasma_quarter(p, n, i / 2, j / 2), west, east,
                                         plasma_quarter(p, n, i / 2 + 1, j / 2)));
}

// The CUDA kernel's body (each-index bodies: image.h): one output cell.
struct PlasmaLevelBody {
  PlasmaLevel p;
  U8AUG_HD int64_t count() const { return p.maps * p.out_plane(); }
  U8AUG_HD void operator()(int64_t k) const {
    const int64_t n = k / p.out_plane(), rest = k % p.out_plane();
    const int64_t i = rest / p.out_width(), j = rest % p.out_width();
    p.out[k] = plasma_level_cell(p, n, i, j);
  }
};

}  // namespace u8aug
