// Pointwise ops: each output byte depends only on its input byte and its sample's parameters, so
// each op is a 256-entry table per sample. point_value() is the one definition of every table
// entry: kornia's float32 arithmetic on x / 255 in kornia's order, one rounding per operation
// (no FMA), quantized by to_u8. The CPU builds the tables from it and the CUDA kernel builds them
// in shared memory from it; point_element() is the per-byte body of both.
#pragma once

#include <cmath>

#include "u8aug/hd.h"
#include "u8aug/image.h"

namespace u8aug {

enum class PointOp : int {
  kBrightness,     // kornia.enhance.adjust_brightness: clamp(x + a)
  kBrightnessMul,  // kornia.enhance.adjust_brightness_accumulative: clamp(x * a)
  kContrast,       // kornia.enhance.adjust_contrast: clamp(x * a)
  kContrastMean,   // kornia.enhance.adjust_contrast_with_mean_subtraction, mean b: clamp(x * a + b * (1 - a))
  kGamma,          // kornia.enhance.adjust_gamma: clamp(b * x ^ a)
  kSolarize,       // kornia.enhance.solarize: y = clamp(x + b); y < a ? y : 1 - y
  kPosterize,      // kornia.enhance.posterize: keep the a high bits, through kornia's own steps
  kInvert,         // kornia.enhance.invert: 1 - x
};

struct PointParams {
  float a = 0.0f, b = 0.0f;
};

// torch.clamp(y, 0, 1): NaN stays NaN (to_u8 then maps it to 0).
U8AUG_HD float clamp_unit(float y) { return y < 0.0f ? 0.0f : (y > 1.0f ? 1.0f : y); }

// (t * 255).to(torch.uint8) for t in [0, 1]: truncation toward zero.
U8AUG_HD int truncate_u8(float t) { return static_cast<int>(t * 255.0f); }

// kornia.enhance.posterize on v in [0, 1], step by step: (v*255).to(uint8) / 2^shift / 255 (float
// division, no floor), then (that*255).to(uint8) * 2^shift / 255.
U8AUG_HD float posterize_unit(float v, int bits) {
  if (bits <= 0) return 0.0f;
  if (bits >= 8) return v;
  const float step = static_cast<float>(1 << (8 - bits));
  const float right = static_cast<float>(truncate_u8(v)) / step / 255.0f;
  return static_cast<float>(truncate_u8(right) * (1 << (8 - bits))) / 255.0f;
}

// kornia's torch.pow for float32 tensors is correctly rounded on these inputs (checked against it
// exhaustively): compute in double, round once to float.
U8AUG_HD float pow_f32(float x, float e) {
  return static_cast<float>(::pow(static_cast<double>(x), static_cast<double>(e)));
}

// Sample b's parameters; ops with one parameter leave `second` empty.
U8AUG_HD PointParams point_params(const Samples& first, const Samples& second, int64_t b) {
  PointParams p;
  if (first.count > 0) p.a = first[b];
  if (second.count > 0) p.b = second[b];
  return p;
}

// adjust_gamma's entry from its power pow_f32(x / 255, gamma).
U8AUG_HD uint8_t gamma_entry(float power, float gain) { return to_u8(clamp_unit(gain * power) * 255.0f); }

U8AUG_HD uint8_t point_value(PointOp op, PointParams p, uint8_t x) {
  const float v = unit(x);
  float y = v;
  switch (op) {
    case PointOp::kBrightness: y = clamp_unit(v + p.a); break;
    case PointOp::kBrightnessMul:
    case PointOp::kContrast: y = clamp_unit(v * p.a); break;
    case PointOp::kContrastMean: y = clamp_unit(v * p.a + p.b * (1.0f - p.a)); break;
    case PointOp::kGamma: return gamma_entry(pow_f32(v, p.a), p.b);
    case PointOp::kSolarize: {
      const float s = clamp_unit(v + p.b);
      y = s < p.a ? s : 1.0f - s;
      break;
    }
    case PointOp::kPosterize: y = posterize_unit(v, static_cast<int>(p.a)); break;
    case PointOp::kInvert: y = 1.0f - v; break;
  }
  return to_u8(y * 255.0f);
}

// The mean of x / 255 over `count` bytes whose sum is `sum`: the exact quotient, rounded once to
// float32. (torch's float32 mean of x.float() / 255 adds rounded terms in an order of its own, so it
// can differ in the last bit: the "near" class of image_mean.)
U8AUG_HD float byte_mean(uint64_t sum, int64_t count) {
  return static_cast<float>(static_cast<double>(sum) / (255.0 * static_cast<double>(count)));
}

// One byte of the output through its sample's 256-entry table.
U8AUG_HD void point_element(const ConstImage& src, const Image& dst, const uint8_t* table, int64_t b, int64_t c,
                            int64_t y, int64_t x) {
  dst.at(b, c, y, x) = table[src.at(b, c, y, x)];
}

// The CUDA kernels' bodies (each-index bodies: image.h). Element i of sample b, in memory order,
// through the sample's table (which the kernel's block has built in shared memory).
struct SampleTableBody {
  ConstImage src;
  Image dst;
  const uint8_t* table;
  int64_t b;
  U8AUG_HD int64_t count() const { return dst.channels * dst.height * dst.width; }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, b * count() + i);
    point_element(src, dst, table, k.b, k.c, k.y, k.x);
  }
};

// Byte i of sample b in memory order: what image_mean's sum kernel adds.
U8AUG_HD uint8_t sample_byte(const ConstImage& src, int64_t b, int64_t i) {
  const Index4 k = element_index(src, b * src.channels * src.height * src.width + i);
  return src.at(k.b, k.c, k.y, k.x);
}

// Sample b's mean from its byte sum.
struct ByteMeanBody {
  const unsigned long long* sums;
  float* mean;
  int64_t batch, per_sample;
  U8AUG_HD int64_t count() const { return batch; }
  U8AUG_HD void operator()(int64_t b) const { mean[b] = byte_mean(sums[b], per_sample); }
};

}  // namespace u8aug
