// Batch mixes on CUDA: pixel/mix.h's MixUpBody and PasteBody, one thread per output byte. Pair and
// source indices on the device are not read back: one outside the batch reads the sample itself.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/mix.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void mix_up(const ConstImage& src, const Image& dst, const MixUpParams& p, cudaStream_t stream) {
  detail::check_mix_up("mix_up", src, dst, p);
  launch_each_index("mix_up", MixUpBody{src, dst, p}, stream);
}

void paste_boxes(const ConstImage& src, const Image& dst, const PasteParams& p, cudaStream_t stream) {
  detail::check_paste("paste_boxes", src, dst, p);
  launch_each_index("paste_boxes", PasteBody{src, dst, p}, stream);
}

}  // namespace cuda
}  // namespace u8aug
