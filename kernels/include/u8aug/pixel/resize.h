// Resize and crop-and-resize: torch's CPU F.interpolate (what kornia's resize and crop_by_indices
// run) on x / 255, emulated in float32. Shared by the CPU loop and the CUDA kernel. Bicubic taps
// and sums: pixel/cubic.h.
//
// Bilinear taps follow upsample_bilinear2d: the source index is scale * (d + 0.5) - 0.5
// (align_corners=False; scale * d otherwise), clamped to >= 0. torch has two CPU kernels that sum
// the four taps in different orders, and torch versions differ in whether the generic kernel fuses
// that index into one multiply-add (BlendOrder); which one runs is torch's choice
// (torch_blend_order), and u8aug follows the running torch.
#pragma once

#include <math.h>

#include <cstdint>

#include "u8aug/hd.h"
#include "u8aug/image.h"
#include "u8aug/pixel/cubic.h"
#include "u8aug/pixel/fixed_point.h"
#include "u8aug/pixel/warp.h"

namespace u8aug {

// One axis of one output index: source indices i0, i1 and their weights.
struct AxisTap {
  int64_t i0, i1;
  float l0, l1;
};

// torch's area_pixel_compute_source_index: output index d's position in the source axis, scale * d
// (align_corners) or scale * (d + 0.5) - 0.5, as one fused multiply-add (fused_index) or rounded
// after the multiply; the linear modes then clamp it at 0, the cubic one does not.
U8AUG_HD float source_index(int64_t d, int64_t in, int64_t out, bool align_corners, bool fused_index) {
  if (align_corners) {
    const float scale = out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
    return scale * static_cast<float>(d);
  }
  const float scale = static_cast<float>(in) / static_cast<float>(out);
  const float centre = static_cast<float>(d) + 0.5f;
  return fused_index ? fmaf(scale, centre, -0.5f) : scale * centre - 0.5f;
}

U8AUG_HD AxisTap linear_tap(int64_t d, int64_t in, int64_t out, bool align_corners, bool fused_index = true) {
  if (in == out) return AxisTap{d, d, 1.0f, 0.0f};
  float r = source_index(d, in, out, align_corners, fused_index);
  if (!align_corners) r = r < 0.0f ? 0.0f : r;
  int64_t i0 = static_cast<int64_t>(floorf(r));
  i0 = i0 < in - 1 ? i0 : in - 1;
  float l1 = r - static_cast<float>(i0);
  l1 = l1 > 0.0f ? (l1 < 1.0f ? l1 : 1.0f) : 0.0f;
  return AxisTap{i0, i0 < in - 1 ? i0 + 1 : i0, 1.0f - l1, l1};
}

// torch's legacy "nearest": floor(d * (in / out)), clamped; "nearest-exact" samples the output
// pixel's centre, floor((d + 0.5) * (in / out)), which torch multiplies in double (d + 0.5 is a
// double in C++) and rounds to float before the floor.
U8AUG_HD int64_t nearest_index(int64_t d, int64_t in, int64_t out, bool exact = false) {
  if (in == out) return d;
  const float scale = static_cast<float>(in) / static_cast<float>(out);
  const float at = exact ? static_cast<float>((static_cast<double>(d) + 0.5) * static_cast<double>(scale))
                         : static_cast<float>(d) * scale;
  const int64_t i = static_cast<int64_t>(floorf(at));
  return i < in - 1 ? i : in - 1;
}

// One axis of one output index, bicubic: four source indices (clamped into the axis, as
// upsample_bicubic2d reads them) and their weights. The source index scale * (d + 0.5) - 0.5 is
// not clamped at 0 (torch's cubic rule) and is one fused multiply-add on every torch measured.
struct CubicAxisTap {
  int64_t i[4];
  CubicWeights c;
};

U8AUG_HD CubicAxisTap cubic_tap(int64_t d, int64_t in, int64_t out, bool align_corners) {
  const float r = source_index(d, in, out, align_corners, true);
  int64_t i0 = static_cast<int64_t>(floorf(r));
  i0 = i0 < in - 1 ? i0 : in - 1;
  float t = r - static_cast<float>(i0);
  t = t > 0.0f ? (t < 1.0f ? t : 1.0f) : 0.0f;
  CubicAxisTap tap;
  for (int k = 0; k < 4; ++k) tap.i[k] = clamp<int64_t>(i0 - 1 + k, 0, in - 1);
  tap.c = upsample_cubic_weights(t);
  return tap;
}

// The float32 value of one output pixel: four source rows summed across, then down.
template <class At>
U8AUG_HD float bicubic_value(At at, const CubicAxisTap& ty, const CubicAxisTap& tx) {
  float rows[4];
  for (int j = 0; j < 4; ++j) {
    const float v[4] = {at(ty.i[j], tx.i[0]), at(ty.i[j], tx.i[1]), at(ty.i[j], tx.i[2]), at(ty.i[j], tx.i[3])};
    rows[j] = cubic_sum(v, tx.c, CubicSum::kPairFirst);
  }
  return cubic_sum(rows, ty.c, CubicSum::kPairFirst);
}

// The source rectangle of one sample: the whole image (resize) or a crop box.
struct Window {
  int64_t y0, x0, height, width;
};

// kornia's crop_by_indices box, 4 (x, y) corners clockwise from top-left, cast to int64 as torch
// does (toward zero): columns [x1, x2) = [x(0), x(1) + 1) and rows [y1, y2) = [y(0), y(3) + 1).
// Non-finite corners give 0.
struct BoxBounds {
  int64_t x1, x2, y1, y2;
};

U8AUG_HD BoxBounds box_bounds(const float* box) {
  auto to_i64 = [](float v) -> int64_t {
    if (!(v > -9.0e18f && v < 9.0e18f)) return 0;
    return static_cast<int64_t>(v);
  };
  return BoxBounds{to_i64(box[0]), to_i64(box[2]) + 1, to_i64(box[1]), to_i64(box[7]) + 1};
}

// The box's window, clamped into the image so a device-side box can never address outside it (the
// CPU entry point rejects such boxes instead).
U8AUG_HD Window box_window(const float* box, int64_t height, int64_t width) {
  const BoxBounds k = box_bounds(box);
  const int64_t x1 = clamp<int64_t>(k.x1, 0, width - 1), y1 = clamp<int64_t>(k.y1, 0, height - 1);
  const int64_t x2 = clamp<int64_t>(k.x2, x1 + 1, width), y2 = clamp<int64_t>(k.y2, y1 + 1, height);
  return Window{y1, x1, y2 - y1, x2 - x1};
}

// The float32 arithmetic of torch's bilinear interpolate on the CPU, one per kernel and version:
//   kSeparable (its generic kernel): fma(row0, wy0, row1 * wy1), row = fma(v0, wx0, v1 * wx1);
//   kCorners (its channels-last kernel, channels below one vector): corner weights wy * wx, then
//     fma(v11, w11, fma(v10, w10, fma(v00, w00, v01 * w01)));
//   kSeparableUnfusedIndex (the generic kernel of torch 2.15): kSeparable's sums, but the
//     align_corners=False source index scale * (d + 0.5) - 0.5 rounded after the multiply.
// kFast is not torch's: the fast tier's fixed-point arithmetic (fidelity="fast", below), for
// bilinear and bicubic alike.
enum class BlendOrder : int32_t { kSeparable = 0, kCorners = 1, kSeparableUnfusedIndex = 2, kFast = 3 };
U8AUG_HD bool blends_rows_first(BlendOrder order) { return order != BlendOrder::kCorners; }
U8AUG_HD bool fuses_source_index(BlendOrder order) { return order != BlendOrder::kSeparableUnfusedIndex; }

// Which kernel torch's upsample_bilinear2d takes for a float input of C channels resized to
// (out_h, out_w): the channels-last one for outputs with h + w <= 128, for channels_last inputs of
// more than 3 channels, and for 3 channels when torch runs on one thread (the same rule from 2.11
// to 2.15). generic_fuses_index: whether the running torch's generic kernel fuses the source index
// (2.11: yes, 2.15: no; u8aug measures it when it loads, python/u8aug/_torch_rules.py).
inline BlendOrder torch_blend_order(int64_t channels, int64_t out_h, int64_t out_w, bool channels_last_input,
                                    int torch_threads, bool generic_fuses_index = true) {
  const bool corners =
      out_h + out_w <= 128 || (channels_last_input && channels > 3) || (torch_threads == 1 && channels == 3);
  if (corners) return BlendOrder::kCorners;
  return generic_fuses_index ? BlendOrder::kSeparable : BlendOrder::kSeparableUnfusedIndex;
}

// kornia's crop_by_indices resizes each sample's slice img[i:i+1, :, y0:y1, x0:x1]. torch sees that
// slice as channels_last-contiguous (and may take its channels-last kernel) when the sample is
// channels_last and the slice holds whole rows or a single row; other slices are not contiguous.
// The two orders a batch of crops can need, and the one a sample's window takes:
struct CropBlendOrders {
  BlendOrder slice = BlendOrder::kSeparable;
  BlendOrder whole_rows = BlendOrder::kSeparable;
};

U8AUG_HD BlendOrder crop_blend_order(const CropBlendOrders& orders, const Window& win, int64_t width) {
  return win.width == width || win.height == 1 ? orders.whole_rows : orders.slice;
}

// kSeparable's two passes: along a source row, then down between two such rows.
U8AUG_HD float blend_across(float v0, float v1, const AxisTap& tx) { return fmaf(v0, tx.l0, v1 * tx.l1); }
U8AUG_HD float blend_down(float row0, float row1, const AxisTap& ty) { return fmaf(row0, ty.l0, row1 * ty.l1); }

U8AUG_HD float blend_taps(float v00, float v01, float v10, float v11, const AxisTap& ty, const AxisTap& tx,
                          BlendOrder order) {
  if (!blends_rows_first(order)) {
    const float w00 = ty.l0 * tx.l0, w01 = ty.l0 * tx.l1, w10 = ty.l1 * tx.l0, w11 = ty.l1 * tx.l1;
    return fmaf(v11, w11, fmaf(v10, w10, fmaf(v00, w00, v01 * w01)));
  }
  return blend_down(blend_across(v00, v01, tx), blend_across(v10, v11, tx), ty);
}

// The four taps of one bilinear output read by at(yy, xx), blended in `order`.
template <class At>
U8AUG_HD float bilinear_taps_value(At at, const AxisTap& ty, const AxisTap& tx, BlendOrder order) {
  return blend_taps(at(ty.i0, tx.i0), at(ty.i0, tx.i1), at(ty.i1, tx.i0), at(ty.i1, tx.i1), ty, tx, order);
}

// The float32 value of output (y, x) of an interpolating mode (bilinear or bicubic) resizing an
// in_h x in_w source, read by at(yy, xx) in x / 255 units, to out_h x out_w.
template <class At>
U8AUG_HD float interpolated_value(At at, int64_t in_h, int64_t in_w, int64_t out_h, int64_t out_w, Interp mode,
                                  bool align_corners, BlendOrder order, int64_t y, int64_t x) {
  if (mode == Interp::kBicubic)
    return bicubic_value(at, cubic_tap(y, in_h, out_h, align_corners), cubic_tap(x, in_w, out_w, align_corners));
  const AxisTap ty = linear_tap(y, in_h, out_h, align_corners, fuses_source_index(order));
  const AxisTap tx = linear_tap(x, in_w, out_w, align_corners, fuses_source_index(order));
  return bilinear_taps_value(at, ty, tx, order);
}

U8AUG_HD bool nearest_mode(Interp mode) { return mode == Interp::kNearest || mode == Interp::kNearestExact; }

// ---- The fast tier (BlendOrder::kFast): fixed point in 16-bit lanes ----
// The way OpenCV's and Pillow-SIMD's uint8 resamplers work, in two passes: first across (each source
// row an output row needs, once: its column taps' bytes times 12-bit weights, into a 16-bit row t),
// then down (the output row's t rows blended, rounded half to even once). The taps' positions and
// float weights are the exact tier's; only the weights' precision and the arithmetic differ. Every
// value below is an integer, so every CPU target and CUDA give the same bytes.
//   across: a pair of bytes times a pair of weights w = 64 high + low (high signed, low in [0, 63]),
//           summed as two byte-by-byte pair sums (x86's pmaddubsw: high within int8, both sums
//           within int16), then joined: bilinear t = 2 high + (low + 16) >> 5 (t = x * 2^7);
//           bicubic, per pair, high + (low + 32) >> 6, the two pairs added (t = x * 2^6: the cubic's
//           overshoot, 1.19 x 255 at most, needs the headroom)
//   down:   bilinear out = round_half_even((t0 + mul_fixed15(t1 - t0, l1 in 2^-15)) / 2^7)
//           bicubic  out = round_half_even(sum_k t_k w_k / 2^(14 + 6)), w in 2^-14 (pmaddwd pairs)
// clamped to [0, 255]. mul_fixed15 is x86's pmulhrsw (NEON's vqrdmulh).
constexpr int kAcrossWeightBits = 12;
constexpr int kDownWeightBits = 14;
constexpr int kCubicRowBits = 6;

// A bilinear axis: the source indices, l1 for the down pass (2^-15 units, capped below 1) and both
// weights for the across pass (2^-12 units, summing to 2^12).
struct FixedLinearTap {
  int64_t i0, i1;
  int32_t down, across0, across1;
};

U8AUG_HD FixedLinearTap fixed_linear_tap(int64_t d, int64_t in, int64_t out, bool align_corners) {
  const AxisTap t = linear_tap(d, in, out, align_corners, true);
  const int32_t across1 = fixed_weight(t.l1, kAcrossWeightBits);
  return FixedLinearTap{t.i0, t.i1, fraction_fixed15(t.l1), (1 << kAcrossWeightBits) - across1, across1};
}

// A bicubic axis: cubic_tap's four clamped indices, the first one unclamped (first = floor - 1, in
// [-2, in - 2]: the CPU pads its source rows by two replicated bytes and reads four in a row), and the
// weights in 2^-bits units, the largest of the middle two absorbing the rounding so they sum to 2^bits.
struct FixedCubicTap {
  int64_t i[4];
  int64_t first;
  int32_t w[4];
};

U8AUG_HD FixedCubicTap fixed_cubic_tap(int64_t d, int64_t in, int64_t out, bool align_corners, int bits) {
  const CubicAxisTap t = cubic_tap(d, in, out, align_corners);
  const float r = source_index(d, in, out, align_corners, true);
  const int64_t i0 = static_cast<int64_t>(floorf(r));
  FixedCubicTap f;
  f.first = clamp<int64_t>((i0 < in - 1 ? i0 : in - 1) - 1, -2, in - 2);
  int32_t sum = 0;
  for (int k = 0; k < 4; ++k) {
    f.i[k] = t.i[k];
    f.w[k] = fixed_weight(t.c.w[k], bits);
    sum += f.w[k];
  }
  f.w[f.w[1] >= f.w[2] ? 1 : 2] += (1 << bits) - sum;
  return f;
}

// An across weight's parts for byte-by-byte multiplies: w = 64 high + low, low in [0, 63].
U8AUG_HD int32_t weight_high(int32_t w) { return w >> 6; }
U8AUG_HD int32_t weight_low(int32_t w) { return w & 63; }

// One pair of taps across, as the two byte-pair sums give it, in 2^-shift units of a byte.
U8AUG_HD int32_t pair_across(int32_t s0, int32_t s1, int32_t w0, int32_t w1, int shift) {
  const int32_t high = s0 * weight_high(w0) + s1 * weight_high(w1);
  const int32_t low = s0 * weight_low(w0) + s1 * weight_low(w1);
  return high * (1 << (6 - shift)) + ((low + (1 << (shift - 1))) >> shift);
}

U8AUG_HD int32_t linear_across_row(int32_t s0, int32_t s1, int32_t w0, int32_t w1) {
  return pair_across(s0, s1, w0, w1, kAcrossWeightBits - kLinearRowBits);
}
U8AUG_HD int32_t cubic_across_row(const int32_t s[4], const int32_t w[4]) {
  const int shift = kAcrossWeightBits - kCubicRowBits;
  return pair_across(s[0], s[1], w[0], w[1], shift) + pair_across(s[2], s[3], w[2], w[3], shift);
}
U8AUG_HD uint8_t linear_down_byte(int32_t t0, int32_t t1, int32_t down) {
  return fixed_byte(lerp_fixed(t0, t1, down), kLinearRowBits);
}
U8AUG_HD uint8_t cubic_down_byte(const int32_t t[4], const int32_t w[4]) {
  return fixed_byte(t[0] * w[0] + t[1] * w[1] + t[2] * w[2] + t[3] * w[3], kDownWeightBits + kCubicRowBits);
}

// How many fraction bits v has: the least m <= 24 with v * 2^m an integer (24: that many or more).
U8AUG_HD int fraction_bits(float v) {
  for (int m = 0; m < 24; ++m) {
    const float scaled = v * static_cast<float>(1 << m);
    if (scaled == floorf(scaled)) return m;
  }
  return 24;
}

// The fraction bits of every bilinear weight of an axis resized from `in` to `out`: the source
// index is scale * d, or scale * (d + 0.5) - 0.5, which has one bit more than the scale.
U8AUG_HD int linear_weight_bits(int64_t in, int64_t out, bool align_corners) {
  if (in == out) return 0;
  if (align_corners) return out > 1 ? fraction_bits(static_cast<float>(in - 1) / static_cast<float>(out - 1)) : 0;
  const int bits = fraction_bits(static_cast<float>(in) / static_cast<float>(out));
  return bits < 24 ? bits + 1 : 24;
}

// Whether eight neighbouring output columns' taps lie within 32 source bytes, as the CPU's byte
// shuffles need (two 16-byte lookups; one where they lie within 16): the width shrinks by at most
// 29/7 (7 steps of the scale, plus a pair's second byte, stay under 32 with a margin for the float
// source index). A photo cropped whole to 224 wide shrinks by 2-3.
U8AUG_HD bool fixed_point_reaches(int64_t in, int64_t out, bool align_corners) {
  const float scale = align_corners ? (out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f)
                                    : static_cast<float>(in) / static_cast<float>(out);
  return scale <= 29.0f / 7.0f;
}

// The order the fast tier takes for a bilinear or bicubic window: kFast, or the exact arithmetic
// (kSeparable; bicubic has one order) where the width shrinks by more than 29/7, and for bilinear
// where its weights lie on a grid of at most 2^-3 over both axes (a 1/2 shrink, a half-pixel
// shift, a one-axis 2x zoom). There one output in 2 to 8 is an exact rounding tie, which kornia's
// float32 chain breaks by its own roundings (upward 64-100% of the time at a half-pixel shift, by
// the byte values' float errors) and no integer arithmetic follows: the fixed point left 85% of a
// photo's bytes identical for a one-axis 1/2 shrink. At 2^-4 (a 2x zoom) one output in 16 ties and
// the fixed point keeps 98.9%. kSeparable's bytes are every thread count's (torch's orders differ
// only in their ties, about 2% of bytes at a 1/2 shrink).
U8AUG_HD BlendOrder fast_order(Interp mode, const Window& win, int64_t out_h, int64_t out_w, bool align_corners) {
  if (!fixed_point_reaches(win.width, out_w, align_corners)) return BlendOrder::kSeparable;
  if (mode != Interp::kBilinear) return BlendOrder::kFast;
  const int bits =
      linear_weight_bits(win.height, out_h, align_corners) + linear_weight_bits(win.width, out_w, align_corners);
  return bits <= 3 ? BlendOrder::kSeparable : BlendOrder::kFast;
}

// One output byte (b, c, y, x) of the fast tier, resizing `win` of sample b (bilinear or bicubic).
U8AUG_HD void resize_fixed_element(const ConstImage& src, const Image& dst, const Window& win, Interp mode,
                                   bool align_corners, int64_t b, int64_t c, int64_t y, int64_t x) {
  auto at = [&](int64_t yy, int64_t xx) -> int32_t { return src.at(b, c, win.y0 + yy, win.x0 + xx); };
  if (mode == Interp::kBicubic) {
    const FixedCubicTap ty = fixed_cubic_tap(y, win.height, dst.height, align_corners, kDownWeightBits);
    const FixedCubicTap tx = fixed_cubic_tap(x, win.width, dst.width, align_corners, kAcrossWeightBits);
    int32_t t[4];
    for (int k = 0; k < 4; ++k) {
      const int32_t s[4] = {at(ty.i[k], tx.i[0]), at(ty.i[k], tx.i[1]), at(ty.i[k], tx.i[2]), at(ty.i[k], tx.i[3])};
      t[k] = cubic_across_row(s, tx.w);
    }
    dst.at(b, c, y, x) = cubic_down_byte(t, ty.w);
    return;
  }
  const FixedLinearTap ty = fixed_linear_tap(y, win.height, dst.height, align_corners);
  const FixedLinearTap tx = fixed_linear_tap(x, win.width, dst.width, align_corners);
  const int32_t t0 = linear_across_row(at(ty.i0, tx.i0), at(ty.i0, tx.i1), tx.across0, tx.across1);
  const int32_t t1 = linear_across_row(at(ty.i1, tx.i0), at(ty.i1, tx.i1), tx.across0, tx.across1);
  dst.at(b, c, y, x) = linear_down_byte(t0, t1, ty.down);
}

// One output byte (b, c, y, x) of resizing `win` of sample b to dst's size.
U8AUG_HD void resize_element(const ConstImage& src, const Image& dst, const Window& win, Interp mode,
                             bool align_corners, BlendOrder order, int64_t b, int64_t c, int64_t y, int64_t x) {
  if (nearest_mode(mode)) {
    const bool exact = mode == Interp::kNearestExact;
    const int64_t sy = nearest_index(y, win.height, dst.height, exact);
    const int64_t sx = nearest_index(x, win.width, dst.width, exact);
    dst.at(b, c, y, x) = src.at(b, c, win.y0 + sy, win.x0 + sx);
    return;
  }
  if (order == BlendOrder::kFast) order = fast_order(mode, win, dst.height, dst.width, align_corners);
  if (order == BlendOrder::kFast) {
    resize_fixed_element(src, dst, win, mode, align_corners, b, c, y, x);
    return;
  }
  auto at = [&](int64_t yy, int64_t xx) { return unit(src.at(b, c, win.y0 + yy, win.x0 + xx)); };
  dst.at(b, c, y, x) = to_u8(
      interpolated_value(at, win.height, win.width, dst.height, dst.width, mode, align_corners, order, y, x) * 255.0f);
}

// kornia's resize(antialias=True) resamples its float32 Gaussian-blurred image (pixel/filter.h's
// two passes, unquantized) and quantizes once: one output byte (b, c, y, x) from that image.
U8AUG_HD void resize_float_element(const ImageView<const float>& src, const Image& dst, Interp mode, bool align_corners,
                                   BlendOrder order, int64_t b, int64_t c, int64_t y, int64_t x) {
  auto at = [&](int64_t yy, int64_t xx) { return src.at(b, c, yy, xx); };
  float v;
  if (nearest_mode(mode)) {
    const bool exact = mode == Interp::kNearestExact;
    v = at(nearest_index(y, src.height, dst.height, exact), nearest_index(x, src.width, dst.width, exact));
  } else {
    v = interpolated_value(at, src.height, src.width, dst.height, dst.width, mode, align_corners, order, y, x);
  }
  dst.at(b, c, y, x) = to_u8(v * 255.0f);
}

// The CUDA kernel's body: one output byte, in memory order (each-index bodies: image.h). boxes:
// crop_and_resize's device-side boxes (8 floats a sample), or null for resize.
struct ResizeBody {
  ConstImage src;
  Image dst;
  const float* boxes;
  Interp mode;
  bool align_corners;
  CropBlendOrders orders;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    const Window win = boxes ? box_window(boxes + 8 * k.b, src.height, src.width) : Window{0, 0, src.height, src.width};
    resize_element(src, dst, win, mode, align_corners, crop_blend_order(orders, win, src.width), k.b, k.c, k.y, k.x);
  }
};

// The CUDA kernel's body of resize_antialias's resampling: one output byte from the blurred image.
struct ResizeFloatBody {
  ImageView<const float> src;
  Image dst;
  Interp mode;
  bool align_corners;
  BlendOrder order;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    resize_float_element(src, dst, mode, align_corners, order, k.b, k.c, k.y, k.x);
  }
};

}  // namespace u8aug
