// Float32 maps on CUDA: pixel/offset.h's AddOffsetBody and PlasmaBody, one thread per element.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/offset.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void add_offset(const ConstImage& src, const OffsetImage& offset, const Image& dst, cudaStream_t stream) {
  detail::check_offset("add_offset", src, offset, dst);
  launch_each_index("add_offset", AddOffsetBody{src, offset, dst}, stream);
}

void plasma(const ConstImage& src, const OffsetImage& plasma, const PlasmaParams& params, const Image& dst,
            cudaStream_t stream) {
  detail::check_plasma("plasma", src, plasma, params, dst);
  launch_each_index("plasma", PlasmaBody{src, plasma, params, dst}, stream);
}

}  // namespace cuda
}  // namespace u8aug
