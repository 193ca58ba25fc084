// Bicubic interpolation as torch's CPU kernels round it in float32: the weights of Keys' cubic
// convolution (A = -0.75) at a tap offset t in [0, 1], and the sums of four weighted taps. Shared
// by resize (torch's upsample_bicubic2d) and the warps and grid_sample (its bicubic grid_sample),
// on the CPU and in CUDA.
//
// The two torch kernels write the same polynomials, but the compiler contracts different
// multiply-adds into fused ones in each, and even in each padding mode's copy of grid_sample;
// every choice below was measured against torch 2.11 and 2.15 (their AVX-512 and AVX2 kernels),
// tap by tap with one-hot images; tests/python/test_bicubic.py checks the bytes against torch.
#pragma once

#include <math.h>

#include "u8aug/hd.h"

namespace u8aug {

struct CubicWeights {
  float w[4];  // taps at offsets -1, 0, 1, 2 from floor(x)
};

// upsample_bicubic2d's get_cubic_upsample_coefficients: near taps ((A + 2) x - (A + 3)) x x + 1,
// far taps ((A x - 5 A) x + 8 A) x - 4 A, at x = t + 1, t, 1 - t, (1 - t) + 1.
U8AUG_HD float upsample_near_weight(float x) {
  const float p = fmaf(1.25f, x, -2.25f);
  return (p * x) * x + 1.0f;
}
U8AUG_HD float upsample_far_weight(float x) {
  const float p = fmaf(fmaf(-0.75f, x, 3.75f), x, -6.0f);
  return p * x + 3.0f;
}
U8AUG_HD CubicWeights upsample_cubic_weights(float t) {
  const float u = 1.0f - t;
  return CubicWeights{
      {upsample_far_weight(t + 1.0f), upsample_near_weight(t), upsample_near_weight(u), upsample_far_weight(u + 1.0f)}};
}

// grid_sample's vectorised get_cubic_coefficients: the same polynomials at x = t + 1, t, 1 - t,
// 2 - t, contracted differently.
U8AUG_HD float grid_near_weight(float x) {
  const float p = fmaf(1.25f, x, -2.25f);
  return fmaf(p * x, x, 1.0f);
}
U8AUG_HD float grid_far_weight(float x) { return ((-0.75f * x + 3.75f) * x - 6.0f) * x + 3.0f; }
U8AUG_HD CubicWeights grid_cubic_weights(float t) {
  return CubicWeights{
      {grid_far_weight(t + 1.0f), grid_near_weight(t), grid_near_weight(1.0f - t), grid_far_weight(2.0f - t)}};
}

// The orders in which torch sums four weighted taps v[k] * w[k]:
//   kPairFirst:    fma(v3, w3, fma(v2, w2, fma(v0, w0, v1 * w1)))  upsample_bicubic2d, both passes
//   kChain:        fma(v3, w3, fma(v2, w2, fma(v1, w1, v0 * w0)))  grid_sample down the rows (and,
//                  on torch 2.11, across them with reflection padding)
//   kPairThenAdds: (fma(v0, w0, v1 * w1) + v2 * w2) + v3 * w3       grid_sample across the rows
enum class CubicSum : int32_t { kPairFirst = 0, kChain = 1, kPairThenAdds = 2 };

U8AUG_HD float cubic_sum(const float v[4], const CubicWeights& c, CubicSum order) {
  const float* w = c.w;
  if (order == CubicSum::kChain) return fmaf(v[3], w[3], fmaf(v[2], w[2], fmaf(v[1], w[1], v[0] * w[0])));
  const float pair = fmaf(v[0], w[0], v[1] * w[1]);
  if (order == CubicSum::kPairThenAdds) return (pair + v[2] * w[2]) + v[3] * w[3];
  return fmaf(v[3], w[3], fmaf(v[2], w[2], pair));
}

}  // namespace u8aug
