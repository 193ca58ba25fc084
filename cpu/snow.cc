// RandomSnow on the CPU (pixel/snow.h's arithmetic): each row in colour tiles (cpu/color_lanes-inl.h),
// the HLS round trip in vector lanes, operation for operation. hls_to_rgb's fused multiply-add needs
// the target's own FMA: targets without one run the scalar code per pixel.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/snow.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/color_lanes-inl.h"

#include <algorithm>
#include <limits>

#include "cpu/parallel.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/snow.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_NATIVE_FMA
// torch.remainder(v, m) for v in (-m, 2m): v, v + m below 0 (rounded), v - m from m (exact).
HWY_INLINE VF RemainderLanes(DF d, VF v, float m) {
  const VF vm = hn::Set(d, m);
  const VF below = hn::IfThenElse(hn::Lt(v, hn::Zero(d)), hn::Add(v, vm), v);
  return hn::IfThenElse(hn::Ge(v, vm), hn::Sub(v, vm), below);
}

HWY_INLINE VF HlsChannel(DF d, VF l, VF hh, VF a, float n) {
  const VF k = RemainderLanes(d, hn::Add(hh, hn::Set(d, n)), 12.0f);
  const VF m = hn::Min(hn::Sub(k, hn::Set(d, 3.0f)), hn::Sub(hn::Set(d, 9.0f), k));
  const VF mink = hn::Min(hn::Max(m, hn::Set(d, -1.0f)), hn::Set(d, 1.0f));
  return ClampUnit(d, hn::MulAdd(hn::Neg(a), mink, l));
}

HWY_INLINE VRgb SnowLanes(DF d, VRgb p, float coefficient, float brightness) {
  const VF zero = hn::Zero(d), one = hn::Set(d, 1.0f), eps = hn::Set(d, 1e-8f);
  const VF mx = hn::Max(hn::Max(p.r, p.g), p.b), mn = hn::Min(hn::Min(p.r, p.g), p.b);
  const auto is_r = hn::Eq(p.r, mx), is_g = hn::AndNot(is_r, hn::Eq(p.g, mx));
  const VF l2 = hn::Add(mx, mn), chroma = hn::Sub(mx, mn);
  const VF chroma_den = hn::IfThenElse(hn::Eq(chroma, zero), one, hn::Add(chroma, eps));
  const VF lightness_den = hn::IfThenElse(hn::Lt(l2, one), l2, hn::Sub(hn::Set(d, 2.0f), l2));
  const VF saturation_den = hn::IfThenElse(hn::Eq(lightness_den, zero), one, hn::Add(lightness_den, eps));
  const VF s = hn::Div(chroma, saturation_den);
  VF l = hn::Div(l2, hn::Set(d, 2.0f));
  // each lane's one term of kornia's three: its numerator, then its offset
  const VF num = hn::IfThenElse(is_r, hn::Sub(p.g, p.b), hn::IfThenElse(is_g, hn::Sub(p.b, p.r), hn::Sub(p.r, p.g)));
  const VF q = hn::Div(num, chroma_den);
  const VF red = hn::IfThenElse(hn::Lt(q, zero), hn::Add(q, hn::Set(d, 6.0f)), q);
  VF h = hn::IfThenElse(is_r, red, hn::Add(q, hn::IfThenElse(is_g, hn::Set(d, 2.0f), hn::Set(d, 4.0f))));
  h = hn::Mul(h, hn::Set(d, kSextantRadians));
  h = hn::IfThenZeroElse(hn::Ge(h, hn::Set(d, kTwoPi)), h);
  const VF scaled = ClampUnit(d, hn::Mul(l, hn::Set(d, brightness)));
  l = hn::IfThenElse(hn::Lt(l, hn::Set(d, coefficient)), scaled, l);
  const VF hh = hn::Mul(h, hn::Set(d, kTwelfthsPerRadian));
  const VF a = hn::Mul(s, hn::Min(l, hn::Sub(one, l)));
  return VRgb{HlsChannel(d, l, hh, a, 0.0f), HlsChannel(d, l, hh, a, 8.0f), HlsChannel(d, l, hh, a, 4.0f)};
}
#endif

void SnowRows(const ConstImage& src, const Image& dst, const SnowParams& params, int64_t row_begin, int64_t row_end) {
  for (int64_t row = row_begin; row < row_end; ++row) {
    const int64_t b = row / src.height, y = row % src.height;
    const float coefficient = params.coefficient[b], brightness = params.brightness[b];
#if HWY_NATIVE_FMA
    const DF d;
    RgbTile tile;
    for (int64_t x0 = 0; x0 < src.width; x0 += kTilePixels) {
      const int64_t n = std::min(kTilePixels, src.width - x0);
      LoadTile(d, src, b, y, x0, n, tile);
      MapTile(d, tile, n, [&](VRgb p) { return SnowLanes(d, p, coefficient, brightness); });
      StoreTile(d, tile, false, dst, b, y, x0, n);
    }
#else
    for (int64_t x = 0; x < src.width; ++x)
      store_rgb(dst, b, y, x, snow_rgb(load_rgb(src, b, y, x), coefficient, brightness));
#endif
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

HWY_EXPORT(SnowRows);

void snow(const ConstImage& src, const Image& dst, const SnowParams& params, const ParallelFor& parallel) {
  const char* op = "snow";
  detail::check_snow(op, src, dst, params);
  const float big = std::numeric_limits<float>::max();
  detail::check_sample_values(op, "coefficient", params.coefficient, -big, big);
  detail::check_sample_values(op, "brightness", params.brightness, -big, big);
  run_parallel(parallel, src.batch * src.height, grain_for(32 * src.width), [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(SnowRows)(src, dst, params, begin, end);
  });
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
