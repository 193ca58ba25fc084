// kornia.enhance.sharpness on CUDA: pixel/sharpness.h's SharpnessBody, one thread per element (each
// tap one fmaf as on the CPU). The factors stay on the device: their values are not checked.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/sharpness.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void sharpness(const ConstImage& src, const Image& dst, Samples factor, cudaStream_t stream) {
  detail::check_sharpness("sharpness", src, dst, factor);
  launch_each_index("sharpness", SharpnessBody{src, dst, factor}, stream);
}

}  // namespace cuda
}  // namespace u8aug
