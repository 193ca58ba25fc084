// resize.cc's fast tier (per target; Highway's per-target header convention): pixel/resize.h's
// fixed-point resampler in lanes. Per output row and channel: the down pass blends the row's source
// rows (contiguous bytes) into a 16-bit row with MulFixedPoint15, padded by two replicated values a
// side, then packs each neighbouring pair of it into a 32-bit lane; the across pass reads each
// output's pairs (permutes where the taps of a vector span under two vectors, gathers otherwise),
// multiplies and sums them pmaddwd-style, rounds half to even and packs to bytes. Integers throughout: every target
// gives pixel/resize.h's resize_fixed_element bytes.
#if defined(U8AUG_CPU_RESIZE_FIXED_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef U8AUG_CPU_RESIZE_FIXED_INL_H_
#undef U8AUG_CPU_RESIZE_FIXED_INL_H_
#else
#define U8AUG_CPU_RESIZE_FIXED_INL_H_
#endif

#include <hwy/highway.h>

#include <vector>

#include "cpu/resize_sample.h"
#include "u8aug/pixel/resize.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// t[x] = linear_down(r0[x], r1[x], down) or cubic_down over four rows, for x in [0, width).
HWY_INLINE void FixedDown(const uint8_t* const* rows, int taps, const int32_t* w, int64_t width, int16_t* t) {
  const hn::ScalableTag<int16_t> d16;
  const hn::Rebind<uint8_t, decltype(d16)> d8;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d16));
  auto load = [&](int k, int64_t x) { return hn::PromoteTo(d16, hn::LoadU(d8, rows[k] + x)); };
  int64_t x = 0;
  if (width >= lanes) {
    for (;; x += lanes) {
      if (x + lanes > width) x = width - lanes;
      hn::Vec<decltype(d16)> v;
      if (taps == 2) {
        const auto s0 = load(0, x);
        const auto diff = hn::ShiftLeft<kLinearRowBits>(hn::Sub(load(1, x), s0));
        v = hn::Add(hn::ShiftLeft<kLinearRowBits>(s0),
                    hn::MulFixedPoint15(diff, hn::Set(d16, static_cast<int16_t>(w[0]))));
      } else {
        v = hn::MulFixedPoint15(hn::ShiftLeft<7>(load(0, x)), hn::Set(d16, static_cast<int16_t>(w[0])));
        for (int k = 1; k < 4; ++k) {
          v = hn::Add(v, hn::MulFixedPoint15(hn::ShiftLeft<7>(load(k, x)), hn::Set(d16, static_cast<int16_t>(w[k]))));
        }
      }
      hn::StoreU(v, d16, t + x);
      if (x + lanes == width) return;
    }
  }
  for (; x < width; ++x) {
    if (taps == 2) {
      t[x] = static_cast<int16_t>(linear_down(rows[0][x], rows[1][x], w[0]));
    } else {
      const int32_t s[4] = {rows[0][x], rows[1][x], rows[2][x], rows[3][x]};
      t[x] = static_cast<int16_t>(cubic_down(s, w));
    }
  }
}

// A column's packed weight pair: the low 16 bits multiply the pair's first value.
inline int32_t low_weight(int32_t packed) { return static_cast<int16_t>(packed & 0xFFFF); }
inline int32_t high_weight(int32_t packed) { return packed >> 16; }

// How the lanes of each vector of output columns read their pairs, planned once a sample (every
// output row reads the same columns). Chunk j covers columns [x, x + N), x = min(j N, width - N).
// Where every chunk's pair indices (non-decreasing) span less than two vectors (upscaling, and
// downscaling by little), a chunk permutes the two vectors from its first index (x86's vpermd) and
// blends them; otherwise every chunk gathers (slow on AMD's cores).
struct PairPlan {
  int pairs = 1;
  int64_t lanes = 0, chunks = 0;
  bool permutes = true;
  std::vector<int32_t> base;         // per chunk and pair: the first index
  std::vector<int32_t> lane, first;  // per chunk, pair and lane: the permute's index, -1 in the first vector
  std::vector<int32_t> index;        // per chunk, pair and lane: the pair's index (gathers)
  std::vector<int32_t> weight;       // per chunk, pair and lane: the packed weights
};

#if HWY_TARGET != HWY_SCALAR  // a 32-bit lane holds a pair of 16-bit values
template <class D>
void PlanPairs(D d, const FixedColumns& cols, int64_t width, PairPlan& plan) {
  const int32_t n = static_cast<int32_t>(hn::Lanes(d));
  plan.pairs = cols.pairs;
  plan.lanes = n;
  plan.chunks = (width + n - 1) / n;
  const size_t entries = static_cast<size_t>(plan.chunks * cols.pairs);
  plan.base.resize(entries);
  for (auto* v : {&plan.lane, &plan.first, &plan.index, &plan.weight}) v->resize(entries * static_cast<size_t>(n));
  for (int64_t j = 0; j < plan.chunks; ++j) {
    const int64_t x = j * n + n <= width ? j * n : width - n;
    for (int k = 0; k < cols.pairs; ++k) {
      const size_t e = static_cast<size_t>(j * cols.pairs + k);
      const int32_t* index = cols.index[k].data() + x;
      const int32_t base = index[0];
      plan.base[e] = base;
      plan.permutes = plan.permutes && index[n - 1] - base < 2 * n;
      for (int32_t i = 0; i < n; ++i) {
        const size_t at = e * static_cast<size_t>(n) + static_cast<size_t>(i);
        plan.lane[at] = (index[i] - base) & (n - 1);  // n is a power of two
        plan.first[at] = index[i] - base < n ? -1 : 0;
        plan.index[at] = index[i];
        plan.weight[at] = cols.weight[k][static_cast<size_t>(x + i)];
      }
    }
  }
}

// pairs[j] = t[j] | t[j + 1] << 16 for j in [0, count): every pair the across pass may read, so a
// column's pair is one 32-bit lane at its index (ZipLower packs exactly that on every target).
HWY_INLINE void PackPairs(const int16_t* t, int64_t count, int32_t* pairs) {
  const hn::FixedTag<int16_t, 8> d16;
  const hn::RepartitionToWide<decltype(d16)> d32;
  int64_t j = 0;
  for (; j + 8 <= count; j += 8) {
    const auto a = hn::LoadU(d16, t + j), b = hn::LoadU(d16, t + j + 1);
    hn::StoreU(hn::BitCast(d32, hn::ZipLower(d32, a, b)), d32, pairs + j);
    hn::StoreU(hn::BitCast(d32, hn::ZipUpper(d32, a, b)), d32, pairs + j + 4);
  }
  for (; j < count; ++j) {
    pairs[j] = static_cast<int32_t>((static_cast<uint32_t>(static_cast<uint16_t>(t[j + 1])) << 16) |
                                    static_cast<uint16_t>(t[j]));
  }
}

// out's columns from the pair row by the plan: kPairs pairs a column times their packed weights,
// summed, rounded half to even by kBits (14 + the row's fraction bits), packed to bytes.
template <int kPairs, int kBits, bool kPermutes>
HWY_INLINE void AcrossLanes(const PairPlan& plan, const int32_t* HWY_RESTRICT pairs, int64_t width,
                            uint8_t* HWY_RESTRICT out) {
  const hn::ScalableTag<int32_t> d32;
  const hn::Repartition<int16_t, decltype(d32)> d16;
  const hn::Rebind<uint8_t, decltype(d32)> d8;
  const int64_t n = static_cast<int64_t>(hn::Lanes(d32));
  const int64_t chunks = plan.chunks;
  const int32_t* HWY_RESTRICT base = plan.base.data();
  const int32_t* HWY_RESTRICT lane = plan.lane.data();
  const int32_t* HWY_RESTRICT first = plan.first.data();
  const int32_t* HWY_RESTRICT index = plan.index.data();
  const int32_t* HWY_RESTRICT weight = plan.weight.data();
  const auto one = hn::Set(d32, 1), half = hn::Set(d32, (1 << (kBits - 1)) - 1);
  for (int64_t j = 0; j < chunks; ++j) {
    auto even = hn::Zero(d32), odd = hn::Zero(d32);
    for (int k = 0; k < kPairs; ++k) {
      const int64_t e = j * kPairs + k;
      hn::Vec<decltype(d32)> v;
      if (kPermutes) {
        const int32_t* from = pairs + base[e];
        const auto lanes = hn::IndicesFromVec(d32, hn::LoadU(d32, lane + e * n));
        v = hn::IfThenElse(hn::MaskFromVec(hn::LoadU(d32, first + e * n)),
                           hn::TableLookupLanes(hn::LoadU(d32, from), lanes),
                           hn::TableLookupLanes(hn::LoadU(d32, from + n), lanes));
      } else {
        v = hn::GatherIndex(d32, pairs, hn::LoadU(d32, index + e * n));
      }
      even = hn::ReorderWidenMulAccumulate(d32, hn::BitCast(d16, v), hn::BitCast(d16, hn::LoadU(d32, weight + e * n)),
                                           even, odd);
    }
    const auto sum = hn::RearrangeToOddPlusEven(even, odd);
    // round half to even: + half - 1 + the truncated quotient's low bit, then shift
    const auto q = hn::ShiftRight<kBits>(hn::Add(sum, hn::Add(half, hn::And(hn::ShiftRight<kBits>(sum), one))));
    const int64_t x = j * n + n <= width ? j * n : width - n;
    hn::StoreU(hn::DemoteTo(d8, q), d8, out + x);  // saturating: the clamp to [0, 255]
  }
}
#endif

// out[x] from the padded row t (t[0] is source column -2): in lanes by the plan (and t's pairs),
// else per column by pixel/resize.h's linear_across or cubic_across.
HWY_INLINE void FixedAcross(const int16_t* t, const int32_t* pairs, const FixedColumns& cols, const PairPlan* plan,
                            int64_t width, uint8_t* out) {
#if HWY_TARGET != HWY_SCALAR
  if (plan != nullptr) {
    constexpr int kLinear = kFixedWeightBits + kLinearRowBits, kCubic = kFixedWeightBits + kCubicRowBits;
    if (cols.pairs == 1) {
      plan->permutes ? AcrossLanes<1, kLinear, true>(*plan, pairs, width, out)
                     : AcrossLanes<1, kLinear, false>(*plan, pairs, width, out);
    } else {
      plan->permutes ? AcrossLanes<2, kCubic, true>(*plan, pairs, width, out)
                     : AcrossLanes<2, kCubic, false>(*plan, pairs, width, out);
    }
    return;
  }
#else
  (void)pairs;
  (void)plan;
#endif
  for (int64_t x = 0; x < width; ++x) {
    const size_t i = static_cast<size_t>(x);
    const int16_t* p = t + cols.index[0][i];
    const int32_t w0 = cols.weight[0][i];
    if (cols.pairs == 1) {
      out[x] = linear_across(p[0], p[1], low_weight(w0), high_weight(w0));
    } else {
      const int32_t w1 = cols.weight[1][i];
      const int32_t v[4] = {p[0], p[1], p[2], p[3]};
      const int32_t w[4] = {low_weight(w0), high_weight(w0), low_weight(w1), high_weight(w1)};
      out[x] = cubic_across(v, w);
    }
  }
}

// Output rows [y_begin, y_end) of sample b resized from `win` in the fast tier.
void FixedRows(const ConstImage& src, const Image& dst, int64_t b, const Window& win, const FixedColumns& cols,
               bool align_corners, int64_t y_begin, int64_t y_end) {
  const int64_t width = win.width;
  const bool cubic = cols.pairs == 2;
  // two replicated values a side and one more for the last pair; the pairs, and a margin of two
  // vectors for ReadPairs' loads
  std::vector<int16_t> t(static_cast<size_t>(width + 5));
  std::vector<int32_t> pairs(static_cast<size_t>(width + 4 + 2 * HWY_LANES(int32_t)));
  // source rows of one channel as bytes when src's rows are not (interleaved or strided samples)
  const bool planar = src.stride_w == 1;
  std::vector<uint8_t> staged(planar ? 0 : static_cast<size_t>(4 * width));
  OutputRows out_rows(dst);
  PairPlan plan;
  const PairPlan* planned = nullptr;
#if HWY_TARGET != HWY_SCALAR
  const hn::ScalableTag<int32_t> d32;
  if (cols.vectors && dst.width >= static_cast<int64_t>(hn::Lanes(d32))) {
    PlanPairs(d32, cols, dst.width, plan);
    planned = &plan;
  }
#endif
  for (int64_t y = y_begin; y < y_end; ++y) {
    int64_t source_rows[4];
    int32_t w[4] = {0, 0, 0, 0};
    int taps = 2;
    if (cubic) {
      const FixedCubicTap ty = fixed_cubic_tap(y, win.height, dst.height, align_corners);
      taps = 4;
      for (int k = 0; k < 4; ++k) source_rows[k] = ty.i[k], w[k] = ty.w[k];
    } else {
      const FixedLinearTap ty = fixed_linear_tap(y, win.height, dst.height, align_corners);
      source_rows[0] = ty.i0, source_rows[1] = ty.i1, w[0] = ty.down;
    }
    for (int64_t c = 0; c < dst.channels; ++c) {
      const uint8_t* rows[4];
      for (int k = 0; k < taps; ++k) {
        const uint8_t* first = &src.at(b, c, win.y0 + source_rows[k], win.x0);
        if (planar) {
          rows[k] = first;
          continue;
        }
        uint8_t* row = staged.data() + k * width;
        for (int64_t x = 0; x < width; ++x) row[x] = first[x * src.stride_w];
        rows[k] = row;
      }
      int16_t* body = t.data() + 2;
      FixedDown(rows, taps, w, width, body);
      t[0] = t[1] = body[0];
      body[width] = body[width + 1] = body[width + 2] = body[width - 1];
#if HWY_TARGET != HWY_SCALAR
      if (planned != nullptr) PackPairs(t.data(), width + 4, pairs.data());
#endif
      uint8_t* out = out_rows.row(b, c, y);
      FixedAcross(t.data(), pairs.data(), cols, planned, dst.width, out);
    }
    out_rows.flush(b, y);
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_RESIZE_FIXED_INL_H_
