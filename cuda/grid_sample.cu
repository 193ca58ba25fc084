// grid_sample with a given grid on CUDA: pixel/sample.h's GridSampleBody, one thread per output pixel.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/sample.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void grid_sample(const ConstImage& src, const Image& dst, const SampleGrid& grid, Interp mode, Padding padding,
                 bool align_corners, cudaStream_t stream, CubicSum cubic_across) {
  detail::check_grid_sample("grid_sample", src, dst, grid, mode, padding);
  launch_each_index("grid_sample", GridSampleBody{src, dst, grid, mode, padding, align_corners, cubic_across}, stream);
}

}  // namespace cuda
}  // namespace u8aug
