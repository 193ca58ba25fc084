// warp_affine and warp_perspective on the CPU: one sampling matrix per sample, the base grid once
// per call, then pixel/warp.h's warp_pixel for every output pixel, rows spread over threads.
#include <vector>

#include "cpu/parallel.h"
#include "u8aug/check.h"
#include "u8aug/pixel/warp.h"

namespace u8aug {
namespace cpu {
namespace {

void warp(const char* op, bool perspective, const ConstImage& src, const Image& dst,
          const WarpParams& p, const ParallelFor& parallel) {
  detail::check_warp(op, src, dst, p);
  if (p.padding == Padding::kFill) {
    detail::check_sample_values(op, "fill", p.fill, -std::numeric_limits<float>::max(),
                                std::numeric_limits<float>::max());
  }
  std::vector<WarpSetup> setups;
  setups.reserve(static_cast<size_t>(dst.batch));
  for (int64_t b = 0; b < dst.batch; ++b) setups.push_back(warp_setup(p, perspective, src, dst, b));
  const WarpSetup& any = setups.front();
  std::vector<float> base_x(static_cast<size_t>(dst.width)), base_y(static_cast<size_t>(dst.height));
  for (int64_t x = 0; x < dst.width; ++x) base_x[x] = base_coordinate(any, x, dst.width);
  for (int64_t y = 0; y < dst.height; ++y) base_y[y] = base_coordinate(any, y, dst.height);
  const int64_t rows = dst.batch * dst.height;
  run_parallel(parallel, rows, grain_for(dst.width * dst.channels * 16), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t b = r / dst.height, y = r % dst.height;
      for (int64_t x = 0; x < dst.width; ++x) {
        warp_pixel(src, dst, setups[b], p.fill, b, y, x, base_x[x], base_y[y]);
      }
    }
  });
}

}  // namespace

void warp_affine(const ConstImage& src, const Image& dst, const WarpParams& params,
                 const ParallelFor& parallel) {
  warp("warp_affine", false, src, dst, params, parallel);
}

void warp_perspective(const ConstImage& src, const Image& dst, const WarpParams& params,
                      const ParallelFor& parallel) {
  warp("warp_perspective", true, src, dst, params, parallel);
}

}  // namespace cpu
}  // namespace u8aug
