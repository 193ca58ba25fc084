// hflip and vflip on CUDA: pixel/flip.h's FlipBody, one thread per output pixel (all its channels).
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/flip.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void hflip(const ConstImage& src, const Image& dst, cudaStream_t stream) {
  detail::check_unary("hflip", src, dst);
  launch_each_index("hflip", FlipBody{src, dst, FlipAxes{true, false}}, stream);
}

void vflip(const ConstImage& src, const Image& dst, cudaStream_t stream) {
  detail::check_unary("vflip", src, dst);
  launch_each_index("vflip", FlipBody{src, dst, FlipAxes{false, true}}, stream);
}

}  // namespace cuda
}  // namespace u8aug
