// resize and crop_and_resize on CUDA: one thread per output byte, pixel/resize.h's
// resize_element (the CPU path's math); boxes are read on the device and clamped by box_window.
#include "cuda/launch.cuh"
#include "u8aug/check.h"
#include "u8aug/pixel/resize.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {
namespace {

__global__ void resize_kernel(ConstImage src, Image dst, const float* boxes, Interp mode,
                              bool align_corners, CropBlendOrders orders) {
  const long long n = dst.batch * dst.channels * dst.height * dst.width;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < n;
       i += 1LL * blockDim.x * gridDim.x) {
    const Index4 k = element_index(dst, i);
    const Window win = boxes ? box_window(boxes + 8 * k.b, src.height, src.width)
                             : Window{0, 0, src.height, src.width};
    resize_element(src, dst, win, mode, align_corners, crop_blend_order(orders, win, src.width), k.b, k.c, k.y, k.x);
  }
}

void run(const char* op, const ConstImage& src, const Image& dst, const float* boxes, Interp mode,
         bool align_corners, CropBlendOrders orders, cudaStream_t stream) {
  detail::check_resampled(op, src, dst);
  detail::check_interp(op, mode, align_corners);
  detail::check_blend_orders(op, orders);
  resize_kernel<<<blocks_for(dst.numel()), kThreads, 0, stream>>>(src, dst, boxes, mode, align_corners, orders);
  check_launch(op);
}

}  // namespace

void resize(const ConstImage& src, const Image& dst, Interp mode, bool align_corners, BlendOrder order,
            cudaStream_t stream) {
  run("resize", src, dst, nullptr, mode, align_corners, {order, order}, stream);
}

void crop_and_resize(const ConstImage& src, const Image& dst, const float* boxes, Interp mode,
                     bool align_corners, CropBlendOrders orders, cudaStream_t stream) {
  if (boxes == nullptr) detail::fail("crop_and_resize", "boxes has a null pointer");
  run("crop_and_resize", src, dst, boxes, mode, align_corners, orders, stream);
}

}  // namespace cuda
}  // namespace u8aug
