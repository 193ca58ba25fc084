// kornia's transformation matrices for the warp classes, float32 operation for operation as
// kornia's tensor code makes them from the drawn parameters, so that the warp samples where
// kornia's float path samples. Each transcendental and each 3x3 product is a function the caller
// passes: the torch extension passes torch's own (bindings/draws.cpp: its results for a value
// depend on the CPU and on how many values one call holds), the C++ API the C library's and a
// plain product. cpu/kornia_matrix.cc is compiled with -ffp-contract=off, as kornia's elementwise
// ops round each operation.
#pragma once

#include <cstdint>

#include "u8aug/kornia_draws.h"

namespace u8aug {

// The elementwise functions and the batched 3x3 products a matrix is made with.
using BatchedProduct3 = void (*)(const float* a, const float* b, int64_t batch, float* out, void* context);
struct MatrixFunctions {
  ExpFunction sin = nullptr, cos = nullptr, tan = nullptr;  // torch.sin, torch.cos, torch.tan in place
  void* context = nullptr;
  BatchedProduct3 product = nullptr;  // a @ b for (batch, 3, 3) row-major matrices
  void* product_context = nullptr;
  // torch.linalg.cross of (batch, 3) rows, and torch's sum(-1) (u8aug/kornia_draws.h)
  BatchedProduct3 cross = nullptr;
  RowSumFunction row_sum = nullptr;
};
// The C library's sinf, cosf and tanf; the product as torch's small-matrix loop runs it (each
// entry's three products summed in order from zero, each rounded); the cross product's terms each
// rounded; torch's order of a short row's sum.
MatrixFunctions c_library_matrix_functions();

// RandomAffine's compute_transformation: kornia.geometry.get_affine_matrix2d(translations, center,
// scale, angle, shear_x * pi / 180, shear_y * pi / 180), (batch, 3, 3) row-major. translations,
// center, scale: (batch, 2); angle (degrees), shear_x, shear_y (degrees): (batch,).
// Scratch: 40 * batch floats.
void kornia_affine_matrix(const float* translations, const float* center, const float* scale, const float* angle,
                          const float* shear_x, const float* shear_y, int64_t batch, const MatrixFunctions& functions,
                          float* scratch, float* out);

// RandomPerspective's compute_transformation: kornia.geometry.get_perspective_transform(start,
// end), its closed form (two unit-square decompositions, the source's inverted by cross products,
// normalized to a last entry of 1): (batch, 3, 3). start, end: (batch, 4, 2). Scratch: 60 * batch.
void kornia_perspective_matrix(const float* start, const float* end, int64_t batch, const MatrixFunctions& functions,
                               float* scratch, float* out);

}  // namespace u8aug
