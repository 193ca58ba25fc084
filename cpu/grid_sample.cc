// grid_sample with a given grid on the CPU. Per sample: its pixels packed (cpu/sample_rows.h), then
// the output rows in parallel; whole vectors of grid points are loaded and sampled in lanes
// (cpu/sample_lanes-inl.h), the rest (row tails, bicubic, targets without FMA) by pixel/sample.h's
// sample_pixel.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/grid_sample.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/sample_lanes-inl.h"

#include <vector>

#include "cpu/parallel.h"
#include "cpu/sample_rows.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/sample.h"
#include "u8aug/u8aug.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void GridSampleRow(const SampleRow& r, const SampleGrid& grid) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const bool pairs = grid.stride_xy == 1 && grid.stride_w == 2;  // (x, y) interleaved, as torch makes them
  const float* grid_row = grid.data + (grid.count == 1 ? 0 : r.b) * grid.stride_b + r.y * grid.stride_h;
  const int64_t done = SampleRowLanes(d, r, [&](int64_t x, V& gx, V& gy) {
    if (pairs) {
      hn::LoadInterleaved2(d, grid_row + 2 * x, gx, gy);
      return;
    }
    HWY_ALIGN float xs[hn::MaxLanes(d)], ys[hn::MaxLanes(d)];
    for (size_t i = 0; i < hn::Lanes(d); ++i) {
      const GridPoint g = grid.at(r.b, r.y, x + static_cast<int64_t>(i));
      xs[i] = g.x;
      ys[i] = g.y;
    }
    gx = hn::Load(d, xs);
    gy = hn::Load(d, ys);
  });
  for (int64_t x = done; x < r.x_end; ++x) {
    const SampleSetup& s = r.setup;
    sample_pixel(*r.src, *r.dst, grid.at(r.b, r.y, x), s.mode, s.padding, s.align_corners, s.cubic_across, *r.fill, r.b,
                 r.y, x);
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
HWY_EXPORT(GridSampleRow);

void grid_sample(const ConstImage& src, const Image& dst, const SampleGrid& grid, Interp mode, Padding padding,
                 bool align_corners, const ParallelFor& parallel, CubicSum cubic_across) {
  detail::check_grid_sample("grid_sample", src, dst, grid, mode, padding);
  if (dst.batch == 0 || dst.height == 0 || dst.width == 0) return;
  const Values no_fill{};
  PackedPixels pixels;
  pixels.resize(src.channels, src.height, src.width);
  for (int64_t b = 0; b < dst.batch; ++b) {
    pack_sample(src, b, pixels, parallel);
    run_parallel(parallel, dst.height, grain_for(8 * dst.width * dst.channels), [&](int64_t begin, int64_t end) {
      std::vector<uint8_t> scratch(static_cast<size_t>(dst.channels * dst.width));
      for (int64_t y = begin; y < end; ++y) {
        const SampleRow row{&src,
                            &dst,
                            SampleSetup{mode, padding, align_corners, cubic_across},
                            &no_fill,
                            &pixels,
                            b,
                            y,
                            0,
                            dst.width,
                            scratch.data()};
        HWY_DYNAMIC_DISPATCH(GridSampleRow)(row, grid);
      }
    });
  }
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
