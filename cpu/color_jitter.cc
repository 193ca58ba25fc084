// color_jitter on the CPU. With contrast in its order, a sample runs in two passes, since contrast
// blends with the sample's mean grey at its point of the chain: StageRows, then FinishRows (below),
// each in the colour steps' vector lanes (cpu/color_lanes-inl.h). Without contrast it is
// color_jiggle's row loop with ColorJitter's steps (cpu/color.cc).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/color_jitter.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/color_lanes-inl.h"

#include <limits>
#include <mutex>
#include <vector>

#include "cpu/color_rows.h"
#include "cpu/parallel.h"
#include "u8aug/detail/check.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// StageRows runs the steps before contrast on rows y0..y1-1 of
// sample b into `stage` (three float planes of one sample, small enough to stay in cache, so the
// second pass reads them instead of running those steps again) and adds their fixed-point grey to
// *sum; FinishRows runs contrast and the steps after it from `stage` into dst.
void StageRows(const ConstImage& src, const JiggleFactors& k, int64_t b, int64_t y0, int64_t y1, float* stage,
               int64_t* sum) {
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

void FinishRows(const float* stage, const Image& dst, const JiggleFactors& k, int64_t b, int64_t y0, int64_t y1) {
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

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(StageRows);
HWY_EXPORT(FinishRows);

void color_jitter(const ConstImage& src, const Image& dst, const JiggleParams& params, const ParallelFor& parallel) {
  detail::check_jiggle("color_jitter", src, dst, params);
  detail::check_jiggle_values("color_jitter", params, std::numeric_limits<float>::max());
  JiggleFactors k = jiggle_factors(params);
  k.jitter = true;
  if (!k.apply[1]) {
    run_color_rows(ColorOp::kJiggle, src, dst, {}, k, parallel);
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
