// Erasing rectangles on CUDA: pixel/erase.h's EraseBody, one thread per element. The boxes and
// values stay on the device: their values are not checked.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/erase.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void erase_boxes(const ConstImage& src, const Image& dst, Boxes boxes, Samples values, cudaStream_t stream) {
  detail::check_erase("erase_boxes", src, dst, boxes, values);
  launch_each_index("erase_boxes", EraseBody{src, dst, boxes, values}, stream);
}

}  // namespace cuda
}  // namespace u8aug
