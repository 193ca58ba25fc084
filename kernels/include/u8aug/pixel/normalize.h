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

}  // namespace u8aug
