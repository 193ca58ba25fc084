// kornia.enhance.equalize_clahe (RandomClahe's default, not slow_and_differentiable) on x / 255.
// The image is cut into grid_h x grid_w tiles of ceil(H / grid_h) x ceil(W / grid_w) pixels, the
// last ones reaching into a reflection of the image past its bottom and right edges. Each tile's
// histogram (kornia's bin of a byte is equalize_index, as in equalize) is clipped at
// max(floor(clip * pixels / 256), 1) when clip > 0, the clipped mass spread back as OpenCV does,
// and summed into a table round(cumsum * (255 / pixels)). Every count is an integer below 2^24
// (tiles of at most 2^24 pixels), so kornia's float32 steps up to the table are exact and written
// here in integers. A pixel then blends the tables of the tiles around it, in float32 as kornia:
// when both tile sides are even, three addcmul (one fused multiply-add each, as torch's CPU kernel
// contracts it) over half-tile steps; when either side is odd, kornia's centre-anchored
// interpolation in separate products and sums. Out: the blend / 255, quantized as the oracle does.
// Shared by the CPU loop and the CUDA kernels.
#pragma once

#include <cmath>
#include <cstdint>

#include "u8aug/image.h"
#include "u8aug/pixel/equalize.h"

namespace u8aug {

// The tiling kornia derives from the image and grid sizes.
struct ClaheGrid {
  int64_t tiles_h = 0, tiles_w = 0;  // the grid
  int64_t tile_h = 0, tile_w = 0;    // a tile's pixels down and across
  bool odd = false;                  // either side odd: kornia's centre-interpolated path
};

U8AUG_HD ClaheGrid clahe_grid(int64_t height, int64_t width, int64_t tiles_h, int64_t tiles_w) {
  ClaheGrid g;
  g.tiles_h = tiles_h;
  g.tiles_w = tiles_w;
  g.tile_h = (height + tiles_h - 1) / tiles_h;
  g.tile_w = (width + tiles_w - 1) / tiles_w;
  g.odd = (g.tile_h % 2) == 1 || (g.tile_w % 2) == 1;
  return g;
}

// Position p of the padded axis read from the image: reflected past its end (F.pad "reflect").
U8AUG_HD int64_t clahe_reflect(int64_t p, int64_t size) { return p < size ? p : 2 * (size - 1) - p; }

// The table of one tile from its histogram in kornia's bins: out[k] for bin k. clip <= 0 or NaN
// leaves the histogram unclipped (kornia's `clip > 0`); +inf never clips.
U8AUG_HD void clahe_table(const uint32_t* bins, int64_t pixels, float clip, uint8_t* out) {
  int64_t h[256];
  for (int k = 0; k < 256; ++k) h[k] = bins[k];
  if (clip > 0.0f) {
    // (clip.double() * pixels).div(256, rounding_mode="floor").clamp(min=1): the product is exact
    // in double (24-bit float times a count below 2^24) and 256 a power of two, so this is floor.
    const double limit = floor(static_cast<double>(clip) * static_cast<double>(pixels) / 256.0);
    const int64_t cap = limit < 1.0 ? 1 : (limit < static_cast<double>(pixels) ? static_cast<int64_t>(limit) : pixels);
    int64_t kept = 0;
    for (int k = 0; k < 256; ++k) {
      h[k] = h[k] < cap ? h[k] : cap;
      kept += h[k];
    }
    const int64_t clipped = pixels - kept;
    const int64_t residual = clipped % 256;
    const int64_t share = (clipped - residual) / 256;
    for (int k = 0; k < 256; ++k) h[k] += share;
    // OpenCV's spread of the residual: one count on every step-th bin from bin 0, `residual` of them
    int64_t step = 256 / (residual > 1 ? residual : 1);
    step = step > 1 ? step : 1;
    for (int64_t k = 0, n = 0; k < 256 && n < residual; k += step, ++n) ++h[k];
  }
  // torch's float32 product with the scalar 255 / pixels rounded to float32
  const float scale = static_cast<float>(255.0 / static_cast<double>(pixels));
  int64_t sum = 0;
  for (int k = 0; k < 256; ++k) {
    sum += h[k];
    out[k] = to_u8(static_cast<float>(sum) * scale);
  }
}

// Every byte's bin (equalize_index), for clahe_table_by_byte.
U8AUG_HD void clahe_bins(uint8_t* bin_of) {
  for (int v = 0; v < 256; ++v) bin_of[v] = static_cast<uint8_t>(equalize_index(static_cast<uint8_t>(v)));
}

// A tile's byte counts (256) to its table by byte: folded into kornia's bins, clahe_table, read
// back at each byte's bin.
U8AUG_HD void clahe_table_by_byte(const uint32_t* counts, int64_t pixels, float clip, const uint8_t* bin_of,
                                  uint8_t* out) {
  uint32_t bins[256];
  for (int k = 0; k < 256; ++k) bins[k] = 0;
  for (int v = 0; v < 256; ++v) bins[bin_of[v]] += counts[v];
  uint8_t by_bin[256];
  clahe_table(bins, pixels, clip, by_bin);
  for (int v = 0; v < 256; ++v) out[v] = by_bin[bin_of[v]];
}

// One axis of a pixel's blend: the tile whose table is the base, the other tile, and the weight
// of the other's difference (base + weight * (other - base)).
struct ClaheAxis {
  int32_t base = 0, other = 0;
  float weight = 0.0f;
};

// kornia's weights along one axis for padded position p: `tile` pixels a tile, `tiles` tiles.
U8AUG_HD ClaheAxis clahe_axis(int64_t p, int64_t tile, int64_t tiles, bool odd) {
  ClaheAxis a;
  if (odd) {
    // (p - (tile - 1) / 2) / tile, its floor and the two tiles around it, clamped; no weight
    // before the first tile's centre or past the last's
    const float t = (static_cast<float>(p) - static_cast<float>(tile - 1) * 0.5f) / static_cast<float>(tile);
    const float f = floorf(t);
    const int64_t k = static_cast<int64_t>(f);
    a.base = static_cast<int32_t>(clamp<int64_t>(k, 0, tiles - 1));
    a.other = static_cast<int32_t>(clamp<int64_t>(k + 1, 0, tiles - 1));
    const float w = t - f;
    a.weight = (t < 0.0f || t > static_cast<float>(tiles - 1)) ? 0.0f : (w < 0.0f ? 0.0f : (w > 1.0f ? 1.0f : w));
    return a;
  }
  // half tiles: the first and last take their tile's table alone; in between, the tile before
  // (other) and after (base), weighted by ((tile - k) - 0.5) / tile for the k-th pixel of the pair
  const int64_t half = tile / 2, j = p / half;
  if (j == 0 || j == 2 * tiles - 1) {
    a.base = a.other = static_cast<int32_t>(j == 0 ? 0 : tiles - 1);
    return a;
  }
  const int64_t before = (j - 1) / 2, k = ((j - 1) % 2) * half + p % half;
  a.base = static_cast<int32_t>(before + 1);
  a.other = static_cast<int32_t>(before);
  a.weight = (static_cast<float>(tile - k) - 0.5f) / static_cast<float>(tile);
  return a;
}

// The odd path's column weight is kornia's (1 - wx) on the right tile's table.
U8AUG_HD ClaheAxis clahe_column(int64_t x, const ClaheGrid& g) {
  ClaheAxis a = clahe_axis(x, g.tile_w, g.tiles_w, g.odd);
  if (g.odd) {
    const int32_t left = a.base;
    a.base = a.other;
    a.other = left;
    a.weight = 1.0f - a.weight;
  }
  return a;
}
U8AUG_HD ClaheAxis clahe_row(int64_t y, const ClaheGrid& g) { return clahe_axis(y, g.tile_h, g.tiles_h, g.odd); }

// base + weight * (other - base): one addcmul (fused) on the even path, kornia's product then sum
// on the odd one.
U8AUG_HD float clahe_lerp(float base, float other, float weight, bool odd) {
  return odd ? base + (other - base) * weight : fmaf(weight, other - base, base);
}

// One output byte of input byte v: `tables` holds the plane's tables by byte, 256 a tile, row-major
// over the grid (tiles_w a row).
U8AUG_HD uint8_t clahe_value(const uint8_t* tables, int64_t tiles_w, ClaheAxis row, ClaheAxis col, uint8_t v,
                             bool odd) {
  const uint8_t* base_row = tables + static_cast<int64_t>(row.base) * tiles_w * 256 + v;
  const uint8_t* other_row = tables + static_cast<int64_t>(row.other) * tiles_w * 256 + v;
  const float b = clahe_lerp(static_cast<float>(base_row[col.base * 256]),
                             static_cast<float>(base_row[col.other * 256]), col.weight, odd);
  const float o = clahe_lerp(static_cast<float>(other_row[col.base * 256]),
                             static_cast<float>(other_row[col.other * 256]), col.weight, odd);
  return to_u8(clahe_lerp(b, o, row.weight, odd) / 255.0f * 255.0f);
}

// The parameters of a call: the grid and one clip limit per sample (or one for all).
struct ClaheParams {
  int64_t tiles_h = 8, tiles_w = 8;
  Samples clip;
};

// The CUDA kernels' bodies (each-index bodies: image.h). Tile t of plane p (t = (p * tiles_h + r)
// * tiles_w + q): its byte counts over the padded tile, folded into kornia's bins, its table, and
// the table by byte, written to tables[256 * t].
struct ClaheTablesBody {
  ConstImage src;
  ClaheGrid grid;
  Samples clip;
  uint8_t* tables;
  U8AUG_HD int64_t count() const { return src.batch * src.channels * grid.tiles_h * grid.tiles_w; }
  U8AUG_HD void operator()(int64_t t) const {
    const int64_t q = t % grid.tiles_w, r = (t / grid.tiles_w) % grid.tiles_h, p = t / (grid.tiles_w * grid.tiles_h);
    const int64_t b = p / src.channels, c = p % src.channels;
    uint32_t counts[256];
    for (int v = 0; v < 256; ++v) counts[v] = 0;
    for (int64_t y = r * grid.tile_h; y < (r + 1) * grid.tile_h; ++y) {
      const int64_t sy = clahe_reflect(y, src.height);
      for (int64_t x = q * grid.tile_w; x < (q + 1) * grid.tile_w; ++x)
        ++counts[src.at(b, c, sy, clahe_reflect(x, src.width))];
    }
    uint8_t bin_of[256];
    clahe_bins(bin_of);
    clahe_table_by_byte(counts, grid.tile_h * grid.tile_w, clip[b], bin_of, tables + 256 * t);
  }
};

// One output element from its plane's tables (ClaheTablesBody's layout).
struct ClaheBlendBody {
  ConstImage src;
  Image dst;
  ClaheGrid grid;
  const uint8_t* tables;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    const uint8_t* plane = tables + (k.b * dst.channels + k.c) * grid.tiles_h * grid.tiles_w * 256;
    dst.at(k.b, k.c, k.y, k.x) = clahe_value(plane, grid.tiles_w, clahe_row(k.y, grid), clahe_column(k.x, grid),
                                             src.at(k.b, k.c, k.y, k.x), grid.odd);
  }
};

}  // namespace u8aug
