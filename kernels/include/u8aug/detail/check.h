// Argument checks of the standalone C++ API, shared by the CPU and CUDA entry points. Host only.
// Every failure throws std::invalid_argument with a message that names the op, the argument and
// what was expected; nothing is written before the checks pass.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "u8aug/image.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace detail {

[[noreturn]] inline void fail(const char* op, const std::string& what) {
  throw std::invalid_argument(std::string("u8aug.") + op + ": " + what);
}

template <class T>
void check_view(const char* op, const char* name, const ImageView<T>& v) {
  if (v.data == nullptr) fail(op, std::string(name) + " has a null data pointer");
  if (v.batch < 1 || v.channels < 1 || v.height < 1 || v.width < 1) {
    fail(op, std::string(name) + " must have every dimension >= 1, got (B, C, H, W) = (" + std::to_string(v.batch) +
                 ", " + std::to_string(v.channels) + ", " + std::to_string(v.height) + ", " + std::to_string(v.width) +
                 ")");
  }
  if (v.stride_b < 0 || v.stride_c < 0 || v.stride_h < 0 || v.stride_w < 0) {
    fail(op, std::string(name) + " has a negative stride");
  }
}

// An output view must give every element its own bytes: a view whose elements alias (a stride 0,
// or a padded layout whose strides do not leave room for the dimension inside them) would be
// written twice, in an order of the kernel's choosing. Sufficient and exact for every dense or
// padded layout: sorted by stride, each dimension's stride exceeds the span of the ones inside it.
template <class T>
void check_output_view(const char* op, const ImageView<T>& v) {
  check_view(op, "dst", v);
  struct Dim {
    int64_t size, stride;
  } dims[4] = {{v.batch, v.stride_b}, {v.channels, v.stride_c}, {v.height, v.stride_h}, {v.width, v.stride_w}};
  std::sort(dims, dims + 4, [](const Dim& a, const Dim& b) { return a.stride < b.stride; });
  int64_t span = 0;  // the largest offset the inner dimensions reach
  for (const Dim& d : dims) {
    if (d.size == 1) continue;
    if (d.stride <= span) fail(op, "dst has overlapping elements (its strides alias); outputs need distinct bytes");
    span += (d.size - 1) * d.stride;
  }
}

// [first, last] byte addresses a view can touch.
template <class T>
void byte_span(const ImageView<T>& v, uintptr_t* first, uintptr_t* last) {
  const int64_t extent = (v.batch - 1) * v.stride_b + (v.channels - 1) * v.stride_c + (v.height - 1) * v.stride_h +
                         (v.width - 1) * v.stride_w;
  *first = reinterpret_cast<uintptr_t>(v.data);
  *last = *first + static_cast<uintptr_t>(extent) * sizeof(T) + sizeof(T) - 1;
}

// The output must not be written through a view that shares any byte with the input: a kernel
// would read pixels it has already overwritten.
template <class S, class D>
void check_disjoint(const char* op, const ImageView<S>& src, const ImageView<D>& dst) {
  uintptr_t s0, s1, d0, d1;
  byte_span(src, &s0, &s1);
  byte_span(dst, &d0, &d1);
  if (std::max(s0, d0) <= std::min(s1, d1)) fail(op, "dst overlaps src; in-place is not supported");
}

// src and dst: valid views of one (B, C, H, W) shape that do not overlap.
template <class S, class D>
void check_unary(const char* op, const ImageView<S>& src, const ImageView<D>& dst) {
  check_view(op, "src", src);
  check_output_view(op, dst);
  if (!same_shape(src, dst)) fail(op, "src and dst must have the same (B, C, H, W) shape");
  check_disjoint(op, src, dst);
}

// Grayscale: dst has src's B, H and W, and 1 channel (rgb_to_grayscale, which needs 3 input
// channels as kornia does) or src's channel count (grayscale).
inline void check_gray(const char* op, const ConstImage& src, const Image& dst, bool rgb_to_gray) {
  check_view(op, "src", src);
  check_output_view(op, dst);
  if (rgb_to_gray && src.channels != 3) {
    fail(op, "expected 3 (RGB) channels as kornia does, got " + std::to_string(src.channels));
  }
  if (dst.channels != (rgb_to_gray ? 1 : src.channels)) {
    fail(op, rgb_to_gray ? "dst must have 1 channel" : "dst must have src's channel count");
  }
  if (dst.batch != src.batch || dst.height != src.height || dst.width != src.width) {
    fail(op, "src and dst must have the same B, H and W");
  }
  check_disjoint(op, src, dst);
}

// Colour ops: src and dst of one shape with 3 (RGB) channels, not overlapping.
template <class S, class D>
void check_rgb(const char* op, const ImageView<S>& src, const ImageView<D>& dst) {
  check_unary(op, src, dst);
  if (src.channels != 3) {
    fail(op, "expected 3 (RGB) channels as kornia does, got " + std::to_string(src.channels));
  }
}

// select_samples: a, b and dst of one shape, dst overlapping neither, a non-null mask. (a and b
// may overlap each other: both are only read.)
inline void check_select(const char* op, const bool* take, const ConstImage& a, const ConstImage& b, const Image& dst) {
  check_unary(op, a, dst);
  check_unary(op, b, dst);
  if (take == nullptr) fail(op, "take has a null pointer");
}

// A broadcasting parameter: count 1 or `n` (B for per-sample values, C for per-channel ones),
// non-null.
inline void check_samples(const char* op, const char* name, const Values& s, int64_t n, const char* n_name = "B") {
  if (s.count != 1 && s.count != n) {
    fail(op, std::string(name) + " must hold 1 or " + n_name + " = " + std::to_string(n) + " values, got " +
                 std::to_string(s.count));
  }
  if (s.values == nullptr) fail(op, std::string(name) + " has a null pointer");
}

inline std::string number(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
  return buf;
}

// Host-readable parameters: every value finite and inside [lo, hi] (an infinite or float-max
// bound is no bound); integral when asked.
inline void check_sample_values(const char* op, const char* name, const Values& s, float lo, float hi,
                                bool integral = false, bool nonzero = false) {
  const float big = std::numeric_limits<float>::max();
  for (int64_t i = 0; i < s.count; ++i) {
    const float v = s.values[i];
    const std::string where = s.count == 1 ? std::string() : " (sample " + std::to_string(i) + ")";
    if (!std::isfinite(v)) fail(op, std::string(name) + " must be finite, got " + number(v) + where);
    if (v < lo || v > hi) {
      const std::string range = hi >= big    ? ">= " + number(lo)
                                : lo <= -big ? "<= " + number(hi)
                                             : "in [" + number(lo) + ", " + number(hi) + "]";
      fail(op, std::string(name) + " must be " + range + ", got " + number(v) + where);
    }
    if (nonzero && v == 0.0f) fail(op, std::string(name) + " must not be 0" + where);
    if (integral && v != std::floor(v)) {
      fail(op, std::string(name) + " must be an integer, got " + number(v) + where);
    }
  }
}

// A Fidelity from a cast integer (the C API takes any value of the enum's type).
inline void check_fidelity(const char* op, Fidelity fidelity) {
  if (fidelity != Fidelity::kExact && fidelity != Fidelity::kFast) {
    fail(op,
         "fidelity must be Fidelity::kExact or Fidelity::kFast, got " + std::to_string(static_cast<int32_t>(fidelity)));
  }
}

// ColorJiggle: an RGB image, four per-sample factors (1 or B values each) and at most 4 steps.
template <class P>
void check_jiggle(const char* op, const ConstImage& src, const Image& dst, const P& params) {
  check_rgb(op, src, dst);
  check_fidelity(op, params.fidelity);
  check_samples(op, "brightness", params.brightness, src.batch);
  check_samples(op, "contrast", params.contrast, src.batch);
  check_samples(op, "saturation", params.saturation, src.batch);
  check_samples(op, "hue", params.hue, src.batch);
  if (params.order_count < 0 || params.order_count > 4 || (params.order_count > 0 && !params.order)) {
    fail(op, "order must hold 0 to 4 step indices, got " + std::to_string(params.order_count));
  }
}

// ColorJiggle's and ColorJitter's factor values (kornia's ranges) and its order.
inline void check_jiggle_values(const char* op, const JiggleParams& params, float max_brightness) {
  const float big = std::numeric_limits<float>::max();
  check_sample_values(op, "brightness", params.brightness, 0.0f, max_brightness);
  check_sample_values(op, "contrast", params.contrast, 0.0f, big);
  check_sample_values(op, "saturation", params.saturation, 0.0f, big);
  check_sample_values(op, "hue", params.hue, -0.5f, 0.5f);
  bool seen[4] = {false, false, false, false};
  for (int64_t i = 0; i < params.order_count; ++i) {
    const int64_t s = params.order[i];
    if (s < 0 || s > 3 || seen[s]) {
      fail(op, "order must list distinct steps from 0 to 3, got " + std::to_string(s) + " at position " +
                   std::to_string(i));
    }
    seen[s] = true;
  }
}

// Separable filters: src and dst of one shape, kernels of an odd number of taps for 1 or B samples,
// and a border F.pad accepts for the kernel's radius (reflect: radius < size; circular: <= size).
inline void check_filter_kernel(const char* op, const char* name, const FilterKernel& k, int64_t batch, int64_t size,
                                Border border, const char* axis) {
  if (k.count != 1 && k.count != batch) {
    fail(op, std::string(name) + " must hold 1 or B = " + std::to_string(batch) + " kernels, got " +
                 std::to_string(k.count));
  }
  if (k.taps < 1) fail(op, std::string(name) + " must have at least one tap, got " + std::to_string(k.taps));
  if (!(k.divisor > 0.0f) || !std::isfinite(k.divisor)) fail(op, std::string(name) + " needs a positive divisor");
  const int64_t radius = k.taps / 2;
  if ((border == Border::kReflect && radius >= size) || (border == Border::kCircular && radius > size)) {
    fail(op, std::string("a ") + std::to_string(k.taps) + "-tap kernel needs a " + axis + " of more than " +
                 std::to_string(border == Border::kReflect ? radius : radius - 1) +
                 (border == Border::kReflect ? " for reflect" : " for circular") + " padding, got " +
                 std::to_string(size));
  }
}
inline void check_filter(const char* op, const ConstImage& src, const Image& dst, const FilterKernel& kx,
                         const FilterKernel& ky, Border border) {
  check_unary(op, src, dst);
  if (static_cast<int32_t>(border) < 0 || static_cast<int32_t>(border) > 3) fail(op, "unknown border type");
  check_fidelity(op, kx.fidelity);
  check_fidelity(op, ky.fidelity);
  check_filter_kernel(op, "kernel_x", kx, src.batch, src.width, border, "width");
  check_filter_kernel(op, "kernel_y", ky, src.batch, src.height, border, "height");
}
inline void check_filter2d(const char* op, const ConstImage& src, const Image& dst, const FilterKernel2d& k,
                           Border border) {
  check_unary(op, src, dst);
  check_fidelity(op, k.fidelity);
  if (static_cast<int32_t>(border) < 0 || static_cast<int32_t>(border) > 3) fail(op, "unknown border type");
  if (k.height < 1 || k.width < 1) {
    fail(op, "kernel must have at least one row and column, got " + std::to_string(k.height) + " x " +
                 std::to_string(k.width));
  }
  FilterKernel row{k.values, k.count, k.width}, column{k.values, k.count, k.height};
  row.divisor = column.divisor = k.divisor;
  check_filter_kernel(op, "kernel", row, src.batch, src.width, border, "width");
  check_filter_kernel(op, "kernel", column, src.batch, src.height, border, "height");
}
inline void check_median(const char* op, const ConstImage& src, const Image& dst, int64_t ky, int64_t kx,
                         Border border) {
  check_unary(op, src, dst);
  if (static_cast<int32_t>(border) < 0 || static_cast<int32_t>(border) > 3) fail(op, "unknown border type");
  if (ky < 1 || kx < 1 || ky % 2 == 0 || kx % 2 == 0 || ky * kx > kMaxMedianTaps) {
    fail(op, "kernel_size must be odd, at least 1 and at most 15 x 15 values, got " + std::to_string(ky) + " x " +
                 std::to_string(kx));
  }
  const float one = 1.0f;
  check_filter_kernel(op, "kernel_size", FilterKernel{&one, 1, kx}, src.batch, src.width, border, "width");
  check_filter_kernel(op, "kernel_size", FilterKernel{&one, 1, ky}, src.batch, src.height, border, "height");
}
// Sharpness: a per-sample factor, an image of at least 3 x 3 (kornia's valid 3x3 convolution).
inline void check_sharpness(const char* op, const ConstImage& src, const Image& dst, const Samples& factor) {
  check_unary(op, src, dst);
  check_samples(op, "factor", factor, src.batch);
  if (src.height < 3 || src.width < 3) {
    fail(op, "img must be at least 3 x 3 (kornia's 3x3 kernel), got " + std::to_string(src.height) + " x " +
                 std::to_string(src.width));
  }
}
// Offsets: a float32 view of src's (B, C, H, W) shape (stride_b 0 broadcasts one over the batch),
// not overlapping dst.
inline void check_offset(const char* op, const ConstImage& src, const ImageView<const float>& offset,
                         const Image& dst) {
  check_unary(op, src, dst);
  check_view(op, "offset", offset);
  if (!same_shape(src, offset)) fail(op, "offset must have img's (B, C, H, W) shape");
  check_disjoint(op, offset, dst);
}
// The plasma classes: a map of img's shape (stride_b 0 for one map, stride_c 0 for one channel) and
// the values the kind reads (contrast reads none).
inline void check_plasma(const char* op, const ConstImage& src, const ImageView<const float>& plasma,
                         const PlasmaParams& params, const Image& dst) {
  check_unary(op, src, dst);
  check_view(op, "plasma", plasma);
  if (!same_shape(src, plasma)) fail(op, "plasma must have img's (B, C, H, W) shape");
  check_disjoint(op, plasma, dst);
  switch (params.kind) {
    case PlasmaKind::kBrightness: check_samples(op, "intensity", params.a, src.batch); break;
    case PlasmaKind::kContrast: break;
    case PlasmaKind::kShadow:
      check_samples(op, "shade_intensity", params.a, src.batch);
      check_samples(op, "shade_quantity", params.b, src.batch);
      break;
    default: fail(op, "unknown plasma kind " + std::to_string(static_cast<int32_t>(params.kind)));
  }
}
// RandomRain: the drawn tensors' pointers (their values are checked by the CPU backend, which reads them).
inline void check_rain(const char* op, const ConstImage& src, const Image& dst, const RainDrops& drops) {
  check_unary(op, src, dst);
  if (drops.max_drops < 0) fail(op, "max_drops must be >= 0, got " + std::to_string(drops.max_drops));
  if (drops.drops == nullptr || drops.heights == nullptr || drops.widths == nullptr ||
      (drops.coordinates == nullptr && drops.max_drops > 0)) {
    fail(op, "a drop parameter has a null pointer");
  }
}
// RandomClahe: a positive grid smaller than the image (kornia's rule; the reflected padding it then
// needs is always shorter than the image), tiles of at most 2^24 pixels (kornia's float32 counts
// stay exact), one clip limit per sample or one for all.
inline void check_clahe(const char* op, const ConstImage& src, const Image& dst, const ClaheParams& params) {
  check_unary(op, src, dst);
  const std::string grid = "(" + std::to_string(params.tiles_h) + ", " + std::to_string(params.tiles_w) + ")";
  if (params.tiles_h <= 0 || params.tiles_w <= 0) fail(op, "grid_size must be positive, got " + grid);
  if (src.height <= params.tiles_h || src.width <= params.tiles_w) {
    fail(op, "cannot tile a " + std::to_string(src.height) + "x" + std::to_string(src.width) + " image by a " + grid +
                 " grid: the smallest image this grid admits is (" + std::to_string(params.tiles_h + 1) + ", " +
                 std::to_string(params.tiles_w + 1) + ")");
  }
  const ClaheGrid g = clahe_grid(src.height, src.width, params.tiles_h, params.tiles_w);
  if (g.tile_h * g.tile_w > (int64_t{1} << 24)) {
    fail(op, "tiles of more than 2^24 pixels are not supported (kornia counts in float32), got " +
                 std::to_string(g.tile_h) + "x" + std::to_string(g.tile_w));
  }
  check_samples(op, "clip", params.clip, src.batch);
}
// RandomJPEG: three channels, the quantization tables of 1 or B samples; on the host (CPU) every
// step positive and finite (a zero step divides by zero).
inline void check_jpeg(const char* op, const ConstImage& src, const Image& dst, const JpegParams& params) {
  check_rgb(op, src, dst);
  const JpegTables& t = params.tables;
  if (t.count != 1 && t.count != src.batch) {
    fail(op, "quantization tables must be given for 1 or B = " + std::to_string(src.batch) + " samples, got " +
                 std::to_string(t.count));
  }
  if (t.values == nullptr) fail(op, "the quantization tables have a null pointer");
}
inline void check_jpeg_table_values(const char* op, const JpegTables& t) {
  for (int64_t i = 0; i < t.count * 128; ++i) {
    if (!(std::isfinite(t.values[i]) && t.values[i] > 0.0f)) {
      fail(op, "quality: every quantization step must be positive and finite, got " + number(t.values[i]));
    }
  }
}
// plasma_level: grids of at least 2 x 2 (kornia's seed grid is at least 3 x 3), non-null arrays.
inline void check_plasma_level(const char* op, const PlasmaLevel& level) {
  if (level.maps < 0) fail(op, "the map count must be >= 0, got " + std::to_string(level.maps));
  if (level.height < 2 || level.width < 2) {
    fail(op, "grids must be at least 2 x 2, got " + std::to_string(level.height) + "x" + std::to_string(level.width));
  }
  if (level.maps > 0 && (!level.grid || !level.scale || !level.draws || !level.out)) {
    fail(op, "an array has a null pointer");
  }
}
// RandomSnow: three channels and the two per-sample values.
inline void check_snow(const char* op, const ConstImage& src, const Image& dst, const SnowParams& params) {
  check_rgb(op, src, dst);
  check_samples(op, "coefficient", params.coefficient, src.batch);
  check_samples(op, "brightness", params.brightness, src.batch);
}
// Erasing: one box (4 corners' values) per sample or one for the batch, and the fill values.
inline void check_erase(const char* op, const ConstImage& src, const Image& dst, const Boxes& boxes,
                        const Samples& values) {
  check_unary(op, src, dst);
  if (boxes.corners == nullptr) fail(op, "boxes has a null pointer");
  if (boxes.count != 1 && boxes.count != src.batch) {
    fail(op, "boxes must hold 1 or B = " + std::to_string(src.batch) + " boxes, got " + std::to_string(boxes.count));
  }
  check_samples(op, "values", values, src.batch);
}
// The mixes read other samples of src, so dst must overlap none of it (check_unary).
inline void check_mix_up(const char* op, const ConstImage& src, const Image& dst, const MixUpParams& p) {
  check_unary(op, src, dst);
  if (p.pairs == nullptr) fail(op, "pairs has a null pointer");
  check_samples(op, "lambdas", p.lambdas, src.batch);
}
inline void check_paste(const char* op, const ConstImage& src, const Image& dst, const PasteParams& p) {
  check_unary(op, src, dst);
  if (p.mixes < 0) fail(op, "mixes must be >= 0, got " + std::to_string(p.mixes));
  if (p.mixes > 0 && (p.sources == nullptr || p.boxes == nullptr)) fail(op, "sources and boxes must not be null");
}
// A box's window: at least 1 x 1 (the border's limits are check_filter's).
inline void check_box(const char* op, int64_t ky, int64_t kx) {
  if (ky < 1 || kx < 1) {
    fail(op, "kernel_size must be at least 1 x 1, got " + std::to_string(ky) + " x " + std::to_string(kx));
  }
}
// Host-readable kernels (the CPU): every tap finite.
inline void check_filter_values(const char* op, const FilterKernel& k, const char* name) {
  if (k.values == nullptr) return;  // a box: unit taps
  for (int64_t i = 0; i < k.count * k.taps; ++i) {
    if (!std::isfinite(k.values[i])) fail(op, std::string(name) + " must be finite, got " + number(k.values[i]));
  }
}

// Geometry: src and dst of one batch and channel count, any spatial sizes, not overlapping.
inline void check_resampled(const char* op, const ConstImage& src, const Image& dst) {
  check_view(op, "src", src);
  check_output_view(op, dst);
  if (src.batch != dst.batch || src.channels != dst.channels) {
    fail(op, "src and dst must have the same batch size and channel count");
  }
  check_disjoint(op, src, dst);
}
// grid_sample: dst has the grid's H' x W' and src's B and C; one grid or one per sample;
// bilinear or nearest; zeros, border or reflection padding (a fill is the warps').
// grid_sample's modes: nearest, bilinear, bicubic (nearest-exact is an interpolate mode only).
inline void check_grid_mode(const char* op, Interp mode) {
  if (mode != Interp::kNearest && mode != Interp::kBilinear && mode != Interp::kBicubic) {
    fail(op, "mode must be nearest, bilinear or bicubic");
  }
}

inline void check_grid_sample(const char* op, const ConstImage& src, const Image& dst, const SampleGrid& grid,
                              Interp mode, Padding padding) {
  check_resampled(op, src, dst);
  if (grid.data == nullptr) fail(op, "grid has a null pointer");
  if (grid.count != 1 && grid.count != src.batch) {
    fail(op, "grid must hold 1 or B = " + std::to_string(src.batch) + " grids, got " + std::to_string(grid.count));
  }
  if (grid.height != dst.height || grid.width != dst.width) fail(op, "dst must have the grid's height and width");
  check_grid_mode(op, mode);
  if (padding != Padding::kZeros && padding != Padding::kBorder && padding != Padding::kReflection) {
    fail(op, "padding_mode must be zeros, border or reflection");
  }
}

// elastic_transform: dst and the noise have src's size; one field or one per sample; kernels of at
// least one tap; grid_sample's modes and paddings.
inline void check_elastic(const char* op, const ConstImage& src, const Image& dst, const ElasticParams& p) {
  check_resampled(op, src, dst);
  if (dst.height != src.height || dst.width != src.width) fail(op, "dst must have src's height and width");
  if (p.noise == nullptr) fail(op, "noise has a null pointer");
  if (p.count != 1 && p.count != src.batch) {
    fail(op, "noise must hold 1 or B = " + std::to_string(src.batch) + " fields, got " + std::to_string(p.count));
  }
  if (p.kernel_x == nullptr || p.kernel_y == nullptr) fail(op, "a kernel has a null pointer");
  if (p.alpha == nullptr) fail(op, "alpha has a null pointer");
  if (p.taps_x < 1 || p.taps_y < 1) fail(op, "the kernels must have at least one tap");
  check_grid_mode(op, p.mode);
  if (p.padding != Padding::kZeros && p.padding != Padding::kBorder && p.padding != Padding::kReflection) {
    fail(op, "padding_mode must be zeros, border or reflection");
  }
}

template <class P>
void check_warp(const char* op, const ConstImage& src, const Image& dst, const P& p) {
  check_resampled(op, src, dst);
  check_fidelity(op, p.fidelity);
  if (p.matrices == nullptr) fail(op, "M has a null pointer");
  if (p.count != 1 && p.count != src.batch) {
    fail(op, "M must hold 1 or B = " + std::to_string(src.batch) + " matrices, got " + std::to_string(p.count));
  }
  check_grid_mode(op, p.mode);
  if (static_cast<int>(p.padding) < 0 || static_cast<int>(p.padding) > 3) {
    fail(op, "padding_mode must be zeros, border, reflection or fill");
  }
  if (p.padding == Padding::kFill) check_samples(op, "fill", p.fill, src.channels, "C");
}

inline void check_interp(const char* op, Interp mode, bool align_corners) {
  if (static_cast<int>(mode) < 0 || static_cast<int>(mode) > 3) {
    fail(op, "mode must be nearest, nearest-exact, bilinear or bicubic");
  }
  if ((mode == Interp::kNearest || mode == Interp::kNearestExact) && align_corners) {
    fail(op, "align_corners applies to bilinear and bicubic only (torch rejects it for nearest modes)");
  }
}

inline void check_blend_orders(const char* op, CropBlendOrders orders) {
  for (BlendOrder o : {orders.slice, orders.whole_rows}) {
    if (static_cast<int>(o) < 0 || static_cast<int>(o) > 3) {
      fail(op, "order must be BlendOrder::kSeparable, kCorners, kSeparableUnfusedIndex or kFast");
    }
  }
}

// resize_antialias: a resize's images and mode, and Gaussian kernels of the separable filters' rules
// over the reflect border (kornia's gaussian_blur2d before its resize).
inline void check_resize_antialias(const char* op, const ConstImage& src, const Image& dst, const FilterKernel& kx,
                                   const FilterKernel& ky, Interp mode, bool align_corners, BlendOrder order) {
  check_resampled(op, src, dst);
  check_interp(op, mode, align_corners);
  check_blend_orders(op, CropBlendOrders{order, order});
  if (order == BlendOrder::kFast) fail(op, "has no fast tier: order must be one of torch's (not BlendOrder::kFast)");
  check_filter_kernel(op, "kernel_x", kx, src.batch, src.width, Border::kReflect, "width");
  check_filter_kernel(op, "kernel_y", ky, src.batch, src.height, Border::kReflect, "height");
}

inline void check_pad(const char* op, const ConstImage& src, const Image& dst, const PadSpec& p) {
  check_resampled(op, src, dst);
  if (p.left < 0 || p.right < 0 || p.top < 0 || p.bottom < 0) fail(op, "padding must be >= 0");
  if (dst.height != src.height + p.top + p.bottom || dst.width != src.width + p.left + p.right) {
    fail(op, "dst must be src's size plus the padding");
  }
  if (static_cast<int>(p.mode) < 0 || static_cast<int>(p.mode) > 2) {
    fail(op, "mode must be constant, reflect or replicate");
  }
  if (p.mode == PadMode::kReflect &&
      (p.left >= src.width || p.right >= src.width || p.top >= src.height || p.bottom >= src.height)) {
    fail(op, "reflect padding must be smaller than the image side it reflects (as torch requires)");
  }
}

inline void check_rot90(const char* op, const ConstImage& src, const Image& dst, int k) {
  check_resampled(op, src, dst);
  const bool odd = (((k % 4) + 4) % 4) % 2 == 1;
  const int64_t h = odd ? src.width : src.height, w = odd ? src.height : src.width;
  if (dst.height != h || dst.width != w) fail(op, "dst must be src's size turned by k quarter turns");
}

}  // namespace detail
}  // namespace u8aug
