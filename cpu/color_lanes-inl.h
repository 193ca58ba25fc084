// The colour steps in vector lanes: pixel/color.h's float32 HSV and ColorJiggle steps, operation
// for operation (the every-target test holds them to the scalar code byte for byte), for
// cpu/color.cc (adjust_saturation, adjust_hue, color_jiggle) and cpu/color_jitter.cc.
// Highway's per-target header convention: included once per target by each foreach_target file.
#if defined(U8AUG_CPU_COLOR_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef U8AUG_CPU_COLOR_LANES_INL_H_
#undef U8AUG_CPU_COLOR_LANES_INL_H_
#else
#define U8AUG_CPU_COLOR_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include "cpu/unit_lanes-inl.h"
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
  return {hn::Add(hn::Mul(hn::Sub(p.r, mn), ratio), offset), hn::Add(hn::Mul(hn::Sub(p.g, mn), ratio), offset),
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
    return hn::IfThenElse(
        m0, a0, hn::IfThenElse(m1, a1, hn::IfThenElse(m2, a2, hn::IfThenElse(m3, a3, hn::IfThenElse(m4, a4, a5)))));
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

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_COLOR_LANES_INL_H_
