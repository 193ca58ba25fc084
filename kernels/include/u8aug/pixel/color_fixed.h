// The colour ops' fast tier (Fidelity::kFast) in 16-bit fixed point: ColorJitter's and
// ColorJiggle's four steps in kornia's order (and adjust_hue, one of them),
// on values v * 255 * 2^7 (a byte with 7 fraction bits, 0..32640) in int16 lanes, each multiply a
// Q15 one rounded half up (x86's pmulhrsw, Highway's MulFixedPoint15), the hue without a division.
// Every operation is an integer one or a single IEEE float one, so the CPU lanes, this scalar code
// and CUDA give the same bytes by construction. Shared by cpu/color_fixed.cc and cuda/color.cu;
// test_each_index.cc runs these bodies against the CPU lanes on every target.
//
// A sample whose factors the fixed point cannot hold, or where it would break exact rounding ties
// its own way, takes the float chain of pixel/color.h instead (fixed_color_applies).
#pragma once

#include <cmath>
#include <cstdint>

#include "u8aug/pixel/color.h"

namespace u8aug {

constexpr int32_t kFixedOne = 255 << 7;  // 1.0: a byte's unit is 2^7

U8AUG_HD int32_t fixed_of_byte(uint8_t x) { return static_cast<int32_t>(x) << 7; }
// The byte nearest v in [0, kFixedOne], halves to even (halves up drifted by +0.003 to +0.013).
U8AUG_HD uint8_t byte_of_fixed(int32_t v) { return static_cast<uint8_t>((v + 63 + ((v >> 7) & 1)) >> 7); }
U8AUG_HD int32_t clamp_fixed(int32_t v) { return v < 0 ? 0 : (v > kFixedOne ? kFixedOne : v); }
// a * b / 2^15, rounded half up: pmulhrsw on int16 a and b (never both -2^15 here).
U8AUG_HD int32_t mul_q15(int32_t a, int32_t b) { return (a * b + 16384) >> 15; }
// x in [-1, 1] as Q15, 1 held as 2^15 - 1 (an error of 1/32768 of the value, under 1/128 byte).
U8AUG_HD int32_t q15_of(float x) {
  const int32_t q = static_cast<int32_t>(rintf(x * 32768.0f));
  return q > 32767 ? 32767 : (q < -32768 ? -32768 : q);
}

// kornia's grey weights (0.299, 0.587, 0.114) in Q15, rounded so that they sum to 2^15: white stays
// white, and the grey of a grey pixel is that grey within one unit.
constexpr int32_t kLumaR = 9798, kLumaG = 19235, kLumaB = 3735;

struct FixedRgb {
  int32_t r, g, b;
};

U8AUG_HD int32_t fixed_luma(FixedRgb p) { return mul_q15(p.r, kLumaR) + mul_q15(p.g, kLumaG) + mul_q15(p.b, kLumaB); }

// The hue step: pixel/color.h's closed form (each channel max - chroma * weight(k), k = n + hue)
// without its division. The hue, in sextants, is the sector's base plus numerator / chroma plus the
// shift; times chroma, that is a whole sector j and a remainder r in [0, chroma]. Each channel's
// own sector (j + n) mod 6 (n = 5, 3, 1) has j's parity, so sector j gives the channels a fixed
// arrangement of mx, mn and one middle value, mn + r for even j and mx - r for odd: red is mx for j
// in {0, 5} and mn for {2, 3}, green mx for {1, 2} and mn for {4, 5}, blue mx for {3, 4} and mn for
// {0, 1}. Only chroma times the shift's fraction (Q15) rounds. `whole` and `fraction` split
// round(sextants * 2^15) (fixed_hue_shift).
U8AUG_HD FixedRgb fixed_hue(FixedRgb p, int32_t whole, int32_t fraction) {
  const int32_t mx = p.r > p.g ? (p.r > p.b ? p.r : p.b) : (p.g > p.b ? p.g : p.b);
  const int32_t mn = p.r < p.g ? (p.r < p.b ? p.r : p.b) : (p.g < p.b ? p.g : p.b);
  const int32_t chroma = mx - mn;
  int32_t numerator, j;  // kornia's tie order: red, then green
  if (p.r == mx) {
    numerator = p.g - p.b;
    j = 0;
  } else if (p.g == mx) {
    numerator = p.b - p.r;
    j = 2;
  } else {
    numerator = p.r - p.g;
    j = 4;
  }
  const int32_t t = mul_q15(chroma, fraction);  // in [0, chroma]
  int32_t r = numerator + t - chroma;           // numerator + t lies in [-chroma, 2 chroma]
  if (r >= 0) {
    j += 1;
  } else {
    r = numerator + t;
    if (r < 0) {
      r += chroma;
      j -= 1;
    }
  }
  j += whole;  // [-4, 8]
  j = j < 0 ? j + 6 : (j >= 6 ? j - 6 : j);
  const int32_t mid = (j & 1) == 0 ? mn + r : mx - r;
  auto channel = [&](bool is_max, bool is_min) { return is_max ? mx : (is_min ? mn : mid); };
  return {channel(j == 0 || j == 5, j == 2 || j == 3), channel(j == 1 || j == 2, j == 4 || j == 5),
          channel(j == 3 || j == 4, j == 0 || j == 1)};
}

// A hue shift of `sextants` (in [-3, 3]) as round(sextants * 2^15): the whole sextants (floor) and
// the fraction in Q15, [0, 2^15).
U8AUG_HD int32_t fixed_hue_shift(float sextants) { return static_cast<int32_t>(rintf(sextants * 32768.0f)); }

// One sample's constants. contrast and saturation hold f - 1 in Q15, and so does ColorJitter's
// brightness; ColorJiggle's brightness adds (f - 1) in fixed units. shift is ColorJitter's contrast
// mean * (1 - f) in fixed units, known after the first pass (fixed_contrast_shift).
struct FixedColor {
  bool applies, jitter;
  int32_t brightness, contrast, saturation, shift;
  int32_t hue_whole, hue_fraction;
};

// A multiplying factor the fixed point holds: in [0, 2), and 1 or off the grid of sixteenths. A
// factor on that grid (0.5, 0.75, 1.25) puts 1 byte in 2 to 16 exactly halfway between two bytes
// after the step, and kornia's float32 chain breaks each such tie by its own rounding, pixel by
// pixel, which no other arithmetic follows (brightness 0.5 alone: 75% identical); those samples
// take the float chain. Random draws land there with probability about 10^-3 a factor.
U8AUG_HD bool fixed_factor_fits(float f) {
  if (f == 1.0f) return true;
  if (!(f >= 0.0f && f < 2.0f)) return false;
  const float sixteenths = f * 16.0f;
  return fabsf(sixteenths - rintf(sixteenths)) >= 1e-3f;
}

// ColorJiggle's brightness adds f - 1: in fixed units, and in [-1, 1].
U8AUG_HD int32_t fixed_addition(float f) {
  return static_cast<int32_t>(rintf((f - 1.0f) * static_cast<float>(kFixedOne)));
}
// An addition of a whole byte and a half lands every pixel on a tie: the float chain's, as above.
U8AUG_HD bool fixed_addition_fits(float f) { return f >= 0.0f && f <= 2.0f && (fixed_addition(f) & 127) != 64; }

U8AUG_HD bool fixed_color_applies(const JiggleFactors& k, int64_t b) {
  if (!k.fast) return false;
  if (k.apply[0] && !(k.jitter ? fixed_factor_fits(k.brightness[b]) : fixed_addition_fits(k.brightness[b])))
    return false;
  if (k.apply[1] && !fixed_factor_fits(k.contrast[b])) return false;
  if (k.apply[2] && !fixed_factor_fits(k.saturation[b])) return false;
  return !k.apply[3] || fast_hue_applies(sextants_of_turns(k.hue[b]));
}

U8AUG_HD FixedColor fixed_color_sample(const JiggleFactors& k, int64_t b) {
  FixedColor s{fixed_color_applies(k, b), k.jitter, 0, 0, 0, 0, 0, 0};
  if (!s.applies) return s;
  if (k.apply[0]) s.brightness = k.jitter ? q15_of(k.brightness[b] - 1.0f) : fixed_addition(k.brightness[b]);
  if (k.apply[1]) s.contrast = q15_of(k.contrast[b] - 1.0f);
  if (k.apply[2]) s.saturation = q15_of(k.saturation[b] - 1.0f);
  if (k.apply[3]) {
    const int32_t shift = fixed_hue_shift(sextants_of_turns(k.hue[b]));
    s.hue_whole = shift >> 15;  // floor: an arithmetic shift
    s.hue_fraction = shift & 32767;
  }
  return s;
}

// contrast's mean * (1 - f), from the sum of fixed_luma over the sample's pixels before contrast
// (one multiply and one divide in double: nothing for a compiler to fuse, the same on every backend).
U8AUG_HD int32_t fixed_contrast_shift(int64_t luma_sum, int64_t pixels, float f) {
  const double mean = static_cast<double>(luma_sum) / static_cast<double>(pixels);
  return static_cast<int32_t>(rint(mean * (1.0 - static_cast<double>(f))));
}

// kornia's adjust_saturation (ColorJiggle's): with delta = mx - mn, while delta * f <= mx each
// channel is mx - f * (mx - x) = x + (f - 1) * (x - mx); past that the saturation clips to 1 and
// each channel is (x - mn) * (mx / delta), in float32 as kornia takes it (one division a pixel,
// then a product a channel, rounded back to fixed). Both forms meet where delta * f = mx.
U8AUG_HD FixedRgb fixed_saturation(FixedRgb p, int32_t f1) {
  const int32_t mx = p.r > p.g ? (p.r > p.b ? p.r : p.b) : (p.g > p.b ? p.g : p.b);
  const int32_t mn = p.r < p.g ? (p.r < p.b ? p.r : p.b) : (p.g < p.b ? p.g : p.b);
  const int32_t delta = mx - mn;
  if (delta + mul_q15(delta, f1) > mx) {
    const float ratio = static_cast<float>(mx) / static_cast<float>(delta);
    auto clipped = [&](int32_t x) { return static_cast<int32_t>(rintf(static_cast<float>(x - mn) * ratio)); };
    return {clipped(p.r), clipped(p.g), clipped(p.b)};
  }
  return {clamp_fixed(p.r + mul_q15(p.r - mx, f1)), clamp_fixed(p.g + mul_q15(p.g - mx, f1)),
          clamp_fixed(p.b + mul_q15(p.b - mx, f1))};
}

// One of the steps (0 brightness, 1 contrast, 2 saturation, 3 hue), as pixel/color.h's color_step,
// each result within [0, 1].
U8AUG_HD FixedRgb fixed_color_step(FixedRgb p, const FixedColor& s, int step) {
  switch (step) {
    case 0:
      if (!s.jitter)
        return {clamp_fixed(p.r + s.brightness), clamp_fixed(p.g + s.brightness), clamp_fixed(p.b + s.brightness)};
      return {clamp_fixed(p.r + mul_q15(p.r, s.brightness)), clamp_fixed(p.g + mul_q15(p.g, s.brightness)),
              clamp_fixed(p.b + mul_q15(p.b, s.brightness))};
    case 1:  // ColorJiggle's shift is 0: x * f
      return {clamp_fixed(p.r + mul_q15(p.r, s.contrast) + s.shift),
              clamp_fixed(p.g + mul_q15(p.g, s.contrast) + s.shift),
              clamp_fixed(p.b + mul_q15(p.b, s.contrast) + s.shift)};
    case 2: {
      if (!s.jitter) return fixed_saturation(p, s.saturation);
      const int32_t grey = fixed_luma(p);  // (1 - f) * grey + f * x = x + (f - 1) * (x - grey)
      return {clamp_fixed(p.r + mul_q15(p.r - grey, s.saturation)),
              clamp_fixed(p.g + mul_q15(p.g - grey, s.saturation)),
              clamp_fixed(p.b + mul_q15(p.b - grey, s.saturation))};
    }
    default: return fixed_hue(p, s.hue_whole, s.hue_fraction);
  }
}

U8AUG_HD FixedRgb fixed_color_steps(FixedRgb p, const JiggleFactors& k, const FixedColor& s, int first, int last) {
  for (int i = first; i < last; ++i) {
    if (k.apply[k.order[i]]) p = fixed_color_step(p, s, k.order[i]);
  }
  return p;
}

U8AUG_HD FixedRgb load_fixed(const ConstImage& src, int64_t b, int64_t y, int64_t x) {
  return {fixed_of_byte(src.at(b, 0, y, x)), fixed_of_byte(src.at(b, 1, y, x)), fixed_of_byte(src.at(b, 2, y, x))};
}

U8AUG_HD void store_fixed(const Image& dst, int64_t b, int64_t y, int64_t x, FixedRgb p) {
  dst.at(b, 0, y, x) = byte_of_fixed(p.r);
  dst.at(b, 1, y, x) = byte_of_fixed(p.g);
  dst.at(b, 2, y, x) = byte_of_fixed(p.b);
}

// What the first pass adds for pixel (b, y, x): its grey before contrast, fixed_luma where the
// sample runs the fixed point, pixel/color.h's gray_fixed of kornia's grey where it runs the float
// chain (the two kinds of sum are never mixed in one sample).
U8AUG_HD int64_t jitter_gray_term(const ConstImage& src, const JiggleFactors& k, int64_t b, int64_t y, int64_t x) {
  const FixedColor s = fixed_color_sample(k, b);
  if (s.applies) return fixed_luma(fixed_color_steps(load_fixed(src, b, y, x), k, s, 0, contrast_position(k)));
  const Rgb p = before_contrast(load_rgb(src, b, y, x), k, b);
  return gray_fixed(luma_unit(p.r, p.g, p.b));
}

// ColorJiggle or ColorJitter (k.jitter; then k.gray_sums from the first pass where k.apply[1]) on
// pixel (b, y, x), in the fixed point where fixed_color_applies, else in pixel/color.h's floats.
U8AUG_HD void color_chain_pixel(const ConstImage& src, const Image& dst, const JiggleFactors& k, int64_t b, int64_t y,
                                int64_t x) {
  FixedColor s = fixed_color_sample(k, b);
  if (!s.applies) {
    store_rgb(dst, b, y, x, color_jiggle_rgb(load_rgb(src, b, y, x), k, b));
    return;
  }
  if (k.jitter && k.apply[1]) s.shift = fixed_contrast_shift(k.gray_sums[b], k.pixels, k.contrast[b]);
  const FixedRgb p = fixed_color_steps(load_fixed(src, b, y, x), k, s, 0, k.steps);
  store_fixed(dst, b, y, x, p);
}

// adjust_hue's fast tier: the chain's hue step by `radians`, for the samples whose shift
// fast_hue_applies to; the others keep pixel/color.h's closed form in float (kFastHue).
// (adjust_saturation's fast tier stays its exact formula: in this fixed point ColorJiggle's
// saturation above 1 takes its float form wherever pixels clip, and on random images that made it
// slower than the exact op, 2.1 against 1.8 ms a batch.)
U8AUG_HD FixedColor fixed_hue_sample(float radians) {
  const float sextants = sextants_of_radians(radians);
  const int32_t shift = fixed_hue_shift(sextants);
  return {fast_hue_applies(sextants), false, 0, 0, 0, 0, shift >> 15, shift & 32767};
}

// The factors of a chain of the hue step alone, for fixed_color_steps.
U8AUG_HD JiggleFactors hue_step_factors() {
  return {{}, {}, {}, {}, {3, 0, 0, 0}, 1, {false, false, false, true}, false, nullptr, 0, true};
}

U8AUG_HD void fixed_hue_pixel(const ConstImage& src, const Image& dst, const Samples& radians, int64_t b, int64_t y,
                              int64_t x) {
  const FixedColor s = fixed_hue_sample(radians[b]);
  if (!s.applies) {
    const JiggleFactors unused = hue_step_factors();
    color_pixel(ColorOp::kFastHue, src, dst, radians, unused, b, y, x);
    return;
  }
  const FixedRgb p = fixed_color_step(load_fixed(src, b, y, x), s, 3);
  store_fixed(dst, b, y, x, p);
}

// The CUDA kernels' bodies (each-index bodies: image.h) for color_jiggle and color_jitter in either
// tier; `jiggle` as in ColorBody. ColorJitter's first pass: pixel i's term, and its sample.
struct SampleGray {
  int64_t b;
  int64_t fixed;
};
struct JitterGrayBody {
  ConstImage src;
  const JiggleFactors* jiggle;
  U8AUG_HD int64_t count() const { return src.pixels(); }
  U8AUG_HD SampleGray operator()(int64_t i) const {
    const PixelIndex k = pixel_index(src, i);
    return SampleGray{k.b, jitter_gray_term(src, *jiggle, k.b, k.y, k.x)};
  }
};

// adjust_hue's fast tier on pixel i.
struct FixedHueBody {
  ConstImage src;
  Image dst;
  Samples radians;
  U8AUG_HD int64_t count() const { return dst.pixels(); }
  U8AUG_HD void operator()(int64_t i) const {
    const PixelIndex k = pixel_index(dst, i);
    fixed_hue_pixel(src, dst, radians, k.b, k.y, k.x);
  }
};

struct ColorChainBody {
  ConstImage src;
  Image dst;
  const JiggleFactors* jiggle;
  U8AUG_HD int64_t count() const { return dst.pixels(); }
  U8AUG_HD void operator()(int64_t i) const {
    const PixelIndex k = pixel_index(dst, i);
    color_chain_pixel(src, dst, *jiggle, k.b, k.y, k.x);
  }
};

}  // namespace u8aug
