// resize.cc's fast tier (per target; Highway's per-target header convention): pixel/resize.h's
// fixed-point resampler in lanes. Each source row an output row needs is staged once as bytes
// (padded by two replicated bytes a side) and run across into a 16-bit row, kept in a ring while
// the next output rows use it: per group of eight output columns and pair of taps, one 16-byte load
// from the group's first tap (two, their lookups joined, where the width shrinks by more than
// about 13/7), a byte shuffle that puts each column's taps side by side (x86's pshufb), and two
// byte-pair multiply-adds by the weights' high and low parts (pmaddubsw), joined in 16 bits. The
// down pass blends two ring rows with MulFixedPoint15 (bilinear) or four by pmaddwd pairs
// (bicubic), rounds half to even and packs to bytes. Integers throughout: every target gives
// pixel/resize.h's resize_fixed_element bytes. The shuffles and pairs are 128-bit (x86's byte
// shuffles stay within 128-bit blocks).
#if defined(U8AUG_CPU_RESIZE_FIXED_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef U8AUG_CPU_RESIZE_FIXED_INL_H_
#undef U8AUG_CPU_RESIZE_FIXED_INL_H_
#else
#define U8AUG_CPU_RESIZE_FIXED_INL_H_
#endif

#include <hwy/highway.h>

#include <cstring>
#include <vector>

#include "cpu/resize_sample.h"
#include "cpu/unit_lanes-inl.h"
#include "u8aug/pixel/resize.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Groups of eight output columns: each pair of taps of a group reads its bytes from the 16 staged
// bytes at the group's first tap, or from the 32 there where the width shrinks by more than about
// 13/7 (`wide`: two lookups joined; pixel/resize.h's fixed_point_reaches keeps them within 32).
struct GroupPlan {
  int64_t groups = 0;
  bool wide = false;
  std::vector<int32_t> base;  // per group and pair: the staged index the bytes start at
  // per group and pair: 16 indices putting each column's two taps side by side, into the first 16
  // bytes (`shuffle`) and, when wide, the next 16 (`shuffle_next`); 0x80 where the other one holds it
  std::vector<uint8_t> shuffle, shuffle_next;
  std::vector<int8_t> high, low;  // per group and pair: 16 weight parts, pixel/resize.h's weight_high and _low
};

inline GroupPlan plan_groups(const FixedColumns& cols, int64_t width) {
  GroupPlan plan;
  plan.groups = width >= 8 ? (width + 7) / 8 : 0;
  const size_t entries = static_cast<size_t>(plan.groups * cols.pairs);
  plan.base.resize(entries);
  plan.shuffle.resize(entries * 16);
  plan.shuffle_next.resize(entries * 16);
  plan.high.resize(entries * 16);
  plan.low.resize(entries * 16);
  for (int64_t g = 0; g < plan.groups; ++g) {
    const int64_t x = 8 * g + 8 <= width ? 8 * g : width - 8;
    for (int k = 0; k < cols.pairs; ++k) {
      const size_t e = static_cast<size_t>(g * cols.pairs + k);
      const int32_t base = cols.first[static_cast<size_t>(x)] + 2 * k;
      plan.base[e] = base;
      for (int o = 0; o < 8; ++o) {
        const size_t i = static_cast<size_t>(x + o), at = e * 16 + static_cast<size_t>(2 * o);
        const int32_t from = cols.first[i] + 2 * k - base;  // within [0, 30] (fixed_point_reaches)
        const int32_t w0 = low_weight(cols.weight[k][i]), w1 = high_weight(cols.weight[k][i]);
        for (int32_t tap = 0; tap < 2; ++tap) {
          const int32_t j = from + tap;
          plan.wide = plan.wide || j >= 16;
          plan.shuffle[at + static_cast<size_t>(tap)] = static_cast<uint8_t>(j < 16 ? j : 0x80);
          plan.shuffle_next[at + static_cast<size_t>(tap)] = static_cast<uint8_t>(j < 16 ? 0x80 : j - 16);
        }
        plan.high[at] = static_cast<int8_t>(weight_high(w0));
        plan.high[at + 1] = static_cast<int8_t>(weight_high(w1));
        plan.low[at] = static_cast<int8_t>(weight_low(w0));
        plan.low[at + 1] = static_cast<int8_t>(weight_low(w1));
      }
    }
  }
  return plan;
}

#if HWY_TARGET != HWY_SCALAR
// Per 16-bit lane, bytes[2i] * weights[2i] + bytes[2i + 1] * weights[2i + 1], bytes unsigned and
// weights signed (x86's pmaddubsw; its saturation never triggers here, as the sums stay in int16).
template <class D8>
HWY_INLINE hn::Vec<hn::RepartitionToWide<hn::RebindToSigned<D8>>> MulAddBytePairs(D8 d8, hn::Vec<D8> bytes,
                                                                                  hn::Vec<D8> weights) {
  const hn::RepartitionToWide<hn::RebindToSigned<D8>> d16;
#if HWY_TARGET == HWY_SSSE3 || HWY_TARGET == HWY_SSE4 || HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || \
    HWY_TARGET == HWY_AVX3_DL  // x86's vector targets (not EMU128, which fuzz builds add)
  (void)d8;
  (void)d16;
  return decltype(hn::Zero(d16)){_mm_maddubs_epi16(bytes.raw, weights.raw)};
#else
  (void)d8;
  const hn::RebindToUnsigned<decltype(d16)> du16;
  const auto b = hn::BitCast(du16, bytes);
  const auto even = hn::BitCast(d16, hn::And(b, hn::Set(du16, 0xFF))), odd = hn::BitCast(d16, hn::ShiftRight<8>(b));
  const auto w = hn::BitCast(d16, weights);
  return hn::Add(hn::Mul(even, hn::ShiftRight<8>(hn::ShiftLeft<8>(w))), hn::Mul(odd, hn::ShiftRight<8>(w)));
#endif
}
#endif

// t[x] for every output column from the staged row (pixel/resize.h's linear_across_row or
// cubic_across_row), in groups of eight by the plan (kWide: its `wide` form).
template <int kPairs, bool kWide>
HWY_INLINE void AcrossRow(const uint8_t* HWY_RESTRICT staged, const FixedColumns& cols, const GroupPlan& plan,
                          int64_t width, int16_t* HWY_RESTRICT t) {
  int64_t x = 0;
#if HWY_TARGET != HWY_SCALAR
  constexpr int kShift = kAcrossWeightBits - (kPairs == 1 ? kLinearRowBits : kCubicRowBits);
  const hn::FixedTag<uint8_t, 16> d8;
  const hn::FixedTag<int8_t, 16> di8;
  const hn::FixedTag<int16_t, 8> d16;
  const int32_t* HWY_RESTRICT base = plan.base.data();
  const uint8_t* HWY_RESTRICT shuffle = plan.shuffle.data();
  const uint8_t* HWY_RESTRICT shuffle_next = plan.shuffle_next.data();
  const int8_t* HWY_RESTRICT high = plan.high.data();
  const int8_t* HWY_RESTRICT low = plan.low.data();
  const auto rounding = hn::Set(d16, 1 << (kShift - 1));
  int64_t g = 0;
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  // two whole groups at once in 256-bit vectors (their shuffles stay within each group's block):
  // half the instructions a column of the 128-bit loop below, which takes the rest
  {
    const hn::FixedTag<uint8_t, 32> d8x2;
    const hn::FixedTag<int16_t, 16> d16x2;
    const auto rounding2 = hn::Set(d16x2, 1 << (kShift - 1));
    // the same 16 entries of groups g and g + 1 (adjacent when each group has one pair)
    auto both = [&](const uint8_t* p, int64_t e0, int64_t e1) {
      return kPairs == 1 ? hn::LoadU(d8x2, p + 16 * e0)
                         : hn::Combine(d8x2, hn::LoadU(d8, p + 16 * e1), hn::LoadU(d8, p + 16 * e0));
    };
    auto weights = [&](const int8_t* p, int64_t e0, int64_t e1) {
      return both(reinterpret_cast<const uint8_t*>(p), e0, e1).raw;
    };
    const int64_t whole = width / 8;  // groups whose columns start at 8 g
    for (; g + 2 <= whole; g += 2) {
      auto sum = hn::Zero(d16x2);
      for (int k = 0; k < kPairs; ++k) {
        const int64_t e0 = g * kPairs + k, e1 = e0 + kPairs;
        const auto bytes = hn::Combine(d8x2, hn::LoadU(d8, staged + base[e1]), hn::LoadU(d8, staged + base[e0]));
        auto taps = hn::TableLookupBytesOr0(bytes, both(shuffle, e0, e1));
        if (kWide) {
          const auto next =
              hn::Combine(d8x2, hn::LoadU(d8, staged + base[e1] + 16), hn::LoadU(d8, staged + base[e0] + 16));
          taps = hn::Or(taps, hn::TableLookupBytesOr0(next, both(shuffle_next, e0, e1)));
        }
        const hn::Vec<decltype(d16x2)> h{_mm256_maddubs_epi16(taps.raw, weights(high, e0, e1))};
        const hn::Vec<decltype(d16x2)> l{_mm256_maddubs_epi16(taps.raw, weights(low, e0, e1))};
        sum = hn::Add(sum, hn::Add(hn::ShiftLeft<6 - kShift>(h), hn::ShiftRight<kShift>(hn::Add(l, rounding2))));
      }
      hn::StoreU(sum, d16x2, t + 8 * g);
    }
  }
#endif
  for (; g < plan.groups; ++g) {
    x = 8 * g + 8 <= width ? 8 * g : width - 8;
    auto sum = hn::Zero(d16);
    for (int k = 0; k < kPairs; ++k) {
      const int64_t e = g * kPairs + k;
      const auto bytes = hn::LoadU(d8, staged + base[e]), indices = hn::LoadU(d8, shuffle + 16 * e);
      // a narrow plan's indices all lie below 16; a wide one's joins two lookups (0x80: the other's)
      const auto taps = kWide ? hn::Or(hn::TableLookupBytesOr0(bytes, indices),
                                       hn::TableLookupBytesOr0(hn::LoadU(d8, staged + base[e] + 16),
                                                               hn::LoadU(d8, shuffle_next + 16 * e)))
                              : hn::TableLookupBytes(bytes, indices);
      const auto h = MulAddBytePairs(d8, taps, hn::BitCast(d8, hn::LoadU(di8, high + 16 * e)));
      const auto l = MulAddBytePairs(d8, taps, hn::BitCast(d8, hn::LoadU(di8, low + 16 * e)));
      sum = hn::Add(sum, hn::Add(hn::ShiftLeft<6 - kShift>(h), hn::ShiftRight<kShift>(hn::Add(l, rounding))));
    }
    hn::StoreU(sum, d16, t + x);
  }
  if (plan.groups > 0) return;
#else
  (void)plan;
  (void)kWide;
#endif
  for (; x < width; ++x) {
    const size_t i = static_cast<size_t>(x);
    const uint8_t* s = staged + cols.first[i];
    const int32_t w0 = cols.weight[0][i];
    if (kPairs == 1) {
      t[x] = static_cast<int16_t>(linear_across_row(s[0], s[1], low_weight(w0), high_weight(w0)));
    } else {
      const int32_t w1 = cols.weight[1][i];
      const int32_t v[4] = {s[0], s[1], s[2], s[3]};
      const int32_t w[4] = {low_weight(w0), high_weight(w0), low_weight(w1), high_weight(w1)};
      t[x] = static_cast<int16_t>(cubic_across_row(v, w));
    }
  }
}

// One output row from the ring rows t[k] (pixel/resize.h's linear_down_byte or cubic_down_byte).
template <int kPairs>
HWY_INLINE void DownRow(const int16_t* const* t, const int32_t* w, int64_t width, uint8_t* HWY_RESTRICT out) {
  int64_t x = 0;
#if HWY_TARGET != HWY_SCALAR
  if (kPairs == 1) {
    const hn::ScalableTag<int16_t> d16;
    const hn::Rebind<uint8_t, decltype(d16)> d8;
    const int64_t n = static_cast<int64_t>(hn::Lanes(d16));
    const auto down = hn::Set(d16, static_cast<int16_t>(w[0]));
    auto step = [&](int64_t at) {
      const auto t0 = hn::LoadU(d16, t[0] + at);
      const auto v = hn::Add(t0, hn::MulFixedPoint15(hn::Sub(hn::LoadU(d16, t[1] + at), t0), down));
      // saturating: the clamp to [0, 255]
      hn::StoreU(hn::DemoteTo(d8, ShiftRoundEven<kLinearRowBits>(d16, v)), d8, out + at);
    };
    if (width >= n) {  // whole vectors, then the last one ending at the row's end
      for (; x + n < width; x += n) step(x);
      step(width - n);
      return;
    }
  } else {
    // pairs of rows interleaved into 32-bit lanes, times the packed weight pairs
    constexpr int kBits = kDownWeightBits + kCubicRowBits;
    const hn::FixedTag<int16_t, 8> d16;
    const hn::FixedTag<int32_t, 4> d32;
    const hn::FixedTag<uint8_t, 8> d8;
    const auto w01 = hn::BitCast(d16, hn::Set(d32, packed_weights(w[0], w[1])));
    const auto w23 = hn::BitCast(d16, hn::Set(d32, packed_weights(w[2], w[3])));
    auto rounded = [&](hn::Vec<decltype(d16)> a0, hn::Vec<decltype(d16)> a1, hn::Vec<decltype(d16)> b0,
                       hn::Vec<decltype(d16)> b1) {
      auto even = hn::Zero(d32), odd = hn::Zero(d32);
      even = hn::ReorderWidenMulAccumulate(d32, hn::InterleaveLower(d16, a0, a1), w01, even, odd);
      even = hn::ReorderWidenMulAccumulate(d32, hn::InterleaveLower(d16, b0, b1), w23, even, odd);
      const auto low = hn::RearrangeToOddPlusEven(even, odd);
      even = odd = hn::Zero(d32);
      even = hn::ReorderWidenMulAccumulate(d32, hn::InterleaveUpper(d16, a0, a1), w01, even, odd);
      even = hn::ReorderWidenMulAccumulate(d32, hn::InterleaveUpper(d16, b0, b1), w23, even, odd);
      const auto high = hn::RearrangeToOddPlusEven(even, odd);
      return hn::ReorderDemote2To(d16, ShiftRoundEven<kBits>(d32, low), ShiftRoundEven<kBits>(d32, high));
    };
    for (; width >= 8; x += 8) {
      if (x + 8 > width) x = width - 8;
      const auto v = rounded(hn::LoadU(d16, t[0] + x), hn::LoadU(d16, t[1] + x), hn::LoadU(d16, t[2] + x),
                             hn::LoadU(d16, t[3] + x));
      hn::StoreU(hn::DemoteTo(d8, v), d8, out + x);
      if (x + 8 == width) return;
    }
  }
#endif
  for (; x < width; ++x) {
    if (kPairs == 1) {
      out[x] = linear_down_byte(t[0][x], t[1][x], w[0]);
    } else {
      const int32_t v[4] = {t[0][x], t[1][x], t[2][x], t[3][x]};
      out[x] = cubic_down_byte(v, w);
    }
  }
}

// Output rows [y_begin, y_end) of sample b resized from `win` in the fast tier.
template <int kPairs>
void FixedRowsOf(const ConstImage& src, const Image& dst, int64_t b, const Window& win, const FixedColumns& cols,
                 bool align_corners, int64_t y_begin, int64_t y_end) {
  constexpr int kTaps = 2 * kPairs;
  const int64_t width = win.width, out_width = dst.width, channels = dst.channels;
  const GroupPlan plan = plan_groups(cols, out_width);
  // a source row as bytes: two replicated a side, and room for a group's two 16-byte loads
  std::vector<uint8_t> staged(static_cast<size_t>(width + 4 + 32));
  // per channel, a ring of kTaps across rows, the source row each holds
  std::vector<int16_t> ring(static_cast<size_t>(channels * kTaps * out_width));
  std::vector<int64_t> held(static_cast<size_t>(channels * kTaps), -1);
  OutputRows out_rows(dst);
  for (int64_t y = y_begin; y < y_end; ++y) {
    int64_t rows[kTaps];
    int32_t w[4] = {0, 0, 0, 0};
    if (kPairs == 2) {
      const FixedCubicTap ty = fixed_cubic_tap(y, win.height, dst.height, align_corners, kDownWeightBits);
      for (int k = 0; k < 4; ++k) rows[k] = ty.i[k], w[k] = ty.w[k];
    } else {
      const FixedLinearTap ty = fixed_linear_tap(y, win.height, dst.height, align_corners);
      rows[0] = ty.i0, rows[1] = ty.i1, w[0] = ty.down;
    }
    for (int64_t c = 0; c < channels; ++c) {
      const int16_t* t[kTaps];
      for (int k = 0; k < kTaps; ++k) {
        // kTaps consecutive rows (or clamped repeats) land in distinct slots
        const int64_t slot = c * kTaps + rows[k] % kTaps;
        int16_t* row = ring.data() + slot * out_width;
        t[k] = row;
        if (held[static_cast<size_t>(slot)] == rows[k]) continue;
        held[static_cast<size_t>(slot)] = rows[k];
        const uint8_t* first = &src.at(b, c, win.y0 + rows[k], win.x0);
        uint8_t* body = staged.data() + 2;
        if (src.stride_w == 1) {
          std::memcpy(body, first, static_cast<size_t>(width));
        } else {
          for (int64_t x = 0; x < width; ++x) body[x] = first[x * src.stride_w];
        }
        staged[0] = staged[1] = body[0];
        body[width] = body[width + 1] = body[width - 1];
        if (plan.wide) {
          AcrossRow<kPairs, true>(staged.data(), cols, plan, out_width, row);
        } else {
          AcrossRow<kPairs, false>(staged.data(), cols, plan, out_width, row);
        }
      }
      DownRow<kPairs>(t, w, out_width, out_rows.row(b, c, y));
    }
    out_rows.flush(b, y);
  }
}

void FixedRows(const ConstImage& src, const Image& dst, int64_t b, const Window& win, const FixedColumns& cols,
               bool align_corners, int64_t y_begin, int64_t y_end) {
  if (cols.pairs == 2) {
    FixedRowsOf<2>(src, dst, b, win, cols, align_corners, y_begin, y_end);
  } else {
    FixedRowsOf<1>(src, dst, b, win, cols, align_corners, y_begin, y_end);
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_RESIZE_FIXED_INL_H_
