// Batch mixes, each output sample made from two or more input samples: kornia's RandomMixUpV2
// (a blend with the paired sample) and RandomCutMixV2 (rectangles pasted from paired samples).
// Shared by the CPU loops and the CUDA kernels.
#pragma once

#include "u8aug/image.h"
#include "u8aug/pixel/erase.h"

namespace u8aug {

// MixUp: kornia's input * (1 - lam) + input[pairs] * lam on x / 255, in float32, each product and
// the sum rounded (torch's three eager kernels), quantised by the oracle's to_u8. A sample kornia
// skips is given lam = 0 (x * 1 + y * 0 is x exactly) and its own index.
struct MixUpParams {
  const int64_t* pairs = nullptr;  // B source indices, in [0, B)
  Samples lambdas;
};

U8AUG_HD float mixup_blend(float a, float b, float lam) { return a * (1.0f - lam) + b * lam; }

// A device-side pair outside the batch reads sample b itself (the CPU entry point rejects it).
U8AUG_HD int64_t pair_of(const int64_t* pairs, int64_t b, int64_t batch) {
  const int64_t p = pairs[b];
  return p >= 0 && p < batch ? p : b;
}

U8AUG_HD uint8_t mixup_value(const ConstImage& src, const MixUpParams& p, int64_t b, int64_t c, int64_t y, int64_t x) {
  const float a = unit(src.at(b, c, y, x)), o = unit(src.at(pair_of(p.pairs, b, src.batch), c, y, x));
  return to_u8(mixup_blend(a, o, p.lambdas[b]) * 255.0f);
}

// CutMix: `mixes` rounds; in round k pixel (x, y) of sample b inside box (k, b) (x_min, y_min,
// x_max, y_max, kornia's bbox_to_mask comparisons: pixel/erase.h) takes sample sources[k][b]'s
// byte, the input's, not an earlier round's; the last round that covers a pixel wins.
struct PasteParams {
  const int64_t* sources = nullptr;  // mixes x B sample indices
  const float* boxes = nullptr;      // mixes x B x 4 corners
  int64_t mixes = 0;
  U8AUG_HD const float* box(int64_t k, int64_t b, int64_t batch) const { return boxes + 4 * (k * batch + b); }
};

U8AUG_HD int64_t paste_source(const PasteParams& p, int64_t batch, int64_t b, int64_t y, int64_t x) {
  int64_t s = b;
  for (int64_t k = 0; k < p.mixes; ++k) {
    if (in_box(p.box(k, b, batch), y, x)) s = pair_of(p.sources + k * batch, b, batch);
  }
  return s;
}

// The CUDA kernels' bodies: one output element each, in memory order.
struct MixUpBody {
  ConstImage src;
  Image dst;
  MixUpParams p;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    dst.at(k.b, k.c, k.y, k.x) = mixup_value(src, p, k.b, k.c, k.y, k.x);
  }
};

struct PasteBody {
  ConstImage src;
  Image dst;
  PasteParams p;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    dst.at(k.b, k.c, k.y, k.x) = src.at(paste_source(p, src.batch, k.b, k.y, k.x), k.c, k.y, k.x);
  }
};

}  // namespace u8aug
