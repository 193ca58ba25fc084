// kornia's RandomSnow on one RGB pixel in [0, 1] floats: rgb_to_hls, the lightness of a pixel whose
// lightness is below the sample's coefficient multiplied by its brightness and clamped, hls_to_rgb,
// clamped; each step kornia's float32 arithmetic in its order. torch.max's index picks the first
// channel on ties. hls_to_rgb's addcmul(l, a, k, value=-1) is one fused multiply-add: torch's CPU
// kernel contracts it (on the whole colour cube, fused: 100% of kornia's bytes; two roundings:
// 99.998%). Shared by the CPU loop and the CUDA kernel.
#pragma once

#include <cmath>

#include "u8aug/pixel/color.h"

namespace u8aug {

// Python's math.pi / 3 and 6 / math.pi, as the float32 scalars torch multiplies with.
constexpr float kSextantRadians = 1.0471975511965976f;
constexpr float kTwelfthsPerRadian = 1.909859317102744f;

struct Hls {
  float h, l, s;
};

// kornia.color.rgb_to_hls with its eps = 1e-8 (added to nonzero denominators, as a float32 sum).
U8AUG_HD Hls rgb_to_hls(Rgb p) {
  const float mx = max3(p.r, p.g, p.b), mn = min3(p.r, p.g, p.b);
  const int imax = p.r == mx ? 0 : (p.g == mx ? 1 : 2);
  const float l2 = mx + mn, chroma = mx - mn;
  const float chroma_den = chroma == 0.0f ? 1.0f : chroma + 1e-8f;
  const float lightness_den = l2 < 1.0f ? l2 : 2.0f - l2;
  const float saturation_den = lightness_den == 0.0f ? 1.0f : lightness_den + 1e-8f;
  Hls q;
  q.s = chroma / saturation_den;
  q.l = l2 / 2.0f;
  // kornia sums the three masked terms: the two zero ones add +-0, which leaves the third as it is
  float h = imax == 0 ? remainder((p.g - p.b) / chroma_den, 6.0f)
                      : (imax == 1 ? (p.b - p.r) / chroma_den + 2.0f : (p.r - p.g) / chroma_den + 4.0f);
  h = h * kSextantRadians;
  q.h = h >= kTwoPi ? 0.0f : h;
  return q;
}

// One channel of kornia.color.hls_to_rgb: n is 0 (red), 8 (green) or 4 (blue); hh the hue in
// twelfths of a turn, a the chroma half-width.
U8AUG_HD float hls_channel(float l, float hh, float a, float n) {
  const float k = remainder(hh + n, 12.0f);
  const float m = fminf(k - 3.0f, 9.0f - k);
  const float mink = m < -1.0f ? -1.0f : (m > 1.0f ? 1.0f : m);
  return fmaf(-a, mink, l);
}

U8AUG_HD Rgb snow_rgb(Rgb p, float coefficient, float brightness) {
  Hls q = rgb_to_hls(p);
  if (q.l < coefficient) q.l = clamp_unit(q.l * brightness);
  const float hh = q.h * kTwelfthsPerRadian;
  const float a = q.s * fminf(q.l, 1.0f - q.l);
  return {clamp_unit(hls_channel(q.l, hh, a, 0.0f)), clamp_unit(hls_channel(q.l, hh, a, 8.0f)),
          clamp_unit(hls_channel(q.l, hh, a, 4.0f))};
}

struct SnowParams {
  Samples coefficient;  // snow_coefficient: lightness below it is scaled
  Samples brightness;   // >= 1
};

// The CUDA kernel's body: one pixel (all three channels) each.
struct SnowBody {
  ConstImage src;
  Image dst;
  SnowParams params;
  U8AUG_HD int64_t count() const { return dst.pixels(); }
  U8AUG_HD void operator()(int64_t i) const {
    const int64_t x = i % dst.width, y = (i / dst.width) % dst.height, b = i / (dst.width * dst.height);
    store_rgb(dst, b, y, x, snow_rgb(load_rgb(src, b, y, x), params.coefficient[b], params.brightness[b]));
  }
};

}  // namespace u8aug
