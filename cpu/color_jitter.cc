// color_jitter on the CPU. With contrast in its order, a sample runs in two passes, since contrast
// blends with the sample's mean grey at its point of the chain: StageRows, then FinishRows (below),
// each in the colour steps' vector lanes (cpu/color_lanes-inl.h). Without contrast it is
// color_jiggle's row loop with ColorJitter's steps (cpu/color.cc).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/color_jitter.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/color_lanes-inl.h"

#include <algorithm>
#include <limits>
#include <mutex>
#include <vector>

#include "cpu/color_rows.h"
#include "cpu/parallel.h"
#include "cpu/scratch.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/color_fixed.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// StageRows runs the steps before contrast on rows y0..y1-1 of sample b and adds their fixed-point
// grey to *sum; FinishRows runs contrast and the steps after it into dst. When a hue step comes
// before contrast, the first pass keeps its result in `stage` (three float planes of one sample,
// small enough to stay in cache) for the second; otherwise (stage null) the steps before contrast
// are a few multiply-adds, cheaper to run again from src than to store and reload. Both go a tile at
// a time (cpu/color_lanes-inl.h).
void StageRows(const ConstImage& src, const JiggleFactors& k, int64_t b, int64_t y0, int64_t y1, float* stage,
               int64_t* sum) {
  const DF d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d)), w = src.width, plane = src.height * w;
  const int last = contrast_position(k);
  // pixel/color.h's gray_fixed(g) = floor(g * 2^32) in int32 lanes, as two 16-bit halves: with
  // t = g * 2^16 (exact), floor(t) * 2^16 + floor((t - floor(t)) * 2^16), every step exact. The
  // halves are summed per tile (at most 2^16 a pixel, kTilePixels pixels: no int32 overflow).
  const hn::RebindToSigned<DF> di;
  const VF k16 = hn::Set(d, 65536.0f);
  auto high = hn::Zero(di), low = hn::Zero(di);
  auto add_grey = [&](VF g) {
    const VF t = hn::Mul(g, k16), whole = hn::Floor(t);
    high = hn::Add(high, hn::ConvertTo(di, whole));
    low = hn::Add(low, hn::ConvertTo(di, hn::Mul(hn::Sub(t, whole), k16)));
  };
  auto flush = [&] {
    *sum += static_cast<int64_t>(hn::GetLane(hn::SumOfLanes(di, high))) * 65536 +
            static_cast<int64_t>(hn::GetLane(hn::SumOfLanes(di, low)));
    high = hn::Zero(di);
    low = hn::Zero(di);
  };
  RgbTile tile;
  for (int64_t y = y0; y < y1; ++y) {
    for (int64_t x0 = 0; x0 < w; x0 += kTilePixels) {
      const int64_t n = std::min(kTilePixels, w - x0);
      LoadTile(d, src, b, y, x0, n, tile);
      StepsTile(d, tile, n, k, b, 0.0f, 0, last);
      for (int64_t x = 0; x < n; x += lanes) {  // the padding lanes add gray_fixed(0) = 0
        const VRgb p{hn::Load(d, tile.c[0] + x), hn::Load(d, tile.c[1] + x), hn::Load(d, tile.c[2] + x)};
        add_grey(hn::IfThenElseZero(hn::FirstN(d, static_cast<size_t>(n - x)), Luma(d, p)));
      }
      flush();
      if (stage) SaveTileFloats(tile, n, stage, plane, y * w + x0);
    }
  }
}

void FinishRows(const float* stage, const ConstImage& src, const Image& dst, const JiggleFactors& k, int64_t b,
                int64_t y0, int64_t y1) {
  const DF d;
  const int64_t w = dst.width, plane = dst.height * w;
  const int first = stage ? contrast_position(k) : 0;
  const float mean = jitter_mean(k, b);
  RgbTile tile;
  for (int64_t y = y0; y < y1; ++y) {
    for (int64_t x0 = 0; x0 < w; x0 += kTilePixels) {
      const int64_t n = std::min(kTilePixels, w - x0);
      if (stage) {
        LoadTileFloats(stage, plane, y * w + x0, n, tile);
      } else {
        LoadTile(d, src, b, y, x0, n, tile);
      }
      StepsTile(d, tile, n, k, b, mean, first, k.steps);
      StoreTile(d, tile, true, dst, b, y, x0, n);
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
  if (!k.apply[1] && !k.fast) {
    run_color_rows(ColorOp::kJiggle, src, dst, {}, k, parallel);
    return;
  }
  k.pixels = src.height * src.width;
  std::vector<int64_t> sums(static_cast<size_t>(src.batch), 0);
  k.gray_sums = sums.data();
  bool hue_first = false;  // a hue step before contrast: the first pass keeps its results
  for (int i = 0; i < contrast_position(k); ++i) hue_first = hue_first || (k.order[i] == 3 && k.apply[3]);
  // Where the first pass keeps one sample's results: float planes for the float steps (StageRows),
  // int16 planes for the fixed point (cpu/color_fixed.cc). Kept per thread between calls
  // (cpu/scratch.h): in a pipeline this op runs once a sample, and fresh planes cost a page fault
  // and a zeroing a page each time, a quarter of the step.
  struct Kept {
    std::vector<float>& floats;
    std::vector<int16_t>& fixed;
    size_t size;  // 0: no stage
    bool fast;
    Kept(size_t size_, bool fast_) : floats(kept_floats()), fixed(kept_fixed()), size(size_), fast(fast_) {
      if (floats.size() < size) floats.resize(size);
      if (fast && fixed.size() < size) fixed.resize(size);
    }
    ~Kept() { release_large_scratch(floats, fixed); }
    static std::vector<float>& kept_floats() {
      thread_local std::vector<float> v;
      return v;
    }
    static std::vector<int16_t>& kept_fixed() {
      thread_local std::vector<int16_t> v;
      return v;
    }
    float* floats_or_null() { return size == 0 ? nullptr : floats.data(); }
    int16_t* fixed_or_null() { return size == 0 || !fast ? nullptr : fixed.data(); }
  };
  // The fast tier keeps the first pass's results whenever a step comes before contrast: reloading
  // its int16 planes (300 KB a 224x224 sample, in L2) beats running brightness and saturation
  // again (color_jitter 2.95 -> 2.80 ms a batch over the 24 orders, 3.4 -> 2.6 ms for the orders
  // that put saturation first; AVX2). The float tier's planes are twice that, past a Zen 1 core's L2:
  // there recomputing stays as fast (measured within 5% either way), so only hue is kept.
  bool any_first = false;
  for (int i = 0; i < contrast_position(k); ++i) any_first = any_first || k.apply[k.order[i]];
  const bool keep = hue_first || (k.fast && any_first);
  const size_t stage_size = keep && k.apply[1] ? static_cast<size_t>(3 * k.pixels) : 0;
  // Each sample's two passes, in the fast tier's fixed point where pixel/color_fixed.h serves the
  // sample, else in float lanes; the first only where contrast needs its mean grey.
  auto stage = [&](int64_t b, int64_t y0, int64_t y1, Kept& kept, int64_t* sum) {
    if (!k.apply[1]) return;
    if (fixed_color_applies(k, b)) {
      fixed_jitter_stage(src, k, b, y0, y1, sum, kept.fixed_or_null());
    } else {
      HWY_DYNAMIC_DISPATCH(StageRows)(src, k, b, y0, y1, kept.floats_or_null(), sum);
    }
  };
  auto finish = [&](int64_t b, int64_t y0, int64_t y1, Kept& kept) {
    if (fixed_color_applies(k, b)) {
      fixed_jitter_finish(src, dst, k, b, y0, y1, kept.fixed_or_null());
    } else {
      HWY_DYNAMIC_DISPATCH(FinishRows)(kept.floats_or_null(), src, dst, k, b, y0, y1);
    }
  };
  if (src.batch >= 8) {  // whole samples per chunk: no barrier between a sample's two passes
    run_parallel(parallel, src.batch, 1, [&](int64_t begin, int64_t end) {
      Kept kept(stage_size, k.fast);
      for (int64_t b = begin; b < end; ++b) {
        stage(b, 0, src.height, kept, &sums[static_cast<size_t>(b)]);
        finish(b, 0, src.height, kept);
      }
    });
    return;
  }
  Kept kept(stage_size, k.fast);  // few samples: the rows of each pass split over threads
  const int64_t grain = grain_for(16 * src.width);
  std::mutex merge;  // integer sums: the order they merge in does not matter
  for (int64_t b = 0; b < src.batch; ++b) {
    if (k.apply[1]) {
      run_parallel(parallel, src.height, grain, [&](int64_t begin, int64_t end) {
        int64_t sum = 0;
        stage(b, begin, end, kept, &sum);
        const std::lock_guard<std::mutex> lock(merge);
        sums[static_cast<size_t>(b)] += sum;
      });
    }
    run_parallel(parallel, src.height, grain, [&](int64_t begin, int64_t end) { finish(b, begin, end, kept); });
  }
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
