// RandomSnow on CUDA: pixel/snow.h's SnowBody, one thread per pixel.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/snow.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void snow(const ConstImage& src, const Image& dst, const SnowParams& params, cudaStream_t stream) {
  detail::check_snow("snow", src, dst, params);
  launch_each_index("snow", SnowBody{src, dst, params}, stream);
}

}  // namespace cuda
}  // namespace u8aug
