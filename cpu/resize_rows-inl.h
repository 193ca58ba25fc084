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
// than two vectors (upscaling, and downscaling by little), permutes of the one or two row vectors
// from the first tap (with a blend); gathers otherwise.
template <class D>
struct ColumnReader {
  using DI = hn::RebindToSigned<D>;
  hn::Vec<DI> i0, i1;
  int32_t base = 0;
  int vectors = 0;  // row vectors read from base: 1, 2, or 0 for gathers
  using Idx = decltype(hn::IndicesFromVec(D(), hn::Zero(DI())));
  Idx p0, p1;
  hn::Mask<D> low0, low1;  // lanes whose tap lies in the first vector

  ColumnReader(D d, const ResizeSample& s, int64_t x) {
    const DI di;
    const int32_t lanes = static_cast<int32_t>(hn::Lanes(d));
    i0 = hn::LoadU(di, s.x0.data() + x);
    i1 = hn::LoadU(di, s.x1.data() + x);
    base = s.x0[x];
    const int32_t span = s.x1[x + lanes - 1] - base;
    vectors = span < lanes ? 1 : (span < 2 * lanes ? 2 : 0);
    const auto r0 = hn::Sub(i0, hn::Set(di, vectors ? base : 0)), r1 = hn::Sub(i1, hn::Set(di, vectors ? base : 0));
    const auto last = hn::Set(di, lanes - 1);  // lanes is a power of two: r & last is r or r - lanes
    p0 = hn::IndicesFromVec(d, hn::And(r0, last));
    p1 = hn::IndicesFromVec(d, hn::And(r1, last));
    const auto n = hn::Set(di, lanes);
    low0 = hn::RebindMask(d, hn::Lt(r0, n));
    low1 = hn::RebindMask(d, hn::Lt(r1, n));
  }

  // The row's values at x0 and x1 (the reads may run into the planes' margin).
  HWY_INLINE void Read(D d, const float* row, hn::Vec<D>& v0, hn::Vec<D>& v1) const {
    if (vectors == 0) {
      v0 = hn::GatherIndex(d, row, i0);
      v1 = hn::GatherIndex(d, row, i1);
      return;
    }
    const auto first = hn::LoadU(d, row + base);
    v0 = hn::TableLookupLanes(first, p0);
    v1 = hn::TableLookupLanes(first, p1);
    if (vectors == 2) {
      const auto second = hn::LoadU(d, row + base + hn::Lanes(d));
      v0 = hn::IfThenElse(low0, v0, hn::TableLookupLanes(second, p0));
      v1 = hn::IfThenElse(low1, v1, hn::TableLookupLanes(second, p1));
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
