// kornia.enhance.sharpness on x / 255: inside the one-pixel border, the 3x3 kernel
// [[1, 1, 1], [1, 5, 1], [1, 1, 1]] / 13 (each tap float32(k / 13), as kornia builds it) correlated as
// filter2d sums (each tap one fused multiply-add, row-major: measured 100% against kornia's conv2d),
// clamped to [0, 1] (the "degenerate" image), then blended with the pixel itself:
// clamp(d + (x - d) * factor, 0, 1), each step rounded as torch's separate ops are. The border keeps
// the input (kornia pastes it there, and x + (x - x) * factor is x).
#pragma once

#include "u8aug/image.h"
#include "u8aug/pixel/filter.h"
#include "u8aug/pixel/point.h"

namespace u8aug {

U8AUG_HD float sharpness_tap(int64_t t) { return t == 4 ? 5.0f / 13.0f : 1.0f / 13.0f; }

// The blend of a pixel x with its kernel sum.
U8AUG_HD float sharpness_mix(float sum, float x, float factor) {
  const float d = clamp_unit(sum);
  return clamp_unit(d + (x - d) * factor);
}

U8AUG_HD uint8_t sharpness_value(const ConstImage& src, Samples factor, int64_t b, int64_t c, int64_t y, int64_t x) {
  const uint8_t self = src.at(b, c, y, x);
  if (y == 0 || x == 0 || y == src.height - 1 || x == src.width - 1) return self;
  float acc = 0.0f;
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 3; ++j) acc = tap(acc, unit(src.at(b, c, y - 1 + i, x - 1 + j)), sharpness_tap(i * 3 + j));
  return to_u8(sharpness_mix(acc, unit(self), factor[b]) * 255.0f);
}

// The CUDA kernel's body: one output element each, in memory order.
struct SharpnessBody {
  ConstImage src;
  Image dst;
  Samples factor;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    dst.at(k.b, k.c, k.y, k.x) = sharpness_value(src, factor, k.b, k.c, k.y, k.x);
  }
};

}  // namespace u8aug
