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

#include <algorithm>

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

// kornia's adjust_hue in two halves, each run over a whole tile (HueTile): HsvShifted (rgb_to_hsv
// and adjust_hue_raw) leaves (h, s, v) where the tile held (r, g, b), RgbOfHsv (hsv_to_rgb) reads
// them back. The step is one long chain of dependent operations (four divisions among them), and
// a core's scheduler holds the waiting operations of only a few such chains: run whole, it is bound
// by the chain's latency. In halves, more vectors are in flight and each waits half as long
// (adjust_hue on 1x3x224x224, Sapphire Rapids: 160 -> 111 us on AVX2, 79 -> 66 on AVX3_DL).
HWY_INLINE VRgb HsvShifted(DF d, VRgb p, float radians) {
  const VF one = hn::Set(d, 1.0f), zero = hn::Zero(d), two_pi = hn::Set(d, kTwoPi);
  const VF mx = hn::Max(hn::Max(p.r, p.g), p.b), mn = hn::Min(hn::Min(p.r, p.g), p.b);
  VF deltac = hn::Sub(mx, mn);
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
  return {h, s, mx};
}

HWY_INLINE VRgb RgbOfHsv(DF d, VRgb hsv) {
  const VF one = hn::Set(d, 1.0f), zero = hn::Zero(d), two_pi = hn::Set(d, kTwoPi);
  const VF h = hsv.r, s = hsv.g, v = hsv.b;
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
  // Each channel takes one of four values: three selections where a sector at a time would take five.
  const VF r = hn::IfThenElse(m1, q, hn::IfThenElse(m4, t, hn::IfThenElse(hn::Or(m2, m3), pp, v)));
  const VF g = hn::IfThenElse(m0, t, hn::IfThenElse(m3, q, hn::IfThenElse(hn::Or(m1, m2), v, pp)));
  const VF b = hn::IfThenElse(hn::Or(m0, m1), pp, hn::IfThenElse(m2, t, hn::IfThenElse(hn::Or(m3, m4), v, q)));
  return {r, g, b};
}

HWY_INLINE VRgb Hue(DF d, VRgb p, float radians) { return RgbOfHsv(d, HsvShifted(d, p, radians)); }

// pixel/color.h's fast_hue_rgb in lanes, operation for operation.
HWY_INLINE VF FastHueChannel(DF d, VF mx, VF chroma, VF h, float n) {
  const VF six = hn::Set(d, 6.0f), one = hn::Set(d, 1.0f), zero = hn::Zero(d);
  VF k = hn::Add(hn::Set(d, n), h);
  k = hn::IfThenElse(hn::Ge(k, six), hn::Sub(k, six), k);
  const VF falling = hn::Sub(hn::Set(d, 4.0f), k);
  VF w = hn::IfThenElse(hn::Lt(k, falling), k, falling);
  w = hn::IfThenElse(hn::Gt(w, zero), hn::IfThenElse(hn::Lt(w, one), w, one), zero);
  return hn::Sub(mx, hn::Mul(chroma, w));
}

HWY_INLINE VRgb FastHue(DF d, VRgb p, float sextants) {
  const VF zero = hn::Zero(d), six = hn::Set(d, 6.0f);
  const VF mx = hn::Max(hn::Max(p.r, p.g), p.b), mn = hn::Min(hn::Min(p.r, p.g), p.b);
  const VF chroma = hn::Sub(mx, mn);
  const auto red_max = hn::And(hn::Ge(p.r, p.g), hn::Ge(p.r, p.b)), green_max = hn::Ge(p.g, p.b);
  const VF numerator =
      hn::IfThenElse(red_max, hn::Sub(p.g, p.b), hn::IfThenElse(green_max, hn::Sub(p.b, p.r), hn::Sub(p.r, p.g)));
  const VF base = hn::IfThenElse(red_max, zero, hn::IfThenElse(green_max, hn::Set(d, 2.0f), hn::Set(d, 4.0f)));
  VF h = hn::Add(hn::Div(numerator, hn::IfThenElse(hn::Eq(chroma, zero), hn::Set(d, 1.0f), chroma)), base);
  h = hn::Add(h, hn::Set(d, sextants));
  h = hn::IfThenElse(hn::Lt(h, zero), hn::Add(h, six), h);
  h = hn::IfThenElse(hn::Ge(h, six), hn::Sub(h, six), h);
  return {FastHueChannel(d, mx, chroma, h, 5.0f), FastHueChannel(d, mx, chroma, h, 3.0f),
          FastHueChannel(d, mx, chroma, h, 1.0f)};
}

// kornia's grey (rgb_to_grayscale: r * w_r, then two fused addcmul steps). Without a native FMA
// each lane runs pixel/gray.h's luma_unit, which calls fmaf.
HWY_INLINE VF Luma(DF d, VRgb p) {
#if HWY_NATIVE_FMA
  return LumaLanes(d, p.r, p.g, p.b);
#else
  constexpr size_t kMax = HWY_MAX_BYTES / sizeof(float);
  HWY_ALIGN float r[kMax], g[kMax], b[kMax];
  hn::Store(p.r, d, r);
  hn::Store(p.g, d, g);
  hn::Store(p.b, d, b);
  for (size_t i = 0; i < hn::Lanes(d); ++i) r[i] = luma_unit(r[i], g[i], b[i]);
  return hn::Load(d, r);
#endif
}

// One step of pixel/color.h's color_step in lanes (the exact hue; StepsTile picks the fast one).
HWY_INLINE VRgb Step(DF d, VRgb p, const JiggleFactors& k, int step, int64_t b, float mean) {
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
        const VF grey = hn::Mul(hn::Set(d, 1.0f - f), Luma(d, p)), vf = hn::Set(d, f);
        return {ClampUnit(d, hn::Add(grey, hn::Mul(vf, p.r))), ClampUnit(d, hn::Add(grey, hn::Mul(vf, p.g))),
                ClampUnit(d, hn::Add(grey, hn::Mul(vf, p.b)))};
      }
      return Saturation(d, p, k.saturation[b]);
    }
    default: return Hue(d, p, (k.hue[b] * 2.0f) * kPi);  // the fast hue: StepsTile
  }
}

HWY_INLINE VRgb ClampRgb(DF d, VRgb p) { return {ClampUnit(d, p.r), ClampUnit(d, p.g), ClampUnit(d, p.b)}; }

// Tiles: up to kTilePixels pixels of one row as three float32 planes (6 KiB, resident in L1). The
// colour loops run one step at a time over a whole tile: each step's loop has independent vectors
// to overlap (the HSV chains are long, division-bound dependency chains) and no dispatch inside.
// Every layout loads and stores through a tile, so interleaved images take the vector steps too.
constexpr int64_t kTilePixels = 512;
struct RgbTile {
  HWY_ALIGN float c[3][kTilePixels];
};

// Pixels [x0, x0 + n) of row y of sample b as x / 255; lanes from n to the next whole vector are 0.
// RGB pixels side by side (torch's channels_last): the tiles' loads and stores deinterleave them.
template <class View>
HWY_INLINE bool Interleaved(const View& v) {
  return v.stride_c == 1 && v.stride_w == 3;
}

HWY_INLINE void LoadTile(DF d, const ConstImage& src, int64_t b, int64_t y, int64_t x0, int64_t n, RgbTile& t) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d)), padded = (n + lanes - 1) / lanes * lanes;
  int64_t first = 0;  // pixels before it are loaded
  if (Interleaved(src)) {
    const hn::Rebind<uint8_t, DF> d8;
    const hn::Rebind<int32_t, DF> di;
    const uint8_t* in = &src.at(b, 0, y, x0);
    auto unit = [&](hn::Vec<decltype(d8)> v) { return UnitOfByteLanes(d, hn::ConvertTo(d, hn::PromoteTo(di, v))); };
    for (; first + lanes <= n; first += lanes) {
      hn::Vec<decltype(d8)> r, g, bl;
      hn::LoadInterleaved3(d8, in + 3 * first, r, g, bl);
      hn::Store(unit(r), d, t.c[0] + first);
      hn::Store(unit(g), d, t.c[1] + first);
      hn::Store(unit(bl), d, t.c[2] + first);
    }
  }
  for (int64_t c = 0; c < 3; ++c) {
    const uint8_t* in = &src.at(b, c, y, x0);
    float* out = t.c[c];
    int64_t x = first;
    if (src.stride_w == 1) {
      for (; x + lanes <= n; x += lanes) hn::Store(UnitLanes(d, in + x), d, out + x);
    }
    for (; x < n; ++x) out[x] = unit(in[x * src.stride_w]);
    for (; x < padded; ++x) out[x] = 0.0f;
  }
}

// The same from float planes (color_jitter's stage: row y of a sample's planes of `plane` floats).
HWY_INLINE void LoadTileFloats(const float* stage, int64_t plane, int64_t offset, int64_t n, RgbTile& t) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(DF())), padded = (n + lanes - 1) / lanes * lanes;
  for (int64_t c = 0; c < 3; ++c) {
    std::copy(stage + c * plane + offset, stage + c * plane + offset + n, t.c[c]);
    std::fill(t.c[c] + n, t.c[c] + padded, 0.0f);  // as LoadTile: to the next whole vector
  }
}

HWY_INLINE void SaveTileFloats(const RgbTile& t, int64_t n, float* stage, int64_t plane, int64_t offset) {
  for (int64_t c = 0; c < 3; ++c) std::copy(t.c[c], t.c[c] + n, stage + c * plane + offset);
}

// Pixels [x0, x0 + n) of the tile to row y of sample b as to_u8(v * 255), clipped to [0, 1] first
// where `clip` (ColorJiggle's final clip).
HWY_INLINE void StoreTile(DF d, const RgbTile& t, bool clip, const Image& dst, int64_t b, int64_t y, int64_t x0,
                          int64_t n) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t first = 0;  // pixels before it are stored
  if (Interleaved(dst)) {
    const hn::Rebind<uint8_t, DF> d8;
    auto bytes = [&](const float* in) {
      const VF v = hn::Load(d, in);
      return U8Lanes(d, clip ? ClampUnit(d, v) : v);
    };
    for (; first + lanes <= n; first += lanes) {
      hn::StoreInterleaved3(bytes(t.c[0] + first), bytes(t.c[1] + first), bytes(t.c[2] + first), d8,
                            &dst.at(b, 0, y, x0 + first));
    }
  }
  for (int64_t c = 0; c < 3; ++c) {
    uint8_t* out = &dst.at(b, c, y, x0);
    const float* in = t.c[c];
    int64_t x = first;
    if (dst.stride_w == 1) {
      auto value = [&](int64_t i) {
        const VF v = hn::Load(d, in + i);
        return clip ? ClampUnit(d, v) : v;
      };
      for (; x + 4 * lanes <= n; x += 4 * lanes) {  // four vectors a store: half the instructions a byte
        StoreU8Lanes4(d, value(x), value(x + lanes), value(x + 2 * lanes), value(x + 3 * lanes), out + x);
      }
      for (; x + lanes <= n; x += lanes) StoreU8Lanes(d, value(x), out + x);
    }
    for (; x < n; ++x) out[x * dst.stride_w] = to_u8((clip ? clamp_unit(in[x]) : in[x]) * 255.0f);
  }
}

// f(pixels) over the tile's first n pixels (whole vectors: the padding lanes are computed and unused).
template <class F>
HWY_INLINE void MapTile(DF d, RgbTile& t, int64_t n, const F& f) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t x = 0; x < n; x += lanes) {
    const VRgb p = f(VRgb{hn::Load(d, t.c[0] + x), hn::Load(d, t.c[1] + x), hn::Load(d, t.c[2] + x)});
    hn::Store(p.r, d, t.c[0] + x);
    hn::Store(p.g, d, t.c[1] + x);
    hn::Store(p.b, d, t.c[2] + x);
  }
}

// adjust_hue over the tile's first n pixels, in its two halves (see HsvShifted).
HWY_INLINE void HueTile(DF d, RgbTile& t, int64_t n, float radians) {
  MapTile(d, t, n, [&](VRgb p) { return HsvShifted(d, p, radians); });
  MapTile(d, t, n, [&](VRgb hsv) { return RgbOfHsv(d, hsv); });
}

// Steps first..last-1 of the order over the tile (pixel/color.h's run_steps), one step at a time;
// the constant step index lets each loop drop Step's dispatch.
HWY_INLINE void StepsTile(DF d, RgbTile& t, int64_t n, const JiggleFactors& k, int64_t b, float mean, int first,
                          int last) {
  for (int i = first; i < last; ++i) {
    if (!k.apply[k.order[i]]) continue;
    switch (k.order[i]) {
      case 0: MapTile(d, t, n, [&](VRgb p) { return Step(d, p, k, 0, b, mean); }); break;
      case 1: MapTile(d, t, n, [&](VRgb p) { return Step(d, p, k, 1, b, mean); }); break;
      case 2: MapTile(d, t, n, [&](VRgb p) { return Step(d, p, k, 2, b, mean); }); break;
      default: {  // pixel/color.h's color_step: the closed form where fast_hue_applies, decided once a tile
        const float sextants = sextants_of_turns(k.hue[b]);
        if (k.fast && fast_hue_applies(sextants)) {
          MapTile(d, t, n, [&](VRgb p) { return FastHue(d, p, sextants); });
        } else {
          HueTile(d, t, n, (k.hue[b] * 2.0f) * kPi);
        }
        break;
      }
    }
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_COLOR_LANES_INL_H_
