// Per-target row helpers of the filters (filter.cc, sharpness.cc): a row of bytes as x / 255 floats
// (or the fast tier's Q8 values) with its border, and a quantized row back into any layout.
// Highway's per-target header convention.
#if defined(U8AUG_CPU_FILTER_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef U8AUG_CPU_FILTER_ROWS_INL_H_
#undef U8AUG_CPU_FILTER_ROWS_INL_H_
#else
#define U8AUG_CPU_FILTER_ROWS_INL_H_
#endif

#include <hwy/highway.h>

#include <vector>

#include "cpu/unit_lanes-inl.h"
#include "u8aug/image.h"
#include "u8aug/pixel/filter.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Where the `radius` border pixels each side of a row of w pixels copy from (border_source; -1:
// the constant border's zero), found once for the rows of a plane: border_source per pixel and row
// was 15% of the fast 5-tap blur's instructions (callgrind, AVX2, 32x3x224x224).
struct RowBorders {
  int64_t width = 0, radius = 0;
  std::vector<int64_t> left, right;  // the sources of pixels -radius + k and width + k

  RowBorders() = default;
  RowBorders(int64_t w, int64_t r, Border border)
      : width(w), radius(r), left(static_cast<size_t>(r)), right(static_cast<size_t>(r)) {
    for (int64_t k = 0; k < r; ++k) {
      left[static_cast<size_t>(k)] = border_source(k - r, w, border);
      right[static_cast<size_t>(k)] = border_source(w + k, w, border);
    }
  }
};

// The border pixels of a converted row (`row` at its first pixel, values `step` apart), from the
// row itself.
template <class T>
HWY_INLINE void FillRowBorders(T* row, int64_t step, const RowBorders& borders) {
  const int64_t r = borders.radius, w = borders.width;
  for (int64_t k = 0; k < r; ++k) {
    const int64_t left = borders.left[static_cast<size_t>(k)], right = borders.right[static_cast<size_t>(k)];
    for (int64_t i = 0; i < step; ++i) {
      row[(k - r) * step + i] = left < 0 ? T{0} : row[left * step + i];
      row[(w + k) * step + i] = right < 0 ? T{0} : row[right * step + i];
    }
  }
}

// Row y of plane c (c = -1: all channels of an interleaved sample, `step` = C apart) as x / 255
// floats into out, with the borders' pixels on each side (out holds (W + 2 radius) * step).
// Rows whose values are consecutive bytes (planar rows, densely interleaved pixels) convert by lanes.
HWY_INLINE void PadRow(const ConstImage& src, int64_t b, int64_t c, int64_t y, const RowBorders& borders, float* out) {
  const bool interleaved = c < 0;
  const int64_t step = interleaved ? src.channels : 1, w = src.width, n = w * step;
  float* row = out + borders.radius * step;
  int64_t i = 0;
  if (src.stride_w == step) {
    const hn::ScalableTag<float> d;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
    const uint8_t* p = &src.at(b, interleaved ? 0 : c, y, 0);
    for (; i + lanes <= n; i += lanes) hn::StoreU(UnitLanes(d, p + i), d, row + i);
    for (; i < n; ++i) row[i] = unit(p[i]);
  } else {
    for (; i < n; ++i) row[i] = unit(src.at(b, interleaved ? i % step : c, y, i / step));
  }
  FillRowBorders(row, step, borders);
}

// Row y of plane c (c = -1: interleaved) as 16-bit values x << kShift (8: the fast tier's Q8 values
// of pixel/filter.h's fixed point; 0: the bytes, for the integer boxes' sums), with the borders'
// pixels each side, as PadRow.
template <int kShift>
HWY_INLINE void PadRowU16(const ConstImage& src, int64_t b, int64_t c, int64_t y, const RowBorders& borders,
                          uint16_t* out) {
  const bool interleaved = c < 0;
  const int64_t step = interleaved ? src.channels : 1, w = src.width, n = w * step;
  uint16_t* row = out + borders.radius * step;
  int64_t i = 0;
  if (src.stride_w == step) {
    const uint8_t* p = &src.at(b, interleaved ? 0 : c, y, 0);
#if HWY_TARGET != HWY_SCALAR
    const hn::ScalableTag<uint16_t> d;
    const hn::Rebind<uint8_t, decltype(d)> d8;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
    for (; i + lanes <= n; i += lanes)
      hn::StoreU(hn::ShiftLeft<kShift>(hn::PromoteTo(d, hn::LoadU(d8, p + i))), d, row + i);
#endif
    for (; i < n; ++i) row[i] = static_cast<uint16_t>(p[i] << kShift);
  } else {
    for (; i < n; ++i) row[i] = static_cast<uint16_t>(src.at(b, interleaved ? i % step : c, y, i / step) << kShift);
  }
  FillRowBorders(row, step, borders);
}

// Runs vector(i) over [0, n) a vector at a time, the rest as one vector ending at n (its overlap
// recomputes the same values: a 224-byte row has 32 bytes left over 64-byte lanes, which a scalar
// loop took 8x longer on), or scalar(i) per element where n is under one vector.
template <class D, class Vector, class Scalar>
HWY_INLINE void ForEachVector(D d, int64_t n, const Vector& vector, const Scalar& scalar) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) vector(i);
  if (i < n && n >= lanes) i = n, vector(n - lanes);
  for (; i < n; ++i) scalar(i);
}

// Writes a quantized row of n values (TapColumns' output) to row y of plane c (c = -1: interleaved).
template <class Write>
HWY_INLINE void StoreRow(const Image& dst, int64_t b, int64_t c, int64_t y, int64_t n, std::vector<uint8_t>& out_row,
                         const Write& write) {
  const bool interleaved = c < 0;
  const int64_t step = interleaved ? dst.channels : 1;
  if (dst.stride_w == step && (!interleaved || dst.stride_c == 1)) {
    write(&dst.at(b, interleaved ? 0 : c, y, 0));
    return;
  }
  out_row.resize(static_cast<size_t>(n));
  write(out_row.data());
  for (int64_t x = 0; x < dst.width; ++x) {
    for (int64_t k = 0; k < step; ++k)
      dst.at(b, interleaved ? k : c, y, x) = out_row[static_cast<size_t>(x * step + k)];
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_FILTER_ROWS_INL_H_
