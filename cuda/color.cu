// adjust_saturation, adjust_hue and color_jiggle on CUDA: one thread per pixel running
// pixel/color.h's color_pixel (the CPU's code). ColorJiggle's skip flags and order are read from
// device memory once per block into shared memory: no host synchronisation.
#include <string>

#include "cuda/launch.cuh"
#include "u8aug/check.h"
#include "u8aug/pixel/color.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {
namespace {

__device__ void load_factors(JiggleFactors& k, const JiggleParams& params, const int64_t* gray_sums,
                             long long pixels) {
  if (threadIdx.x == 0) {
    k = jiggle_factors(params);
    k.jitter = gray_sums != nullptr;
    k.gray_sums = gray_sums;
    k.pixels = pixels;
  }
  __syncthreads();
}

// ColorJitter's first pass: per-sample fixed-point sums of the grey its contrast step sees.
// Integer atomics: the total does not depend on the order (the CPU sums the same integers).
__global__ void gray_sum_kernel(ConstImage src, JiggleParams params, int64_t* sums) {
  __shared__ JiggleFactors k;
  load_factors(k, params, sums, src.height * src.width);
  const long long n = src.batch * src.height * src.width;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < n;
       i += 1LL * blockDim.x * gridDim.x) {
    const long long x = i % src.width, by = i / src.width, b = by / src.height;
    const Rgb p = before_contrast(load_rgb(src, b, by % src.height, x), k, b);
    atomicAdd(reinterpret_cast<unsigned long long*>(sums + b),
              static_cast<unsigned long long>(gray_fixed(luma_unit(p.r, p.g, p.b))));
  }
}

__global__ void color_kernel(ColorOp op, ConstImage src, Image dst, Samples factor, JiggleParams params,
                             const int64_t* gray_sums) {
  __shared__ JiggleFactors jiggle;
  if (op == ColorOp::kJiggle) load_factors(jiggle, params, gray_sums, src.height * src.width);
  const long long n = dst.batch * dst.height * dst.width;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < n;
       i += 1LL * blockDim.x * gridDim.x) {
    const long long x = i % dst.width, by = i / dst.width;
    color_pixel(op, src, dst, factor, jiggle, by / dst.height, by % dst.height, x);
  }
}

void run_color(const char* name, ColorOp op, const ConstImage& src, const Image& dst, Samples factor,
               const JiggleParams& params, cudaStream_t stream, const int64_t* gray_sums = nullptr) {
  const long long n = dst.batch * dst.height * dst.width;
  color_kernel<<<blocks_for(n), kThreads, 0, stream>>>(op, src, dst, factor, params, gray_sums);
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

void color_jitter(const ConstImage& src, const Image& dst, const JiggleParams& params,
                  cudaStream_t s) {
  detail::check_jiggle("color_jitter", src, dst, params);
  int64_t* sums = nullptr;
  if (cudaMallocAsync(reinterpret_cast<void**>(&sums), src.batch * sizeof(int64_t), s) != cudaSuccess ||
      cudaMemsetAsync(sums, 0, src.batch * sizeof(int64_t), s) != cudaSuccess) {
    throw std::runtime_error("u8aug.color_jitter: could not allocate " + std::to_string(src.batch * 8) +
                             " bytes of device memory");
  }
  const long long n = src.batch * src.height * src.width;
  gray_sum_kernel<<<blocks_for(n), kThreads, 0, s>>>(src, params, sums);
  run_color("color_jitter", ColorOp::kJiggle, src, dst, {}, params, s, sums);
  cudaFreeAsync(sums, s);
}

}  // namespace cuda
}  // namespace u8aug
