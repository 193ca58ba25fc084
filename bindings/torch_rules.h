// What u8aug measured of the running torch when it loaded (python/u8aug/_torch_rules.py): the
// internal float32 choices that torch versions make differently and that the oracle depends on.
// A module built once serves several torch versions, so these are read at run time, not compiled in.
#pragma once

#include <atomic>

namespace u8aug {
namespace bindings {

struct TorchRules {
  // Whether torch's generic CPU bilinear interpolate kernel computes the align_corners=False
  // source index as one fused multiply-add (torch 2.11) or rounds after the multiply (2.15).
  std::atomic<bool> generic_bilinear_fuses_index{true};
  // Whether torch's bicubic grid_sample with reflection padding sums a row's four taps as one chain
  // of fused multiply-adds (torch 2.11) or as its other paddings do (2.15; pixel/cubic.h).
  std::atomic<bool> bicubic_reflection_chains{false};
};

inline TorchRules& torch_rules() {
  static TorchRules rules;
  return rules;
}

}  // namespace bindings
}  // namespace u8aug
