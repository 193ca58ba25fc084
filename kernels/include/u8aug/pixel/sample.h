// torch's CPU grid_sample (ApplyGridSample) on x / 255, emulated in float32: the grid point's
// unnormalisation, border and reflection padding, and its nearest, bilinear or bicubic taps (the
// bicubic weights and sums are pixel/cubic.h's), then kornia's fill blend. What the warps
// (pixel/warp.h) and the grid_sample op end with; shared by the CPU loops and the CUDA kernels.
#pragma once

#include <math.h>

#include <cstdint>

#include "u8aug/hd.h"
#include "u8aug/image.h"
#include "u8aug/pixel/cubic.h"
#include "u8aug/pixel/fixed_point.h"

namespace u8aug {

// kNearestExact: resize only (F.interpolate's "nearest-exact"; grid_sample has no such mode).
enum class Interp : int32_t { kNearest = 0, kBilinear = 1, kBicubic = 2, kNearestExact = 3 };
enum class Padding : int32_t { kZeros = 0, kBorder = 1, kReflection = 2, kFill = 3 };

struct GridPoint {
  float x, y;
};

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

// ---- The fast tier's bilinear sample (fidelity="fast": the warps) ----
// The source coordinate is the exact tier's (source_coordinate); the blend is the fixed point of
// pixel/fixed_point.h, all of a pixel's channels with the same two fractions: across the north and
// the south pair, then down, in 2^-7 units of a byte, rounded half to even once. A zeros-padded
// coordinate is first clamped to [-1, size] (NaN to -1): outside that span every tap is outside,
// and at -1 or size the one tap with weight 1 is, so the value is 0 as grid_sample's. The CPU reads
// its taps from a copy framed by zero pixels (one before each axis, two after) and masks nothing.
struct FixedTaps {
  int32_t x, y;    // the north-west tap, in [-1, size]
  int32_t fx, fy;  // the east and south weights in 2^-15 (fraction_fixed15)
};

U8AUG_HD float clamp_outside(float v, int64_t size) {
  return v == v ? clamp(v, -1.0f, static_cast<float>(size)) : -1.0f;
}

U8AUG_HD FixedTaps fixed_bilinear_taps(float sx, float sy, int64_t w, int64_t h, bool zeros) {
  if (zeros) {
    sx = clamp_outside(sx, w);
    sy = clamp_outside(sy, h);
  }
  const float x_w = floorf(sx), y_n = floorf(sy);
  return FixedTaps{static_cast<int32_t>(x_w), static_cast<int32_t>(y_n), fraction_fixed15(sx - x_w),
                   fraction_fixed15(sy - y_n)};
}

// One channel's byte from its four taps' bytes (nw, ne, sw, se).
U8AUG_HD uint8_t fixed_bilinear_byte(int32_t nw, int32_t ne, int32_t sw, int32_t se, const FixedTaps& t) {
  const int32_t north = lerp_fixed(nw << kLinearRowBits, ne << kLinearRowBits, t.fx);
  const int32_t south = lerp_fixed(sw << kLinearRowBits, se << kLinearRowBits, t.fx);
  return fixed_byte(lerp_fixed(north, south, t.fy), kLinearRowBits);
}

// sample_pixel's fast-tier form for bilinear with zeros, border or reflection padding.
U8AUG_HD void sample_fixed_pixel(const ConstImage& src, const Image& dst, GridPoint g, Padding padding,
                                 bool align_corners, int64_t b, int64_t y, int64_t x) {
  const bool zeros = padding == Padding::kZeros;
  const float sx = source_coordinate(g.x, src.width, padding, align_corners);
  const float sy = source_coordinate(g.y, src.height, padding, align_corners);
  const FixedTaps t = fixed_bilinear_taps(sx, sy, src.width, src.height, zeros);
  auto at = [&](int64_t c, int64_t yy, int64_t xx) -> int32_t {
    return yy >= 0 && yy < src.height && xx >= 0 && xx < src.width ? src.at(b, c, yy, xx) : 0;
  };
  for (int64_t c = 0; c < dst.channels; ++c) {
    dst.at(b, c, y, x) =
        fixed_bilinear_byte(at(c, t.y, t.x), at(c, t.y, t.x + 1), at(c, t.y + 1, t.x), at(c, t.y + 1, t.x + 1), t);
  }
}

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
