// select_samples on CUDA: one thread per output element, body pixel/select.h's select_element.
#include "cuda/launch.cuh"
#include "u8aug/check.h"
#include "u8aug/pixel/select.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {
namespace {

__global__ void select_kernel(const bool* take, ConstImage a, ConstImage b, Image dst) {
  const long long n = dst.batch * dst.channels * dst.height * dst.width;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < n;
       i += 1LL * blockDim.x * gridDim.x) {
    const Index4 k = element_index(dst, i);
    select_element(a, b, dst, take, k.b, k.c, k.y, k.x);
  }
}

}  // namespace

void select_samples(const bool* take, const ConstImage& a, const ConstImage& b, const Image& dst,
                    cudaStream_t stream) {
  detail::check_select("select_samples", take, a, b, dst);
  select_kernel<<<blocks_for(dst.numel()), kThreads, 0, stream>>>(take, a, b, dst);
  check_launch("select_samples");
}

}  // namespace cuda
}  // namespace u8aug
