// The pybind11 module u8aug._C. Loading it registers the torch ops and their CPU implementations
// (torch_ops.cpp, torch_cpu.cpp; the CUDA ones are the module u8aug._C_cuda, module_cuda.cpp); it
// also answers build_info() and catalogue(), and sets the output cache. No torch headers here: only
// plain values cross this boundary.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/module_rules.h"
#include "bindings/output_cache.h"
#include "bindings/pipeline_steps.h"
#include "bindings/torch_rules.h"
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
    d["cpu_target_requested"] = info.cpu_target_requested;
    d["cuda"] = info.cuda;
    d["cuda_architectures"] = info.cuda_architectures;
    d["highway_runtime"] = info.highway_runtime;
    d["torch_built_against"] = U8AUG_TORCH_VERSION;
    d["torch_oldest_supported"] = U8AUG_TORCH_OLDEST;
    py::dict rules;
    rules["generic_bilinear_fuses_index"] = u8aug::bindings::torch_rules().generic_bilinear_fuses_index.load();
    rules["bicubic_reflection_chains"] = u8aug::bindings::torch_rules().bicubic_reflection_chains.load();
    d["torch_rules"] = rules;
    return d;
  });

  // Set once at import by python/u8aug/_torch_rules.py, from what it measured of the running torch.
  u8aug::bindings::def_set_torch_rules(m);

  m.def("set_cpu_target", &u8aug::set_cpu_target, py::arg("name"));

  m.def("output_cache_info", [] {
    const u8aug::bindings::OutputCacheInfo info = u8aug::bindings::output_cache_info();
    py::dict d;
    d["limit_bytes"] = info.limit_bytes;
    d["cached_bytes"] = info.cached_bytes;
    d["cached_buffers"] = info.cached_buffers;
    d["reused"] = info.reused;
    d["allocated"] = info.allocated;
    return d;
  });
  m.def("set_output_cache_limit", &u8aug::bindings::set_output_cache_limit, py::arg("limit_bytes"));

  // the pipeline op's steps and whether each takes kornia's gate (pipeline_steps.h)
  m.def("pipeline_steps", [] {
    py::dict steps;
    for (const auto& k : u8aug::bindings::kPipelineSteps) steps[pybind11::str(k.op.data(), k.op.size())] = k.gated;
    return steps;
  });

  m.def("catalogue", [] {
    py::list ops;
#define U8AUG_OP(name, schema, kornia, fidelity, fast, summary)                                        \
  ops.append(py::dict(py::arg("name") = #name, py::arg("schema") = schema, py::arg("kornia") = kornia, \
                      py::arg("fidelity") = fidelity, py::arg("fast") = fast, py::arg("summary") = summary));
#include "u8aug/ops.def"
#undef U8AUG_OP
    return ops;
  });
}
