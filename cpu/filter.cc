// Separable filters on the CPU (pixel/filter.h's arithmetic): per plane (planar) or per sample
// (interleaved rows: the W*C values of a row, taps C apart), each row is padded once into floats,
// the horizontal pass runs one fused multiply-add per tap over a vector of outputs into an
// L2-resident float image, and the vertical pass runs the same over whole rows of it, then
// quantizes. Targets without a native FMA (SSE4 and below) take each tap with the scalar tap() of
// pixel/filter.h (fused the same way); rows that are not consecutive bytes convert element by element.
// The fast tier's fixed point is filter_fixed-inl.h (FixedPlane), chosen per sample in FilterItems;
// boxes of an odd window run in integers (filter_box-inl.h, IntegerBoxPlane); the 3x3 median sorts
// columns once for three windows (filter_median-inl.h, Median3Plane).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/filter.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <vector>

#include "cpu/unit_lanes-inl.h"
#include "cpu/filter_rows-inl.h"
#include "cpu/filter_taps-inl.h"
#include "cpu/filter_fixed-inl.h"
#include "cpu/filter_box-inl.h"
#include "cpu/filter_median-inl.h"

#include "cpu/parallel.h"
#include "cpu/scratch.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/filter.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One plane (planar: channel c) or one interleaved sample (c = -1), quantized into dst.
void FilterPlane(const ConstImage& src, const Image& dst, FilterKernel kx, FilterKernel ky, Border border, int64_t b,
                 int64_t c, std::vector<float>& padded, std::vector<float>& rows, std::vector<uint8_t>& out_row) {
  const int64_t n = src.width * (c < 0 ? src.channels : 1);
  SeparablePasses(src, kx, ky, border, b, c, padded, rows, [&](int64_t y, const float* const* taps, const float* wy) {
    StoreRow(dst, b, c, y, n, out_row, [&](uint8_t* out) { TapColumns(taps, out, n, wy, ky.taps, ky.divisor); });
  });
}

// kornia's filter2d on one plane or interleaved sample: the padded rows as floats, then each output
// row one fused multiply-add per tap in row-major order over the rows' shifted views.
void Filter2dPlane(const ConstImage& src, const Image& dst, FilterKernel2d k, Border border, int64_t b, int64_t c,
                   std::vector<float>& padded, std::vector<uint8_t>& out_row) {
  const bool interleaved = c < 0;
  const int64_t step = interleaved ? src.channels : 1, w = src.width, h = src.height, n = w * step;
  const int64_t ry = filter_anchor(k.height), rx = k.width / 2, row_len = (w + 2 * rx) * step;
  const int64_t shift = (rx - filter_anchor(k.width)) * step;
  padded.resize(static_cast<size_t>(h * row_len));
  const RowBorders borders(w, rx, border);
  for (int64_t y = 0; y < h; ++y) PadRow(src, b, c, y, borders, padded.data() + y * row_len);
  std::vector<float> weights(static_cast<size_t>(k.height * k.width));
  for (int64_t t = 0; t < k.height * k.width; ++t) weights[static_cast<size_t>(t)] = k.weight(b, t);
  std::vector<const float*> taps(weights.size());
  for (int64_t y = 0; y < h; ++y) {
    for (int64_t i = 0; i < k.height; ++i) {
      const int64_t sy = border_source(y + i - ry, h, border);
      for (int64_t j = 0; j < k.width; ++j) {
        taps[static_cast<size_t>(i * k.width + j)] = sy < 0 ? nullptr : padded.data() + sy * row_len + shift + j * step;
      }
    }
    StoreRow(dst, b, c, y, n, out_row,
             [&](uint8_t* out) { TapColumns(taps.data(), out, n, weights.data(), k.height * k.width, k.divisor); });
  }
}

void Filter2dItems(const ConstImage& src, const Image& dst, FilterKernel2d k, Border border, bool interleaved,
                   int64_t begin, int64_t end) {
  thread_local std::vector<float> padded;  // cpu/scratch.h
  thread_local std::vector<uint8_t> out_row;
  for (int64_t item = begin; item < end; ++item) {
    const int64_t b = interleaved ? item : item / src.channels, c = interleaved ? -1 : item % src.channels;
    Filter2dPlane(src, dst, k, border, b, c, padded, out_row);
  }
  release_large_scratch(padded, out_row);
}

// Work items [begin, end): planes (b * C + c) or, interleaved, samples.
void FilterItems(const ConstImage& src, const Image& dst, FilterKernel kx, FilterKernel ky, Border border,
                 bool interleaved, int64_t begin, int64_t end) {
  thread_local std::vector<float> padded, rows;  // cpu/scratch.h
  thread_local std::vector<uint16_t> padded_q8, rows_q8;
  thread_local std::vector<uint8_t> out_row;
  for (int64_t item = begin; item < end; ++item) {
    const int64_t b = interleaved ? item : item / src.channels, c = interleaved ? -1 : item % src.channels;
    if (fixed_point_filter(kx, ky, b)) {
      FixedPlane(src, dst, kx, ky, border, b, c, padded_q8, rows_q8, out_row);
    } else {
      FilterPlane(src, dst, kx, ky, border, b, c, padded, rows, out_row);
    }
  }
  release_large_scratch(padded, rows, padded_q8, rows_q8, out_row);
}

void MedianItems(const ConstImage& src, const Image& dst, int64_t ky, int64_t kx, Border border, bool interleaved,
                 int64_t begin, int64_t end) {
  thread_local std::vector<uint8_t> gathered, columns, out_row;  // cpu/scratch.h
  for (int64_t item = begin; item < end; ++item) {
    const int64_t b = interleaved ? item : item / src.channels, c = interleaved ? -1 : item % src.channels;
    if (ky == 3 && kx == 3) {
      Median3Plane(src, dst, border, b, c, gathered, columns, out_row);
      continue;
    }
    for (int64_t ch = interleaved ? 0 : c; ch < (interleaved ? src.channels : c + 1); ++ch)
      for (int64_t y = 0; y < src.height; ++y)
        for (int64_t x = 0; x < src.width; ++x) dst.at(b, ch, y, x) = median_value(src, ky, kx, border, b, ch, y, x);
  }
  release_large_scratch(gathered, out_row);
}

void IntegerBoxItems(const ConstImage& src, const Image& dst, int64_t ky, int64_t kx, Border border,
                     BoxDivision division, bool interleaved, int64_t begin, int64_t end) {
  thread_local std::vector<uint16_t> padded, sums;  // cpu/scratch.h
  thread_local std::vector<uint8_t> out_row;
  for (int64_t item = begin; item < end; ++item) {
    const int64_t b = interleaved ? item : item / src.channels, c = interleaved ? -1 : item % src.channels;
    IntegerBoxPlane(src, dst, ky, kx, border, division, b, c, padded, sums, out_row);
  }
  release_large_scratch(padded, sums, out_row);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(FilterItems);
HWY_EXPORT(Filter2dItems);
HWY_EXPORT(MedianItems);
HWY_EXPORT(IntegerBoxItems);

namespace {

void run_separable(const char* op, const ConstImage& src, const Image& dst, FilterKernel kernel_x,
                   FilterKernel kernel_y, Border border, const ParallelFor& parallel) {
  detail::check_filter(op, src, dst, kernel_x, kernel_y, border);
  detail::check_filter_values(op, kernel_x, "kernel_x");
  detail::check_filter_values(op, kernel_y, "kernel_y");
  const bool interleaved = interleaved_rows(src);
  const int64_t items = interleaved ? src.batch : src.batch * src.channels;
  const int64_t per_item = (interleaved ? src.channels : 1) * src.height * src.width;
  run_parallel(parallel, items, grain_for(8 * per_item * (kernel_x.taps + kernel_y.taps)),
               [&](int64_t begin, int64_t end) {
                 HWY_DYNAMIC_DISPATCH(FilterItems)(src, dst, kernel_x, kernel_y, border, interleaved, begin, end);
               });
}

void run_2d(const char* op, const ConstImage& src, const Image& dst, FilterKernel2d kernel, Border border,
            const ParallelFor& parallel) {
  detail::check_filter2d(op, src, dst, kernel, border);
  detail::check_filter_values(op, FilterKernel{kernel.values, kernel.count, kernel.height * kernel.width}, "kernel");
  const bool interleaved = interleaved_rows(src);
  const int64_t items = interleaved ? src.batch : src.batch * src.channels;
  const int64_t per_item = (interleaved ? src.channels : 1) * src.height * src.width;
  run_parallel(parallel, items, grain_for(4 * per_item * kernel.height * kernel.width),
               [&](int64_t begin, int64_t end) {
                 HWY_DYNAMIC_DISPATCH(Filter2dItems)(src, dst, kernel, border, interleaved, begin, end);
               });
}

// box_division of each odd count up to kMaxIntegerBox, found once (each checks every sum).
BoxDivision box_division_of(int64_t count) {
  static const std::vector<BoxDivision> table = [] {
    std::vector<BoxDivision> t(kMaxIntegerBox + 1);
    for (int64_t n = 3; n <= kMaxIntegerBox; n += 2) t[n] = box_division(static_cast<uint32_t>(n));
    return t;
  }();
  return table[static_cast<size_t>(count)];
}

}  // namespace

void filter2d_separable(const ConstImage& src, const Image& dst, FilterKernel kernel_x, FilterKernel kernel_y,
                        Border border, const ParallelFor& parallel) {
  run_separable("filter2d_separable", src, dst, kernel_x, kernel_y, border, parallel);
}

void filter2d(const ConstImage& src, const Image& dst, FilterKernel2d kernel, Border border,
              const ParallelFor& parallel) {
  run_2d("filter2d", src, dst, kernel, border, parallel);
}

void box_blur_pooled(const ConstImage& src, const Image& dst, int64_t ky, int64_t kx, Border border, bool separable,
                     const ParallelFor& parallel) {
  const char* op = "box_blur_pooled";
  detail::check_box(op, ky, kx);
  const BoxDivision division = integer_box(ky, kx) ? box_division_of(ky * kx) : BoxDivision{};
  if (division.valid) {  // kornia's bytes in integers, whichever order it sums (pixel/filter.h)
    detail::check_filter(op, src, dst, box_kernel(kx), box_kernel(ky), border);
    const bool interleaved = interleaved_rows(src);
    const int64_t items = interleaved ? src.batch : src.batch * src.channels;
    const int64_t per_item = (interleaved ? src.channels : 1) * src.height * src.width;
    run_parallel(parallel, items, grain_for(per_item * (kx + ky)), [&](int64_t begin, int64_t end) {
      HWY_DYNAMIC_DISPATCH(IntegerBoxItems)(src, dst, ky, kx, border, division, interleaved, begin, end);
    });
    return;
  }
  if (separable) {
    run_separable(op, src, dst, box_kernel(kx), box_kernel(ky), border, parallel);
  } else {
    run_2d(op, src, dst, box_kernel2d(ky, kx), border, parallel);
  }
}

void median_blur(const ConstImage& src, const Image& dst, int64_t ky, int64_t kx, Border border,
                 const ParallelFor& parallel) {
  const char* op = "median_blur";
  detail::check_median(op, src, dst, ky, kx, border);
  const bool interleaved = interleaved_rows(src);
  const int64_t items = interleaved ? src.batch : src.batch * src.channels;
  const int64_t per_item = (interleaved ? src.channels : 1) * src.height * src.width;
  run_parallel(parallel, items, grain_for(per_item * ky * kx), [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(MedianItems)(src, dst, ky, kx, border, interleaved, begin, end);
  });
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
