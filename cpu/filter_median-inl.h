// The 3x3 median on the CPU (Median3Plane): columns sorted once and shared by three windows and
// two rows, for filter.cc. Highway's per-target header convention.
#if defined(U8AUG_CPU_FILTER_MEDIAN_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef U8AUG_CPU_FILTER_MEDIAN_INL_H_
#undef U8AUG_CPU_FILTER_MEDIAN_INL_H_
#else
#define U8AUG_CPU_FILTER_MEDIAN_INL_H_
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

// The median of a 3x3 window from its three columns, each sorted (lo <= mid <= hi): the median of the
// largest low, the middle mid and the smallest high. 12 lane-wise byte min/max on columns sorted once
// and shared by three windows, against the 19 compare-exchanges (38 min/max) of a 9-value network;
// the result is one of the nine values.
template <class V, class Min, class Max>
HWY_INLINE V MedianOfSortedColumns(const V lo[3], const V mid[3], const V hi[3], const Min& mn, const Max& mx) {
  const auto median3 = [&](V a, V b, V c) { return mx(mn(a, b), mn(mx(a, b), c)); };
  return median3(mx(mx(lo[0], lo[1]), lo[2]), median3(mid[0], mid[1], mid[2]), mn(mn(hi[0], hi[1]), hi[2]));
}

// A 3x3 median of one plane (c >= 0) or interleaved sample (c = -1); other windows take
// pixel/filter.h's median_value for every element. Two output rows at a time: their windows share
// two source rows, whose columns are ordered once, and each row's sorted columns (lo, mid, hi at
// every position, one pixel of border each side) are kept in an L1-sized row apiece. The source rows
// are read in place when their bytes are consecutive (else gathered once into `gathered`); a border
// column is sorted as the column it copies (zeros for the constant border).
HWY_INLINE void Median3Plane(const ConstImage& src, const Image& dst, Border border, int64_t b, int64_t c,
                             std::vector<uint8_t>& gathered, std::vector<uint8_t>& columns,
                             std::vector<uint8_t>& out_row) {
  const bool interleaved = c < 0;
  const int64_t step = interleaved ? src.channels : 1, w = src.width, h = src.height, n = w * step;
  const int64_t row_len = n + 2 * step;
  columns.assign(static_cast<size_t>(6 * row_len + n), 0);  // the last n bytes: a zero row
  const uint8_t* zero = columns.data() + 6 * row_len;
  const bool in_place = src.stride_w == step && (!interleaved || src.stride_c == 1);
  if (!in_place) {
    gathered.resize(static_cast<size_t>(h * n));
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x)
        for (int64_t k = 0; k < step; ++k) gathered[(y * w + x) * step + k] = src.at(b, interleaved ? k : c, y, x);
  }
  const auto source_row = [&](int64_t y) -> const uint8_t* {
    const int64_t sy = border_source(y, h, border);
    if (sy < 0) return zero;
    return in_place ? &src.at(b, interleaved ? 0 : c, sy, 0) : gathered.data() + sy * n;
  };
  uint8_t* sorted[2][3];  // [output row of the pair][lo, mid, hi], each from its first border pixel
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t k = 0; k < 3; ++k) sorted[r][k] = columns.data() + (r * 3 + k) * row_len;
  // 32-byte vectors on every target: a 224-byte row over 64-byte ones computes 256 (the B=32 3x224x224
  // batch: 0.83 ms against 0.93-1.04 ms on AVX3_DL, bench/cpp median_blur_3)
  const hn::CappedTag<uint8_t, 32> d;
  const auto vmin = [](auto a, auto b) { return hn::Min(a, b); };
  const auto vmax = [](auto a, auto b) { return hn::Max(a, b); };
  const auto smin = [](uint8_t a, uint8_t b) { return a < b ? a : b; };
  const auto smax = [](uint8_t a, uint8_t b) { return a < b ? b : a; };
  for (int64_t y = 0; y < h; y += 2) {
    const uint8_t* HWY_RESTRICT above = source_row(y - 1);
    const uint8_t* HWY_RESTRICT first = source_row(y);
    const uint8_t* HWY_RESTRICT second = source_row(y + 1);
    // the pair's second row exists only below the last row; without it any readable row will do (a
    // circular border wraps once: row h + 1 of a one-row image would lie past the plane)
    const uint8_t* HWY_RESTRICT below = y + 1 < h ? source_row(y + 2) : second;
    uint8_t* HWY_RESTRICT lo0 = sorted[0][0] + step;
    uint8_t* HWY_RESTRICT mid0 = sorted[0][1] + step;
    uint8_t* HWY_RESTRICT hi0 = sorted[0][2] + step;
    uint8_t* HWY_RESTRICT lo1 = sorted[1][0] + step;
    uint8_t* HWY_RESTRICT mid1 = sorted[1][1] + step;
    uint8_t* HWY_RESTRICT hi1 = sorted[1][2] + step;
    // a column of row y is (above, first, second); of row y + 1, (first, second, below)
    const auto sort_columns = [&](int64_t i, auto load, auto store, auto mn, auto mx) {
      const auto a = load(first + i), b = load(second + i), low = mn(a, b), high = mx(a, b);
      const auto u = load(above + i), v = load(below + i);
      store(mn(low, u), lo0 + i), store(mx(low, mn(high, u)), mid0 + i), store(mx(high, u), hi0 + i);
      store(mn(low, v), lo1 + i), store(mx(low, mn(high, v)), mid1 + i), store(mx(high, v), hi1 + i);
    };
    ForEachVector(
        d, n,
        [&](int64_t i) {
          sort_columns(
              i, [&](const uint8_t* p) { return hn::LoadU(d, p); },
              [&](hn::Vec<decltype(d)> v, uint8_t* p) { hn::StoreU(v, d, p); }, vmin, vmax);
        },
        [&](int64_t i) {
          sort_columns(
              i, [](const uint8_t* p) { return *p; }, [](uint8_t v, uint8_t* p) { *p = v; }, smin, smax);
        });
    for (int64_t j : {int64_t{-1}, w}) {  // the border columns
      const int64_t sx = border_source(j, w, border);
      for (uint8_t* row : {lo0, mid0, hi0, lo1, mid1, hi1})
        for (int64_t k = 0; k < step; ++k) row[j * step + k] = sx < 0 ? 0 : row[sx * step + k];
    }
    for (int64_t r = 0; r < 2 && y + r < h; ++r) {
      const uint8_t* HWY_RESTRICT lo = sorted[r][0];
      const uint8_t* HWY_RESTRICT mid = sorted[r][1];
      const uint8_t* HWY_RESTRICT hi = sorted[r][2];
      StoreRow(dst, b, c, y + r, n, out_row, [&](uint8_t* HWY_RESTRICT out) {
        ForEachVector(
            d, n,
            [&](int64_t x) {
              using V = hn::Vec<decltype(d)>;
              const V l[3] = {hn::LoadU(d, lo + x), hn::LoadU(d, lo + x + step), hn::LoadU(d, lo + x + 2 * step)};
              const V m[3] = {hn::LoadU(d, mid + x), hn::LoadU(d, mid + x + step), hn::LoadU(d, mid + x + 2 * step)};
              const V u[3] = {hn::LoadU(d, hi + x), hn::LoadU(d, hi + x + step), hn::LoadU(d, hi + x + 2 * step)};
              hn::StoreU(MedianOfSortedColumns(l, m, u, vmin, vmax), d, out + x);
            },
            [&](int64_t x) {
              const uint8_t l[3] = {lo[x], lo[x + step], lo[x + 2 * step]};
              const uint8_t m[3] = {mid[x], mid[x + step], mid[x + 2 * step]};
              const uint8_t u[3] = {hi[x], hi[x + step], hi[x + 2 * step]};
              out[x] = MedianOfSortedColumns(l, m, u, smin, smax);
            });
      });
    }
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_FILTER_MEDIAN_INL_H_
