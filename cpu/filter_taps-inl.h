// The float filters' passes (pixel/filter.h's exact arithmetic), one fused multiply-add per tap over
// vectors of outputs: TapRow along a padded row, TapColumns down whole rows (filter.cc; the blur of
// resize_antialias.cc). Highway's per-target header convention.
#if defined(U8AUG_CPU_FILTER_TAPS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef U8AUG_CPU_FILTER_TAPS_INL_H_
#undef U8AUG_CPU_FILTER_TAPS_INL_H_
#else
#define U8AUG_CPU_FILTER_TAPS_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>

#include <vector>

#include "cpu/filter_rows-inl.h"
#include "cpu/unit_lanes-inl.h"
#include "u8aug/pixel/filter.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_NATIVE_FMA
// TapRow's and TapColumns' blocks of four vectors for a kernel of kTaps taps known when compiled
// (3, 5 or 7, kornia's usual sizes) and no division: the weights broadcast once and the taps
// unrolled, the same fused multiply-adds in the same order. A loop over a run-time count spent more
// instructions on the loop and the broadcast than on the four multiply-adds of each tap (a 5x5 blur:
// 7.7 instructions an output byte). `source(t, i)`: where tap t's values for output i start.
// Returns where the blocks end.
template <int kTaps, class D, class Source, class Store>
HWY_INLINE int64_t FixedTapBlocks(D d, int64_t n, const float* w, const Source& source, const Store& store) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  hn::Vec<D> weights[kTaps];
  for (int t = 0; t < kTaps; ++t) weights[t] = hn::Set(d, w[t]);
  int64_t i = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    auto a0 = hn::Zero(d), a1 = a0, a2 = a0, a3 = a0;
    for (int t = 0; t < kTaps; ++t) {
      const float* p = source(t, i);
      a0 = hn::MulAdd(hn::LoadU(d, p), weights[t], a0);
      a1 = hn::MulAdd(hn::LoadU(d, p + lanes), weights[t], a1);
      a2 = hn::MulAdd(hn::LoadU(d, p + 2 * lanes), weights[t], a2);
      a3 = hn::MulAdd(hn::LoadU(d, p + 3 * lanes), weights[t], a3);
    }
    store(i, a0, a1, a2, a3);
  }
  return i;
}

// FixedTapBlocks for `taps` where it has a version, else 0 (nothing done).
template <class D, class Source, class Store>
HWY_INLINE int64_t FixedTapBlocksOf(D d, int64_t taps, int64_t n, const float* w, const Source& source,
                                    const Store& store) {
  switch (taps) {
    case 3: return FixedTapBlocks<3>(d, n, w, source, store);
    case 5: return FixedTapBlocks<5>(d, n, w, source, store);
    case 7: return FixedTapBlocks<7>(d, n, w, source, store);
    default: return 0;
  }
}
#endif

// out[i] = (sum over t of in[i + t * step] * w[t]) / divisor for i < n, fused tap by tap from t = 0
// (a divisor of 1 skips the exact division).
HWY_INLINE void TapRow(const float* HWY_RESTRICT in, float* HWY_RESTRICT out, int64_t n, int64_t step, const float* w,
                       int64_t taps, float divisor) {
  int64_t i = 0;
#if HWY_NATIVE_FMA
  const bool divide = divisor != 1.0f;
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  if (!divide) {
    i = FixedTapBlocksOf(
        d, taps, n, w, [&](int t, int64_t at) { return in + at + t * step; },
        [&](int64_t at, hn::Vec<decltype(d)> a0, hn::Vec<decltype(d)> a1, hn::Vec<decltype(d)> a2,
            hn::Vec<decltype(d)> a3) {
          hn::StoreU(a0, d, out + at);
          hn::StoreU(a1, d, out + at + lanes);
          hn::StoreU(a2, d, out + at + 2 * lanes);
          hn::StoreU(a3, d, out + at + 3 * lanes);
        });
  }
  // four independent accumulators: each tap's fused multiply-add waits on the previous one
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    auto a0 = hn::Zero(d), a1 = a0, a2 = a0, a3 = a0;
    for (int64_t t = 0; t < taps; ++t) {
      const float* p = in + i + t * step;
      const auto wt = hn::Set(d, w[t]);
      a0 = hn::MulAdd(hn::LoadU(d, p), wt, a0);
      a1 = hn::MulAdd(hn::LoadU(d, p + lanes), wt, a1);
      a2 = hn::MulAdd(hn::LoadU(d, p + 2 * lanes), wt, a2);
      a3 = hn::MulAdd(hn::LoadU(d, p + 3 * lanes), wt, a3);
    }
    if (divide) {
      const auto v = hn::Set(d, divisor);
      a0 = hn::Div(a0, v), a1 = hn::Div(a1, v), a2 = hn::Div(a2, v), a3 = hn::Div(a3, v);
    }
    hn::StoreU(a0, d, out + i);
    hn::StoreU(a1, d, out + i + lanes);
    hn::StoreU(a2, d, out + i + 2 * lanes);
    hn::StoreU(a3, d, out + i + 3 * lanes);
  }
  for (; i + lanes <= n; i += lanes) {
    auto acc = hn::Zero(d);
    for (int64_t t = 0; t < taps; ++t) acc = hn::MulAdd(hn::LoadU(d, in + i + t * step), hn::Set(d, w[t]), acc);
    hn::StoreU(divide ? hn::Div(acc, hn::Set(d, divisor)) : acc, d, out + i);
  }
  if (i < n && n >= lanes) {  // the rest as one vector ending at n (the overlap recomputes the same values)
    i = n - lanes;
    auto acc = hn::Zero(d);
    for (int64_t t = 0; t < taps; ++t) acc = hn::MulAdd(hn::LoadU(d, in + i + t * step), hn::Set(d, w[t]), acc);
    hn::StoreU(divide ? hn::Div(acc, hn::Set(d, divisor)) : acc, d, out + i);
    i = n;
  }
#endif
  for (; i < n; ++i) {
    float acc = 0.0f;
    for (int64_t t = 0; t < taps; ++t) acc = tap(acc, in[i + t * step], w[t]);
    out[i] = acc / divisor;
  }
}

// dst[i] = to_u8((sum over t of rows[t][i] * w[t]) / divisor * 255), rows[t] null for a constant (zero)
// tap; with a float dst the sum / divisor itself (resize_antialias's blurred image, resampled unquantized).
template <class D>
HWY_INLINE void StoreColumnLanes(D d, hn::Vec<D> v, uint8_t* HWY_RESTRICT out) {
  StoreU8Lanes(d, v, out);
}
template <class D>
HWY_INLINE void StoreColumnLanes(D d, hn::Vec<D> v, float* HWY_RESTRICT out) {
  hn::StoreU(v, d, out);
}
template <class D>
HWY_INLINE void StoreColumnLanes4(D d, hn::Vec<D> a0, hn::Vec<D> a1, hn::Vec<D> a2, hn::Vec<D> a3,
                                  uint8_t* HWY_RESTRICT out) {
  StoreU8Lanes4(d, a0, a1, a2, a3, out);
}
template <class D>
HWY_INLINE void StoreColumnLanes4(D d, hn::Vec<D> a0, hn::Vec<D> a1, hn::Vec<D> a2, hn::Vec<D> a3,
                                  float* HWY_RESTRICT out) {
  const size_t n = hn::Lanes(d);
  hn::StoreU(a0, d, out);
  hn::StoreU(a1, d, out + n);
  hn::StoreU(a2, d, out + 2 * n);
  hn::StoreU(a3, d, out + 3 * n);
}
HWY_INLINE uint8_t ColumnValue(float v, uint8_t*) { return to_u8(v * 255.0f); }
HWY_INLINE float ColumnValue(float v, float*) { return v; }

template <class Out>
HWY_INLINE void TapColumns(const float* const* rows, Out* HWY_RESTRICT dst, int64_t n, const float* w, int64_t taps,
                           float divisor) {
  int64_t i = 0;
#if HWY_NATIVE_FMA
  const bool divide = divisor != 1.0f;
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  if (!divide && std::all_of(rows, rows + taps, [](const float* r) { return r != nullptr; })) {
    i = FixedTapBlocksOf(
        d, taps, n, w, [&](int t, int64_t at) { return rows[t] + at; },
        [&](int64_t at, hn::Vec<decltype(d)> a0, hn::Vec<decltype(d)> a1, hn::Vec<decltype(d)> a2,
            hn::Vec<decltype(d)> a3) { StoreColumnLanes4(d, a0, a1, a2, a3, dst + at); });
  }
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    auto a0 = hn::Zero(d), a1 = a0, a2 = a0, a3 = a0;
    for (int64_t t = 0; t < taps; ++t) {
      const float* p = rows[t];
      if (!p) continue;
      p += i;
      const auto wt = hn::Set(d, w[t]);
      a0 = hn::MulAdd(hn::LoadU(d, p), wt, a0);
      a1 = hn::MulAdd(hn::LoadU(d, p + lanes), wt, a1);
      a2 = hn::MulAdd(hn::LoadU(d, p + 2 * lanes), wt, a2);
      a3 = hn::MulAdd(hn::LoadU(d, p + 3 * lanes), wt, a3);
    }
    if (divide) {
      const auto v = hn::Set(d, divisor);
      a0 = hn::Div(a0, v), a1 = hn::Div(a1, v), a2 = hn::Div(a2, v), a3 = hn::Div(a3, v);
    }
    StoreColumnLanes4(d, a0, a1, a2, a3, dst + i);
  }
  for (; i + lanes <= n; i += lanes) {
    auto acc = hn::Zero(d);
    for (int64_t t = 0; t < taps; ++t) {
      if (rows[t]) acc = hn::MulAdd(hn::LoadU(d, rows[t] + i), hn::Set(d, w[t]), acc);
    }
    StoreColumnLanes(d, divide ? hn::Div(acc, hn::Set(d, divisor)) : acc, dst + i);
  }
  if (i < n && n >= lanes) {  // the rest as one vector ending at n, as TapRow
    i = n - lanes;
    auto acc = hn::Zero(d);
    for (int64_t t = 0; t < taps; ++t) {
      if (rows[t]) acc = hn::MulAdd(hn::LoadU(d, rows[t] + i), hn::Set(d, w[t]), acc);
    }
    StoreColumnLanes(d, divide ? hn::Div(acc, hn::Set(d, divisor)) : acc, dst + i);
    i = n;
  }
#endif
  for (; i < n; ++i) {
    float acc = 0.0f;
    for (int64_t t = 0; t < taps; ++t) {
      if (rows[t]) acc = tap(acc, rows[t][i], w[t]);
    }
    dst[i] = ColumnValue(acc / divisor, dst);
  }
}

// The separable filter's passes over one plane (planar: channel c) or one interleaved sample (c =
// -1; its rows as `n` = W * C values, taps C apart): each row padded once into floats and passed
// horizontally into `rows` (H x n), then column_row(y, taps, weights) for each output row y, taps[t]
// the row under vertical tap t (null: the constant border's zero), for TapColumns.
template <class ColumnRow>
HWY_INLINE void SeparablePasses(const ConstImage& src, FilterKernel kx, FilterKernel ky, Border border, int64_t b,
                                int64_t c, std::vector<float>& padded, std::vector<float>& rows,
                                const ColumnRow& column_row) {
  const bool interleaved = c < 0;
  const int64_t step = interleaved ? src.channels : 1, w = src.width, h = src.height, n = w * step;
  // rows padded by k / 2 each side (an even kernel reaches one further right than left)
  const int64_t rx = kx.taps / 2, ry = filter_anchor(ky.taps), shift = (rx - filter_anchor(kx.taps)) * step;
  padded.resize(static_cast<size_t>((w + 2 * rx) * step));
  rows.resize(static_cast<size_t>(h * n));
  std::vector<float> weights_x(static_cast<size_t>(kx.taps)), weights_y(static_cast<size_t>(ky.taps));
  for (int64_t t = 0; t < kx.taps; ++t) weights_x[static_cast<size_t>(t)] = kx.weight(b, t);
  for (int64_t t = 0; t < ky.taps; ++t) weights_y[static_cast<size_t>(t)] = ky.weight(b, t);
  const RowBorders borders(w, rx, border);
  for (int64_t y = 0; y < h; ++y) {
    PadRow(src, b, c, y, borders, padded.data());
    TapRow(padded.data() + shift, rows.data() + y * n, n, step, weights_x.data(), kx.taps, kx.divisor);
  }
  std::vector<const float*> taps(static_cast<size_t>(ky.taps));
  for (int64_t y = 0; y < h; ++y) {
    for (int64_t t = 0; t < ky.taps; ++t) {
      const int64_t sy = border_source(y + t - ry, h, border);
      taps[static_cast<size_t>(t)] = sy < 0 ? nullptr : rows.data() + sy * n;
    }
    column_row(y, taps.data(), weights_y.data());
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_FILTER_TAPS_INL_H_
