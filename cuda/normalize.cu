// normalize and to_float on CUDA: pixel/normalize.h's NormalizeBody, one thread per output float.
// -fmad=false keeps the divisions and the subtraction separately rounded, as on the CPU.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/normalize.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void normalize(const ConstImage& src, const FloatImage& dst, PerChannel mean, PerChannel std, cudaStream_t stream) {
  detail::check_unary("normalize", src, dst);
  detail::check_samples("normalize", "mean", mean, src.channels, "C");
  detail::check_samples("normalize", "std", std, src.channels, "C");
  launch_each_index("normalize", NormalizeBody{src, dst, mean, std}, stream);
}

void to_float(const ConstImage& src, const FloatImage& dst, cudaStream_t stream) {
  detail::check_unary("to_float", src, dst);
  launch_each_index("to_float", NormalizeBody{src, dst, {}, {}}, stream);
}

}  // namespace cuda
}  // namespace u8aug
