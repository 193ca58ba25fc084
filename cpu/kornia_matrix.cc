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

void plain_cross(const float* a, const float* b, int64_t batch, float* out, void*) {
  for (int64_t m = 0; m < batch; ++m) {
    const float* x = a + 3 * m;
    const float* y = b + 3 * m;
    out[3 * m] = x[1] * y[2] - x[2] * y[1];
    out[3 * m + 1] = x[2] * y[0] - x[0] * y[2];
    out[3 * m + 2] = x[0] * y[1] - x[1] * y[0];
  }
}

// kornia's _unit_square_to_quad: the matrix taking the unit square's corners to the quad's
void unit_square_to_quad(const float* p, float* m) {
  const float x0 = p[0], y0 = p[1], x1 = p[2], y1 = p[3], x2 = p[4], y2 = p[5], x3 = p[6], y3 = p[7];
  const float dx1 = x1 - x2, dx2 = x3 - x2, sx = x0 - x1 + x2 - x3;
  const float dy1 = y1 - y2, dy2 = y3 - y2, sy = y0 - y1 + y2 - y3;
  const float denom = dx1 * dy2 - dy1 * dx2;
  const float a31 = (sx * dy2 - sy * dx2) / denom;
  const float a32 = (dx1 * sy - dy1 * sx) / denom;
  m[0] = x1 - x0 + a31 * x1, m[1] = x3 - x0 + a32 * x3, m[2] = x0;
  m[3] = y1 - y0 + a31 * y1, m[4] = y3 - y0 + a32 * y3, m[5] = y0;
  m[6] = a31, m[7] = a32, m[8] = 1.0f;
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
  f.cross = plain_cross;
  f.row_sum = torch_scalar_row_sum;
  return f;
}

void kornia_perspective_matrix(const float* start, const float* end, int64_t batch, const MatrixFunctions& f,
                               float* scratch, float* out) {
  const int64_t n = batch;
  float* source = scratch;          // h_s, then its inverse
  float* target = source + 9 * n;   // h_d
  float* columns = target + 9 * n;  // col_a, col_b, col_c: (n, 3) each
  float* rows = columns + 9 * n;    // row0, row1, row2: (n, 3) each
  float* products = rows + 9 * n;   // col_a * row0, then det
  float* det = products + 3 * n;
  for (int64_t b = 0; b < n; ++b) {
    unit_square_to_quad(start + 8 * b, source + 9 * b);
    unit_square_to_quad(end + 8 * b, target + 9 * b);
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) columns[c * 3 * n + 3 * b + r] = source[9 * b + 3 * r + c];
  }
  // kornia's _inverse_3x3_cross: rows of cross products of the columns, over the determinant
  const float* col_a = columns;
  const float* col_b = columns + 3 * n;
  const float* col_c = columns + 6 * n;
  f.cross(col_b, col_c, n, rows, f.product_context);
  f.cross(col_c, col_a, n, rows + 3 * n, f.product_context);
  f.cross(col_a, col_b, n, rows + 6 * n, f.product_context);
  for (int64_t i = 0; i < 3 * n; ++i) products[i] = col_a[i] * rows[i];
  f.row_sum(products, n, 3, det, f.product_context);
  for (int64_t b = 0; b < n; ++b)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) source[9 * b + 3 * r + c] = rows[r * 3 * n + 3 * b + c] / det[b];
  f.product(target, source, n, out, f.product_context);
  for (int64_t b = 0; b < n; ++b) {
    float* m = out + 9 * b;
    const float last = m[8];
    for (int i = 0; i < 9; ++i) m[i] = m[i] / last;
  }
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
