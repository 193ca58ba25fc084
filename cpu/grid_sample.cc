// grid_sample with a given grid on the CPU: pixel/sample.h's sample_pixel for every output pixel, rows
// over torch's threads (the grid's points are arbitrary, so there is no row structure to vectorise).
#include "cpu/parallel.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/sample.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cpu {

void grid_sample(const ConstImage& src, const Image& dst, const SampleGrid& grid, Interp mode, Padding padding,
                 bool align_corners, const ParallelFor& parallel, CubicSum cubic_across) {
  detail::check_grid_sample("grid_sample", src, dst, grid, mode, padding);
  const int64_t rows = dst.batch * dst.height;
  run_parallel(parallel, rows, grain_for(8 * dst.width * dst.channels), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t b = r / dst.height, y = r % dst.height;
      for (int64_t x = 0; x < dst.width; ++x)
        sample_pixel(src, dst, grid.at(b, y, x), mode, padding, align_corners, cubic_across, Values{}, b, y, x);
    }
  });
}

}  // namespace cpu
}  // namespace u8aug
