// normalize and to_float on CUDA: one thread per output element, whose body is
// pixel/normalize.h's normalize_element (the CPU's scalar path). -fmad=false keeps the divisions
// and the subtraction separately rounded, as on the CPU.
#include "cuda/launch.cuh"
#include "u8aug/check.h"
#include "u8aug/pixel/normalize.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {
namespace {

__global__ void normalize_kernel(ConstImage src, FloatImage dst, PerChannel mean, PerChannel std) {
  const long long n = dst.batch * dst.channels * dst.height * dst.width;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < n;
       i += 1LL * blockDim.x * gridDim.x) {
    const Index4 k = element_index(dst, i);
    normalize_element(src, dst, mean, std, k.b, k.c, k.y, k.x);
  }
}

__global__ void to_float_kernel(ConstImage src, FloatImage dst) {
  const long long n = dst.batch * dst.channels * dst.height * dst.width;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < n;
       i += 1LL * blockDim.x * gridDim.x) {
    const Index4 k = element_index(dst, i);
    dst.at(k.b, k.c, k.y, k.x) = normalize_value(src.at(k.b, k.c, k.y, k.x), 0.0f, 1.0f);
  }
}

}  // namespace

void normalize(const ConstImage& src, const FloatImage& dst, PerChannel mean, PerChannel std,
               cudaStream_t stream) {
  detail::check_unary("normalize", src, dst);
  detail::check_samples("normalize", "mean", mean, src.channels, "C");
  detail::check_samples("normalize", "std", std, src.channels, "C");
  const long long n = dst.batch * dst.channels * dst.height * dst.width;
  normalize_kernel<<<blocks_for(n), kThreads, 0, stream>>>(src, dst, mean, std);
  check_launch("normalize");
}

void to_float(const ConstImage& src, const FloatImage& dst, cudaStream_t stream) {
  detail::check_unary("to_float", src, dst);
  const long long n = dst.batch * dst.channels * dst.height * dst.width;
  to_float_kernel<<<blocks_for(n), kThreads, 0, stream>>>(src, dst);
  check_launch("to_float");
}

}  // namespace cuda
}  // namespace u8aug
