// adjust_saturation, adjust_hue and color_jiggle on the CPU, and the row loop color_jitter shares:
// each row in tiles, each step over a whole tile in vector lanes (cpu/color_lanes-inl.h), for
// every layout; color_jiggle's and adjust_hue's fast tier in cpu/color_fixed.cc's fixed point.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/color.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/color_lanes-inl.h"

#include <algorithm>
#include <limits>

#include "cpu/color_rows.h"
#include "cpu/parallel.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/color_fixed.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void ColorRows(ColorOp op, const ConstImage& src, const Image& dst, const Samples& factor, const JiggleFactors& jiggle,
               int64_t row_begin, int64_t row_end) {
  const DF d;
  RgbTile tile;
  for (int64_t row = row_begin; row < row_end; ++row) {
    const int64_t b = row / src.height, y = row % src.height;
    for (int64_t x0 = 0; x0 < src.width; x0 += kTilePixels) {
      const int64_t n = std::min(kTilePixels, src.width - x0);
      LoadTile(d, src, b, y, x0, n, tile);
      switch (op) {
        case ColorOp::kSaturation: MapTile(d, tile, n, [&](VRgb p) { return Saturation(d, p, factor[b]); }); break;
        case ColorOp::kHue: HueTile(d, tile, n, factor[b]); break;
        case ColorOp::kFastHue: {
          const float sextants = sextants_of_radians(factor[b]);
          if (fast_hue_applies(sextants)) {
            MapTile(d, tile, n, [&](VRgb p) { return FastHue(d, p, sextants); });
          } else {
            HueTile(d, tile, n, factor[b]);
          }
          break;
        }
        default: StepsTile(d, tile, n, jiggle, b, jitter_mean(jiggle, b), 0, jiggle.steps); break;
      }
      StoreTile(d, tile, op == ColorOp::kJiggle, dst, b, y, x0, n);
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

// The fast tier's rows (color_jiggle, adjust_hue): each sample's run of rows in
// pixel/color_fixed.h's fixed point where serves(b), by run_fixed(b, y0, y1), else in ColorRows'
// float steps (op).
template <class Serves, class RunFixed>
void run_fast_rows(ColorOp op, const ConstImage& src, const Image& dst, const Samples& factor,
                   const JiggleFactors& jiggle, const ParallelFor& parallel, const Serves& serves,
                   const RunFixed& run_fixed) {
  run_parallel(parallel, src.batch * src.height, grain_for(16 * src.width), [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end;) {
      const int64_t b = row / src.height, y = row % src.height, last = std::min(end, (b + 1) * src.height);
      if (serves(b)) {
        run_fixed(b, y, y + last - row);
      } else {
        HWY_DYNAMIC_DISPATCH(ColorRows)(op, src, dst, factor, jiggle, row, last);
      }
      row = last;
    }
  });
}

void adjust_saturation(const ConstImage& src, const Image& dst, Samples factor, const ParallelFor& parallel,
                       Fidelity fidelity) {
  const char* op = "adjust_saturation";
  detail::check_rgb(op, src, dst);
  detail::check_samples(op, "factor", factor, src.batch);
  detail::check_sample_values(op, "factor", factor, 0.0f, std::numeric_limits<float>::max());
  detail::check_fidelity(op, fidelity);  // both tiers run kornia's formula (pixel/color.h)
  run_color_rows(ColorOp::kSaturation, src, dst, factor, {}, parallel);
}

void adjust_hue(const ConstImage& src, const Image& dst, Samples radians, const ParallelFor& parallel,
                Fidelity fidelity) {
  const char* op = "adjust_hue";
  detail::check_rgb(op, src, dst);
  detail::check_samples(op, "factor", radians, src.batch);
  detail::check_sample_values(op, "factor", radians, -kPi, kPi);
  detail::check_fidelity(op, fidelity);
  if (fidelity == Fidelity::kFast) {
    run_fast_rows(
        ColorOp::kFastHue, src, dst, radians, {}, parallel,
        [&](int64_t b) { return fixed_hue_sample(radians[b]).applies; },
        [&](int64_t b, int64_t y0, int64_t y1) { fixed_hue_rows(src, dst, radians[b], b, y0, y1); });
  } else {
    run_color_rows(ColorOp::kHue, src, dst, radians, {}, parallel);
  }
}

void color_jiggle(const ConstImage& src, const Image& dst, const JiggleParams& params, const ParallelFor& parallel) {
  detail::check_jiggle("color_jiggle", src, dst, params);
  detail::check_jiggle_values("color_jiggle", params, 2.0f);
  const JiggleFactors k = jiggle_factors(params);
  if (!k.fast) {
    run_color_rows(ColorOp::kJiggle, src, dst, {}, k, parallel);
    return;
  }
  run_fast_rows(
      ColorOp::kJiggle, src, dst, {}, k, parallel, [&](int64_t b) { return fixed_color_applies(k, b); },
      [&](int64_t b, int64_t y0, int64_t y1) { fixed_jitter_finish(src, dst, k, b, y0, y1); });
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
