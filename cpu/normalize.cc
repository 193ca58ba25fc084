// normalize and to_float on the CPU: the float32 arithmetic of pixel/normalize.h in vector lanes
// (convert, divide by 255, subtract, divide: each IEEE-rounded exactly as in the scalar code).
// Planar rows use the channel's mean and std; interleaved rows use a per-position pattern of them.
// The division by std is most of the op's time (a vector division every 5 to 10 cycles). A channel
// has only 256 numerators, one a byte, so each call checks them all first (ReciprocalServes): where
// the reciprocal and one fused correction step give every one of them the division's float, the
// rows take that form (normalize 1x3x224x224, Sapphire Rapids: 28.6 -> 17.8 us on AVX3_DL, 25.6 ->
// 22.7 on AVX2).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/normalize.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/unit_lanes-inl.h"

#include <vector>

#include "cpu/parallel.h"
#include "cpu/rows.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/normalize.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;

// a / s: a true division, or where `reciprocal` (r = 1 / s, ReciprocalServes checked every a) the
// quotient a * r corrected once by its exact residual.
HWY_INLINE hn::Vec<DF> Quotient(hn::Vec<DF> a, hn::Vec<DF> s, hn::Vec<DF> r, bool reciprocal) {
#if HWY_NATIVE_FMA
  if (reciprocal) {
    const auto q = hn::Mul(a, r);
    return hn::MulAdd(hn::NegMulAdd(q, s, a), r, q);
  }
#else
  (void)r;
  (void)reciprocal;
#endif
  return hn::Div(a, s);
}

// Whether Quotient's reciprocal form gives (x / 255 - mean) / std's float for every byte x.
bool ReciprocalServes(float mean, float std) {
#if HWY_NATIVE_FMA
  const DF d;
  const hn::RebindToUnsigned<DF> du;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  HWY_ALIGN uint8_t bytes[256];
  for (int i = 0; i < 256; ++i) bytes[i] = static_cast<uint8_t>(i);
  const auto m = hn::Set(d, mean), s = hn::Set(d, std), r = hn::Set(d, 1.0f / std);
  auto differ = hn::Zero(du);  // any bit set: some quotient is not the division's float
  for (int64_t i = 0; i < 256; i += lanes) {
    const auto a = hn::Sub(UnitLanes(d, bytes + i), m);
    differ = hn::Or(differ, hn::Xor(hn::BitCast(du, Quotient(a, s, r, true)), hn::BitCast(du, hn::Div(a, s))));
  }
  return hn::AllTrue(du, hn::Eq(differ, hn::Zero(du)));
#else
  (void)mean;
  (void)std;
  return false;
#endif
}

// dst[i] = (src[i] / 255 - mean[i]) / std[i] for a row of n values; mean, std and their reciprocals
// are n-long patterns, or single values when `pattern` is false. Overlapping last step; false when
// n is shorter than a vector.
HWY_INLINE bool NormalizeRow(const uint8_t* HWY_RESTRICT src, float* HWY_RESTRICT dst, int64_t n, const float* mean,
                             const float* std, const float* recip, bool reciprocal, bool pattern) {
  const DF df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  if (n < lanes) return false;
  const auto mean1 = hn::Set(df, mean[0]), std1 = hn::Set(df, std[0]), recip1 = hn::Set(df, recip[0]);
  auto step = [&](int64_t i) {
    const auto m = pattern ? hn::LoadU(df, mean + i) : mean1;
    const auto s = pattern ? hn::LoadU(df, std + i) : std1;
    const auto r = pattern ? hn::LoadU(df, recip + i) : recip1;
    hn::StoreU(Quotient(hn::Sub(UnitLanes(df, src + i), m), s, r, reciprocal), df, dst + i);
  };
  int64_t i = 0;
  for (; i + lanes < n; i += lanes) step(i);
  step(n - lanes);
  return true;
}

// mean_row, std_row, recip_row: for interleaved rows, the W*C-long per-position patterns.
// reciprocal[c]: whether channel c's quotients take the reciprocal form (ReciprocalServes).
void NormalizeRows(const ConstImage& src, const FloatImage& dst, const PerChannel& mean, const PerChannel& std,
                   const float* mean_row, const float* std_row, const float* recip_row, const uint8_t* reciprocal,
                   RowLayout layout, int64_t row_begin, int64_t row_end) {
  const int64_t n = row_bytes(layout, src);
  bool every_channel = true;  // an interleaved row's pattern holds every channel
  for (int64_t c = 0; c < src.channels; ++c) every_channel = every_channel && reciprocal[c];
  for_each_row_run(layout, src, row_begin, row_end, [&](RowIndex r, int64_t rows) {
    for (int64_t y = r.y; y < r.y + rows; ++y) {
      if (layout == RowLayout::kPlanar) {
        const float m = mean[r.c], s = std[r.c], rs = 1.0f / s;
        if (NormalizeRow(&src.at(r.b, r.c, y, 0), &dst.at(r.b, r.c, y, 0), n, &m, &s, &rs, reciprocal[r.c], false)) {
          continue;
        }
      } else if (layout == RowLayout::kInterleaved) {
        if (NormalizeRow(&src.at(r.b, 0, y, 0), &dst.at(r.b, 0, y, 0), n, mean_row, std_row, recip_row, every_channel,
                         true)) {
          continue;
        }
      }
      for (int64_t x = 0; x < src.width; ++x) {
        if (layout == RowLayout::kPlanar) {
          normalize_element(src, dst, mean, std, r.b, r.c, y, x);
        } else {
          for (int64_t c = 0; c < src.channels; ++c) normalize_element(src, dst, mean, std, r.b, c, y, x);
        }
      }
    }
  });
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(NormalizeRows);
HWY_EXPORT(ReciprocalServes);

void normalize(const ConstImage& src, const FloatImage& dst, PerChannel mean, PerChannel std,
               const ParallelFor& parallel) {
  const char* op = "normalize";
  detail::check_unary(op, src, dst);
  detail::check_samples(op, "mean", mean, src.channels, "C");
  detail::check_samples(op, "std", std, src.channels, "C");
  const float big = std::numeric_limits<float>::max();
  detail::check_sample_values(op, "mean", mean, -big, big);
  detail::check_sample_values(op, "std", std, -big, big, false, /*nonzero=*/true);

  const RowLayout layout = row_layout(src, dst);
  std::vector<float> mean_row, std_row, recip_row;
  if (layout == RowLayout::kInterleaved) {
    for (int64_t i = 0; i < src.width * src.channels; ++i) {
      mean_row.push_back(mean[i % src.channels]);
      std_row.push_back(std[i % src.channels]);
      recip_row.push_back(1.0f / std[i % src.channels]);
    }
  }
  std::vector<uint8_t> serves(static_cast<size_t>(src.channels));  // per channel: ReciprocalServes
  for (int64_t c = 0; c < src.channels; ++c) serves[c] = HWY_DYNAMIC_DISPATCH(ReciprocalServes)(mean[c], std[c]);
  run_parallel(
      parallel, row_count(layout, src), grain_for(4 * row_bytes(layout, src)), [&](int64_t begin, int64_t end) {
        HWY_DYNAMIC_DISPATCH(NormalizeRows)
        (src, dst, mean, std, mean_row.data(), std_row.data(), recip_row.data(), serves.data(), layout, begin, end);
      });
}

void to_float(const ConstImage& src, const FloatImage& dst, const ParallelFor& parallel) {
  static const float zero = 0.0f, one = 1.0f;
  normalize(src, dst, PerChannel{&zero, 1}, PerChannel{&one, 1}, parallel);
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
