// pad and rot90 on CUDA: pixel/index_maps.h's PadBody and Rot90Body, one thread per output byte.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/index_maps.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void pad(const ConstImage& src, const Image& dst, const PadSpec& spec, cudaStream_t stream) {
  detail::check_pad("pad", src, dst, spec);
  launch_each_index("pad", PadBody{src, dst, spec}, stream);
}

void rot90(const ConstImage& src, const Image& dst, int k, cudaStream_t stream) {
  detail::check_rot90("rot90", src, dst, k);
  launch_each_index("rot90", Rot90Body{src, dst, ((k % 4) + 4) % 4}, stream);
}

}  // namespace cuda
}  // namespace u8aug
