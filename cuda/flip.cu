// hflip and vflip on CUDA: one thread per output pixel (b, y, x), whose body is pixel/flip.h's
// flip_pixel, the function the CPU tests run over every index.
#include "cuda/launch.cuh"
#include "u8aug/check.h"
#include "u8aug/pixel/flip.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {
namespace {

__global__ void flip_kernel(ConstImage src, Image dst, FlipAxes axes) {
  const long long n = dst.batch * dst.height * dst.width;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < n;
       i += 1LL * blockDim.x * gridDim.x) {
    const long long x = i % dst.width, by = i / dst.width;
    flip_pixel(src, dst, axes, by / dst.height, by % dst.height, x);
  }
}

void flip(const char* op, const ConstImage& src, const Image& dst, FlipAxes axes,
          cudaStream_t stream) {
  detail::check_unary(op, src, dst);
  const long long n = dst.batch * dst.height * dst.width;
  flip_kernel<<<blocks_for(n), kThreads, 0, stream>>>(src, dst, axes);
  check_launch(op);
}

}  // namespace

void hflip(const ConstImage& src, const Image& dst, cudaStream_t stream) {
  flip("hflip", src, dst, FlipAxes{true, false}, stream);
}

void vflip(const ConstImage& src, const Image& dst, cudaStream_t stream) {
  flip("vflip", src, dst, FlipAxes{false, true}, stream);
}

}  // namespace cuda
}  // namespace u8aug
