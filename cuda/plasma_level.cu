// plasma_level on CUDA: pixel/plasma_level.h's PlasmaLevelBody, a thread an output cell.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/plasma_level.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void plasma_level(const PlasmaLevel& level, cudaStream_t stream) {
  detail::check_plasma_level("plasma_level", level);
  launch_each_index("plasma_level", PlasmaLevelBody{level}, stream);
}

}  // namespace cuda
}  // namespace u8aug
