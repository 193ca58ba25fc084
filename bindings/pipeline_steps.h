// The pipeline op's steps, one list for the C++ parse (bindings/pipeline.inc), the Python fake and
// the fused container's planner (both read it through u8aug._C.pipeline_steps()). A step is an op of
// the catalogue: its name, then that op's arguments after img in the catalogue's order (ops.def),
// each tensor argument taken from the pipeline's tensors (an empty tensor for an absent optional
// one) and every other argument written as words (int[N]: N integers; bool: 0 or 1). A gated step
// (one kornia may skip for some samples) takes kornia's gate, a bool (B,) tensor or an empty one
// for every sample, before its own tensors. No torch header: module.cpp includes it too.
#pragma once

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace u8aug {
namespace bindings {

struct PipelineStepKind {
  std::string_view op;  // its length known: a step's name is looked up by length first
  bool gated;
};

inline constexpr PipelineStepKind kPipelineSteps[] = {
    {"hflip", true},
    {"vflip", true},
    {"invert", true},
    {"grayscale", true},
    {"equalize", true},
    {"auto_contrast", true},
    {"adjust_brightness", true},
    {"adjust_brightness_accumulative", true},
    {"adjust_contrast", true},
    {"posterize", true},
    {"sharpness", true},
    {"adjust_gamma", true},
    {"solarize", true},
    {"adjust_saturation", true},
    {"adjust_hue", true},
    {"color_jiggle", true},
    {"color_jitter", true},
    {"warp_affine", true},
    {"warp_perspective", true},
    {"filter2d_separable", true},
    {"filter2d", true},
    {"median_blur", true},
    {"box_blur_pooled", true},
    {"snow", true},
    {"rain", true},
    {"plasma_brightness", true},
    {"plasma_contrast", true},
    {"plasma_shadow", true},
    {"add_offset", true},
    {"erase_boxes", true},
    {"resize", false},
    {"crop_and_resize", false},
    {"pad", false},
    {"normalize", false},  // the last step only: the output is float32
};

inline const PipelineStepKind* pipeline_step_kind(std::string_view op) {
  for (const PipelineStepKind& k : kPipelineSteps) {
    if (op == k.op) return &k;
  }
  return nullptr;
}

// One argument of an op's schema: its type as written ("Tensor", "Tensor?", "int[2]", "str", ...)
// and its name.
struct SchemaArgument {
  std::string type, name;
};

// The arguments after img of the catalogue op `op`, read from its schema in ops.def; empty for an
// op the catalogue lacks.
inline std::vector<SchemaArgument> step_arguments(const std::string& op) {
  const char* schema = nullptr;
#define U8AUG_OP(name, text, kornia, fidelity, fast, summary) \
  if (op == #name) schema = text;
#include "u8aug/ops.def"
#undef U8AUG_OP
  std::vector<SchemaArgument> out;
  if (schema == nullptr) return out;
  const char* open = std::strchr(schema, '(');
  const char* close = std::strrchr(schema, ')');
  const std::string inside(open + 1, close);
  size_t start = 0;
  bool first = true;
  while (start < inside.size()) {
    size_t end = inside.find(',', start);
    if (end == std::string::npos) end = inside.size();
    std::string arg = inside.substr(start, end - start);
    start = end + 1;
    arg = arg.substr(arg.find_first_not_of(' '));
    const size_t space = arg.find(' ');
    const std::string type = arg.substr(0, space);
    std::string name = arg.substr(space + 1);
    name = name.substr(0, name.find('='));
    if (first) {  // img
      first = false;
      continue;
    }
    out.push_back(SchemaArgument{type, name});
  }
  return out;
}

}  // namespace bindings
}  // namespace u8aug
