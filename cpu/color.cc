// adjust_saturation, adjust_hue and color_jiggle on the CPU: pixel/color.h per pixel, rows split
// over threads. (Scalar for now: the float32 steps are exact, not yet vectorised.)
#include <string>

#include "cpu/parallel.h"
#include "u8aug/check.h"
#include "u8aug/pixel/color.h"

namespace u8aug {
namespace cpu {
namespace {

void run_color(ColorOp op, const ConstImage& src, const Image& dst, const Samples& factor,
               const JiggleFactors& jiggle, const ParallelFor& parallel) {
  run_parallel(parallel, src.batch * src.height, grain_for(64 * src.width), [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t b = row / src.height, y = row % src.height;
      for (int64_t x = 0; x < src.width; ++x) color_pixel(op, src, dst, factor, jiggle, b, y, x);
    }
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

void color_jiggle(const ConstImage& src, const Image& dst, const JiggleParams& params,
                  const ParallelFor& parallel) {
  const char* op = "color_jiggle";
  detail::check_jiggle(op, src, dst, params);
  const float big = std::numeric_limits<float>::max();
  detail::check_sample_values(op, "brightness", params.brightness, 0.0f, 2.0f);
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
  run_color(ColorOp::kJiggle, src, dst, {}, jiggle_factors(params), parallel);
}

}  // namespace cpu
}  // namespace u8aug
