// The pybind11 module u8aug._C_cuda: loading it registers the CUDA implementations of the torch ops
// (torch_cuda.cpp). It is separate from u8aug._C so that the core loads on a torch without CUDA;
// python/u8aug/_cuda_backend.py imports it on a torch built with CUDA. Its copy of the measured
// torch rules is set here as _C's is (bindings/torch_rules.h). No torch headers here.
#include <pybind11/pybind11.h>

#include "bindings/module_rules.h"

namespace py = pybind11;

PYBIND11_MODULE(_C_cuda, m) {
  m.doc() = "u8aug's CUDA backend: the CUDA implementations of the torch ops are registered when this module loads";

  // what python/u8aug's build_info() adds to the core's: whether this backend holds kernels
  m.def("build_info", [] {
    py::dict d;
#ifdef U8AUG_WITH_CUDA
    d["torch_ops_cuda"] = true;
#else
    d["torch_ops_cuda"] = false;
#endif
    return d;
  });

  u8aug::bindings::def_set_torch_rules(m);
}
