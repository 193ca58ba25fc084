// kornia.enhance.sharpness on the CPU (pixel/sharpness.h's arithmetic): per plane (planar) or per
// sample (interleaved rows, taps C apart), three rows at a time as x / 255 floats; each output of the
// interior is nine fused multiply-adds over a vector of outputs, the clamp and the blend, then
// quantized. The border rows and columns are the input's bytes. Targets without a native FMA take
// the scalar sharpness_value of every element.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/sharpness.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <vector>

#include "cpu/filter_rows-inl.h"
#include "cpu/unit_lanes-inl.h"

#include "cpu/parallel.h"
#include "cpu/scratch.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/sharpness.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Row y's outputs from its converted rows above, at and below (n values, neighbours `step` apart).
HWY_INLINE void SharpenRow(const float* up, const float* mid, const float* down, float factor, int64_t n, int64_t step,
                           uint8_t* out) {
  const float* rows[3] = {up, mid, down};
  int64_t i = 0;
  for (; i < step; ++i) out[i] = to_u8(mid[i] * 255.0f);  // the left border column: the input's bytes
  const int64_t end = n - step;
#if HWY_NATIVE_FMA
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto zero = hn::Zero(d), one = hn::Set(d, 1.0f), f = hn::Set(d, factor);
  const auto vector_at = [&](int64_t at) {
    auto acc = zero;
    for (int64_t r = 0; r < 3; ++r)
      for (int64_t j = 0; j < 3; ++j)
        acc = hn::MulAdd(hn::LoadU(d, rows[r] + at + (j - 1) * step), hn::Set(d, sharpness_tap(r * 3 + j)), acc);
    const auto degenerate = hn::Min(hn::Max(acc, zero), one);
    const auto x = hn::LoadU(d, mid + at);
    const auto mixed = hn::Add(degenerate, hn::Mul(hn::Sub(x, degenerate), f));
    StoreU8Lanes(d, hn::Min(hn::Max(mixed, zero), one), out + at);
  };
  for (; i + lanes <= end; i += lanes) vector_at(i);
  // the rest as one vector ending at the interior's end (its overlap recomputes the same bytes)
  if (i < end && end - step >= lanes) vector_at(end - lanes), i = end;
#endif
  for (; i < end; ++i) {
    float acc = 0.0f;
    for (int64_t r = 0; r < 3; ++r)
      for (int64_t j = 0; j < 3; ++j) acc = tap(acc, rows[r][i + (j - 1) * step], sharpness_tap(r * 3 + j));
    out[i] = to_u8(sharpness_mix(acc, mid[i], factor) * 255.0f);
  }
  for (; i < n; ++i) out[i] = to_u8(mid[i] * 255.0f);  // the right border column
}

void SharpenPlane(const ConstImage& src, const Image& dst, float factor, int64_t b, int64_t c, std::vector<float>& rows,
                  std::vector<uint8_t>& out_row) {
  const bool interleaved = c < 0;
  const int64_t step = interleaved ? src.channels : 1, h = src.height, n = src.width * step;
  rows.resize(static_cast<size_t>(3 * n));
  auto row = [&](int64_t y) { return rows.data() + (y % 3) * n; };  // rows y - 1, y, y + 1 in turn
  PadRow(src, b, c, 0, RowBorders{}, row(0));
  PadRow(src, b, c, 1, RowBorders{}, row(1));
  const auto copy = [&](const float* in) {
    return [&, in](uint8_t* out) {
      for (int64_t i = 0; i < n; ++i) out[i] = to_u8(in[i] * 255.0f);
    };
  };
  StoreRow(dst, b, c, 0, n, out_row, copy(row(0)));
  for (int64_t y = 1; y + 1 < h; ++y) {
    PadRow(src, b, c, y + 1, RowBorders{}, row(y + 1));
    StoreRow(dst, b, c, y, n, out_row,
             [&](uint8_t* out) { SharpenRow(row(y - 1), row(y), row(y + 1), factor, n, step, out); });
  }
  StoreRow(dst, b, c, h - 1, n, out_row, copy(row(h - 1)));
}

void SharpnessItems(const ConstImage& src, const Image& dst, Samples factor, bool interleaved, int64_t begin,
                    int64_t end) {
  thread_local std::vector<float> rows;  // cpu/scratch.h
  thread_local std::vector<uint8_t> out_row;
  for (int64_t item = begin; item < end; ++item) {
    const int64_t b = interleaved ? item : item / src.channels, c = interleaved ? -1 : item % src.channels;
    SharpenPlane(src, dst, factor[b], b, c, rows, out_row);
  }
  release_large_scratch(rows, out_row);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(SharpnessItems);

void sharpness(const ConstImage& src, const Image& dst, Samples factor, const ParallelFor& parallel) {
  const char* op = "sharpness";
  detail::check_sharpness(op, src, dst, factor);
  detail::check_sample_values(op, "factor", factor, -std::numeric_limits<float>::max(),
                              std::numeric_limits<float>::max());
  const bool interleaved = interleaved_rows(src);
  const int64_t items = interleaved ? src.batch : src.batch * src.channels;
  const int64_t per_item = (interleaved ? src.channels : 1) * src.height * src.width;
  run_parallel(parallel, items, grain_for(12 * per_item), [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(SharpnessItems)(src, dst, factor, interleaved, begin, end);
  });
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
