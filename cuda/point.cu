// Pointwise ops on CUDA. Each block takes one sample at a time: its threads build the sample's
// 256-entry table in shared memory with pixel/point.h's point_value (the code the CPU tables come
// from), then map the sample's bytes with point_element. No separate table pass, no scratch memory.
// equalize: per-plane byte histograms (shared-memory atomics), one thread per plane builds its
// table with pixel/equalize.h's equalize_table (the CPU's code), then a mapping pass.
#include "cuda/launch.cuh"
#include "u8aug/pixel/equalize.h"
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

// Byte counts of every (b, c) plane: blockIdx.y walks planes, blockIdx.x splits a plane.
__global__ void byte_histogram_kernel(ConstImage src, uint32_t* counts) {
  __shared__ uint32_t local[256];
  const long long plane_size = src.height * src.width;
  for (long long p = blockIdx.y; p < src.batch * src.channels; p += gridDim.y) {
    for (int v = threadIdx.x; v < 256; v += blockDim.x) local[v] = 0;
    __syncthreads();
    const long long b = p / src.channels, c = p % src.channels;
    for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < plane_size;
         i += 1LL * blockDim.x * gridDim.x) {
      atomicAdd(&local[src.at(b, c, i / src.width, i % src.width)], 1u);
    }
    __syncthreads();
    for (int v = threadIdx.x; v < 256; v += blockDim.x) {
      if (local[v]) atomicAdd(&counts[256 * p + v], local[v]);
    }
    __syncthreads();
  }
}

__global__ void equalize_table_kernel(const uint32_t* byte_counts, uint8_t* tables, long long planes) {
  for (long long p = blockIdx.x * 1LL * blockDim.x + threadIdx.x; p < planes; p += 1LL * blockDim.x * gridDim.x) {
    uint32_t bins[256];
    for (int k = 0; k < 256; ++k) bins[k] = 0;
    for (int v = 0; v < 256; ++v) bins[equalize_index(static_cast<uint8_t>(v))] += byte_counts[256 * p + v];
    equalize_table(bins, tables + 256 * p);
  }
}

__global__ void plane_table_kernel(ConstImage src, Image dst, const uint8_t* tables) {
  const long long n = dst.batch * dst.channels * dst.height * dst.width;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < n; i += 1LL * blockDim.x * gridDim.x) {
    const Index4 k = element_index(dst, i);
    point_element(src, dst, tables + 256 * (k.b * dst.channels + k.c), k.b, k.c, k.y, k.x);
  }
}

// Byte sums per sample: blockIdx.y walks samples; each block adds its share once.
__global__ void byte_sum_kernel(ConstImage src, unsigned long long* sums) {
  __shared__ unsigned long long block_sum;
  const long long per_sample = src.channels * src.height * src.width;
  for (long long b = blockIdx.y; b < src.batch; b += gridDim.y) {
    if (threadIdx.x == 0) block_sum = 0;
    __syncthreads();
    unsigned long long sum = 0;
    for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < per_sample;
         i += 1LL * blockDim.x * gridDim.x) {
      const Index4 k = element_index(src, b * per_sample + i);
      sum += src.at(k.b, k.c, k.y, k.x);
    }
    atomicAdd(&block_sum, sum);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(&sums[b], block_sum);
  }
}

__global__ void byte_mean_kernel(const unsigned long long* sums, float* mean, long long batch, long long count) {
  for (long long b = blockIdx.x * 1LL * blockDim.x + threadIdx.x; b < batch; b += 1LL * blockDim.x * gridDim.x) {
    mean[b] = byte_mean(sums[b], count);
  }
}

void check_cuda(const char* op, cudaError_t err) {
  if (err != cudaSuccess) {
    throw std::runtime_error(std::string("u8aug.") + op + ": " + cudaGetErrorString(err));
  }
}

}  // namespace

void equalize(const ConstImage& src, const Image& dst, cudaStream_t stream) {
  detail::check_unary("equalize", src, dst);
  if (src.height * src.width > (int64_t{1} << 24)) {
    detail::fail("equalize", "planes of more than 2^24 pixels are not supported (kornia counts in "
                             "float32, which is inexact beyond that)");
  }
  const long long planes = src.batch * src.channels;
  uint32_t* counts = nullptr;
  check_cuda("equalize", cudaMallocAsync(reinterpret_cast<void**>(&counts), planes * 256 * (sizeof(uint32_t) + 1), stream));
  uint8_t* tables = reinterpret_cast<uint8_t*>(counts + planes * 256);
  check_cuda("equalize", cudaMemsetAsync(counts, 0, planes * 256 * sizeof(uint32_t), stream));
  const long long plane_size = src.height * src.width;
  const unsigned int bx = static_cast<unsigned int>(std::min<long long>((plane_size + kThreads - 1) / kThreads, 64));
  const unsigned int by = static_cast<unsigned int>(std::min<long long>(planes, 65535));
  byte_histogram_kernel<<<dim3(bx, by), kThreads, 0, stream>>>(src, counts);
  equalize_table_kernel<<<blocks_for(planes), kThreads, 0, stream>>>(counts, tables, planes);
  plane_table_kernel<<<blocks_for(dst.numel()), kThreads, 0, stream>>>(src, dst, tables);
  check_launch("equalize");
  check_cuda("equalize", cudaFreeAsync(counts, stream));
}

void image_mean(const ConstImage& src, float* mean, cudaStream_t stream) {
  detail::check_view("image_mean", "src", src);
  if (mean == nullptr) detail::fail("image_mean", "mean has a null data pointer");
  unsigned long long* sums = nullptr;
  const size_t bytes = static_cast<size_t>(src.batch) * sizeof(unsigned long long);
  check_cuda("image_mean", cudaMallocAsync(reinterpret_cast<void**>(&sums), bytes, stream));
  check_cuda("image_mean", cudaMemsetAsync(sums, 0, bytes, stream));
  const long long per_sample = src.channels * src.height * src.width;
  const unsigned int bx = static_cast<unsigned int>(std::min<long long>((per_sample + kThreads - 1) / kThreads, 256));
  const unsigned int by = static_cast<unsigned int>(std::min<long long>(src.batch, 65535));
  byte_sum_kernel<<<dim3(bx, by), kThreads, 0, stream>>>(src, sums);
  byte_mean_kernel<<<blocks_for(src.batch), kThreads, 0, stream>>>(sums, mean, src.batch, per_sample);
  check_launch("image_mean");
  check_cuda("image_mean", cudaFreeAsync(sums, stream));
}

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
void adjust_contrast_with_mean(const ConstImage& src, const Image& dst, Samples factor, Samples mean,
                               cudaStream_t s) {
  run_point(detail::kContrastMean, src, dst, factor, mean, s);
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
