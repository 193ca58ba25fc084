// RandomRain on CUDA: pixel/rain.h's RainCopyBody, then RainDropBody over every (sample, drop,
// step) up to max(H, W) steps, the longest line a valid draw has. The drawn values stay on the
// device: unlike the CPU's, they are not checked (a position is clamped into the image either way).
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/rain.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void rain(const ConstImage& src, const Image& dst, const RainDrops& drops, cudaStream_t stream) {
  detail::check_rain("rain", src, dst, drops);
  launch_each_index("rain", RainCopyBody{src, dst}, stream);
  launch_each_index("rain", RainDropBody{drops, dst, src.height > src.width ? src.height : src.width}, stream);
}

}  // namespace cuda
}  // namespace u8aug
