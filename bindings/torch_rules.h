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
};

inline TorchRules& torch_rules() {
  static TorchRules rules;
  return rules;
}

}  // namespace bindings
}  // namespace u8aug
