// adjust_saturation, adjust_hue and color_jiggle on the CPU. Planar rows run pixel/color.h's
// float32 steps in vector lanes, operation for operation (the every-target test holds them to the
// scalar code byte for byte); interleaved or strided rows, rows narrower than a vector and, on
// targets without a native FMA, vectors that need kornia's fused grey run color_pixel itself.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/color.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/unit_lanes-inl.h"

#include <mutex>
#include <string>
#include <vector>

#include "cpu/parallel.h"
#include "u8aug/check.h"
#include "u8aug/pixel/color.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;

struct VRgb {
  VF r, g, b;
};

HWY_INLINE VF ClampUnit(DF d, VF v) { return hn::Min(hn::Max(v, hn::Zero(d)), hn::Set(d, 1.0f)); }

HWY_INLINE VRgb Saturation(DF d, VRgb p, float factor) {
  const VF one = hn::Set(d, 1.0f), zero = hn::Zero(d);
  const VF mx = hn::Max(hn::Max(p.r, p.g), p.b), mn = hn::Min(hn::Min(p.r, p.g), p.b);
  const VF delta = hn::Sub(mx, mn);
  const VF value_divisor = hn::IfThenElse(hn::Eq(mx, zero), one, hn::Add(mx, hn::Set(d, 1e-8f)));
  const VF saturation = ClampUnit(d, hn::Mul(hn::Div(delta, value_divisor), hn::Set(d, factor)));
  const VF adjusted_delta = hn::Mul(mx, saturation);
  const VF ratio = hn::Div(adjusted_delta, hn::IfThenElse(hn::Eq(delta, zero), one, delta));
  const VF offset = hn::Sub(mx, adjusted_delta);
  return {hn::Add(hn::Mul(hn::Sub(p.r, mn), ratio), offset),
          hn::Add(hn::Mul(hn::Sub(p.g, mn), ratio), offset),
          hn::Add(hn::Mul(hn::Sub(p.b, mn), ratio), offset)};
}

HWY_INLINE VRgb Hue(DF d, VRgb p, float radians) {
  const VF one = hn::Set(d, 1.0f), zero = hn::Zero(d), two_pi = hn::Set(d, kTwoPi);
  const VF mx = hn::Max(hn::Max(p.r, p.g), p.b), mn = hn::Min(hn::Min(p.r, p.g), p.b);
  VF deltac = hn::Sub(mx, mn);
  const VF v = mx;
  const VF s = hn::Div(deltac, hn::IfThenElse(hn::Eq(mx, zero), one, hn::Add(mx, hn::Set(d, 1e-8f))));
  deltac = hn::IfThenElse(hn::Eq(deltac, zero), one, deltac);
  const VF rc = hn::Sub(mx, p.r), gc = hn::Sub(mx, p.g), bc = hn::Sub(mx, p.b);
  const VF h1 = hn::Sub(bc, gc);
  const VF h2 = hn::Add(hn::Sub(rc, bc), hn::Mul(hn::Set(d, 2.0f), deltac));
  const VF h3 = hn::Add(hn::Sub(gc, rc), hn::Mul(hn::Set(d, 4.0f), deltac));
  const auto red_max = hn::And(hn::Ge(p.r, p.g), hn::Ge(p.r, p.b));
  VF h = hn::IfThenElse(red_max, h1, hn::IfThenElse(hn::Ge(p.g, p.b), h2, h3));
  h = hn::Div(h, deltac);
  // The remainders below, each as torch's for the only arguments it can get here (the numerator
  // lies between -deltac and 5 deltac, hue between 0 and 2 pi, radians between -pi and pi):
  // remainder(a, 1) for a in (-1, 1); remainder(a, 2 pi) for a in [-pi, 3 pi); remainder(a, 6)
  // for a in [0, 6]. The every-target test holds them to pixel/color.h's general remainder.
  h = hn::Div(h, hn::Set(d, 6.0f));
  h = hn::IfThenElse(hn::Lt(h, zero), hn::Add(h, one), h);
  h = hn::Mul(two_pi, h);
  h = hn::IfThenElseZero(hn::Lt(h, two_pi), h);
  h = hn::Add(h, hn::Set(d, radians));
  h = hn::IfThenElse(hn::Ge(h, two_pi), hn::Sub(h, two_pi), hn::IfThenElse(hn::Lt(h, zero), hn::Add(h, two_pi), h));
  h = hn::IfThenElseZero(hn::Lt(h, two_pi), h);
  const VF hh = hn::Div(h, two_pi);
  const VF h6 = hn::Mul(hh, hn::Set(d, 6.0f));
  const VF six = hn::Set(d, 6.0f);
  const auto wraps = hn::Eq(h6, six);  // hh rounded up to 1
  const VF hi = hn::IfThenZeroElse(wraps, hn::Floor(h6));
  const VF f = hn::Sub(hn::IfThenZeroElse(wraps, h6), hi);
  const VF pp = hn::Mul(v, hn::Sub(one, s));
  const VF q = hn::Mul(v, hn::Sub(one, hn::Mul(f, s)));
  const VF t = hn::Mul(v, hn::Sub(one, hn::Mul(hn::Sub(one, f), s)));
  // hi is a whole number in [0, 6); sectors 0..5 as in hsv_to_rgb (5 also takes anything else).
  const auto m0 = hn::Eq(hi, zero), m1 = hn::Eq(hi, one), m2 = hn::Eq(hi, hn::Set(d, 2.0f)),
             m3 = hn::Eq(hi, hn::Set(d, 3.0f)), m4 = hn::Eq(hi, hn::Set(d, 4.0f));
  auto pick = [&](VF a0, VF a1, VF a2, VF a3, VF a4, VF a5) {
    return hn::IfThenElse(m0, a0, hn::IfThenElse(m1, a1, hn::IfThenElse(m2, a2,
           hn::IfThenElse(m3, a3, hn::IfThenElse(m4, a4, a5)))));
  };
  return {pick(v, q, pp, pp, t, v), pick(t, v, v, q, pp, pp), pick(pp, pp, t, v, v, q)};
}

// kornia's grey (rgb_to_grayscale: r * w_r, then two fused addcmul steps). Without a native FMA
// the lanes are flagged for the scalar fallback, which calls fmaf.
HWY_INLINE VF Luma(DF d, VRgb p, hn::Mask<DF>& out_of_range) {
#if HWY_NATIVE_FMA
  (void)out_of_range;
  return LumaLanes(d, p.r, p.g, p.b);
#else
  out_of_range = hn::Not(hn::FirstN(d, 0));
  return p.r;
#endif
}

// One step of pixel/color.h's color_step in lanes.
HWY_INLINE VRgb Step(DF d, VRgb p, const JiggleFactors& k, int step, int64_t b, float mean,
                     hn::Mask<DF>& out_of_range) {
  switch (step) {
    case 0: {
      if (k.jitter) {
        const VF m = hn::Set(d, k.brightness[b]);
        return {ClampUnit(d, hn::Mul(p.r, m)), ClampUnit(d, hn::Mul(p.g, m)), ClampUnit(d, hn::Mul(p.b, m))};
      }
      const VF add = hn::Set(d, k.brightness[b] - 1.0f);
      return {ClampUnit(d, hn::Add(p.r, add)), ClampUnit(d, hn::Add(p.g, add)), ClampUnit(d, hn::Add(p.b, add))};
    }
    case 1: {
      const VF m = hn::Set(d, k.contrast[b]);
      if (k.jitter) {
        const VF shift = hn::Set(d, mean * (1.0f - k.contrast[b]));
        return {ClampUnit(d, hn::Add(hn::Mul(p.r, m), shift)), ClampUnit(d, hn::Add(hn::Mul(p.g, m), shift)),
                ClampUnit(d, hn::Add(hn::Mul(p.b, m), shift))};
      }
      return {ClampUnit(d, hn::Mul(p.r, m)), ClampUnit(d, hn::Mul(p.g, m)), ClampUnit(d, hn::Mul(p.b, m))};
    }
    case 2: {
      if (k.jitter) {
        const float f = k.saturation[b];
        const VF grey = hn::Mul(hn::Set(d, 1.0f - f), Luma(d, p, out_of_range)), vf = hn::Set(d, f);
        return {ClampUnit(d, hn::Add(grey, hn::Mul(vf, p.r))), ClampUnit(d, hn::Add(grey, hn::Mul(vf, p.g))),
                ClampUnit(d, hn::Add(grey, hn::Mul(vf, p.b)))};
      }
      return Saturation(d, p, k.saturation[b]);
    }
    default: return Hue(d, p, (k.hue[b] * 2.0f) * kPi);
  }
}

// Steps first..last-1 of the order in lanes (pixel/color.h's run_steps).
HWY_INLINE VRgb Steps(DF d, VRgb p, const JiggleFactors& k, int64_t b, float mean, int first, int last,
                      hn::Mask<DF>& out_of_range) {
  for (int i = first; i < last; ++i) {
    if (k.apply[k.order[i]]) p = Step(d, p, k, k.order[i], b, mean, out_of_range);
  }
  return p;
}

HWY_INLINE VRgb ClampRgb(DF d, VRgb p) { return {ClampUnit(d, p.r), ClampUnit(d, p.g), ClampUnit(d, p.b)}; }

HWY_INLINE VRgb Jiggle(DF d, VRgb p, const JiggleFactors& k, int64_t b, hn::Mask<DF>& out_of_range) {
  return ClampRgb(d, Steps(d, p, k, b, jitter_mean(k, b), 0, k.steps, out_of_range));
}

// ColorJitter with contrast runs a sample in two passes, since contrast blends with the sample's
// mean grey at its point of the chain. StageRows runs the steps before contrast on rows y0..y1-1 of
// sample b into `stage` (three float planes of one sample, small enough to stay in cache, so the
// second pass reads them instead of running those steps again) and adds their fixed-point grey to
// *sum; FinishRows runs contrast and the steps after it from `stage` into dst.
void StageRows(const ConstImage& src, const JiggleFactors& k, int64_t b, int64_t y0, int64_t y1,
               float* stage, int64_t* sum) {
  const DF d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d)), w = src.width, plane = src.height * w;
  const int last = contrast_position(k);
  const bool planar = src.stride_w == 1 && w >= lanes;
#if HWY_TARGET == HWY_SCALAR
  auto add_grey = [&](VF g) { *sum += gray_fixed(hn::GetLane(g)); };
#else
  const hn::Half<DF> dh;
  const hn::Rebind<double, decltype(dh)> dd;
  const hn::RebindToSigned<decltype(dd)> d64;
  auto fixed_sum = hn::Zero(d64);  // pixel/color.h's gray_fixed in lanes: exact, so the same sums
  auto add_fixed = [&](hn::Vec<decltype(dh)> g) {
    fixed_sum = hn::Add(fixed_sum, hn::ConvertTo(d64, hn::Mul(hn::PromoteTo(dd, g), hn::Set(dd, kGrayFixedOne))));
  };
  auto add_grey = [&](VF g) {
    add_fixed(hn::LowerHalf(dh, g));
    add_fixed(hn::UpperHalf(dh, g));
  };
#endif
  auto stage_pixel = [&](int64_t y, int64_t x) {
    const Rgb p = run_steps(load_rgb(src, b, y, x), k, b, 0.0f, 0, last);
    float* at = stage + y * w + x;
    at[0] = p.r;
    at[plane] = p.g;
    at[2 * plane] = p.b;
    *sum += gray_fixed(luma_unit(p.r, p.g, p.b));
  };
  for (int64_t y = y0; y < y1; ++y) {
    int64_t x = 0;
    if (planar) {
      for (; x + lanes <= w; x += lanes) {  // no overlapping step here: each pixel counts once
        VRgb p{UnitLanes(d, &src.at(b, 0, y, x)), UnitLanes(d, &src.at(b, 1, y, x)), UnitLanes(d, &src.at(b, 2, y, x))};
        auto out_of_range = hn::FirstN(d, 0);
        p = Steps(d, p, k, b, 0.0f, 0, last, out_of_range);
        const VF g = Luma(d, p, out_of_range);
        if (!hn::AllFalse(d, out_of_range)) {
          for (int64_t i = x; i < x + lanes; ++i) stage_pixel(y, i);
          continue;
        }
        float* at = stage + y * w + x;
        hn::StoreU(p.r, d, at);
        hn::StoreU(p.g, d, at + plane);
        hn::StoreU(p.b, d, at + 2 * plane);
        add_grey(g);
      }
    }
    for (; x < w; ++x) stage_pixel(y, x);
  }
#if HWY_TARGET != HWY_SCALAR
  *sum += hn::GetLane(hn::SumOfLanes(d64, fixed_sum));
#endif
}

void FinishRows(const float* stage, const Image& dst, const JiggleFactors& k, int64_t b, int64_t y0,
                int64_t y1) {
  const DF d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d)), w = dst.width, plane = dst.height * w;
  const int first = contrast_position(k);
  const float mean = jitter_mean(k, b);
  const bool planar = dst.stride_w == 1 && w >= lanes;
  auto finish_pixel = [&](int64_t y, int64_t x) {
    const float* at = stage + y * w + x;
    store_rgb(dst, b, y, x, clamp_rgb(run_steps({at[0], at[plane], at[2 * plane]}, k, b, mean, first, k.steps)));
  };
  for (int64_t y = y0; y < y1; ++y) {
    if (!planar) {
      for (int64_t x = 0; x < w; ++x) finish_pixel(y, x);
      continue;
    }
    for (int64_t x = 0;; x += lanes) {
      if (x + lanes > w) x = w - lanes;  // overlapping last step: it rewrites the same bytes
      const float* at = stage + y * w + x;
      auto out_of_range = hn::FirstN(d, 0);
      const VRgb p{hn::LoadU(d, at), hn::LoadU(d, at + plane), hn::LoadU(d, at + 2 * plane)};
      const VRgb o = ClampRgb(d, Steps(d, p, k, b, mean, first, k.steps, out_of_range));
      if (hn::AllFalse(d, out_of_range)) {
        StoreU8Lanes(d, o.r, &dst.at(b, 0, y, x));
        StoreU8Lanes(d, o.g, &dst.at(b, 1, y, x));
        StoreU8Lanes(d, o.b, &dst.at(b, 2, y, x));
      } else {
        for (int64_t i = x; i < x + lanes; ++i) finish_pixel(y, i);
      }
      if (x + lanes == w) break;
    }
  }
}

void ColorRows(int op_code, const ConstImage& src, const Image& dst, const Samples& factor,
               const JiggleFactors& jiggle, int64_t row_begin, int64_t row_end) {
  const ColorOp op = static_cast<ColorOp>(op_code);
  const DF d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d)), w = src.width;
  const bool planar = src.stride_w == 1 && dst.stride_w == 1 && w >= lanes;
  auto load = [&](const uint8_t* p) { return UnitLanes(d, p); };
  auto store = [&](uint8_t* p, VF y) { StoreU8Lanes(d, y, p); };
  for (int64_t row = row_begin; row < row_end; ++row) {
    const int64_t b = row / src.height, y = row % src.height;
    if (!planar) {
      for (int64_t x = 0; x < w; ++x) color_pixel(op, src, dst, factor, jiggle, b, y, x);
      continue;
    }
    int64_t x0 = 0;
    // kVectors vectors per step: the HSV chain is one long dependency chain per vector, and several
    // independent ones in flight keep the FP units busy.
    constexpr int kVectors = 2;
    for (; x0 + kVectors * lanes <= w; x0 += kVectors * lanes) {
      VRgb o[kVectors];
      hn::Mask<DF> out[kVectors];
      for (int k = 0; k < kVectors; ++k) {
        const int64_t x = x0 + k * lanes;
        const VRgb p{load(&src.at(b, 0, y, x)), load(&src.at(b, 1, y, x)), load(&src.at(b, 2, y, x))};
        out[k] = hn::FirstN(d, 0);
        switch (op) {
          case ColorOp::kSaturation: o[k] = Saturation(d, p, factor[b]); break;
          case ColorOp::kHue: o[k] = Hue(d, p, factor[b]); break;
          default: o[k] = Jiggle(d, p, jiggle, b, out[k]); break;
        }
      }
      for (int k = 0; k < kVectors; ++k) {
        const int64_t x = x0 + k * lanes;
        if (hn::AllFalse(d, out[k])) {
          store(&dst.at(b, 0, y, x), o[k].r);
          store(&dst.at(b, 1, y, x), o[k].g);
          store(&dst.at(b, 2, y, x), o[k].b);
        } else {
          for (int64_t i = x; i < x + lanes; ++i) color_pixel(op, src, dst, factor, jiggle, b, y, i);
        }
      }
    }
    if (x0 == w) continue;
    for (int64_t x = x0;; x += lanes) {
      if (x + lanes > w) x = w - lanes;  // overlapping last step
      const VRgb p{load(&src.at(b, 0, y, x)), load(&src.at(b, 1, y, x)), load(&src.at(b, 2, y, x))};
      auto out_of_range = hn::FirstN(d, 0);
      VRgb o;
      switch (op) {
        case ColorOp::kSaturation: o = Saturation(d, p, factor[b]); break;
        case ColorOp::kHue: o = Hue(d, p, factor[b]); break;
        default: o = Jiggle(d, p, jiggle, b, out_of_range); break;
      }
      if (hn::AllFalse(d, out_of_range)) {
        store(&dst.at(b, 0, y, x), o.r);
        store(&dst.at(b, 1, y, x), o.g);
        store(&dst.at(b, 2, y, x), o.b);
      } else {
        for (int64_t k = x; k < x + lanes; ++k) color_pixel(op, src, dst, factor, jiggle, b, y, k);
      }
      if (x + lanes == w) break;
    }
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(ColorRows);
HWY_EXPORT(StageRows);
HWY_EXPORT(FinishRows);

namespace {

void run_color(ColorOp op, const ConstImage& src, const Image& dst, const Samples& factor,
               const JiggleFactors& jiggle, const ParallelFor& parallel) {
  run_parallel(parallel, src.batch * src.height, grain_for(16 * src.width), [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(ColorRows)(static_cast<int>(op), src, dst, factor, jiggle, begin, end);
  });
}

}  // namespace

void adjust_saturation(const ConstImage& src, const Image& dst, Samples factor,
                       const ParallelFor& parallel) {
  const char* op = "adjust_saturation";
  detail::check_rgb(op, src, dst);
  detail::check_samples(op, "factor", factor, src.batch);
  detail::check_sample_values(op, "factor", factor, 0.0f, std::numeric_limits<float>::max());
  run_color(ColorOp::kSaturation, src, dst, factor, {}, parallel);
}

void adjust_hue(const ConstImage& src, const Image& dst, Samples radians, const ParallelFor& parallel) {
  const char* op = "adjust_hue";
  detail::check_rgb(op, src, dst);
  detail::check_samples(op, "factor", radians, src.batch);
  detail::check_sample_values(op, "factor", radians, -kPi, kPi);
  run_color(ColorOp::kHue, src, dst, radians, {}, parallel);
}

namespace {

void check_jiggle_values(const char* op, const JiggleParams& params, float max_brightness) {
  const float big = std::numeric_limits<float>::max();
  detail::check_sample_values(op, "brightness", params.brightness, 0.0f, max_brightness);
  detail::check_sample_values(op, "contrast", params.contrast, 0.0f, big);
  detail::check_sample_values(op, "saturation", params.saturation, 0.0f, big);
  detail::check_sample_values(op, "hue", params.hue, -0.5f, 0.5f);
  bool seen[4] = {false, false, false, false};
  for (int64_t i = 0; i < params.order_count; ++i) {
    const int64_t s = params.order[i];
    if (s < 0 || s > 3 || seen[s]) {
      detail::fail(op, "order must list distinct steps from 0 to 3, got " + std::to_string(s) +
                           " at position " + std::to_string(i));
    }
    seen[s] = true;
  }
}

}  // namespace

void color_jiggle(const ConstImage& src, const Image& dst, const JiggleParams& params,
                  const ParallelFor& parallel) {
  detail::check_jiggle("color_jiggle", src, dst, params);
  check_jiggle_values("color_jiggle", params, 2.0f);
  run_color(ColorOp::kJiggle, src, dst, {}, jiggle_factors(params), parallel);
}

void color_jitter(const ConstImage& src, const Image& dst, const JiggleParams& params,
                  const ParallelFor& parallel) {
  detail::check_jiggle("color_jitter", src, dst, params);
  check_jiggle_values("color_jitter", params, std::numeric_limits<float>::max());
  JiggleFactors k = jiggle_factors(params);
  k.jitter = true;
  if (!k.apply[1]) {
    run_color(ColorOp::kJiggle, src, dst, {}, k, parallel);
    return;
  }
  k.pixels = src.height * src.width;
  std::vector<int64_t> sums(static_cast<size_t>(src.batch), 0);
  k.gray_sums = sums.data();
  const size_t stage_size = static_cast<size_t>(3 * k.pixels);
  if (src.batch >= 8) {  // whole samples per chunk: no barrier between a sample's two passes
    run_parallel(parallel, src.batch, 1, [&](int64_t begin, int64_t end) {
      std::vector<float> stage(stage_size);
      for (int64_t b = begin; b < end; ++b) {
        HWY_DYNAMIC_DISPATCH(StageRows)(src, k, b, 0, src.height, stage.data(), &sums[static_cast<size_t>(b)]);
        HWY_DYNAMIC_DISPATCH(FinishRows)(stage.data(), dst, k, b, 0, src.height);
      }
    });
    return;
  }
  std::vector<float> stage(stage_size);  // few samples: the rows of each pass split over threads
  const int64_t grain = grain_for(16 * src.width);
  std::mutex merge;  // integer sums: the order they merge in does not matter
  for (int64_t b = 0; b < src.batch; ++b) {
    run_parallel(parallel, src.height, grain, [&](int64_t begin, int64_t end) {
      int64_t sum = 0;
      HWY_DYNAMIC_DISPATCH(StageRows)(src, k, b, begin, end, stage.data(), &sum);
      const std::lock_guard<std::mutex> lock(merge);
      sums[static_cast<size_t>(b)] += sum;
    });
    run_parallel(parallel, src.height, grain, [&](int64_t begin, int64_t end) {
      HWY_DYNAMIC_DISPATCH(FinishRows)(stage.data(), dst, k, b, begin, end);
    });
  }
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
