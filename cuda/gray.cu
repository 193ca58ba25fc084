// rgb_to_grayscale and grayscale on CUDA: pixel/gray.h's GrayBody, one thread per output pixel
// (all its channels); fmaf is the same fused operation as on the CPU.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/gray.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void rgb_to_grayscale(const ConstImage& src, const Image& dst, cudaStream_t stream) {
  detail::check_gray("rgb_to_grayscale", src, dst, true);
  launch_each_index("rgb_to_grayscale", GrayBody{src, dst}, stream);
}

void grayscale(const ConstImage& src, const Image& dst, cudaStream_t stream) {
  detail::check_gray("grayscale", src, dst, false);
  launch_each_index("grayscale", GrayBody{src, dst}, stream);
}

}  // namespace cuda
}  // namespace u8aug
