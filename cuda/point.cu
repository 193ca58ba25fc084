// Pointwise ops on CUDA. Each block takes one sample at a time: its threads build the sample's
// 256-entry table in shared memory with pixel/point.h's point_value (the code the CPU tables come
// from), then map the sample's bytes with point_element. No separate table pass, no scratch memory.
#include "cuda/launch.cuh"
#include "u8aug/point_ops.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {
namespace {

__global__ void point_kernel(ConstImage src, Image dst, PointOp op, Samples first, Samples second) {
  __shared__ uint8_t table[256];
  const long long per_sample = dst.channels * dst.height * dst.width;
  for (long long b = blockIdx.y; b < dst.batch; b += gridDim.y) {
    __syncthreads();  // the previous sample's table is no longer read
    const PointParams p = point_params(first, second, b);
    for (int v = threadIdx.x; v < 256; v += blockDim.x) {
      table[v] = point_value(op, p, static_cast<uint8_t>(v));
    }
    __syncthreads();
    for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < per_sample;
         i += 1LL * blockDim.x * gridDim.x) {
      const Index4 k = element_index(dst, b * per_sample + i);  // element i of sample b
      point_element(src, dst, table, k.b, k.c, k.y, k.x);
    }
  }
}

void run_point(const detail::PointOpSpec& spec, const ConstImage& src, const Image& dst,
               Samples first, Samples second, cudaStream_t stream) {
  detail::check_unary(spec.name, src, dst);
  detail::check_point_counts(spec, src, first, second);
  const long long per_sample = dst.channels * dst.height * dst.width;
  const unsigned int bx = static_cast<unsigned int>(
      std::min<long long>((per_sample + kThreads - 1) / kThreads, 2048));
  const unsigned int by = static_cast<unsigned int>(std::min<long long>(dst.batch, 65535));
  point_kernel<<<dim3(bx, by), kThreads, 0, stream>>>(src, dst, spec.op, first, second);
  check_launch(spec.name);
}

}  // namespace

void adjust_brightness(const ConstImage& src, const Image& dst, Samples factor, cudaStream_t s) {
  run_point(detail::kBrightness, src, dst, factor, {}, s);
}
void adjust_brightness_accumulative(const ConstImage& src, const Image& dst, Samples factor,
                                    cudaStream_t s) {
  run_point(detail::kBrightnessMul, src, dst, factor, {}, s);
}
void adjust_contrast(const ConstImage& src, const Image& dst, Samples factor, cudaStream_t s) {
  run_point(detail::kContrast, src, dst, factor, {}, s);
}
void adjust_gamma(const ConstImage& src, const Image& dst, Samples gamma, Samples gain,
                  cudaStream_t s) {
  run_point(detail::kGamma, src, dst, gamma, gain, s);
}
void solarize(const ConstImage& src, const Image& dst, Samples thresholds, Samples additions,
              cudaStream_t s) {
  run_point(detail::kSolarize, src, dst, thresholds, additions, s);
}
void posterize(const ConstImage& src, const Image& dst, Samples bits, cudaStream_t s) {
  run_point(detail::kPosterize, src, dst, bits, {}, s);
}
void invert(const ConstImage& src, const Image& dst, cudaStream_t s) {
  run_point(detail::kInvert, src, dst, {}, {}, s);
}

}  // namespace cuda
}  // namespace u8aug
