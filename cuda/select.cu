// select_samples on CUDA: pixel/select.h's SelectBody, one thread per output byte.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/select.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void select_samples(const bool* take, const ConstImage& a, const ConstImage& b, const Image& dst, cudaStream_t stream) {
  detail::check_select("select_samples", take, a, b, dst);
  launch_each_index("select_samples", SelectBody{take, a, b, dst}, stream);
}

}  // namespace cuda
}  // namespace u8aug
