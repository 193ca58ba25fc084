// rgb_to_grayscale and grayscale on CUDA: one thread per output pixel (b, y, x), whose body is
// pixel/gray.h's gray_pixel (the CPU's scalar path); fmaf is the same fused operation on both.
#include "cuda/launch.cuh"
#include "u8aug/check.h"
#include "u8aug/pixel/gray.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {
namespace {

__global__ void gray_kernel(ConstImage src, Image dst) {
  const long long n = dst.batch * dst.height * dst.width;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < n;
       i += 1LL * blockDim.x * gridDim.x) {
    const long long x = i % dst.width, by = i / dst.width;
    gray_pixel(src, dst, by / dst.height, by % dst.height, x);
  }
}

void run_gray(const char* op, const ConstImage& src, const Image& dst, cudaStream_t stream) {
  const long long n = dst.batch * dst.height * dst.width;
  gray_kernel<<<blocks_for(n), kThreads, 0, stream>>>(src, dst);
  check_launch(op);
}

}  // namespace

void rgb_to_grayscale(const ConstImage& src, const Image& dst, cudaStream_t stream) {
  detail::check_gray("rgb_to_grayscale", src, dst, true);
  run_gray("rgb_to_grayscale", src, dst, stream);
}

void grayscale(const ConstImage& src, const Image& dst, cudaStream_t stream) {
  detail::check_gray("grayscale", src, dst, false);
  run_gray("grayscale", src, dst, stream);
}

}  // namespace cuda
}  // namespace u8aug
