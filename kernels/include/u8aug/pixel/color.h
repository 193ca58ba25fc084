// Cross-channel colour steps on one RGB pixel in [0, 1] floats, each the float32 arithmetic of
// the kornia function it names, operation by operation in kornia's order (every torch op rounds
// once; none of these is a fused kernel). Shared by the CPU loops and the CUDA kernels.
#pragma once

#include <cmath>

#include "u8aug/pixel/gray.h"
#include "u8aug/pixel/point.h"

namespace u8aug {

struct Rgb {
  float r, g, b;
};

// Python's 2 * math.pi and math.pi, as the float32 scalars torch multiplies and compares with.
constexpr float kTwoPi = 6.283185307179586f;
constexpr float kPi = 3.141592653589793f;

U8AUG_HD float max3(float a, float b, float c) { return fmaxf(fmaxf(a, b), c); }
U8AUG_HD float min3(float a, float b, float c) { return fminf(fminf(a, b), c); }

// torch.remainder on floats: fmod, moved into the divisor's sign. fmod is exact; for |a| < 2|b|
// (every call here, for inputs in range) it is a or a -/+ b, which is exact too (Sterbenz), so the
// slow library fmodf is only the fallback.
U8AUG_HD float remainder(float a, float b) {
  const float aa = fabsf(a), ab = fabsf(b);
  float m;
  if (aa < ab) {
    m = a;
  } else if (aa < 2.0f * ab) {
    m = a - copysignf(ab, a);
  } else {
    m = fmodf(a, b);
  }
  if (m != 0.0f && ((b < 0.0f) != (m < 0.0f))) m += b;
  return m;
}

// kornia.enhance.adjust_saturation on float32 images (kornia's direct RGB formula, no HSV trip).
U8AUG_HD Rgb adjust_saturation_rgb(Rgb p, float factor) {
  const float mx = max3(p.r, p.g, p.b), mn = min3(p.r, p.g, p.b);
  const float delta = mx - mn;
  const float value_divisor = mx == 0.0f ? 1.0f : mx + 1e-8f;
  const float saturation = clamp_unit((delta / value_divisor) * factor);
  const float adjusted_delta = mx * saturation;
  const float delta_divisor = delta == 0.0f ? 1.0f : delta;
  const float ratio = adjusted_delta / delta_divisor;
  const float offset = mx - adjusted_delta;
  return {(p.r - mn) * ratio + offset, (p.g - mn) * ratio + offset, (p.b - mn) * ratio + offset};
}

// kornia.enhance.adjust_hue(p, radians): rgb_to_hsv, adjust_hue_raw, hsv_to_rgb.
U8AUG_HD Rgb adjust_hue_rgb(Rgb p, float radians) {
  // rgb_to_hsv
  const float mx = max3(p.r, p.g, p.b), mn = min3(p.r, p.g, p.b);
  float deltac = mx - mn;
  const float v = mx;
  const float s = deltac / (mx == 0.0f ? 1.0f : mx + 1e-8f);
  deltac = deltac == 0.0f ? 1.0f : deltac;
  const float rc = mx - p.r, gc = mx - p.g, bc = mx - p.b;
  float h;
  if (p.r >= p.g && p.r >= p.b) {
    h = bc - gc;
  } else if (p.g >= p.b) {
    h = (rc - bc) + 2.0f * deltac;
  } else {
    h = (gc - rc) + 4.0f * deltac;
  }
  h = h / deltac;
  h = remainder(h / 6.0f, 1.0f);
  h = kTwoPi * h;
  if (h >= kTwoPi) h = 0.0f;
  // adjust_hue_raw
  h = remainder(h + radians, kTwoPi);
  if (h >= kTwoPi) h = 0.0f;
  // hsv_to_rgb
  const float hh = h / kTwoPi;
  const float hi = remainder(floorf(hh * 6.0f), 6.0f);
  const float f = remainder(hh * 6.0f, 6.0f) - hi;
  const float pp = v * (1.0f - s);
  const float q = v * (1.0f - f * s);
  const float t = v * (1.0f - (1.0f - f) * s);
  int sector = static_cast<int>(hi);  // .long(): toward zero, then clamped to 0..5
  sector = sector < 0 ? 0 : (sector > 5 ? 5 : sector);
  switch (sector) {
    case 0: return {v, t, pp};
    case 1: return {q, v, pp};
    case 2: return {pp, v, t};
    case 3: return {pp, q, v};
    case 4: return {t, pp, v};
    default: return {v, pp, q};
  }
}

// adjust_hue's fast tier (Fidelity::kFast): kornia's HSV round trip in closed form, one division a
// pixel where kornia's chain has five. It equals kornia's result up to float32 rounding
// (tests/python/test_fast_tier.py measures the distance). color_jiggle's and color_jitter's fast
// tier is pixel/color_fixed.h's fixed point, which takes this form of the hue without the
// division; their samples that the fixed point does not serve run these float steps, this hue
// included. adjust_saturation's fast tier is its exact formula.

// One channel of hsv_to_rgb in closed form: at hue h (in sixths of a turn, [0, 6)) channel n (5 red,
// 3 green, 1 blue) lies below the value by chroma * clip(min(k, 4 - k), 0, 1), k = (n + h) mod 6.
U8AUG_HD float fast_hue_channel(float mx, float chroma, float h, float n) {
  float k = n + h;
  k = k >= 6.0f ? k - 6.0f : k;
  const float falling = 4.0f - k;
  float w = k < falling ? k : falling;
  w = w > 0.0f ? (w < 1.0f ? w : 1.0f) : 0.0f;
  return mx - chroma * w;
}

// adjust_hue by `sextants` sixths of a turn (radians * 3 / pi, in [-3, 3]): the pixel's hue from
// its largest channel (kornia's tie order: red, then green), moved, then each channel from it.
U8AUG_HD Rgb fast_hue_rgb(Rgb p, float sextants) {
  const float mx = max3(p.r, p.g, p.b), mn = min3(p.r, p.g, p.b);
  const float chroma = mx - mn;
  float numerator, base;
  if (p.r >= p.g && p.r >= p.b) {
    numerator = p.g - p.b;
    base = 0.0f;
  } else if (p.g >= p.b) {
    numerator = p.b - p.r;
    base = 2.0f;
  } else {
    numerator = p.r - p.g;
    base = 4.0f;
  }
  float h = numerator / (chroma == 0.0f ? 1.0f : chroma) + base;  // grey pixels: every channel v
  h = h + sextants;                                               // [-4, 8)
  h = h < 0.0f ? h + 6.0f : h;
  h = h >= 6.0f ? h - 6.0f : h;
  return {fast_hue_channel(mx, chroma, h, 5.0f), fast_hue_channel(mx, chroma, h, 3.0f),
          fast_hue_channel(mx, chroma, h, 1.0f)};
}

// Whether the closed form serves a sample's shift. A shift whose fraction of a sextant is (within
// float noise of) a nonzero multiple of 1/256 puts some pixels' bytes exactly halfway between two
// bytes (a half-sextant shift: every odd chroma), and there kornia's float32 chain breaks each tie
// by its own rounding, pixel by pixel, which no closed form follows: on random images such a shift
// left 97.7% of bytes identical. Those samples take kornia's chain (adjust_hue_rgb) in the fast tier
// too; random draws land there with probability 2%.
U8AUG_HD bool fast_hue_applies(float sextants) {
  const float scaled = sextants * 256.0f;
  const float nearest = rintf(scaled);
  const bool near_grid = fabsf(scaled - nearest) < 0.01f;
  return !near_grid || fmodf(nearest, 256.0f) == 0.0f;
}

// The sextants of adjust_hue's radians and of ColorJiggle's hue factor (turns), once per sample.
constexpr float kSextantsPerRadian = 0.954929658551372f;  // 3 / pi
U8AUG_HD float sextants_of_radians(float radians) { return radians * kSextantsPerRadian; }
U8AUG_HD float sextants_of_turns(float turns) { return turns * 6.0f; }

U8AUG_HD Rgb load_rgb(const ConstImage& src, int64_t b, int64_t y, int64_t x) {
  return {unit(src.at(b, 0, y, x)), unit(src.at(b, 1, y, x)), unit(src.at(b, 2, y, x))};
}

U8AUG_HD void store_rgb(const Image& dst, int64_t b, int64_t y, int64_t x, Rgb p) {
  dst.at(b, 0, y, x) = to_u8(p.r * 255.0f);
  dst.at(b, 1, y, x) = to_u8(p.g * 255.0f);
  dst.at(b, 2, y, x) = to_u8(p.b * 255.0f);
}

// ColorJiggle's parameters as kornia's generator makes them: per-sample brightness, contrast and
// saturation factors (neutral 1), hue factor in turns (neutral 0), and the order of the steps
// (0 brightness, 1 contrast, 2 saturation, 3 hue; a permutation or a subset).
struct JiggleParams {
  Samples brightness, contrast, saturation, hue;
  const int64_t* order = nullptr;
  int64_t order_count = 0;
  Fidelity fidelity = Fidelity::kExact;  // kFast: pixel/color_fixed.h's fixed point
  // Which of the four steps run (brightness, contrast, saturation, hue), or null: decided from the
  // factors, over the batch, as kornia does. A caller that runs part of a batch (a fused pipeline,
  // sample by sample) passes the whole batch's decision. Host memory: the cpu:: functions only.
  const bool* steps_run = nullptr;
};

// What a pixel needs: the order, and which steps run. A step runs only when some sample of the
// batch has a non-neutral factor for it (kornia's skip rule), and then on every sample with that
// sample's own factor.
struct JiggleFactors {
  Samples brightness, contrast, saturation, hue;
  int order[4];
  int steps;
  bool apply[4];
  // ColorJitter instead of ColorJiggle: multiplicative brightness, contrast and saturation blended
  // with grey. Its contrast needs each sample's mean grey (at that point of the chain): gray_sums
  // holds per-sample sums in 32.32 fixed point (see gray_fixed), over `pixels` pixels.
  bool jitter;
  const int64_t* gray_sums;
  int64_t pixels;
  bool fast;  // JiggleParams::fidelity is kFast
};

// A grey value in 32.32 fixed point. Integer sums do not depend on the order of addition, so the
// CPU and the GPU reach the same mean bit for bit; the truncation error (< 2^-32 a pixel) is far
// below a float's resolution of the mean.
constexpr double kGrayFixedOne = 4294967296.0;  // 2^32
U8AUG_HD int64_t gray_fixed(float g) { return static_cast<int64_t>(static_cast<double>(g) * kGrayFixedOne); }

// torch's mean: the float32 sum divided by the count. Here the sum is exact up to the fixed-point
// truncation where torch's float32 cascade sum may differ by an ulp or two: the "near" class.
U8AUG_HD float mean_from_fixed(int64_t sum, int64_t pixels) {
  return static_cast<float>(static_cast<double>(sum) / kGrayFixedOne) / static_cast<float>(pixels);
}

U8AUG_HD bool any_not(const Samples& s, float neutral) {
  for (int64_t i = 0; i < s.count; ++i) {
    if (s.values[i] != neutral) return true;
  }
  return false;
}

U8AUG_HD JiggleFactors jiggle_factors(const JiggleParams& p) {
  JiggleFactors k{p.brightness, p.contrast, p.saturation, p.hue, {0, 1, 2, 3}, 0, {}, false, nullptr, 0, false};
  k.fast = p.fidelity == Fidelity::kFast;
  k.steps = static_cast<int>(p.order_count < 4 ? p.order_count : 4);
  for (int i = 0; i < k.steps; ++i) k.order[i] = static_cast<int>(p.order[i]);
  k.apply[0] = any_not(p.brightness, 1.0f);
  k.apply[1] = any_not(p.contrast, 1.0f);
  k.apply[2] = any_not(p.saturation, 1.0f);
  k.apply[3] = any_not(p.hue, 0.0f);
  if (p.steps_run != nullptr) {
    for (int i = 0; i < 4; ++i) k.apply[i] = p.steps_run[i];
  }
  return k;
}

// One step of ColorJiggle or ColorJitter on one pixel of sample b (mean: the sample's mean grey,
// used by ColorJitter's contrast only).
U8AUG_HD Rgb color_step(Rgb p, const JiggleFactors& k, int step, int64_t b, float mean) {
  switch (step) {
    case 0: {
      if (k.jitter) {  // adjust_brightness_accumulative(x, factor)
        const float m = k.brightness[b];
        return {clamp_unit(p.r * m), clamp_unit(p.g * m), clamp_unit(p.b * m)};
      }
      const float add = k.brightness[b] - 1.0f;  // adjust_brightness(x, factor - 1)
      return {clamp_unit(p.r + add), clamp_unit(p.g + add), clamp_unit(p.b + add)};
    }
    case 1: {
      const float m = k.contrast[b];
      if (k.jitter) {  // adjust_contrast_with_mean_subtraction: x * f + mean * (1 - f)
        const float shift = mean * (1.0f - m);
        return {clamp_unit(p.r * m + shift), clamp_unit(p.g * m + shift), clamp_unit(p.b * m + shift)};
      }
      return {clamp_unit(p.r * m), clamp_unit(p.g * m), clamp_unit(p.b * m)};  // adjust_contrast
    }
    case 2: {
      if (k.jitter) {  // adjust_saturation_with_gray_subtraction: (1 - f) * grey + f * x
        const float f = k.saturation[b];
        const float grey = (1.0f - f) * luma_unit(p.r, p.g, p.b);
        return {clamp_unit(grey + f * p.r), clamp_unit(grey + f * p.g), clamp_unit(grey + f * p.b)};
      }
      return adjust_saturation_rgb(p, k.saturation[b]);
    }
    default:
      if (k.fast && fast_hue_applies(sextants_of_turns(k.hue[b]))) return fast_hue_rgb(p, sextants_of_turns(k.hue[b]));
      return adjust_hue_rgb(p, (k.hue[b] * 2.0f) * kPi);  // factor * 2 * math.pi
  }
}

// Where ColorJitter's contrast step sits in the order (k.steps when it has none): the steps before
// it make the image whose mean grey it blends with.
U8AUG_HD int contrast_position(const JiggleFactors& k) {
  int i = 0;
  while (i < k.steps && k.order[i] != 1) ++i;
  return i;
}

// Steps first..last-1 of the order on one pixel of sample b (mean: see color_step).
U8AUG_HD Rgb run_steps(Rgb p, const JiggleFactors& k, int64_t b, float mean, int first, int last) {
  for (int i = first; i < last; ++i) {
    if (k.apply[k.order[i]]) p = color_step(p, k, k.order[i], b, mean);
  }
  return p;
}

// The pixel as ColorJitter's contrast step sees it: the steps before it, in order.
U8AUG_HD Rgb before_contrast(Rgb p, const JiggleFactors& k, int64_t b) {
  return run_steps(p, k, b, 0.0f, 0, contrast_position(k));
}

U8AUG_HD Rgb clamp_rgb(Rgb p) { return {clamp_unit(p.r), clamp_unit(p.g), clamp_unit(p.b)}; }

// ColorJitter's mean grey of sample b, from the sums of the pass before contrast.
U8AUG_HD float jitter_mean(const JiggleFactors& k, int64_t b) {
  return k.jitter && k.apply[1] ? mean_from_fixed(k.gray_sums[b], k.pixels) : 0.0f;
}

// ColorJiggle or ColorJitter on one pixel of sample b, clipped to [0, 1] at the end as kornia does.
U8AUG_HD Rgb color_jiggle_rgb(Rgb p, const JiggleFactors& k, int64_t b) {
  return clamp_rgb(run_steps(p, k, b, jitter_mean(k, b), 0, k.steps));
}

}  // namespace u8aug

namespace u8aug {

enum class ColorOp : int { kSaturation, kHue, kJiggle, kFastHue };

// One output pixel of a colour op: the shared body of the CPU loop and the CUDA kernel.
U8AUG_HD void color_pixel(ColorOp op, const ConstImage& src, const Image& dst, const Samples& factor,
                          const JiggleFactors& jiggle, int64_t b, int64_t y, int64_t x) {
  const Rgb p = load_rgb(src, b, y, x);
  switch (op) {
    case ColorOp::kSaturation: store_rgb(dst, b, y, x, adjust_saturation_rgb(p, factor[b])); break;
    case ColorOp::kHue: store_rgb(dst, b, y, x, adjust_hue_rgb(p, factor[b])); break;
    case ColorOp::kJiggle: store_rgb(dst, b, y, x, color_jiggle_rgb(p, jiggle, b)); break;
    case ColorOp::kFastHue: {
      const float sextants = sextants_of_radians(factor[b]);
      store_rgb(dst, b, y, x, fast_hue_applies(sextants) ? fast_hue_rgb(p, sextants) : adjust_hue_rgb(p, factor[b]));
      break;
    }
  }
}

// The CUDA kernels' bodies (each-index bodies: image.h); `jiggle` points at the factors the
// kernel's block has formed in shared memory (unused by kSaturation and kHue). One output pixel:
struct ColorBody {
  ColorOp op;
  ConstImage src;
  Image dst;
  Samples factor;
  const JiggleFactors* jiggle;
  U8AUG_HD int64_t count() const { return dst.pixels(); }
  U8AUG_HD void operator()(int64_t i) const {
    const PixelIndex k = pixel_index(dst, i);
    color_pixel(op, src, dst, factor, *jiggle, k.b, k.y, k.x);
  }
};

}  // namespace u8aug
