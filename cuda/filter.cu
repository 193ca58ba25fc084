// Filters on CUDA: pixel/filter.h's FilterRowsBody into a float32 image on the stream, then
// FilterColumnsBody into dst (separable), or Filter2dBody (2-D), one thread per element; each tap
// one fmaf as on the CPU. Boxes are those filters with unit taps and a divisor.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/filter.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

namespace {
void run_separable(const char* op, const ConstImage& src, const Image& dst, FilterKernel kernel_x,
                   FilterKernel kernel_y, Border border, cudaStream_t stream) {
  detail::check_filter(op, src, dst, kernel_x, kernel_y, border);
  StreamBuffer<float> buffer(op, static_cast<size_t>(src.numel()), stream);
  const FloatImage rows = nchw(buffer.get(), src.batch, src.channels, src.height, src.width);
  launch_each_index(op, FilterRowsBody{src, rows, kernel_x, kernel_y, border}, stream);
  launch_each_index(op, FilterColumnsBody{rows, dst, kernel_x, kernel_y, border}, stream);
  buffer.release();
}

void run_2d(const char* op, const ConstImage& src, const Image& dst, FilterKernel2d kernel, Border border,
            cudaStream_t stream) {
  detail::check_filter2d(op, src, dst, kernel, border);
  launch_each_index(op, Filter2dBody{src, dst, kernel, border}, stream);
}
}  // namespace

void filter2d_separable(const ConstImage& src, const Image& dst, FilterKernel kernel_x, FilterKernel kernel_y,
                        Border border, cudaStream_t stream) {
  run_separable("filter2d_separable", src, dst, kernel_x, kernel_y, border, stream);
}

void filter2d(const ConstImage& src, const Image& dst, FilterKernel2d kernel, Border border, cudaStream_t stream) {
  run_2d("filter2d", src, dst, kernel, border, stream);
}

void box_blur_pooled(const ConstImage& src, const Image& dst, int64_t ky, int64_t kx, Border border, bool separable,
                     cudaStream_t stream) {
  detail::check_box("box_blur_pooled", ky, kx);
  if (separable) {
    run_separable("box_blur_pooled", src, dst, box_kernel(kx), box_kernel(ky), border, stream);
  } else {
    run_2d("box_blur_pooled", src, dst, box_kernel2d(ky, kx), border, stream);
  }
}

void median_blur(const ConstImage& src, const Image& dst, int64_t ky, int64_t kx, Border border, cudaStream_t stream) {
  detail::check_median("median_blur", src, dst, ky, kx, border);
  launch_each_index("median_blur", MedianBody{src, dst, ky, kx, border}, stream);
}

}  // namespace cuda
}  // namespace u8aug
