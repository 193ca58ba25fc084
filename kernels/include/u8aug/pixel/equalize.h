// Histogram equalisation per (sample, channel) plane, as kornia.enhance.equalize computes it on
// x / 255: the index (x / 255 * 255).long() (not always x), a float32 histogram of it, the PIL
// step and look-up table in float32, then the table read at the index (or the plane unchanged
// when step is 0). Every quantity is an integer below 2^24 for planes of at most 2^24 pixels, so
// the float32 arithmetic is exact and this reproduces kornia's bytes. The table of a plane,
// indexed by the input byte, is then applied like any pointwise table.
#pragma once

#include <cmath>

#include "u8aug/pixel/point.h"

namespace u8aug {

// kornia's histogram bin of byte x.
U8AUG_HD int equalize_index(uint8_t x) { return static_cast<int>(unit(x) * 255.0f); }

// counts[k]: how many pixels of the plane have equalize_index == k. Writes table[x] for x in
// 0..255: the output byte of input byte x.
U8AUG_HD void equalize_table(const uint32_t* counts, uint8_t* table) {
  float total = 0.0f;
  int last = 0;
  for (int k = 0; k < 256; ++k) {
    total += static_cast<float>(counts[k]);
    if (counts[k] > 0) last = k;
  }
  const float step = truncf((total - static_cast<float>(counts[last])) / 255.0f);
  if (step == 0.0f) {  // kornia returns the plane itself (scaled / 255)
    for (int x = 0; x < 256; ++x) table[x] = to_u8((unit(static_cast<uint8_t>(x)) * 255.0f) / 255.0f * 255.0f);
    return;
  }
  const float half = truncf(step / 2.0f);
  float lut[256];  // lut[k]: the value of bin k, shifted by one bin as kornia does
  float cumulative = 0.0f;
  lut[0] = 0.0f;
  for (int k = 0; k < 255; ++k) {
    cumulative += static_cast<float>(counts[k]);
    const float v = truncf((cumulative + half) / step);
    lut[k + 1] = v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v);
  }
  for (int x = 0; x < 256; ++x) {
    table[x] = to_u8(lut[equalize_index(static_cast<uint8_t>(x))] / 255.0f * 255.0f);
  }
}

// kornia.enhance.normalize_min_max (RandomAutoContrast) of a plane whose bytes span [lo, hi]: on
// x / 255 with the plane's min and max, (x - min) / ((max - min) + 1e-6), a true division (the
// reciprocal's product differs), clamped. min and max of x / 255 are those of the bytes, so the
// plane's table follows from its two extreme bytes.
U8AUG_HD void auto_contrast_table(uint8_t lo, uint8_t hi, uint8_t* table) {
  const float mn = unit(lo), range = (unit(hi) - mn) + 1e-6f;
  for (int x = 0; x < 256; ++x) table[x] = to_u8(clamp_unit((unit(static_cast<uint8_t>(x)) - mn) / range) * 255.0f);
}

// The CUDA kernels' bodies (each-index bodies: image.h). Byte i of plane p, the plane's pixels
// counted row by row: what the histogram kernel counts.
U8AUG_HD uint8_t plane_byte(const ConstImage& src, int64_t p, int64_t i) {
  return src.at(p / src.channels, p % src.channels, i / src.width, i % src.width);
}

// Plane p's table from its byte counts (256 per plane), folded into kornia's bins.
struct EqualizeTablesBody {
  const uint32_t* byte_counts;
  uint8_t* tables;
  int64_t planes;
  U8AUG_HD int64_t count() const { return planes; }
  U8AUG_HD void operator()(int64_t p) const {
    uint32_t bins[256];
    for (int k = 0; k < 256; ++k) bins[k] = 0;
    for (int v = 0; v < 256; ++v) bins[equalize_index(static_cast<uint8_t>(v))] += byte_counts[256 * p + v];
    equalize_table(bins, tables + 256 * p);
  }
};

// Plane p's auto-contrast table from its byte counts: its extreme bytes are the first and last
// with a count.
struct AutoContrastTablesBody {
  const uint32_t* byte_counts;
  uint8_t* tables;
  int64_t planes;
  U8AUG_HD int64_t count() const { return planes; }
  U8AUG_HD void operator()(int64_t p) const {
    const uint32_t* c = byte_counts + 256 * p;
    int lo = 0, hi = 255;
    while (lo < 255 && c[lo] == 0) ++lo;
    while (hi > 0 && c[hi] == 0) --hi;
    auto_contrast_table(static_cast<uint8_t>(lo), static_cast<uint8_t>(hi), tables + 256 * p);
  }
};

// One output byte through its plane's table, in memory order.
struct PlaneTablesBody {
  ConstImage src;
  Image dst;
  const uint8_t* tables;  // 256 per (b, c) plane, b-major
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    point_element(src, dst, tables + 256 * (k.b * dst.channels + k.c), k.b, k.c, k.y, k.x);
  }
};

}  // namespace u8aug
