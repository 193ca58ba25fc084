// Grayscale, per pixel: kornia.color.rgb_to_grayscale on 3 channels, and RandomGrayscale's
// equal-weight channel mean on other channel counts; the result repeated to every output channel
// (1 for rgb_to_grayscale, C for grayscale). The shared body of the CPU scalar path and CUDA.
#pragma once

#include <cmath>

#include "u8aug/pixel/point.h"

namespace u8aug {

// kornia's float path: out = r * w_r, then two torch.addcmul steps, which torch's CPU kernels run
// as fused multiply-adds (checked on all 2^24 colours), so the fma is explicit here.
U8AUG_HD float luma_unit(float r, float g, float b) {
  const float out = r * 0.299f;
  return fmaf(b, 0.114f, fmaf(g, 0.587f, out));
}

// RandomGrayscale on C != 3 channels: (x * (1 / C)).sum over channels, each product rounded, summed
// in channel order.
U8AUG_HD float channel_mean_unit(const ConstImage& src, int64_t b, int64_t y, int64_t x) {
  const float w = static_cast<float>(1.0 / static_cast<double>(src.channels));
  float sum = 0.0f;
  for (int64_t c = 0; c < src.channels; ++c) sum += unit(src.at(b, c, y, x)) * w;
  return sum;
}

// kornia's luma of three bytes, quantized (to_u8(luma_unit(...) * 255)), in integers: that float
// result lies within 1e-5 of (299 r + 587 g + 114 b) / 1000 (the float32 weights are within 1.3e-8
// of 0.299, 0.587 and 0.114, and the float steps round little), a multiple of 1 / 1000, so both
// round to the same integer unless the quotient is a half, the sum 500 modulo 1000 (0.1% of the
// colours): only there do the float steps decide. Checked on all 2^24 colours (tests/cpp/test_gray.cc).
constexpr int32_t kLumaMilliR = 299, kLumaMilliG = 587,
                  kLumaMilliB = 114;  // the weights in thousandths (the vector paths' too)
U8AUG_HD int32_t luma_sum(int32_t r, int32_t g, int32_t b) {
  return kLumaMilliR * r + kLumaMilliG * g + kLumaMilliB * b;
}

U8AUG_HD bool luma_sum_is_half(int32_t sum) { return sum % 1000 == 500; }

U8AUG_HD uint8_t luma_float_byte(uint8_t r, uint8_t g, uint8_t b) {
  return to_u8(luma_unit(unit(r), unit(g), unit(b)) * 255.0f);
}

U8AUG_HD uint8_t luma_byte(uint8_t r, uint8_t g, uint8_t b) {
  const int32_t sum = luma_sum(r, g, b);
  return luma_sum_is_half(sum) ? luma_float_byte(r, g, b) : static_cast<uint8_t>((sum + 500) / 1000);
}

U8AUG_HD uint8_t gray_value(const ConstImage& src, int64_t b, int64_t y, int64_t x) {
  if (src.channels == 3) return luma_byte(src.at(b, 0, y, x), src.at(b, 1, y, x), src.at(b, 2, y, x));
  return to_u8(channel_mean_unit(src, b, y, x) * 255.0f);
}

U8AUG_HD void gray_pixel(const ConstImage& src, const Image& dst, int64_t b, int64_t y, int64_t x) {
  const uint8_t v = gray_value(src, b, y, x);
  for (int64_t c = 0; c < dst.channels; ++c) dst.at(b, c, y, x) = v;
}

// The CUDA kernel's body: one pixel, all its output channels (each-index bodies: image.h).
struct GrayBody {
  ConstImage src;
  Image dst;
  U8AUG_HD int64_t count() const { return dst.pixels(); }
  U8AUG_HD void operator()(int64_t i) const {
    const PixelIndex k = pixel_index(dst, i);
    gray_pixel(src, dst, k.b, k.y, k.x);
  }
};

}  // namespace u8aug
