// kornia's matrices (u8aug/kornia_matrix.h): each float32 step the operation kornia's tensor op
// performs, in kornia's order; compiled with -ffp-contract=off.
#include "u8aug/kornia_matrix.h"

#include <cmath>

namespace u8aug {

namespace {

void c_sin(float* v, int64_t n, void*) {
  for (int64_t i = 0; i < n; ++i) v[i] = std::sin(v[i]);
}
void c_cos(float* v, int64_t n, void*) {
  for (int64_t i = 0; i < n; ++i) v[i] = std::cos(v[i]);
}
void c_tan(float* v, int64_t n, void*) {
  for (int64_t i = 0; i < n; ++i) v[i] = std::tan(v[i]);
}

void plain_product(const float* a, const float* b, int64_t batch, float* out, void*) {
  for (int64_t m = 0; m < batch; ++m) {
    const float* x = a + 9 * m;
    const float* y = b + 9 * m;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < 3; ++k) acc += x[3 * i + k] * y[3 * k + j];
        out[9 * m + 3 * i + j] = acc;
      }
  }
}

// (batch, 3, 3) identities
void identities(int64_t batch, float* m) {
  for (int64_t b = 0; b < batch; ++b)
    for (int i = 0; i < 9; ++i) m[9 * b + i] = i % 4 == 0 ? 1.0f : 0.0f;
}

// kornia.geometry.conversions.deg2rad: tensor * (math.pi / 180.0), the Python float taken as float32
constexpr float kDegreesToRadians = static_cast<float>(3.14159265358979323846 / 180.0);

}  // namespace

MatrixFunctions c_library_matrix_functions() {
  MatrixFunctions f;
  f.sin = c_sin, f.cos = c_cos, f.tan = c_tan;
  f.product = plain_product;
  return f;
}

void kornia_affine_matrix(const float* translations, const float* center, const float* scale, const float* angle,
                          const float* shear_x, const float* shear_y, int64_t batch, const MatrixFunctions& f,
                          float* scratch, float* out) {
  const int64_t n = batch;
  float* shift = scratch;
  float* rotation = shift + 9 * n;
  float* scaling = rotation + 9 * n;
  float* work = scaling + 9 * n;  // 9 n, then reused for the shear
  float* cos_a = work + 9 * n;
  float* sin_a = cos_a + n;
  float* tan_x = sin_a + n;
  float* tan_y = tan_x + n;
  // get_rotation_matrix2d(center, -angle, scale): shift @ rotation @ scale @ shift back
  for (int64_t b = 0; b < n; ++b) cos_a[b] = sin_a[b] = (-angle[b]) * kDegreesToRadians;
  f.cos(cos_a, n, f.context);
  f.sin(sin_a, n, f.context);
  identities(n, shift);
  identities(n, rotation);
  identities(n, scaling);
  for (int64_t b = 0; b < n; ++b) {
    shift[9 * b + 2] = center[2 * b], shift[9 * b + 5] = center[2 * b + 1];
    float* r = rotation + 9 * b;
    r[0] = cos_a[b], r[1] = sin_a[b], r[3] = -sin_a[b], r[4] = cos_a[b];
    scaling[9 * b] = 1.0f * scale[2 * b], scaling[9 * b + 4] = 1.0f * scale[2 * b + 1];
  }
  f.product(shift, rotation, n, work, f.product_context);
  f.product(work, scaling, n, rotation, f.product_context);
  for (int64_t b = 0; b < n; ++b) shift[9 * b + 2] = -center[2 * b], shift[9 * b + 5] = -center[2 * b + 1];
  f.product(rotation, shift, n, scaling, f.product_context);  // the rotation matrix, (n, 3, 3)
  // [..., 2] += translations; the homography's last row (0, 0, 0 + 1)
  for (int64_t b = 0; b < n; ++b) {
    float* m = scaling + 9 * b;
    m[2] = m[2] + translations[2 * b], m[5] = m[5] + translations[2 * b + 1];
    m[6] = 0.0f, m[7] = 0.0f, m[8] = 1.0f;
  }
  // get_shear_matrix2d(center, sx, sy), the shear angles in radians as compute_transformation makes them
  for (int64_t b = 0; b < n; ++b) tan_x[b] = shear_x[b] * kDegreesToRadians, tan_y[b] = shear_y[b] * kDegreesToRadians;
  f.tan(tan_x, n, f.context);
  f.tan(tan_y, n, f.context);
  for (int64_t b = 0; b < n; ++b) {
    const float x = center[2 * b], y = center[2 * b + 1], tx = tan_x[b], ty = tan_y[b];
    float* s = work + 9 * b;
    s[0] = 1.0f, s[1] = -tx, s[2] = tx * y;
    s[3] = -ty, s[4] = 1.0f + tx * ty, s[5] = ty * (x - tx * y);
    s[6] = 0.0f, s[7] = 0.0f, s[8] = 1.0f;
  }
  f.product(scaling, work, n, out, f.product_context);
}

}  // namespace u8aug
