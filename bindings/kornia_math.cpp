// Helper ops outside the image-op catalogue: kornia's numbers computed from its draws, natively with
// torch's own functions (bindings/kornia_math.h): the blur's Gaussian kernel and the warps' matrices
// (u8aug/kornia_draws.h, u8aug/kornia_matrix.h). CPU only, as kornia draws on the CPU.
#include "bindings/kornia_math.h"

#include <torch/csrc/stable/library.h>

#include <array>
#include <cstring>
#include <optional>
#include <vector>

#include "u8aug/u8aug.h"

namespace u8aug {
namespace bindings {
namespace {

// torch's elementwise `op` ("aten::exp", "aten::sin", ...), called through torch's dispatcher, on n
// float32 values in place (u8aug/kornia_draws.h: torch's result depends on the CPU and the call's
// size, so the draw asks torch itself). Its out= overload on aligned per-thread scratch: the same
// structured kernel as torch.exp(x), without allocating its input and output on every call.
void torch_unary(const char* op, float* values, int64_t n) {
  thread_local Scratch in_scratch, out_scratch;
  float* in_data = in_scratch.get<float>(n);
  float* out_data = out_scratch.get<float>(n);
  std::memcpy(in_data, values, sizeof(float) * static_cast<size_t>(n));
  const Tensor in = cpu_view(in_data, n, ScalarType::Float), out = cpu_view(out_data, n, ScalarType::Float);
  std::array<StableIValue, 2> stack{torch::stable::detail::from(in), torch::stable::detail::from(out)};
  shim(torch_call_dispatcher(op, "out", stack.data(), TORCH_ABI_VERSION), op);
  const Tensor result = torch::stable::detail::to<Tensor>(stack[0]);
  check(result.data_ptr() == out_data, "u8aug: ", op, ".out gave an unexpected tensor");
  std::memcpy(values, out_data, sizeof(float) * static_cast<size_t>(n));
}

void torch_sin(float* values, int64_t n, void*) { torch_unary("aten::sin", values, n); }
void torch_cos(float* values, int64_t n, void*) { torch_unary("aten::cos", values, n); }
void torch_tan(float* values, int64_t n, void*) { torch_unary("aten::tan", values, n); }

// torch's a @ b for (batch, 3, 3) float32 matrices (torch.bmm, through the dispatcher)
void torch_product3(const float* a, const float* b, int64_t batch, float* out, void* context) {
  const Tensor& like = *static_cast<const Tensor*>(context);
  const Tensor x = empty_float("kornia_affine_matrix", like, {batch, 3, 3});
  const Tensor y = empty_float("kornia_affine_matrix", like, {batch, 3, 3});
  std::memcpy(x.data_ptr(), a, sizeof(float) * static_cast<size_t>(9 * batch));
  std::memcpy(y.data_ptr(), b, sizeof(float) * static_cast<size_t>(9 * batch));
  std::array<StableIValue, 2> stack{torch::stable::detail::from(x), torch::stable::detail::from(y)};
  shim(torch_call_dispatcher("aten::bmm", "", stack.data(), TORCH_ABI_VERSION), "run torch.bmm");
  const Tensor z = torch::stable::detail::to<Tensor>(stack[0]);
  check(z.is_contiguous() && z.scalar_type() == ScalarType::Float && z.numel() == 9 * batch,
        "u8aug.kornia_affine_matrix: torch.bmm gave an unexpected tensor");
  std::memcpy(out, z.data_ptr(), sizeof(float) * static_cast<size_t>(9 * batch));
}

// torch.linalg.cross of (batch, 3) float32 rows (through the dispatcher)
void torch_cross3(const float* a, const float* b, int64_t batch, float* out, void* context) {
  const Tensor& like = *static_cast<const Tensor*>(context);
  const Tensor x = empty_float("kornia_perspective_matrix", like, {batch, 3});
  const Tensor y = empty_float("kornia_perspective_matrix", like, {batch, 3});
  std::memcpy(x.data_ptr(), a, sizeof(float) * static_cast<size_t>(3 * batch));
  std::memcpy(y.data_ptr(), b, sizeof(float) * static_cast<size_t>(3 * batch));
  std::array<StableIValue, 3> stack{torch::stable::detail::from(x), torch::stable::detail::from(y),
                                    torch::stable::detail::from(int64_t{-1})};
  shim(torch_call_dispatcher("aten::linalg_cross", "", stack.data(), TORCH_ABI_VERSION), "run torch.linalg.cross");
  const Tensor z = torch::stable::detail::to<Tensor>(stack[0]);
  check(z.is_contiguous() && z.scalar_type() == ScalarType::Float && z.numel() == 3 * batch,
        "u8aug.kornia_perspective_matrix: torch.linalg.cross gave an unexpected tensor");
  std::memcpy(out, z.data_ptr(), sizeof(float) * static_cast<size_t>(3 * batch));
}

// torch's sum(-1) of a (rows, size) float32 tensor, called through torch's dispatcher (its order of
// additions depends on the row's length and the CPU's vector width).
void torch_row_sum(const float* values, int64_t rows, int64_t size, float* sums, void* context) {
  const Tensor& like = *static_cast<const Tensor*>(context);
  const Tensor in = empty_float("gaussian_kernel1d", like, {rows, size});
  std::memcpy(in.data_ptr(), values, sizeof(float) * static_cast<size_t>(rows * size));
  std::array<StableIValue, 4> stack{
      torch::stable::detail::from(in),
      torch::stable::detail::from(std::optional<std::vector<int64_t>>(std::vector<int64_t>{-1})),
      torch::stable::detail::from(false), torch::stable::detail::from(std::optional<ScalarType>())};
  shim(torch_call_dispatcher("aten::sum", "dim_IntList", stack.data(), TORCH_ABI_VERSION), "run torch.sum");
  const Tensor out = torch::stable::detail::to<Tensor>(stack[0]);
  check(out.is_contiguous() && out.scalar_type() == ScalarType::Float && out.numel() == rows,
        "u8aug.gaussian_kernel1d: torch.sum gave an unexpected tensor");
  std::memcpy(sums, out.data_ptr(), sizeof(float) * static_cast<size_t>(rows));
}

MatrixFunctions torch_matrix_functions(Tensor* like) {
  MatrixFunctions f;
  f.sin = torch_sin, f.cos = torch_cos, f.tan = torch_tan, f.context = like;
  f.product = torch_product3, f.product_context = like;
  f.cross = torch_cross3, f.row_sum = torch_row_sum;
  return f;
}

// RandomPerspective's matrix from its params (u8aug/kornia_matrix.h), with torch's cross, sum and
// bmm: (B, 3, 3) float32. start_points, end_points: (B, 4, 2) float32 CPU.
Tensor kornia_perspective_matrix(const Tensor& start_points, const Tensor& end_points) {
  const char* op = "kornia_perspective_matrix";
  check(start_points.defined() && start_points.dim() == 3 && start_points.size(0) >= 1, "u8aug.", op,
        ": expected start_points of shape (B, 4, 2) with B >= 1, got ",
        start_points.defined() ? Shape{start_points.sizes()} : Shape{});
  const int64_t b = start_points.size(0);
  const float* start = draws_of(op, "start_points", start_points, {b, 4, 2});
  const float* end = draws_of(op, "end_points", end_points, {b, 4, 2});
  const Tensor out = empty_float(op, start_points, {b, 3, 3});
  Tensor like = start_points;
  std::vector<float> scratch(static_cast<size_t>(60 * b));
  u8aug::kornia_perspective_matrix(start, end, b, torch_matrix_functions(&like), scratch.data(),
                                   static_cast<float*>(out.data_ptr()));
  return out;
}

// RandomAffine's matrix from its params (u8aug/kornia_matrix.h), with torch's sin, cos, tan and bmm:
// (B, 3, 3) float32. translations, center, scale (B, 2); angle, shear_x, shear_y (B,); float32 CPU.
Tensor kornia_affine_matrix(const Tensor& translations, const Tensor& center, const Tensor& scale, const Tensor& angle,
                            const Tensor& shear_x, const Tensor& shear_y) {
  const char* op = "kornia_affine_matrix";
  check(angle.defined() && angle.dim() == 1 && angle.size(0) >= 1, "u8aug.", op,
        ": expected angle of shape (B,) with B >= 1, got ", angle.defined() ? Shape{angle.sizes()} : Shape{});
  const int64_t b = angle.size(0);
  const float* t = draws_of(op, "translations", translations, {b, 2});
  const float* c = draws_of(op, "center", center, {b, 2});
  const float* s = draws_of(op, "scale", scale, {b, 2});
  const float* a = draws_of(op, "angle", angle, {b});
  const float* sx = draws_of(op, "shear_x", shear_x, {b});
  const float* sy = draws_of(op, "shear_y", shear_y, {b});
  const Tensor out = empty_float(op, angle, {b, 3, 3});
  Tensor like = angle;
  std::vector<float> scratch(static_cast<size_t>(40 * b));
  u8aug::kornia_affine_matrix(t, c, s, a, sx, sy, b, torch_matrix_functions(&like), scratch.data(),
                              static_cast<float*>(out.data_ptr()));
  return out;
}

}  // namespace

// kornia.filters.get_gaussian_kernel1d(size, sigma) for a (B, 1) or (B,) float32 CPU sigma: (B, size)
// float32, with torch's own exp and sum (u8aug/kornia_draws.h).
Tensor gaussian_kernel1d(const Tensor& sigma, int64_t size) {
  const char* op = "gaussian_kernel1d";
  check(sigma.defined() && (sigma.dim() == 1 || (sigma.dim() == 2 && sigma.size(1) == 1)), "u8aug.", op,
        ": expected sigma of shape (B, 1) or (B,), got ", sigma.defined() ? Shape{sigma.sizes()} : Shape{});
  const int64_t b = sigma.size(0);
  check(b >= 1, "u8aug.", op, ": expected at least one sigma");
  const float* s = sigma.dim() == 1 ? draws_of(op, "sigma", sigma, {b}) : draws_of(op, "sigma", sigma, {b, 1});
  check(size >= 1 && size <= 4096, "u8aug.", op, ": expected a kernel size in [1, 4096], got ", size);
  const Tensor out = empty_float(op, sigma, {b, size});
  std::vector<float> sums(static_cast<size_t>(b));
  Tensor like = sigma;
  kornia_gaussian_kernel1d(s, b, size, torch_exp, &like, torch_row_sum, &like, sums.data(),
                           static_cast<float*>(out.data_ptr()));
  return out;
}

void torch_exp(float* values, int64_t n, void*) { torch_unary("aten::exp", values, n); }

}  // namespace bindings
}  // namespace u8aug

STABLE_TORCH_LIBRARY_IMPL(u8aug, CPU, m) {
  m.impl("gaussian_kernel1d", TORCH_BOX(&u8aug::bindings::gaussian_kernel1d));
  m.impl("kornia_affine_matrix", TORCH_BOX(&u8aug::bindings::kornia_affine_matrix));
  m.impl("kornia_perspective_matrix", TORCH_BOX(&u8aug::bindings::kornia_perspective_matrix));
}
