// torch's own functions for kornia's draws and matrices (u8aug/kornia_draws.h, u8aug/kornia_matrix.h),
// called through torch's dispatcher: their results depend on the CPU and on a call's size, so the
// native code asks torch itself. bindings/kornia_math.cpp; draws_of: bindings/draws.cpp.
#pragma once

#include <cstdint>

#include "bindings/tensor_image.h"
#include "u8aug/kornia_matrix.h"

namespace u8aug {
namespace bindings {

// float32, contiguous, on the CPU, of the given shape: its data (a clear error otherwise)
const float* draws_of(const char* op, const char* name, const Tensor& t, IntList shape);

// kornia.filters.get_gaussian_kernel1d(size, sigma) for a (B, 1) or (B,) float32 CPU sigma: (B, size)
Tensor gaussian_kernel1d(const Tensor& sigma, int64_t size);

// u8aug/kornia_draws.h's ExpFunction: torch.exp in place, on per-thread scratch (the context is unused)
void torch_exp(float* values, int64_t n, void* context);

}  // namespace bindings
}  // namespace u8aug
