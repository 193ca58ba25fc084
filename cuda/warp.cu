// warp_affine and warp_perspective on CUDA: blockIdx.y is the sample; thread 0 of each block forms
// the sample's sampling matrix (pixel/warp.h's warp_setup, from the device-side matrices) in shared
// memory, then the block's threads run pixel/warp.h's WarpBody over the sample's output pixels.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/warp.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {
namespace {

__global__ void warp_kernel(ConstImage src, Image dst, WarpParams p, bool perspective) {
  __shared__ WarpSetup setup;
  const int64_t b = blockIdx.y;
  if (threadIdx.x == 0) setup = warp_setup(p, perspective, src, dst, b);
  __syncthreads();
  const WarpBody body{src, dst, &setup, p.fill, b};
  for_each_index(body.count(), body);
}

void warp(const char* op, bool perspective, const ConstImage& src, const Image& dst, const WarpParams& p,
          cudaStream_t stream) {
  detail::check_warp(op, src, dst, p);
  if (dst.batch > 65535) detail::fail(op, "batches of more than 65535 images are not supported on CUDA");
  const long long per_sample = dst.height * dst.width;
  const dim3 grid(blocks_for(per_sample) / 8 + 1, static_cast<unsigned int>(dst.batch));
  warp_kernel<<<grid, kThreads, 0, stream>>>(src, dst, p, perspective);
  check_launch(op);
}

}  // namespace

void warp_affine(const ConstImage& src, const Image& dst, const WarpParams& params, cudaStream_t stream) {
  warp("warp_affine", false, src, dst, params, stream);
}

void warp_perspective(const ConstImage& src, const Image& dst, const WarpParams& params, cudaStream_t stream) {
  warp("warp_perspective", true, src, dst, params, stream);
}

}  // namespace cuda
}  // namespace u8aug
