// The warps' fast tier in lanes (per target; Highway's per-target header convention): pixel/sample.h's
// sample_fixed_pixel for a vector of grid points. The source coordinates are the exact tier's lanes
// (SourceLanes); each tap pair (a tap and its east neighbour, up to four channels a word) is one
// 64-bit gather element from the framed PackedPixels, so nothing is masked. A pixel's four channel
// bytes widen to four 16-bit lanes beside its weights, and the two blends across and the one down
// are pmulhrsw (MulFixedPoint15) on all channels at once; the bytes are then regrouped by channel
// in registers. Integers after the coordinates: every target gives sample_fixed_pixel's bytes.
#if defined(U8AUG_CPU_SAMPLE_FIXED_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef U8AUG_CPU_SAMPLE_FIXED_INL_H_
#undef U8AUG_CPU_SAMPLE_FIXED_INL_H_
#else
#define U8AUG_CPU_SAMPLE_FIXED_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cstring>

#include "cpu/sample_lanes-inl.h"
#include "cpu/sample_rows.h"
#include "cpu/unit_lanes-inl.h"
#include "u8aug/pixel/sample.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_NATIVE_FMA && HWY_TARGET != HWY_SCALAR
// fraction_fixed15 of each lane (f * 2^15 is exact, so the sum rounds as the scalar one does).
template <class D>
HWY_INLINE hn::Vec<hn::RebindToSigned<D>> Fraction15(D d, hn::Vec<D> f) {
  const hn::RebindToSigned<D> di;
  const auto w = hn::ConvertTo(di, hn::Floor(hn::Add(hn::Mul(f, hn::Set(d, 32768.0f)), hn::Set(d, 0.5f))));
  return hn::Min(w, hn::Set(di, 32767));
}

// pixel/sample.h's clamp_outside: [-1, size], NaN to -1.
template <class D>
HWY_INLINE hn::Vec<D> ClampOutside(D d, hn::Vec<D> v, int64_t size) {
  const auto clamped = hn::Min(hn::Max(v, hn::Set(d, -1.0f)), hn::Set(d, static_cast<float>(size)));
  return hn::IfThenElse(hn::Eq(v, v), clamped, hn::Set(d, -1.0f));
}

// Each lane's 16-bit weight w (in u32 lanes, w in both halves) repeated over the four 16-bit lanes of
// its pixel, for the lower (upper = false) or upper half of the pixels.
template <class DU>
HWY_INLINE hn::Vec<DU> SpreadWeights(DU du, hn::Vec<DU> doubled, bool upper) {
  const hn::RebindToSigned<DU> di;
  const auto pixel = hn::ShiftRight<1>(hn::Iota(di, 0));
  const auto index = upper ? hn::Add(pixel, hn::Set(di, static_cast<int32_t>(hn::Lanes(du) / 2))) : pixel;
  return hn::TableLookupLanes(doubled, hn::IndicesFromVec(du, index));
}

// Words of four channel bytes -> the same bytes by channel: within each 16-byte block, byte 4k + c
// -> 4c + k, then block k's channel c (u32 lane 4k + c) -> lane c * blocks + k.
template <class DU>
HWY_INLINE hn::Vec<DU> ByChannel(DU du, hn::Vec<DU> words) {
  const hn::Repartition<uint8_t, DU> d8;
  const hn::RebindToSigned<DU> di;
  const auto i8 = hn::Iota(d8, 0);
  const auto shuffle =
      hn::Or(hn::ShiftLeft<2>(hn::And(i8, hn::Set(d8, 3))), hn::ShiftRight<2>(hn::And(i8, hn::Set(d8, 15))));
  const auto blocked = hn::BitCast(du, hn::TableLookupBytes(hn::BitCast(d8, words), shuffle));
  const int32_t blocks = static_cast<int32_t>(hn::Lanes(du) / 4);
  const int shift = blocks == 1 ? 0 : blocks == 2 ? 1 : blocks == 4 ? 2 : blocks == 8 ? 3 : blocks == 16 ? 4 : 5;
  const auto i = hn::Iota(di, 0);
  const auto index = hn::Add(hn::ShiftLeft<2>(hn::And(i, hn::Set(di, blocks - 1))), hn::ShiftRightSame(i, shift));
  return hn::TableLookupLanes(blocked, hn::IndicesFromVec(du, index));
}

// For each lane, the words group[off] and group[off + 1] (a tap and its east neighbour), by scalar
// 64-bit loads: on AVX2 cores these beat the 64-bit gathers (Zen 1's are microcoded). AVX-512
// targets take GatherPairs instead: on a Zen 4 core its 8-lane gathers took warp_affine's fast tier
// from 5.7 to 4.9 ms a batch of 32x3x224x224 (these loads' stores cannot forward to the vector load).
template <class DU, class VI>
HWY_INLINE void LoadPairs(DU du, const uint32_t* group, VI off, hn::Vec<DU>& first, hn::Vec<DU>& second) {
  const size_t n = hn::Lanes(du);
  alignas(64) int32_t at[HWY_MAX_BYTES / 4];
  alignas(64) uint32_t pairs[HWY_MAX_BYTES / 2];
  hn::Store(off, hn::RebindToSigned<DU>(), at);
  for (size_t i = 0; i < n; ++i) std::memcpy(pairs + 2 * i, group + at[i], 8);
  const auto lo = hn::Load(du, pairs), hi = hn::Load(du, pairs + n);
  first = hn::ConcatEven(du, hi, lo);
  second = hn::ConcatOdd(du, hi, lo);
}

// One half of the pixels: their tap words (nw, ne, sw, se) and spread weights -> their channel bytes,
// rounded half to even and clamped, in word order.
template <class D16>
HWY_INLINE hn::Vec<hn::Rebind<uint8_t, D16>> BlendHalf(D16 d16, hn::Vec<hn::Rebind<uint8_t, D16>> nw,
                                                       hn::Vec<hn::Rebind<uint8_t, D16>> ne,
                                                       hn::Vec<hn::Rebind<uint8_t, D16>> sw,
                                                       hn::Vec<hn::Rebind<uint8_t, D16>> se, hn::Vec<D16> fx,
                                                       hn::Vec<D16> fy) {
  const hn::Rebind<uint8_t, D16> d8;
  auto widen = [&](hn::Vec<decltype(d8)> bytes) { return hn::ShiftLeft<kLinearRowBits>(hn::PromoteTo(d16, bytes)); };
  auto lerp = [&](hn::Vec<D16> a, hn::Vec<D16> b, hn::Vec<D16> f) {
    return hn::Add(a, hn::MulFixedPoint15(hn::Sub(b, a), f));
  };
  const auto n0 = widen(nw), s0 = widen(sw);
  const auto north = lerp(n0, widen(ne), fx), south = lerp(s0, widen(se), fx);
  const auto v = lerp(north, south, fy);
  return hn::DemoteTo(d8, ShiftRoundEven<kLinearRowBits>(d16, v));
}

// The columns [r.x_begin, r.x_end) of one output row that whole vectors cover, every channel, at
// the grid points grid(x, gx, gy): r.setup is bilinear with zeros, border or reflection padding, and
// r.pixels holds bytes. Everything a vector needs is read from r once, before the loop (the byte
// stores would otherwise make the compiler reload it). Returns the first column left to
// sample_fixed_pixel (cpu/sample_lanes-inl.h's SampleRowLanes copies an interleaved output).
template <class D, class GridLanes>
HWY_INLINE int64_t FixedSampleRow(D d, const SampleRow& r, const GridLanes& grid) {
  const hn::RebindToSigned<D> di;
  const hn::RebindToUnsigned<D> du;
  const hn::Repartition<uint8_t, D> d8;
  const hn::Half<decltype(d8)> d8h;
  const hn::Repartition<int16_t, D> d16;
  const int64_t n = static_cast<int64_t>(hn::Lanes(d));
  const int64_t src_w = r.src->width, src_h = r.src->height;
  const Padding padding = r.setup.padding;
  const bool align_corners = r.setup.align_corners;
  const int64_t groups = r.pixels->groups, channels = r.dst->channels;
  const auto stride = hn::Set(di, static_cast<int32_t>(r.pixels->stride));
  const uint32_t* group_words[16];  // up to 64 channels take the lanes
  uint8_t* rows[64];                // each channel's output row (or scratch plane)
  if (channels > 64 || (n & (n - 1)) != 0) return r.x_begin;
  for (int64_t g = 0; g < groups; ++g) group_words[g] = r.pixels->group(g);
  for (int64_t c = 0; c < channels; ++c) {
    rows[c] = r.dst->stride_w != 1 ? r.scratch + c * r.dst->width : &r.dst->at(r.b, c, r.y, 0);
  }
  alignas(64) uint8_t by_channel[HWY_MAX_BYTES];
  const auto src_w_f = hn::Set(d, static_cast<float>(src_w)), src_h_f = hn::Set(d, static_cast<float>(src_h));
  int64_t x = r.x_begin;
  for (; x + n <= r.x_end; x += n) {
    hn::Vec<D> gx, gy;
    grid(x, gx, gy);
    auto sx = SourceLanes(d, gx, src_w, padding, align_corners);
    auto sy = SourceLanes(d, gy, src_h, padding, align_corners);
    if (padding == Padding::kZeros) {
      // wholly outside (every tap of every lane; NaN compares false): zeros, no reads
      const auto touches = hn::And(hn::And(hn::Gt(sx, hn::Set(d, -1.0f)), hn::Lt(sx, src_w_f)),
                                   hn::And(hn::Gt(sy, hn::Set(d, -1.0f)), hn::Lt(sy, src_h_f)));
      if (hn::AllFalse(d, touches)) {
        for (int64_t c = 0; c < channels; ++c) std::memset(rows[c] + x, 0, static_cast<size_t>(n));
        continue;
      }
      sx = ClampOutside(d, sx, src_w);
      sy = ClampOutside(d, sy, src_h);
    }
    const auto x_w = hn::Floor(sx), y_n = hn::Floor(sy);
    const auto fx = Fraction15(d, hn::Sub(sx, x_w)), fy = Fraction15(d, hn::Sub(sy, y_n));
    const auto north = hn::Add(hn::Mul(hn::ConvertTo(di, y_n), stride), hn::ConvertTo(di, x_w));
    const auto south = hn::Add(north, stride);
    auto doubled = [&](hn::Vec<decltype(di)> w) { return hn::BitCast(du, hn::Or(w, hn::ShiftLeft<16>(w))); };
    const auto fx2 = doubled(fx), fy2 = doubled(fy);
    const auto fx_lo = hn::BitCast(d16, SpreadWeights(du, fx2, false));
    const auto fx_hi = hn::BitCast(d16, SpreadWeights(du, fx2, true));
    const auto fy_lo = hn::BitCast(d16, SpreadWeights(du, fy2, false));
    const auto fy_hi = hn::BitCast(d16, SpreadWeights(du, fy2, true));
    for (int64_t g = 0; g < groups; ++g) {
      hn::Vec<decltype(du)> nw, ne, sw, se;
#if HWY_TARGET <= HWY_AVX3  // AVX3, AVX3_DL and later: see LoadPairs
      GatherPairs(du, group_words[g], north, nw, ne);
      GatherPairs(du, group_words[g], south, sw, se);
#else
      LoadPairs(du, group_words[g], north, nw, ne);
      LoadPairs(du, group_words[g], south, sw, se);
#endif
      auto lower = [&](hn::Vec<decltype(du)> w) { return hn::LowerHalf(d8h, hn::BitCast(d8, w)); };
      auto upper = [&](hn::Vec<decltype(du)> w) { return hn::UpperHalf(d8h, hn::BitCast(d8, w)); };
      const auto lo = BlendHalf(d16, lower(nw), lower(ne), lower(sw), lower(se), fx_lo, fy_lo);
      const auto hi = BlendHalf(d16, upper(nw), upper(ne), upper(sw), upper(se), fx_hi, fy_hi);
      hn::Store(hn::BitCast(d8, ByChannel(du, hn::BitCast(du, hn::Combine(d8, hi, lo)))), d8, by_channel);
      const int64_t in_group = std::min<int64_t>(4, channels - 4 * g);
      for (int64_t j = 0; j < in_group; ++j)
        std::memcpy(rows[4 * g + j] + x, by_channel + j * n, static_cast<size_t>(n));
    }
  }
  return x;
}
#endif  // HWY_NATIVE_FMA && HWY_TARGET != HWY_SCALAR

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_SAMPLE_FIXED_INL_H_
