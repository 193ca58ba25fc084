// Affine and perspective warps: kornia.geometry.transform.warp_affine / warp_perspective followed
// by torch's CPU grid_sample, emulated in float32 step by step so the bytes match kornia's float
// path. Shared by the CPU loop and the CUDA kernel. Three stages:
//   1. the sampling matrix (once per sample): kornia's normalize_homography and its closed-form
//      3x3 inverse, in kornia's op order (the cross products are fused multiply-subtracts, as
//      torch's CPU cross kernel computes them; the 3x3 products are not);
//   2. the grid point of an output pixel: kornia's base grid (torch.linspace for affine warps,
//      create_meshgrid's ramp for perspective ones) through that matrix;
//   3. grid_sample's unnormalisation, padding and nearest, bilinear or bicubic taps
//      (ApplyGridSample; the bicubic weights and sums are pixel/cubic.h's).
#pragma once

#include <math.h>

#include <cstdint>

#include "u8aug/hd.h"
#include "u8aug/image.h"
#include "u8aug/pixel/cubic.h"

namespace u8aug {

// kNearestExact: resize only (F.interpolate's "nearest-exact"; grid_sample has no such mode).
enum class Interp : int32_t { kNearest = 0, kBilinear = 1, kBicubic = 2, kNearestExact = 3 };
enum class Padding : int32_t { kZeros = 0, kBorder = 1, kReflection = 2, kFill = 3 };

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

struct GridPoint {
  float x, y;
};

// The grid value of one output pixel from its base coordinates, in kornia's op order.
U8AUG_HD GridPoint grid_point(const Mat3& t, bool perspective, float bx, float by) {
  const float gx = (t.m[0] * bx + t.m[1] * by) + t.m[2];
  const float gy = (t.m[3] * bx + t.m[4] * by) + t.m[5];
  if (!perspective) return {gx, gy};
  const float denom = (t.m[6] * bx + t.m[7] * by) + t.m[8];
  return {gx / denom, gy / denom};
}

// grid_sample's source coordinate along one axis of `size` pixels (ComputeLocation). torch fuses
// the half-pixel form into one multiply-add; it differs from two roundings where the result
// crosses a power of two.
U8AUG_HD float unnormalize(float g, int64_t size, bool align_corners) {
  return align_corners ? (g + 1.0f) * (static_cast<float>(size - 1) / 2.0f)
                       : fmaf(g + 1.0f, static_cast<float>(size) / 2.0f, -0.5f);
}

// Clamp to [0, size - 1]; NaN -> 0, as grid_sample's clip_coordinates.
U8AUG_HD float clip_coordinate(float x, int64_t size) {
  const float lo = x > 0.0f ? x : 0.0f;
  const float hi = static_cast<float>(size - 1);
  return lo < hi ? lo : hi;
}

U8AUG_HD float nan_min(float a, float b) {
  if (a != a || b != b) return a + b;
  return a < b ? a : b;
}

U8AUG_HD float reflect_coordinate(float x, int64_t size, bool align_corners) {
  if (align_corners) {
    if (size <= 1) return 0.0f;
    const float twice_span = static_cast<float>(size - 1) * 2.0f;
    const float a = fabsf(x);
    const float flips = truncf(a / twice_span);
    const float extra = a - flips * twice_span;
    return nan_min(extra, twice_span - extra);
  }
  const float low = -0.5f, twice_span = static_cast<float>(size) * 2.0f;
  const float a = fabsf(x - low);
  const float flips = truncf(a / twice_span);
  const float extra = a - flips * twice_span;
  return nan_min(extra, twice_span - extra) + low;
}

// grid_sample's compute_coordinates: a pixel coordinate after border or reflection padding.
U8AUG_HD float pad_coordinate(float x, int64_t size, Padding padding, bool align_corners) {
  if (padding == Padding::kBorder) return clip_coordinate(x, size);
  if (padding == Padding::kReflection) {
    return clip_coordinate(reflect_coordinate(x, size, align_corners), size);
  }
  return x;
}

U8AUG_HD float source_coordinate(float g, int64_t size, Padding padding, bool align_corners) {
  return pad_coordinate(unnormalize(g, size, align_corners), size, padding, align_corners);
}

// float -> int32 as the x86 truncating conversion does: NaN and out-of-range give INT32_MIN,
// which every bounds test then rejects.
U8AUG_HD int32_t to_index(float f) {
  if (!(f >= -2147483648.0f && f < 2147483648.0f)) return INT32_MIN;
  return static_cast<int32_t>(f);
}

// The taps of one output pixel, shared by all of its channels. Corner k (nw, ne, sw, se) reads
// source (y[k / 2], x[k % 2]) with weight w[k] when ok[k]; a tap that is not ok reads 0.
struct Taps {
  int64_t x[2], y[2];
  float w[4];
  bool ok[4];
};

U8AUG_HD bool in_range(int32_t i, int64_t size) { return i > -1 && i < size; }

U8AUG_HD Taps bilinear_taps(float x, float y, int64_t w, int64_t h, bool zeros) {
  const float x_w = floorf(x), y_n = floorf(y);
  const float dw = x - x_w, de = 1.0f - dw, dn = y - y_n, ds = 1.0f - dn;
  Taps t;
  t.w[0] = ds * de;
  t.w[1] = ds * dw;
  t.w[2] = dn * de;
  t.w[3] = dn * dw;
  const int32_t ix = to_index(x_w), iy = to_index(y_n);
  const bool w_ok = !zeros || in_range(ix, w), n_ok = !zeros || in_range(iy, h);
  const bool e_ok = in_range(ix + (ix == INT32_MIN ? 0 : 1), w) && ix != INT32_MIN;
  const bool s_ok = in_range(iy + (iy == INT32_MIN ? 0 : 1), h) && iy != INT32_MIN;
  t.ok[0] = w_ok && n_ok;
  t.ok[1] = e_ok && n_ok;
  t.ok[2] = w_ok && s_ok;
  t.ok[3] = e_ok && s_ok;
  t.x[0] = ix;
  t.x[1] = static_cast<int64_t>(ix) + 1;
  t.y[0] = iy;
  t.y[1] = static_cast<int64_t>(iy) + 1;
  return t;
}

// Bicubic grid_sample: the grid point's unnormalised (not padded) coordinate x, its floor's four
// neighbours floor(x) - 1 .. floor(x) + 2 each padded on its own (compute_coordinates) and read
// when inside (zeros padding: a tap outside reads 0), weighted by grid_cubic_weights of x - floor(x).
struct CubicTaps {
  int64_t x[4], y[4];
  bool x_ok[4], y_ok[4];
  CubicWeights cx, cy;
};

U8AUG_HD void cubic_axis(float g, int64_t size, Padding coord_padding, bool align_corners, int64_t* index, bool* ok,
                         CubicWeights& c) {
  const float x = unnormalize(g, size, align_corners);
  const float ix = floorf(x);
  c = grid_cubic_weights(x - ix);
  for (int k = 0; k < 4; ++k) {
    const int32_t i = to_index(pad_coordinate(ix + static_cast<float>(k - 1), size, coord_padding, align_corners));
    ok[k] = in_range(i, size);  // always so for border and reflection: their coordinates are clipped
    index[k] = ok[k] ? i : 0;
  }
}

U8AUG_HD CubicTaps cubic_taps(GridPoint g, int64_t w, int64_t h, Padding coord_padding, bool align_corners) {
  CubicTaps t;
  cubic_axis(g.x, w, coord_padding, align_corners, t.x, t.x_ok, t.cx);
  cubic_axis(g.y, h, coord_padding, align_corners, t.y, t.y_ok, t.cy);
  return t;
}

// The 4x4 taps' float32 sum: across each row in `across` order, then down the rows (kChain).
// at(y, x) is the value at source pixel (y, x).
template <class At>
U8AUG_HD float cubic_grid_value(const CubicTaps& t, CubicSum across, At at) {
  float rows[4];
  for (int j = 0; j < 4; ++j) {
    float v[4];
    for (int k = 0; k < 4; ++k) v[k] = t.x_ok[k] && t.y_ok[j] ? at(t.y[j], t.x[k]) : 0.0f;
    rows[j] = cubic_sum(v, t.cx, across);
  }
  return cubic_sum(rows, t.cy, CubicSum::kChain);
}

// The order torch's bicubic grid_sample sums a row's four taps in: kPairThenAdds, except with
// reflection padding on torch 2.11 (kChain), whose copy of the kernel the compiler contracted
// differently (pixel/cubic.h). `reflection_chains` is what u8aug measured of the running torch.
U8AUG_HD CubicSum cubic_across_order(Padding padding, bool reflection_chains) {
  return padding == Padding::kReflection && reflection_chains ? CubicSum::kChain : CubicSum::kPairThenAdds;
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
  // Both tiers run the arithmetic above: any other breaks kornia's exact rounding ties, which nice
  // matrices (a 2x zoom, half-pixel shifts) and photos' flat regions make common (README, Fidelity).
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
};

U8AUG_HD float base_coordinate(const WarpSetup& s, int64_t i, int64_t n) {
  return s.perspective ? perspective_base(i, n, s.align_corners) : affine_base(i, n, s.align_corners);
}

// grid_sample of sample b at the normalised grid point g into output pixel (y, x), all channels,
// each channel's float32 value as grid_sample forms it, then kornia's fill blend, quantised by the
// oracle's to_u8: what every warp and the grid_sample op end with.
U8AUG_HD void sample_pixel(const ConstImage& src, const Image& dst, GridPoint g, Interp mode, Padding padding,
                           bool align_corners, CubicSum cubic_across, const Values& fill, int64_t b, int64_t y,
                           int64_t x) {
  const bool zeros = padding == Padding::kZeros || padding == Padding::kFill;
  const Padding coord_padding = zeros ? Padding::kZeros : padding;
  if (mode == Interp::kBicubic) {
    const CubicTaps t = cubic_taps(g, src.width, src.height, coord_padding, align_corners);
    // grid_sample of a ones image: kornia's fill mask
    const float coverage =
        padding == Padding::kFill ? cubic_grid_value(t, cubic_across, [](int64_t, int64_t) { return 1.0f; }) : 0.0f;
    for (int64_t c = 0; c < dst.channels; ++c) {
      float v = cubic_grid_value(t, cubic_across, [&](int64_t yy, int64_t xx) { return unit(src.at(b, c, yy, xx)); });
      if (padding == Padding::kFill) v = v + (1.0f - coverage) * fill[c];
      dst.at(b, c, y, x) = to_u8(v * 255.0f);
    }
    return;
  }
  const float sx = source_coordinate(g.x, src.width, coord_padding, align_corners);
  const float sy = source_coordinate(g.y, src.height, coord_padding, align_corners);
  if (mode == Interp::kNearest) {
    const int32_t ix = to_index(rintf(sx)), iy = to_index(rintf(sy));
    const bool ok = !zeros || (in_range(ix, src.width) && in_range(iy, src.height));
    for (int64_t c = 0; c < dst.channels; ++c) {
      float v = ok ? unit(src.at(b, c, iy, ix)) : 0.0f;
      if (padding == Padding::kFill) v = v + (1.0f - (ok ? 1.0f : 0.0f)) * fill[c];
      dst.at(b, c, y, x) = to_u8(v * 255.0f);
    }
    return;
  }
  const Taps t = bilinear_taps(sx, sy, src.width, src.height, zeros);
  float coverage = 0.0f;  // grid_sample of a ones image: kornia's fill mask
  if (padding == Padding::kFill) {
    coverage = (t.ok[0] ? 1.0f : 0.0f) * t.w[0];
    for (int k = 1; k < 4; ++k) coverage = fmaf(t.ok[k] ? 1.0f : 0.0f, t.w[k], coverage);
  }
  for (int64_t c = 0; c < dst.channels; ++c) {
    // torch's vectorised grid_sample sums the corners nw, ne, sw, se with fused multiply-adds
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) {
      const float p = t.ok[k] ? unit(src.at(b, c, t.y[k / 2], t.x[k % 2])) : 0.0f;
      v = k == 0 ? p * t.w[0] : fmaf(p, t.w[k], v);
    }
    if (padding == Padding::kFill) v = v + (1.0f - coverage) * fill[c];
    dst.at(b, c, y, x) = to_u8(v * 255.0f);
  }
}

U8AUG_HD void warp_pixel(const ConstImage& src, const Image& dst, const WarpSetup& s, const Values& fill, int64_t b,
                         int64_t y, int64_t x, float bx, float by) {
  sample_pixel(src, dst, grid_point(s.sampling, s.perspective, bx, by), s.mode, s.padding, s.align_corners,
               s.cubic_across, fill, b, y, x);
}

U8AUG_HD WarpSetup warp_setup(const WarpParams& p, bool perspective, const ConstImage& src, const Image& dst,
                              int64_t b) {
  return WarpSetup{sampling_matrix(load_matrix(p, perspective, b), perspective, src.height, src.width, dst.height,
                                   dst.width, p.align_corners),
                   perspective,
                   p.mode,
                   p.padding,
                   p.align_corners,
                   p.cubic_across};
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

// grid_sample with a given grid (kornia's elastic, thin-plate and fisheye grids): float32
// (B or 1, H', W', 2), (x, y) in [-1, 1], any strides; output pixel (y, x) of sample b samples at
// grid[b, y, x].
struct SampleGrid {
  const float* data = nullptr;
  int64_t count = 0, height = 0, width = 0;
  int64_t stride_b = 0, stride_h = 0, stride_w = 0, stride_xy = 0;
  U8AUG_HD GridPoint at(int64_t b, int64_t y, int64_t x) const {
    const float* p = data + (count == 1 ? 0 : b) * stride_b + y * stride_h + x * stride_w;
    return GridPoint{p[0], p[stride_xy]};
  }
};

// The CUDA kernel's body: one output pixel, all channels, in (b, y, x) order.
struct GridSampleBody {
  ConstImage src;
  Image dst;
  SampleGrid grid;
  Interp mode;
  Padding padding;
  bool align_corners;
  CubicSum cubic_across;
  U8AUG_HD int64_t count() const { return dst.batch * dst.height * dst.width; }
  U8AUG_HD void operator()(int64_t i) const {
    const int64_t x = i % dst.width, y = (i / dst.width) % dst.height, b = i / (dst.width * dst.height);
    sample_pixel(src, dst, grid.at(b, y, x), mode, padding, align_corners, cubic_across, Values{}, b, y, x);
  }
};

}  // namespace u8aug
