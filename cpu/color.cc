// adjust_saturation, adjust_hue and color_jiggle on the CPU, and the row loop color_jitter shares.
// Planar rows run the colour steps in vector lanes (cpu/color_lanes-inl.h); interleaved or strided
// rows, rows narrower than a vector and, on targets without a native FMA, vectors that need
// kornia's fused grey run pixel/color.h's color_pixel itself.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/color.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/color_lanes-inl.h"

#include <limits>

#include "cpu/color_rows.h"
#include "cpu/parallel.h"
#include "u8aug/detail/check.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void ColorRows(ColorOp op, const ConstImage& src, const Image& dst, const Samples& factor, const JiggleFactors& jiggle,
               int64_t row_begin, int64_t row_end) {
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

void run_color_rows(ColorOp op, const ConstImage& src, const Image& dst, const Samples& factor,
                    const JiggleFactors& jiggle, const ParallelFor& parallel) {
  run_parallel(parallel, src.batch * src.height, grain_for(16 * src.width), [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(ColorRows)(op, src, dst, factor, jiggle, begin, end);
  });
}

void adjust_saturation(const ConstImage& src, const Image& dst, Samples factor, const ParallelFor& parallel) {
  const char* op = "adjust_saturation";
  detail::check_rgb(op, src, dst);
  detail::check_samples(op, "factor", factor, src.batch);
  detail::check_sample_values(op, "factor", factor, 0.0f, std::numeric_limits<float>::max());
  run_color_rows(ColorOp::kSaturation, src, dst, factor, {}, parallel);
}

void adjust_hue(const ConstImage& src, const Image& dst, Samples radians, const ParallelFor& parallel) {
  const char* op = "adjust_hue";
  detail::check_rgb(op, src, dst);
  detail::check_samples(op, "factor", radians, src.batch);
  detail::check_sample_values(op, "factor", radians, -kPi, kPi);
  run_color_rows(ColorOp::kHue, src, dst, radians, {}, parallel);
}

void color_jiggle(const ConstImage& src, const Image& dst, const JiggleParams& params, const ParallelFor& parallel) {
  detail::check_jiggle("color_jiggle", src, dst, params);
  detail::check_jiggle_values("color_jiggle", params, 2.0f);
  run_color_rows(ColorOp::kJiggle, src, dst, {}, jiggle_factors(params), parallel);
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
