// Affine and perspective warps: kornia.geometry.transform.warp_affine / warp_perspective followed
// by torch's CPU grid_sample, emulated in float32 step by step so the bytes match kornia's float
// path. Shared by the CPU loop and the CUDA kernel. Three stages:
//   1. the sampling matrix (once per sample): kornia's normalize_homography and its closed-form
//      3x3 inverse, in kornia's op order (the cross products are fused multiply-subtracts, as
//      torch's CPU cross kernel computes them; the 3x3 products are not);
//   2. the grid point of an output pixel: kornia's base grid (torch.linspace for affine warps,
//      create_meshgrid's ramp for perspective ones) through that matrix;
//   3. grid_sample at that point (pixel/sample.h).
#pragma once

#include <math.h>

#include <cstdint>

#include "u8aug/hd.h"
#include "u8aug/image.h"
#include "u8aug/pixel/sample.h"

namespace u8aug {

struct Mat3 {
  float m[9];  // row-major
};

// a*b - c*d as torch's CPU cross kernel rounds it: one fused multiply-subtract.
U8AUG_HD float fused_cross_term(float a, float b, float c, float d) { return fmaf(a, b, -(c * d)); }

// kornia's _inverse_3x3_cross: the adjugate rows are cross products of the columns, over the
// determinant a . (b x c).
U8AUG_HD Mat3 inverse_3x3(const Mat3& x) {
  const float a[3] = {x.m[0], x.m[3], x.m[6]};
  const float b[3] = {x.m[1], x.m[4], x.m[7]};
  const float c[3] = {x.m[2], x.m[5], x.m[8]};
  const float* pairs[3][2] = {{b, c}, {c, a}, {a, b}};
  float rows[3][3];
  for (int r = 0; r < 3; ++r) {
    const float* u = pairs[r][0];
    const float* v = pairs[r][1];
    rows[r][0] = fused_cross_term(u[1], v[2], u[2], v[1]);
    rows[r][1] = fused_cross_term(u[2], v[0], u[0], v[2]);
    rows[r][2] = fused_cross_term(u[0], v[1], u[1], v[0]);
  }
  const float det = (a[0] * rows[0][0] + a[1] * rows[0][1]) + a[2] * rows[0][2];
  Mat3 out;
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) out.m[r * 3 + k] = rows[r][k] / det;
  return out;
}

// torch's small-matrix bmm: a running float32 sum from zero, no fusion.
U8AUG_HD Mat3 matmul_3x3(const Mat3& a, const Mat3& b) {
  Mat3 out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 3; ++k) acc = acc + a.m[i * 3 + k] * b.m[k * 3 + j];
      out.m[i * 3 + j] = acc;
    }
  return out;
}

// kornia's normal_transform_pixel: pixels -> [-1, 1], its entries computed in double and stored
// as float32, as kornia builds them from Python floats.
U8AUG_HD Mat3 pixel_to_normalized(int64_t height, int64_t width, bool align_corners) {
  const double w = static_cast<double>(width), h = static_cast<double>(height);
  double sx, sy, tx, ty;
  if (align_corners) {
    sx = width == 1 ? 1.0 : 2.0 / (w - 1.0);
    sy = height == 1 ? 1.0 : 2.0 / (h - 1.0);
    tx = width == 1 ? 0.0 : -1.0;
    ty = height == 1 ? 0.0 : -1.0;
  } else {
    sx = 2.0 / w;
    sy = 2.0 / h;
    tx = (1.0 - w) / w;
    ty = (1.0 - h) / h;
  }
  return Mat3{{static_cast<float>(sx), 0.0f, static_cast<float>(tx), 0.0f, static_cast<float>(sy),
               static_cast<float>(ty), 0.0f, 0.0f, 1.0f}};
}

// kornia's _unit_projective_scale: the perspective matrix is divided by the entry magnitude
// closest to 1 before normalisation (a projective no-op that keeps the determinant in range).
U8AUG_HD Mat3 unit_projective_scale(const Mat3& m) {
  float largest = 0.0f, smallest = INFINITY;
  for (int i = 0; i < 9; ++i) {
    const float a = fabsf(m.m[i]);
    largest = a > largest ? a : largest;  // amax propagates NaN: caught by `usable` below
    if (a != a) largest = a;
    if (a != 0.0f && !(a >= smallest)) smallest = a;
  }
  float scale = largest < 1.0f ? largest : 1.0f;
  if (largest != largest) scale = largest;
  if (scale < smallest) scale = smallest;
  const bool usable = scale > 0.0f && isfinite(scale);
  if (!usable) scale = 1.0f;
  Mat3 out;
  for (int i = 0; i < 9; ++i) out.m[i] = m.m[i] / scale;
  return out;
}

// The matrix grid_sample's grid is made with: normalised destination -> normalised source,
// from kornia's pixel matrix `src_to_dst` (source pixels -> destination pixels).
U8AUG_HD Mat3 sampling_matrix(Mat3 src_to_dst, bool perspective, int64_t src_h, int64_t src_w, int64_t dst_h,
                              int64_t dst_w, bool align_corners) {
  if (perspective) src_to_dst = unit_projective_scale(src_to_dst);
  const Mat3 src_pix_from_norm = inverse_3x3(pixel_to_normalized(src_h, src_w, align_corners));
  const Mat3 dst_norm_from_pix = pixel_to_normalized(dst_h, dst_w, align_corners);
  const Mat3 dst_norm_from_src_norm = matmul_3x3(dst_norm_from_pix, matmul_3x3(src_to_dst, src_pix_from_norm));
  return inverse_3x3(dst_norm_from_src_norm);
}

// Base grid of warp_affine: torch.linspace(-1, 1, n) (align_corners) or
// linspace(-1 + 1/n, 1 - 1/n, n), which torch's CPU kernel fills forwards from the start for the
// first half and backwards from the end for the second, each a fused multiply-add.
U8AUG_HD float affine_base(int64_t i, int64_t n, bool align_corners) {
  if (align_corners && n == 1) return 0.0f;
  const float start = static_cast<float>(align_corners ? -1.0 : -1.0 + 1.0 / static_cast<double>(n));
  const float end = static_cast<float>(align_corners ? 1.0 : 1.0 - 1.0 / static_cast<double>(n));
  if (n == 1) return start;
  const float step = (end - start) / static_cast<float>(n - 1);
  return i < n / 2 ? fmaf(step, static_cast<float>(i), start) : fmaf(-step, static_cast<float>(n - 1 - i), end);
}

// Base grid of warp_perspective: kornia's create_meshgrid on an arange ramp.
U8AUG_HD float perspective_base(int64_t i, int64_t n, bool align_corners) {
  const float fi = static_cast<float>(i);
  if (align_corners) return n > 1 ? (fi / static_cast<float>(n - 1) - 0.5f) * 2.0f : fi * 0.0f;
  return (2.0f * fi + 1.0f) / static_cast<float>(n) - 1.0f;
}

// The grid value of one output pixel from its base coordinates, in kornia's op order. The fast
// tier (reciprocal) divides once and multiplies twice: a position an ulp or so from kornia's.
U8AUG_HD GridPoint grid_point(const Mat3& t, bool perspective, float bx, float by, bool reciprocal = false) {
  const float gx = (t.m[0] * bx + t.m[1] * by) + t.m[2];
  const float gy = (t.m[3] * bx + t.m[4] * by) + t.m[5];
  if (!perspective) return {gx, gy};
  const float denom = (t.m[6] * bx + t.m[7] * by) + t.m[8];
  if (reciprocal) {
    const float r = 1.0f / denom;
    return {gx * r, gy * r};
  }
  return {gx / denom, gy / denom};
}

// What a warp is asked for: kornia's pixel matrices M (source pixels -> destination pixels), one
// for the whole batch or one per sample, 2x3 (affine) or 3x3 (perspective), row-major float32;
// grid_sample's mode, padding and align_corners; and for Padding::kFill one fill value per channel
// (or one for all) in kornia's float units (x / 255).
struct WarpParams {
  const float* matrices = nullptr;
  int64_t count = 0;
  Interp mode = Interp::kBilinear;
  Padding padding = Padding::kZeros;
  bool align_corners = true;
  Values fill;
  // bicubic only: the order a row's taps are summed in (cubic_across_order; kPairThenAdds is
  // torch 2.15's for every padding)
  CubicSum cubic_across = CubicSum::kPairThenAdds;
  // kFast: bilinear samples blended in fixed point (sample_fixed_pixel) where warp_takes_fixed_point
  Fidelity fidelity = Fidelity::kExact;
};

// Sample b's matrix as a 3x3 (an affine one gains kornia's [0, 0, 1] row).
U8AUG_HD Mat3 load_matrix(const WarpParams& p, bool perspective, int64_t b) {
  const float* m = p.matrices + (p.count == 1 ? 0 : b) * (perspective ? 9 : 6);
  Mat3 out{{m[0], m[1], m[2], m[3], m[4], m[5], 0.0f, 0.0f, 1.0f}};
  if (perspective) {
    out.m[6] = m[6];
    out.m[7] = m[7];
    out.m[8] = m[8];
  }
  return out;
}

struct WarpSetup {
  Mat3 sampling;     // sampling_matrix() of this sample
  bool perspective;  // the grid divides by the third row
  Interp mode;
  Padding padding;
  bool align_corners;
  CubicSum cubic_across;
  bool fixed_point;  // the fast tier's blend (sample_fixed_pixel) for this sample
};

U8AUG_HD float base_coordinate(const WarpSetup& s, int64_t i, int64_t n) {
  return s.perspective ? perspective_base(i, n, s.align_corners) : affine_base(i, n, s.align_corners);
}

// The least m <= 8 with v within 1e-4 of a multiple of 2^-m; 9 where there is none.
U8AUG_HD int dyadic_bits(double v) {
  for (int m = 0; m <= 8; ++m) {
    const double scaled = v * static_cast<double>(1 << m);
    if (fabs(scaled - rint(scaled)) <= 1e-4 * static_cast<double>(1 << m)) return m;
  }
  return 9;
}

// The share of a warp's outputs that are exact rounding ties when its source positions lie on a
// grid of 2^-mx x 2^-my pixels (fractions uniform over the grid, pixel values random): a fraction with
// exactly j bits (j >= 1) has probability 2^(j-1-m), and a value whose weights have j + k bits is a
// tie once in 2^(j+k). Summed, Q(m) = 2^-m (1 + m/2) per axis and the share Q(mx) Q(my) - 2^-(mx+my).
U8AUG_HD double dyadic_tie_share(int mx, int my) {
  auto q = [](int m) { return (1.0 + 0.5 * m) / static_cast<double>(1 << m); };
  return q(mx) * q(my) - 1.0 / static_cast<double>(1 << (mx + my));
}

// Whether a sample's positions fall on a coarse dyadic grid where the exact tier's bytes are full of
// rounding ties, which kornia's float32 chain breaks by its own roundings and no integer arithmetic
// follows (the rule of pixel/resize.h's fast_order, for any affine map): an affine map (or a
// perspective one with an affine last row) from output to source pixels whose terms make more than
// 5% of the outputs ties by dyadic_tie_share. The fixed point breaks half of those its own way, so
// this keeps it above 97% identical: a half-pixel shift (50% ties), a 2x or 4x zoom (31%, 19%) and
// an 8x one (8%) keep the exact arithmetic; quarter turns (whole pixels, no ties), 16x zooms (3%)
// and every random rotation take the fixed point. Evaluated in double from three output pixels.
U8AUG_HD bool warp_ties_common(const WarpSetup& s, int64_t src_h, int64_t src_w, int64_t dst_h, int64_t dst_w) {
  const float* t = s.sampling.m;
  if (s.perspective && (t[6] != 0.0f || t[7] != 0.0f)) return false;
  const double bx[2] = {base_coordinate(s, 0, dst_w), base_coordinate(s, dst_w > 1 ? 1 : 0, dst_w)};
  const double by[2] = {base_coordinate(s, 0, dst_h), base_coordinate(s, dst_h > 1 ? 1 : 0, dst_h)};
  const double denom = s.perspective ? static_cast<double>(t[8]) : 1.0;
  auto position = [&](int axis, int i, int j) {
    const double g = (t[3 * axis] * bx[i] + t[3 * axis + 1] * by[j] + t[3 * axis + 2]) / denom;
    const double size = static_cast<double>(axis == 0 ? src_w : src_h);
    return s.align_corners ? (g + 1.0) * (size - 1.0) / 2.0 : (g + 1.0) * size / 2.0 - 0.5;
  };
  int bits[2];
  for (int axis = 0; axis < 2; ++axis) {
    const double origin = position(axis, 0, 0);
    const int along_x = dyadic_bits(position(axis, 1, 0) - origin),
              along_y = dyadic_bits(position(axis, 0, 1) - origin);
    const int at_origin = dyadic_bits(origin);
    bits[axis] = along_x > along_y ? along_x : along_y;
    bits[axis] = bits[axis] > at_origin ? bits[axis] : at_origin;
  }
  return dyadic_tie_share(bits[0], bits[1]) > 0.05;
}

U8AUG_HD void warp_pixel(const ConstImage& src, const Image& dst, const WarpSetup& s, const Values& fill, int64_t b,
                         int64_t y, int64_t x, float bx, float by) {
  const GridPoint g = grid_point(s.sampling, s.perspective, bx, by, s.fixed_point);
  if (s.fixed_point) {
    sample_fixed_pixel(src, dst, g, s.padding, s.align_corners, b, y, x);
    return;
  }
  sample_pixel(src, dst, g, s.mode, s.padding, s.align_corners, s.cubic_across, fill, b, y, x);
}

// Sample b's setup. The fast tier's fixed point takes bilinear samples without a fill and without
// common ties (warp_ties_common); the rest keep the exact arithmetic.
U8AUG_HD WarpSetup warp_setup(const WarpParams& p, bool perspective, const ConstImage& src, const Image& dst,
                              int64_t b) {
  WarpSetup s{sampling_matrix(load_matrix(p, perspective, b), perspective, src.height, src.width, dst.height, dst.width,
                              p.align_corners),
              perspective,
              p.mode,
              p.padding,
              p.align_corners,
              p.cubic_across,
              false};
  s.fixed_point = p.fidelity == Fidelity::kFast && p.mode == Interp::kBilinear && p.padding != Padding::kFill &&
                  !warp_ties_common(s, src.height, src.width, dst.height, dst.width);
  return s;
}

// The CUDA kernel's body (each-index bodies: image.h): output pixel i of sample b, all channels;
// `setup` points at the sample's warp_setup, which the kernel's block forms in shared memory.
struct WarpBody {
  ConstImage src;
  Image dst;
  const WarpSetup* setup;
  Values fill;
  int64_t b;
  U8AUG_HD int64_t count() const { return dst.height * dst.width; }
  U8AUG_HD void operator()(int64_t i) const {
    const int64_t y = i / dst.width, x = i % dst.width;
    warp_pixel(src, dst, *setup, fill, b, y, x, base_coordinate(*setup, x, dst.width),
               base_coordinate(*setup, y, dst.height));
  }
};

}  // namespace u8aug
