// Pointwise ops on CUDA. Each block takes one sample at a time: its threads build the sample's
// 256-entry table in shared memory with pixel/point.h's point_value (the code the CPU tables come
// from), then map the sample's bytes with SampleTableBody. No separate table pass, no scratch
// memory. equalize: per-plane byte histograms (shared-memory atomics over plane_byte), one thread
// per plane builds its table (EqualizeTablesBody, the CPU's equalize_table), then PlaneTablesBody.
#include "cuda/launch.cuh"
#include "u8aug/pixel/equalize.h"
#include "u8aug/detail/point_ops.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {
namespace {

__global__ void point_kernel(ConstImage src, Image dst, PointOp op, Samples first, Samples second) {
  __shared__ uint8_t table[256];
  for (long long b = blockIdx.y; b < dst.batch; b += gridDim.y) {
    __syncthreads();  // the previous sample's table is no longer read
    const PointParams p = point_params(first, second, b);
    for (int v = threadIdx.x; v < 256; v += blockDim.x) {
      table[v] = point_value(op, p, static_cast<uint8_t>(v));
    }
    __syncthreads();
    const SampleTableBody body{src, dst, table, b};
    for_each_index(body.count(), body);
  }
}

void run_point(const detail::PointOpSpec& spec, const ConstImage& src, const Image& dst, Samples first, Samples second,
               cudaStream_t stream) {
  detail::check_unary(spec.name, src, dst);
  detail::check_point_counts(spec, src, first, second);
  const long long per_sample = dst.channels * dst.height * dst.width;
  const unsigned int bx = static_cast<unsigned int>(std::min<long long>((per_sample + kThreads - 1) / kThreads, 2048));
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
    for_each_index(plane_size, [&](long long i) { atomicAdd(&local[plane_byte(src, p, i)], 1u); });
    __syncthreads();
    for (int v = threadIdx.x; v < 256; v += blockDim.x) {
      if (local[v]) atomicAdd(&counts[256 * p + v], local[v]);
    }
    __syncthreads();
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
    for_each_index(per_sample, [&](long long i) { sum += sample_byte(src, b, i); });
    atomicAdd(&block_sum, sum);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(&sums[b], block_sum);
  }
}

}  // namespace

namespace {
// Per-plane tables from byte histograms, then every byte through its plane's table: equalize and
// auto_contrast differ only in the body that turns a plane's counts into its table.
template <class TablesBody>
void run_plane_tables(const char* op, const ConstImage& src, const Image& dst, cudaStream_t stream) {
  const long long planes = src.batch * src.channels;
  // 256 byte counts a plane, then 256 table bytes a plane
  StreamBuffer<uint32_t> scratch(op, static_cast<size_t>(planes) * (256 + 64), stream);
  uint32_t* counts = scratch.get();
  uint8_t* tables = reinterpret_cast<uint8_t*>(counts + planes * 256);
  const long long plane_size = src.height * src.width;
  const unsigned int bx = static_cast<unsigned int>(std::min<long long>((plane_size + kThreads - 1) / kThreads, 64));
  const unsigned int by = static_cast<unsigned int>(std::min<long long>(planes, 65535));
  byte_histogram_kernel<<<dim3(bx, by), kThreads, 0, stream>>>(src, counts);
  check_launch(op);
  launch_each_index(op, TablesBody{counts, tables, planes}, stream);
  launch_each_index(op, PlaneTablesBody{src, dst, tables}, stream);
  scratch.release();
}
}  // namespace

void equalize(const ConstImage& src, const Image& dst, cudaStream_t stream) {
  detail::check_unary("equalize", src, dst);
  if (src.height * src.width > (int64_t{1} << 24)) {
    detail::fail("equalize",
                 "planes of more than 2^24 pixels are not supported (kornia counts in "
                 "float32, which is inexact beyond that)");
  }
  run_plane_tables<EqualizeTablesBody>("equalize", src, dst, stream);
}

void auto_contrast(const ConstImage& src, const Image& dst, cudaStream_t stream) {
  detail::check_unary("auto_contrast", src, dst);
  run_plane_tables<AutoContrastTablesBody>("auto_contrast", src, dst, stream);
}

void image_mean(const ConstImage& src, float* mean, cudaStream_t stream) {
  detail::check_view("image_mean", "src", src);
  if (mean == nullptr) detail::fail("image_mean", "mean has a null data pointer");
  StreamBuffer<unsigned long long> sums("image_mean", static_cast<size_t>(src.batch), stream);
  const long long per_sample = src.channels * src.height * src.width;
  const unsigned int bx = static_cast<unsigned int>(std::min<long long>((per_sample + kThreads - 1) / kThreads, 256));
  const unsigned int by = static_cast<unsigned int>(std::min<long long>(src.batch, 65535));
  byte_sum_kernel<<<dim3(bx, by), kThreads, 0, stream>>>(src, sums.get());
  check_launch("image_mean");
  launch_each_index("image_mean", ByteMeanBody{sums.get(), mean, src.batch, per_sample}, stream);
  sums.release();
}

void adjust_brightness(const ConstImage& src, const Image& dst, Samples factor, cudaStream_t s) {
  run_point(detail::kBrightness, src, dst, factor, {}, s);
}
void adjust_brightness_accumulative(const ConstImage& src, const Image& dst, Samples factor, cudaStream_t s) {
  run_point(detail::kBrightnessMul, src, dst, factor, {}, s);
}
void adjust_contrast(const ConstImage& src, const Image& dst, Samples factor, cudaStream_t s) {
  run_point(detail::kContrast, src, dst, factor, {}, s);
}
void adjust_contrast_with_mean(const ConstImage& src, const Image& dst, Samples factor, Samples mean, cudaStream_t s) {
  run_point(detail::kContrastMean, src, dst, factor, mean, s);
}
void adjust_gamma(const ConstImage& src, const Image& dst, Samples gamma, Samples gain, cudaStream_t s) {
  run_point(detail::kGamma, src, dst, gamma, gain, s);
}
void solarize(const ConstImage& src, const Image& dst, Samples thresholds, Samples additions, cudaStream_t s) {
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
