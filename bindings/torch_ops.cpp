// The torch schemas of every op, from the op catalogue.
#include <torch/csrc/stable/library.h>

STABLE_TORCH_LIBRARY(u8aug, m) {
#define U8AUG_OP(name, schema, kornia, fidelity, fast, summary) m.def(schema);
#include "u8aug/ops.def"
#undef U8AUG_OP
  // helper ops outside the image-op catalogue (bindings/op_impls_filters.inc)
  m.def("plasma_level(Tensor grid, Tensor scale, Tensor draws) -> Tensor");
  // kornia's RandomResizedCrop boxes from its draws (bindings/draws.cpp)
  m.def(
      "resized_crop_boxes(Tensor area, Tensor aspect, Tensor x, Tensor y, Tensor size, float scale_low, "
      "float scale_span, float ratio_min, float ratio_max, int out_height, int out_width) -> Tensor");
  // torch.rand's numbers from the CPU generator's state bytes, advanced in place (bindings/draws.cpp)
  m.def("torch_uniform(Tensor(a!) state, int count) -> Tensor");
  // kornia's forward_parameters for a chain, from the CPU generator's state bytes, advanced in place
  // (u8aug/kornia_draws.h, bindings/draws.cpp)
  m.def("kornia_draws(Tensor(a!) state, str[] program, Tensor numbers, Tensor bounds, int[] shape) -> Tensor[]");
  // kornia.filters.get_gaussian_kernel1d for a (B, 1) or (B,) sigma on the CPU (u8aug/kornia_draws.h,
  // bindings/kornia_math.cpp)
  m.def("gaussian_kernel1d(Tensor sigma, int size) -> Tensor");
  // RandomAffine's matrix from its params (u8aug/kornia_matrix.h, bindings/kornia_math.cpp)
  m.def(
      "kornia_affine_matrix(Tensor translations, Tensor center, Tensor scale, Tensor angle, Tensor shear_x, "
      "Tensor shear_y) -> Tensor");
  // RandomPerspective's matrix from its params (u8aug/kornia_matrix.h, bindings/kornia_math.cpp)
  m.def("kornia_perspective_matrix(Tensor start_points, Tensor end_points) -> Tensor");
}
