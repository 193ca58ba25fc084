// resize and crop_and_resize on CUDA: pixel/resize.h's ResizeBody, one thread per output byte;
// boxes are read on the device and clamped by box_window. resize_antialias: pixel/filter.h's two
// passes into float32 images on the stream, then pixel/resize.h's ResizeFloatBody.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/filter.h"
#include "u8aug/pixel/resize.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {
namespace {

void run(const char* op, const ConstImage& src, const Image& dst, const float* boxes, Interp mode, bool align_corners,
         CropBlendOrders orders, cudaStream_t stream) {
  detail::check_resampled(op, src, dst);
  detail::check_interp(op, mode, align_corners);
  detail::check_blend_orders(op, orders);
  launch_each_index(op, ResizeBody{src, dst, boxes, mode, align_corners, orders}, stream);
}

}  // namespace

void resize(const ConstImage& src, const Image& dst, Interp mode, bool align_corners, BlendOrder order,
            cudaStream_t stream) {
  run("resize", src, dst, nullptr, mode, align_corners, {order, order}, stream);
}

void crop_and_resize(const ConstImage& src, const Image& dst, const float* boxes, Interp mode, bool align_corners,
                     CropBlendOrders orders, cudaStream_t stream) {
  if (boxes == nullptr) detail::fail("crop_and_resize", "boxes has a null pointer");
  run("crop_and_resize", src, dst, boxes, mode, align_corners, orders, stream);
}

void resize_antialias(const ConstImage& src, const Image& dst, FilterKernel kernel_x, FilterKernel kernel_y,
                      Interp mode, bool align_corners, BlendOrder order, cudaStream_t stream) {
  const char* op = "resize_antialias";
  detail::check_resize_antialias(op, src, dst, kernel_x, kernel_y, mode, align_corners, order);
  kernel_x.fidelity = kernel_y.fidelity = Fidelity::kExact;
  const size_t count = static_cast<size_t>(src.numel());
  StreamBuffer<float> rows_buffer(op, count, stream), blurred_buffer(op, count, stream);
  const FloatImage rows = nchw(rows_buffer.get(), src.batch, src.channels, src.height, src.width);
  const FloatImage blurred = nchw(blurred_buffer.get(), src.batch, src.channels, src.height, src.width);
  launch_each_index(op, FilterRowsBody{src, rows, kernel_x, kernel_y, Border::kReflect}, stream);
  launch_each_index(op, FilterColumnsFloatBody{rows, blurred, kernel_y, Border::kReflect}, stream);
  launch_each_index(op, ResizeFloatBody{blurred, dst, mode, align_corners, order}, stream);
  rows_buffer.release();
  blurred_buffer.release();
}

}  // namespace cuda
}  // namespace u8aug
