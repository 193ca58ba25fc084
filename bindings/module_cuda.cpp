// The pybind11 module u8aug._C_cuda: loading it registers the CUDA implementations of the torch ops
// (torch_cuda.cpp). It is separate from u8aug._C so that the core loads on a torch without CUDA;
// python/u8aug/_cuda_backend.py imports it on a torch built with CUDA. Its copy of the measured
// torch rules is set here as _C's is (bindings/torch_rules.h). No torch headers here.
#include <pybind11/pybind11.h>

#include "bindings/torch_rules.h"
#include "u8aug/u8aug.h"

namespace py = pybind11;

PYBIND11_MODULE(_C_cuda, m) {
  m.doc() = "u8aug's CUDA backend: the CUDA implementations of the torch ops are registered when this module loads";

  m.def("build_info", [] {
    const u8aug::BuildInfo info = u8aug::build_info();
    py::dict d;
    d["cuda"] = info.cuda;
    d["cuda_architectures"] = info.cuda_architectures;
#ifdef U8AUG_WITH_CUDA
    d["torch_ops_cuda"] = true;
#else
    d["torch_ops_cuda"] = false;
#endif
    return d;
  });

  m.def(
      "_set_torch_rules",
      [](bool generic_bilinear_fuses_index, bool bicubic_reflection_chains) {
        u8aug::bindings::torch_rules().generic_bilinear_fuses_index = generic_bilinear_fuses_index;
        u8aug::bindings::torch_rules().bicubic_reflection_chains = bicubic_reflection_chains;
      },
      py::arg("generic_bilinear_fuses_index"), py::arg("bicubic_reflection_chains"));
}
