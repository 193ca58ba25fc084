#include <hwy/highway.h>
#include <hwy/targets.h>

#include "cpu/targets.h"
#include "u8aug/u8aug.h"

#ifndef U8AUG_VERSION
#error "U8AUG_VERSION is set by CMake"
#endif
#ifndef U8AUG_HWY_RUNTIME
#error "U8AUG_HWY_RUNTIME is set by CMake"
#endif

namespace u8aug {

BuildInfo build_info() {
  BuildInfo info;
  info.version = U8AUG_VERSION;
  for (int64_t t = HWY_TARGETS; t != 0; t &= t - 1) {
    const int64_t bit = t & ~(t - 1);
    info.cpu_targets_compiled.emplace_back(hwy::TargetName(bit));
  }
  for (int64_t t = cpu_targets_supported_mask(); t != 0; t &= t - 1) {
    info.cpu_targets_supported.emplace_back(hwy::TargetName(t & ~(t - 1)));
  }
  info.cpu_target_chosen = cpu::dispatched_target_name();
  info.cpu_target_requested = cpu_target_requested();
  info.highway_runtime = U8AUG_HWY_RUNTIME;
#ifdef U8AUG_WITH_CUDA
  info.cuda = true;
  info.cuda_architectures = U8AUG_CUDA_ARCHITECTURES;
#endif
  return info;
}

}  // namespace u8aug
