// adjust_saturation, adjust_hue and color_jiggle on CUDA: one thread per pixel running
// pixel/color.h's color_pixel (the CPU's code). ColorJiggle's skip flags and order are read from
// device memory once per block into shared memory: no host synchronisation.
#include "cuda/launch.cuh"
#include "u8aug/check.h"
#include "u8aug/pixel/color.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {
namespace {

__global__ void color_kernel(ColorOp op, ConstImage src, Image dst, Samples factor, JiggleParams params) {
  __shared__ JiggleFactors jiggle;
  if (op == ColorOp::kJiggle) {
    if (threadIdx.x == 0) jiggle = jiggle_factors(params);
    __syncthreads();
  }
  const long long n = dst.batch * dst.height * dst.width;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < n;
       i += 1LL * blockDim.x * gridDim.x) {
    const long long x = i % dst.width, by = i / dst.width;
    color_pixel(op, src, dst, factor, jiggle, by / dst.height, by % dst.height, x);
  }
}

void run_color(const char* name, ColorOp op, const ConstImage& src, const Image& dst, Samples factor,
               const JiggleParams& params, cudaStream_t stream) {
  const long long n = dst.batch * dst.height * dst.width;
  color_kernel<<<blocks_for(n), kThreads, 0, stream>>>(op, src, dst, factor, params);
  check_launch(name);
}

}  // namespace

void adjust_saturation(const ConstImage& src, const Image& dst, Samples factor, cudaStream_t s) {
  detail::check_rgb("adjust_saturation", src, dst);
  detail::check_samples("adjust_saturation", "factor", factor, src.batch);
  run_color("adjust_saturation", ColorOp::kSaturation, src, dst, factor, {}, s);
}

void adjust_hue(const ConstImage& src, const Image& dst, Samples radians, cudaStream_t s) {
  detail::check_rgb("adjust_hue", src, dst);
  detail::check_samples("adjust_hue", "factor", radians, src.batch);
  run_color("adjust_hue", ColorOp::kHue, src, dst, radians, {}, s);
}

void color_jiggle(const ConstImage& src, const Image& dst, const JiggleParams& params,
                  cudaStream_t s) {
  detail::check_jiggle("color_jiggle", src, dst, params);
  run_color("color_jiggle", ColorOp::kJiggle, src, dst, {}, params, s);
}

}  // namespace cuda
}  // namespace u8aug
