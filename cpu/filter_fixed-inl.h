// The fast tier's separable filter on the CPU (FixedPlane): pixel/filter.h's fixed point in uint16
// lanes, for filter.cc. Highway's per-target header convention.
#if defined(U8AUG_CPU_FILTER_FIXED_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef U8AUG_CPU_FILTER_FIXED_INL_H_
#undef U8AUG_CPU_FILTER_FIXED_INL_H_
#else
#define U8AUG_CPU_FILTER_FIXED_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <vector>

#include "cpu/filter_rows-inl.h"
#include "u8aug/image.h"
#include "u8aug/pixel/filter.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The fast tier's fixed point (pixel/filter.h: fixed_row_value, fixed_column_value) in uint16 lanes:
// each tap one high-half multiply (x86's pmulhuw) and one add, as many lanes as the vector has
// 16-bit values. The zero taps are left out of the lists.
#if HWY_TARGET != HWY_SCALAR
// A Q8 sum of lanes, kept (the horizontal pass) or rounded to bytes (kRound, the vertical pass).
template <bool kRound, class D, class Out>
HWY_INLINE void StoreFixedLanes(D d, hn::Vec<D> acc, uint32_t rounding, Out* HWY_RESTRICT out) {
  if constexpr (kRound) {
    const hn::Rebind<uint8_t, D> d8;
    const auto v = hn::ShiftRight<8>(hn::SaturatedAdd(acc, hn::Set(d, static_cast<uint16_t>(rounding))));
    hn::StoreU(hn::DemoteTo(d8, hn::BitCast(hn::RebindToSigned<D>(), v)), d8, out);  // v <= 255
  } else {
    hn::StoreU(acc, d, out);
  }
}

// Vectors [i, n) of a row with exactly kCount taps: the taps' broadcasts stay in registers and the
// tap loop unrolls (kernels of up to 8 nonzero taps, the common blurs). Returns where it stopped.
template <int kCount, bool kRound, class Out>
HWY_INLINE int64_t FixedLanesOf(const uint16_t* const* in, const uint32_t* taps, uint32_t rounding, int64_t n,
                                Out* HWY_RESTRICT out) {
  const hn::ScalableTag<uint16_t> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  hn::Vec<decltype(d)> w[kCount];
  const uint16_t* row[kCount];
  for (int k = 0; k < kCount; ++k) w[k] = hn::Set(d, static_cast<uint16_t>(taps[k])), row[k] = in[k];
  int64_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    auto a0 = hn::MulHigh(hn::LoadU(d, row[0] + i), w[0]);
    auto a1 = hn::MulHigh(hn::LoadU(d, row[0] + i + lanes), w[0]);
    for (int k = 1; k < kCount; ++k) {
      a0 = hn::Add(a0, hn::MulHigh(hn::LoadU(d, row[k] + i), w[k]));
      a1 = hn::Add(a1, hn::MulHigh(hn::LoadU(d, row[k] + i + lanes), w[k]));
    }
    StoreFixedLanes<kRound>(d, a0, rounding, out + i);
    StoreFixedLanes<kRound>(d, a1, rounding, out + i + lanes);
  }
  return i;
}
#endif

// out[i] = the sum over t < count of fixed_product(in[t][i], taps[t]) for i < n; kRound adds `rounding`
// and shifts the sum down to a byte (the vertical pass) instead of keeping it (the horizontal one).
template <bool kRound, class Out>
HWY_INLINE void FixedTapRow(const uint16_t* const* in, const uint32_t* taps, int64_t count, uint32_t rounding,
                            int64_t n, Out* HWY_RESTRICT out) {
  int64_t i = 0;
#if HWY_TARGET != HWY_SCALAR
  const hn::ScalableTag<uint16_t> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  switch (count) {
    case 1: i = FixedLanesOf<1, kRound>(in, taps, rounding, n, out); break;
    case 2: i = FixedLanesOf<2, kRound>(in, taps, rounding, n, out); break;
    case 3: i = FixedLanesOf<3, kRound>(in, taps, rounding, n, out); break;
    case 4: i = FixedLanesOf<4, kRound>(in, taps, rounding, n, out); break;
    case 5: i = FixedLanesOf<5, kRound>(in, taps, rounding, n, out); break;
    case 6: i = FixedLanesOf<6, kRound>(in, taps, rounding, n, out); break;
    case 7: i = FixedLanesOf<7, kRound>(in, taps, rounding, n, out); break;
    case 8: i = FixedLanesOf<8, kRound>(in, taps, rounding, n, out); break;
    default:
      for (; i + 4 * lanes <= n; i += 4 * lanes) {  // four vectors share each tap's row and broadcast
        auto a0 = hn::Zero(d), a1 = a0, a2 = a0, a3 = a0;
        for (int64_t t = 0; t < count; ++t) {
          const uint16_t* row = in[t] + i;
          const auto w = hn::Set(d, static_cast<uint16_t>(taps[t]));
          a0 = hn::Add(a0, hn::MulHigh(hn::LoadU(d, row), w));
          a1 = hn::Add(a1, hn::MulHigh(hn::LoadU(d, row + lanes), w));
          a2 = hn::Add(a2, hn::MulHigh(hn::LoadU(d, row + 2 * lanes), w));
          a3 = hn::Add(a3, hn::MulHigh(hn::LoadU(d, row + 3 * lanes), w));
        }
        StoreFixedLanes<kRound>(d, a0, rounding, out + i);
        StoreFixedLanes<kRound>(d, a1, rounding, out + i + lanes);
        StoreFixedLanes<kRound>(d, a2, rounding, out + i + 2 * lanes);
        StoreFixedLanes<kRound>(d, a3, rounding, out + i + 3 * lanes);
      }
  }
  const auto vector_at = [&](int64_t at) {
    auto acc = hn::Zero(d);
    for (int64_t t = 0; t < count; ++t)
      acc = hn::Add(acc, hn::MulHigh(hn::LoadU(d, in[t] + at), hn::Set(d, static_cast<uint16_t>(taps[t]))));
    StoreFixedLanes<kRound>(d, acc, rounding, out + at);
  };
  for (; i + lanes <= n; i += lanes) vector_at(i);
  if (i < n && n >= lanes) vector_at(n - lanes), i = n;  // the rest as one vector ending at n
#endif
  for (; i < n; ++i) {
    uint32_t acc = 0;
    for (int64_t t = 0; t < count; ++t) acc += fixed_product(in[t][i], taps[t]);
    if constexpr (kRound) {
      const uint32_t v = (acc + rounding) >> 8;
      out[i] = static_cast<Out>(v > 255 ? 255 : v);
    } else {
      out[i] = static_cast<Out>(acc);
    }
  }
}

// One plane or interleaved sample in the fixed point: Q8 padded rows through the horizontal taps
// into a uint16 image, then its rows through the vertical taps into dst.
HWY_INLINE void FixedPlane(const ConstImage& src, const Image& dst, FilterKernel kx, FilterKernel ky, Border border,
                           int64_t b, int64_t c, std::vector<uint16_t>& padded, std::vector<uint16_t>& rows,
                           std::vector<uint8_t>& out_row) {
  const bool interleaved = c < 0;
  const int64_t step = interleaved ? src.channels : 1, w = src.width, h = src.height, n = w * step;
  const int64_t rx = kx.taps / 2, ry = filter_anchor(ky.taps), shift = (rx - filter_anchor(kx.taps)) * step;
  padded.resize(static_cast<size_t>((w + 2 * rx) * step));
  rows.resize(static_cast<size_t>(h * n));
  std::vector<uint32_t> wx(static_cast<size_t>(kx.taps)), wy(static_cast<size_t>(ky.taps));
  const uint32_t rounding = fixed_rounding(fixed_taps(kx, b, wx.data()), fixed_taps(ky, b, wy.data()));
  // the nonzero taps: their rows (row starts of the padded row; then rows of the Q8 image) and values
  std::vector<const uint16_t*> in(static_cast<size_t>(std::max(kx.taps, ky.taps)));
  std::vector<uint32_t> taps(in.size());
  int64_t count = 0;
  for (int64_t t = 0; t < kx.taps; ++t) {
    if (wx[static_cast<size_t>(t)] == 0) continue;
    in[static_cast<size_t>(count)] = padded.data() + shift + t * step;
    taps[static_cast<size_t>(count++)] = wx[static_cast<size_t>(t)];
  }
  const RowBorders borders(w, rx, border);
  for (int64_t y = 0; y < h; ++y) {
    PadRowU16<8>(src, b, c, y, borders, padded.data());
    FixedTapRow<false>(in.data(), taps.data(), count, 0, n, rows.data() + y * n);
  }
  bool listed_inside = false;  // the list is of a row whose window lies inside the image
  for (int64_t y = 0; y < h; ++y) {
    const bool inside = y >= ry && y - ry + ky.taps <= h;
    if (inside && listed_inside) {
      for (int64_t k = 0; k < count; ++k) in[static_cast<size_t>(k)] += n;  // the window moved down a row
    } else {
      count = 0;
      for (int64_t t = 0; t < ky.taps; ++t) {
        const int64_t sy = border_source(y + t - ry, h, border);
        if (sy < 0 || wy[static_cast<size_t>(t)] == 0) continue;
        in[static_cast<size_t>(count)] = rows.data() + sy * n;
        taps[static_cast<size_t>(count++)] = wy[static_cast<size_t>(t)];
      }
      listed_inside = inside;
    }
    StoreRow(dst, b, c, y, n, out_row,
             [&](uint8_t* out) { FixedTapRow<true>(in.data(), taps.data(), count, rounding, n, out); });
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_FILTER_FIXED_INL_H_
