// resize.cc's bilinear source side (per target; Highway's per-target header convention): which
// float source rows an output row reads (UnitRows: the window's planes, or rows converted as they
// are first read), and how a vector of output columns reads its two taps from one (ColumnReader).
#if defined(U8AUG_CPU_RESIZE_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef U8AUG_CPU_RESIZE_ROWS_INL_H_
#undef U8AUG_CPU_RESIZE_ROWS_INL_H_
#else
#define U8AUG_CPU_RESIZE_ROWS_INL_H_
#endif

#include <hwy/highway.h>

#include <vector>

#include "cpu/resize_sample.h"
#include "cpu/unit_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_NATIVE_FMA
// How lanes [x, x + N) read a source row at their column taps x0 and x1: where the taps span less
// than four vectors (upscaling, and downscaling by up to about 4), permutes of the row vectors from
// the first tap, each lane taking the vector its tap lies in; gathers otherwise. A permute and a
// blend a vector beat a gather: a 375x500 photo cropped to 224 x 224 whole (a 2.2x shrink) took
// 0.26 ms with gathers and 0.11-0.17 with three vectors, AVX3_DL and AVX2 alike (Zen 4).
template <class D>
struct ColumnReader {
  // the loads end within a vector past the last tap, in the rows' margin
  static constexpr int kMaxVectors = 4;
  using DI = hn::RebindToSigned<D>;
  hn::Vec<DI> i0, i1;
  int32_t base = 0;
  int vectors = 0;  // row vectors read from base: 1 to kMaxVectors, or 0 for gathers
  using Idx = decltype(hn::IndicesFromVec(D(), hn::Zero(DI())));
  Idx p0, p1;
  hn::Mask<D> past0[kMaxVectors - 1], past1[kMaxVectors - 1];  // [k]: lanes whose tap lies past vector k

  ColumnReader(D d, const ResizeSample& s, int64_t x) {
    const DI di;
    const int32_t lanes = static_cast<int32_t>(hn::Lanes(d));
    i0 = hn::LoadU(di, s.x0.data() + x);
    i1 = hn::LoadU(di, s.x1.data() + x);
    base = s.x0[x];
    const int32_t span = s.x1[x + lanes - 1] - base;
    vectors = span < kMaxVectors * lanes ? span / lanes + 1 : 0;
    const auto r0 = hn::Sub(i0, hn::Set(di, vectors ? base : 0)), r1 = hn::Sub(i1, hn::Set(di, vectors ? base : 0));
    const auto last = hn::Set(di, lanes - 1);  // lanes is a power of two: r & last is r mod lanes
    p0 = hn::IndicesFromVec(d, hn::And(r0, last));
    p1 = hn::IndicesFromVec(d, hn::And(r1, last));
    for (int k = 0; k + 1 < kMaxVectors; ++k) {
      const auto end = hn::Set(di, (k + 1) * lanes);
      past0[k] = hn::RebindMask(d, hn::Not(hn::Lt(r0, end)));
      past1[k] = hn::RebindMask(d, hn::Not(hn::Lt(r1, end)));
    }
  }

  // The row's values at x0 and x1 (the reads may run into the rows' margin).
  HWY_INLINE void Read(D d, const float* row, hn::Vec<D>& v0, hn::Vec<D>& v1) const {
    if (vectors == 0) {
      v0 = hn::GatherIndex(d, row, i0);
      v1 = hn::GatherIndex(d, row, i1);
      return;
    }
    const auto first = hn::LoadU(d, row + base);
    v0 = hn::TableLookupLanes(first, p0);
    v1 = hn::TableLookupLanes(first, p1);
    for (int k = 1; k < vectors; ++k) {
      const auto next = hn::LoadU(d, row + base + k * static_cast<int32_t>(hn::Lanes(d)));
      v0 = hn::IfThenElse(past0[k - 1], hn::TableLookupLanes(next, p0), v0);
      v1 = hn::IfThenElse(past1[k - 1], hn::TableLookupLanes(next, p1), v1);
    }
  }
};

#endif

// The source rows bilinear reads: s.planes' rows or, with s.source, each converted as it is first
// read, into two slots a channel (an output row reads two source rows; later rows only move down).
class UnitRows {
 public:
  UnitRows(const ResizeSample& s, int64_t b) : s_(s), b_(b) {
    if (!s.source) return;
    stride_ = s.win.width + 64;  // + a vector's margin (ColumnReader's loads)
    rows_.resize(static_cast<size_t>(2 * s.channels * stride_));
    tags_.assign(static_cast<size_t>(2 * s.channels), -1);
  }
  // Makes source rows i0 and i1 of channel c readable (until the next call for c).
  void need(int64_t c, int64_t i0, int64_t i1) {
    if (!s_.source) return;
    const int64_t* tag = tags_.data() + 2 * c;
    const bool has0 = tag[0] == i0 || tag[1] == i0, has1 = tag[0] == i1 || tag[1] == i1;
    if (!has0) fill(c, tag[0] == i1 ? 1 : 0, i0);
    if (!has1 && i1 != i0) fill(c, tag[0] == i0 ? 1 : 0, i1);
  }
  const float* row(int64_t c, int64_t sy) const {
    if (!s_.source) return s_.row(c, sy);
    return rows_.data() + (2 * c + (tags_[static_cast<size_t>(2 * c)] == sy ? 0 : 1)) * stride_;
  }

 private:
  void fill(int64_t c, int slot, int64_t sy) {
    tags_[static_cast<size_t>(2 * c + slot)] = sy;
    UnitRow(*s_.source, b_, c, s_.win.y0 + sy, s_.win.x0, s_.win.width, rows_.data() + (2 * c + slot) * stride_);
  }
  const ResizeSample& s_;
  int64_t b_;
  int64_t stride_ = 0;
  std::vector<float> rows_;
  std::vector<int64_t> tags_;
};

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_RESIZE_ROWS_INL_H_
