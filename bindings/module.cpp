// The pybind11 module u8aug._C. Loading it registers the torch ops (torch_ops.cpp and the
// TORCH_LIBRARY_IMPL files are linked into it); it also answers build_info() and catalogue().
// No torch headers here: only plain values cross this boundary.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "u8aug/u8aug.h"

namespace py = pybind11;

PYBIND11_MODULE(_C, m) {
  m.doc() = "u8aug's compiled core: torch ops are registered when this module loads";

  m.def("build_info", [] {
    const u8aug::BuildInfo info = u8aug::build_info();
    py::dict d;
    d["version"] = info.version;
    d["cpu_targets_compiled"] = info.cpu_targets_compiled;
    d["cpu_targets_supported"] = info.cpu_targets_supported;
    d["cpu_target_chosen"] = info.cpu_target_chosen;
    d["cuda"] = info.cuda;
    d["cuda_architectures"] = info.cuda_architectures;
    d["torch_built_against"] = U8AUG_TORCH_VERSION;
#ifdef U8AUG_WITH_CUDA
    d["torch_ops_cuda"] = true;
#else
    d["torch_ops_cuda"] = false;
#endif
    return d;
  });

  m.def("catalogue", [] {
    py::list ops;
#define U8AUG_OP(name, schema, kornia, fidelity, summary)                              \
  ops.append(py::dict(py::arg("name") = #name, py::arg("schema") = schema,              \
                      py::arg("kornia") = kornia, py::arg("fidelity") = fidelity,       \
                      py::arg("summary") = summary));
#include "u8aug/ops.def"
#undef U8AUG_OP
    return ops;
  });
}
