// What both pybind11 modules, u8aug._C and u8aug._C_cuda, define alike: each holds its own copy of
// the measured torch rules (torch_rules.h), which python/u8aug sets in both at import.
#pragma once

#include <pybind11/pybind11.h>

#include "bindings/torch_rules.h"

namespace u8aug {
namespace bindings {

inline void def_set_torch_rules(pybind11::module_& m) {
  m.def(
      "_set_torch_rules",
      [](bool generic_bilinear_fuses_index, bool bicubic_reflection_chains) {
        torch_rules().generic_bilinear_fuses_index = generic_bilinear_fuses_index;
        torch_rules().bicubic_reflection_chains = bicubic_reflection_chains;
      },
      pybind11::arg("generic_bilinear_fuses_index"), pybind11::arg("bicubic_reflection_chains"));
}

}  // namespace bindings
}  // namespace u8aug
