// Box blurs of an odd window in integers on the CPU (IntegerBoxPlane): pixel/filter.h's
// integer_box, whose bytes are kornia's float ones exactly, for filter.cc. Highway's per-target
// header convention.
#if defined(U8AUG_CPU_FILTER_BOX_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef U8AUG_CPU_FILTER_BOX_INL_H_
#undef U8AUG_CPU_FILTER_BOX_INL_H_
#else
#define U8AUG_CPU_FILTER_BOX_INL_H_
#endif

#include <hwy/highway.h>

#include <vector>

#include "cpu/filter_rows-inl.h"
#include "u8aug/image.h"
#include "u8aug/pixel/filter.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The vertical pass's division of a lane of sums: box_mean by BoxDivision's multiply-high and shift.
struct BoxMean {
  uint32_t size = 0;  // the window's count; 0: keep the sums (the horizontal pass)
  BoxDivision division;
};

#if HWY_TARGET != HWY_SCALAR
// Sums (plus the rounding half when dividing) to bytes, or kept as they are.
template <bool kMean, class D, class Out>
HWY_INLINE void StoreBoxLanes(D d, hn::Vec<D> acc, hn::Vec<D> multiplier, int shift, Out* HWY_RESTRICT out) {
  if constexpr (kMean) {
    const hn::Rebind<uint8_t, D> d8;
    const auto mean = hn::ShiftRightSame(hn::MulHigh(acc, multiplier), shift);  // <= 255
    hn::StoreU(hn::DemoteTo(d8, hn::BitCast(hn::RebindToSigned<D>(), mean)), d8, out);
  } else {
    hn::StoreU(acc, d, out);
  }
}

// Vectors [i, n) of a row summing exactly kCount rows: their pointers in registers, the adds
// unrolled, two vectors an iteration (windows of up to 9, the common boxes). Returns where it stopped.
template <int kCount, bool kMean, class Out>
HWY_INLINE int64_t BoxLanesOf(const uint16_t* const* in, BoxMean mean, int64_t n, Out* HWY_RESTRICT out) {
  const hn::ScalableTag<uint16_t> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const uint16_t* row[kCount];
  for (int k = 0; k < kCount; ++k) row[k] = in[k];
  const auto start = hn::Set(d, static_cast<uint16_t>(mean.size / 2));  // 0 for the horizontal pass
  const auto multiplier = hn::Set(d, static_cast<uint16_t>(mean.division.multiplier));
  int64_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    auto a0 = hn::Add(hn::LoadU(d, row[0] + i), start), a1 = hn::Add(hn::LoadU(d, row[0] + i + lanes), start);
    for (int k = 1; k < kCount; ++k) {
      a0 = hn::Add(a0, hn::LoadU(d, row[k] + i));
      a1 = hn::Add(a1, hn::LoadU(d, row[k] + i + lanes));
    }
    StoreBoxLanes<kMean>(d, a0, multiplier, mean.division.shift, out + i);
    StoreBoxLanes<kMean>(d, a1, multiplier, mean.division.shift, out + i + lanes);
  }
  return i;
}
#endif

// out[i] = the sum over t < count of in[t][i] for i < n, in uint16 lanes (a window of at most
// kMaxIntegerBox bytes sums to at most 20,655); kMean: box_mean of it, a byte.
template <bool kMean, class Out>
HWY_INLINE void BoxRow(const uint16_t* const* in, int64_t count, BoxMean mean, int64_t n, Out* HWY_RESTRICT out) {
  int64_t i = 0;
#if HWY_TARGET != HWY_SCALAR
  const hn::ScalableTag<uint16_t> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  switch (count) {
    case 1: i = BoxLanesOf<1, kMean>(in, mean, n, out); break;
    case 3: i = BoxLanesOf<3, kMean>(in, mean, n, out); break;
    case 5: i = BoxLanesOf<5, kMean>(in, mean, n, out); break;
    case 7: i = BoxLanesOf<7, kMean>(in, mean, n, out); break;
    case 9: i = BoxLanesOf<9, kMean>(in, mean, n, out); break;
    default: break;
  }
  const auto start = hn::Set(d, static_cast<uint16_t>(mean.size / 2));
  const auto multiplier = hn::Set(d, static_cast<uint16_t>(mean.division.multiplier));
  const auto vector_at = [&](int64_t at) {
    auto acc = start;
    for (int64_t t = 0; t < count; ++t) acc = hn::Add(acc, hn::LoadU(d, in[t] + at));
    StoreBoxLanes<kMean>(d, acc, multiplier, mean.division.shift, out + at);
  };
  for (; i + lanes <= n; i += lanes) vector_at(i);
  if (i < n && n >= lanes) vector_at(n - lanes), i = n;  // the rest as one vector ending at n
#endif
  for (; i < n; ++i) {
    uint32_t acc = 0;
    for (int64_t t = 0; t < count; ++t) acc += in[t][i];
    if constexpr (kMean) {
      out[i] = box_mean(acc, mean.size);
    } else {
      out[i] = static_cast<Out>(acc);
    }
  }
}

// One plane (c >= 0) or interleaved sample (c = -1): each padded row's horizontal window sums into
// a uint16 image, then each output row the sum of its window's rows of it (the constant border's
// zero rows left out), divided.
HWY_INLINE void IntegerBoxPlane(const ConstImage& src, const Image& dst, int64_t ky, int64_t kx, Border border,
                                BoxDivision division, int64_t b, int64_t c, std::vector<uint16_t>& padded,
                                std::vector<uint16_t>& sums, std::vector<uint8_t>& out_row) {
  const bool interleaved = c < 0;
  const int64_t step = interleaved ? src.channels : 1, w = src.width, h = src.height, n = w * step;
  const int64_t rx = kx / 2, ry = ky / 2;
  padded.resize(static_cast<size_t>((w + 2 * rx) * step));
  sums.resize(static_cast<size_t>(h * n));
  std::vector<const uint16_t*> in(static_cast<size_t>(kx > ky ? kx : ky));
  for (int64_t t = 0; t < kx; ++t) in[static_cast<size_t>(t)] = padded.data() + t * step;
  const RowBorders borders(w, rx, border);
  for (int64_t y = 0; y < h; ++y) {
    PadRowU16<0>(src, b, c, y, borders, padded.data());
    BoxRow<false>(in.data(), kx, BoxMean{}, n, sums.data() + y * n);
  }
  int64_t count = 0;
  bool listed_inside = false;  // the list is of a row whose window lies inside the image
  for (int64_t y = 0; y < h; ++y) {
    const bool inside = y >= ry && y - ry + ky <= h;
    if (inside && listed_inside) {
      for (int64_t k = 0; k < count; ++k) in[static_cast<size_t>(k)] += n;  // the window moved down a row
    } else {
      count = 0;
      for (int64_t t = 0; t < ky; ++t) {
        const int64_t sy = border_source(y + t - ry, h, border);
        if (sy >= 0) in[static_cast<size_t>(count++)] = sums.data() + sy * n;
      }
      listed_inside = inside;
    }
    StoreRow(dst, b, c, y, n, out_row, [&](uint8_t* out) {  // count >= 1: row y is its own source
      BoxRow<true>(in.data(), count, BoxMean{static_cast<uint32_t>(ky * kx), division}, n, out);
    });
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_FILTER_BOX_INL_H_
