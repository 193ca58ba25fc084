// resize and crop_and_resize on CUDA: pixel/resize.h's ResizeBody, one thread per output byte;
// boxes are read on the device and clamped by box_window.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
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

}  // namespace cuda
}  // namespace u8aug
