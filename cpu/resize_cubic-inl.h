// resize.cc's bicubic rows (per target; Highway's per-target header convention): each source row
// an output row needs summed across its four column taps once, into a ring of four rows per channel,
// then four ring rows summed down, both in pixel/cubic.h's kPairFirst order, so the bytes are
// pixel/resize.h's bicubic_value.
#if defined(U8AUG_CPU_RESIZE_CUBIC_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef U8AUG_CPU_RESIZE_CUBIC_INL_H_
#undef U8AUG_CPU_RESIZE_CUBIC_INL_H_
#else
#define U8AUG_CPU_RESIZE_CUBIC_INL_H_
#endif

#include <hwy/highway.h>

#include <vector>

#include "cpu/resize_sample.h"
#include "cpu/unit_lanes-inl.h"
#include "u8aug/pixel/resize.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_NATIVE_FMA
// Bicubic's four column taps of lanes [x, x + N): all of them lie in [base, base + span], base the
// first lane's leftmost tap. Spans under two vectors (upscaling, and downscaling by little) are
// read as ColumnReader reads them, permutes of one or two row vectors; wider ones are gathered.
template <class D>
struct CubicColumnReader {
  using DI = hn::RebindToSigned<D>;
  using Idx = decltype(hn::IndicesFromVec(D(), hn::Zero(DI())));
  hn::Vec<DI> index[4];
  Idx p[4];
  hn::Mask<D> low[4];
  int32_t base = 0;
  int vectors = 0;

  CubicColumnReader(D d, const ResizeSample& s, int64_t x) {
    const DI di;
    const int32_t lanes = static_cast<int32_t>(hn::Lanes(d));
    base = s.cubic_x[0][x];
    const int32_t span = s.cubic_x[3][x + lanes - 1] - base;
    vectors = span < lanes ? 1 : (span < 2 * lanes ? 2 : 0);
    const auto last = hn::Set(di, lanes - 1), n = hn::Set(di, lanes);
    for (int k = 0; k < 4; ++k) {
      index[k] = hn::LoadU(di, s.cubic_x[k].data() + x);
      const auto r = hn::Sub(index[k], hn::Set(di, vectors ? base : 0));
      p[k] = hn::IndicesFromVec(d, hn::And(r, last));
      low[k] = hn::RebindMask(d, hn::Lt(r, n));
    }
  }

  // The row's values at the four taps (the reads may run into the planes' margin).
  HWY_INLINE void Read(D d, const float* row, hn::Vec<D> v[4]) const {
    if (vectors == 0) {
      for (int k = 0; k < 4; ++k) v[k] = hn::GatherIndex(d, row, index[k]);
      return;
    }
    const auto first = hn::LoadU(d, row + base);
    for (int k = 0; k < 4; ++k) v[k] = hn::TableLookupLanes(first, p[k]);
    if (vectors == 2) {
      const auto second = hn::LoadU(d, row + base + hn::Lanes(d));
      for (int k = 0; k < 4; ++k) v[k] = hn::IfThenElse(low[k], v[k], hn::TableLookupLanes(second, p[k]));
    }
  }
};

#endif

// Output rows [y_begin, y_end) of sample b, bicubic. Each source row an output row needs is summed
// across its column taps once, into a ring of four rows per channel (tagged with the source row)
// that the next output rows reuse; four ring rows are then summed down.
void BicubicRows(const ResizeSample& s, const Image& dst, int64_t b, bool align_corners, int64_t y_begin,
                 int64_t y_end) {
  const int64_t width = dst.width, channels = dst.channels;
  std::vector<float> across(static_cast<size_t>(4 * channels * width));
  int64_t tag[4] = {-1, -1, -1, -1};
  OutputRows out_rows(dst);
#if HWY_NATIVE_FMA
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const bool vector = width >= lanes;
#endif
  // each channel's source row and across row of the current sum_across, looked up once a row
  std::vector<const float*> rows_in(static_cast<size_t>(channels));
  std::vector<float*> rows_out(rows_in.size());
  auto sum_across = [&](int k, int64_t sy) {
#if HWY_NATIVE_FMA
    if (vector) {
      for (int64_t c = 0; c < channels; ++c) {
        rows_in[c] = s.row(c, sy);
        rows_out[c] = across.data() + (k * channels + c) * width;
      }
      // column blocks outside, channels inside: a block's taps and weights serve every channel
      for (int64_t x = 0;; x += lanes) {
        if (x + lanes > width) x = width - lanes;
        const CubicColumnReader<decltype(d)> columns(d, s, x);
        hn::Vec<decltype(d)> w[4];
        for (int j = 0; j < 4; ++j) w[j] = hn::LoadU(d, s.cubic_w[j].data() + x);
        for (int64_t c = 0; c < channels; ++c) {
          hn::Vec<decltype(d)> v[4];
          columns.Read(d, rows_in[c], v);
          const auto pair = hn::MulAdd(v[0], w[0], hn::Mul(v[1], w[1]));
          hn::StoreU(hn::MulAdd(v[3], w[3], hn::MulAdd(v[2], w[2], pair)), d, rows_out[c] + x);
        }
        if (x + lanes == width) break;
      }
      return;
    }
#endif
    for (int64_t c = 0; c < channels; ++c) {
      const float* row = s.row(c, sy);
      float* out = across.data() + (k * channels + c) * width;
      for (int64_t x = 0; x < width; ++x) {
        const float v[4] = {row[s.cubic_x[0][x]], row[s.cubic_x[1][x]], row[s.cubic_x[2][x]], row[s.cubic_x[3][x]]};
        out[x] = cubic_sum(v, CubicWeights{{s.cubic_w[0][x], s.cubic_w[1][x], s.cubic_w[2][x], s.cubic_w[3][x]}},
                           CubicSum::kPairFirst);
      }
    }
  };
  for (int64_t y = y_begin; y < y_end; ++y) {
    const CubicAxisTap ty = cubic_tap(y, s.win.height, dst.height, align_corners);
    int slot[4];
    for (int j = 0; j < 4; ++j) {
      int k = 0;
      while (k < 4 && tag[k] != ty.i[j]) ++k;
      if (k == 4) {  // replace the oldest row this output row does not need
        k = -1;
        for (int m = 0; m < 4; ++m) {
          bool needed = false;
          for (int n = 0; n < 4; ++n) needed = needed || tag[m] == ty.i[n];
          if (!needed && (k < 0 || tag[m] < tag[k])) k = m;
        }
        tag[k] = ty.i[j];
        sum_across(k, ty.i[j]);
      }
      slot[j] = k;
    }
    for (int64_t c = 0; c < channels; ++c) {
      uint8_t* out = out_rows.row(b, c, y);
      const float* r[4];
      for (int j = 0; j < 4; ++j) r[j] = across.data() + (slot[j] * channels + c) * width;
      int64_t x = 0;
#if HWY_NATIVE_FMA
      if (vector) {
        const auto w0 = hn::Set(d, ty.c.w[0]), w1 = hn::Set(d, ty.c.w[1]);
        const auto w2 = hn::Set(d, ty.c.w[2]), w3 = hn::Set(d, ty.c.w[3]);
        const auto down = [&](int64_t at) {
          const auto pair = hn::MulAdd(hn::LoadU(d, r[0] + at), w0, hn::Mul(hn::LoadU(d, r[1] + at), w1));
          return hn::MulAdd(hn::LoadU(d, r[3] + at), w3, hn::MulAdd(hn::LoadU(d, r[2] + at), w2, pair));
        };
        StoreU8Row(d, width, down, out);  // four vectors a store (unit_lanes-inl.h)
        continue;
      }
#endif
      for (; x < width; ++x) {
        const float v[4] = {r[0][x], r[1][x], r[2][x], r[3][x]};
        out[x] = to_u8(cubic_sum(v, ty.c, CubicSum::kPairFirst) * 255.0f);
      }
    }
    out_rows.flush(b, y);
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_RESIZE_CUBIC_INL_H_
