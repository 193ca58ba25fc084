// pad and rot90 on CUDA: one thread per output byte, pixel/layout.h's index maps.
#include "cuda/launch.cuh"
#include "u8aug/check.h"
#include "u8aug/pixel/layout.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {
namespace {

__global__ void pad_kernel(ConstImage src, Image dst, PadSpec spec) {
  const long long n = dst.batch * dst.channels * dst.height * dst.width;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < n;
       i += 1LL * blockDim.x * gridDim.x) {
    const Index4 k = element_index(dst, i);
    pad_element(src, dst, spec, k.b, k.c, k.y, k.x);
  }
}

__global__ void rot90_kernel(ConstImage src, Image dst, int turns) {
  const long long n = dst.batch * dst.channels * dst.height * dst.width;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < n;
       i += 1LL * blockDim.x * gridDim.x) {
    const Index4 k = element_index(dst, i);
    rot90_element(src, dst, turns, k.b, k.c, k.y, k.x);
  }
}

}  // namespace

void pad(const ConstImage& src, const Image& dst, const PadSpec& spec, cudaStream_t stream) {
  detail::check_pad("pad", src, dst, spec);
  pad_kernel<<<blocks_for(dst.numel()), kThreads, 0, stream>>>(src, dst, spec);
  check_launch("pad");
}

void rot90(const ConstImage& src, const Image& dst, int k, cudaStream_t stream) {
  detail::check_rot90("rot90", src, dst, k);
  rot90_kernel<<<blocks_for(dst.numel()), kThreads, 0, stream>>>(src, dst, ((k % 4) + 4) % 4);
  check_launch("rot90");
}

}  // namespace cuda
}  // namespace u8aug
