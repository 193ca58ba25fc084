// uint8 -> float32: (x / 255 - mean[c]) / std[c], kornia.enhance.normalize on x / 255 with
// every operation rounded in float32 in kornia's order (true divisions, no reciprocal multiply,
// no FMA), so the result equals kornia's bit for bit. to_float is mean 0, std 1 (both exact).
#pragma once

#include "u8aug/image.h"

namespace u8aug {

U8AUG_HD float normalize_value(uint8_t x, float mean, float std) {
  return (static_cast<float>(x) / 255.0f - mean) / std;
}

U8AUG_HD void normalize_element(const ConstImage& src, const FloatImage& dst, const PerChannel& mean,
                                const PerChannel& std, int64_t b, int64_t c, int64_t y, int64_t x) {
  dst.at(b, c, y, x) = normalize_value(src.at(b, c, y, x), mean[c], std[c]);
}

// The CUDA kernels' body: one output float, in memory order (each-index bodies: image.h).
// to_float is mean 0, std 1 (empty PerChannel values).
struct NormalizeBody {
  ConstImage src;
  FloatImage dst;
  PerChannel mean, std;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    if (mean.count == 0) {
      dst.at(k.b, k.c, k.y, k.x) = normalize_value(src.at(k.b, k.c, k.y, k.x), 0.0f, 1.0f);
    } else {
      normalize_element(src, dst, mean, std, k.b, k.c, k.y, k.x);
    }
  }
};

}  // namespace u8aug
