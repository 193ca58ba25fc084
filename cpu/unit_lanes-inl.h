// Per-target helpers shared by the float32 kernels (gray.cc, color.cc, normalize.cc): bytes to
// x / 255, the to_u8 quantizer and kornia's luma, each the lane form of hd.h / pixel/gray.h; and the
// fast tier's one integer rounding (resize_fixed-inl.h, sample_fixed-inl.h, color_fixed.cc), the
// lane form of pixel/fixed_point.h's shift_round_even.
// Highway's per-target header convention: included once per target by each foreach_target file.
#if defined(U8AUG_CPU_UNIT_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef U8AUG_CPU_UNIT_LANES_INL_H_
#undef U8AUG_CPU_UNIT_LANES_INL_H_
#else
#define U8AUG_CPU_UNIT_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Lanes(d) bytes -> float, as the oracle's x.float(); UnitLanes divides by 255 (a true division,
// as torch's).
template <class DF>
HWY_INLINE hn::Vec<DF> ByteLanes(DF d, const uint8_t* p) {
  const hn::Rebind<int32_t, DF> di;
  const hn::Rebind<uint8_t, DF> d8;
  return hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(d8, p)));
}

// x / 255 for whole numbers x in [0, 255] held as floats.
template <class DF>
HWY_INLINE hn::Vec<DF> UnitOfByteLanes(DF d, hn::Vec<DF> x) {
#if HWY_NATIVE_FMA
  // x * (1/255) and one fused correction step: equal to the true quotient x / 255 for every byte
  // (checked for all 256 in the tests), at a fraction of a division's cost.
  const auto r = hn::Set(d, 1.0f / 255.0f);
  const auto q = hn::Mul(x, r);
  return hn::MulAdd(hn::NegMulAdd(q, hn::Set(d, 255.0f), x), r, q);
#else
  return hn::Div(x, hn::Set(d, 255.0f));
#endif
}

template <class DF>
HWY_INLINE hn::Vec<DF> UnitLanes(DF d, const uint8_t* p) {
  return UnitOfByteLanes(d, ByteLanes(d, p));
}

// v / 2^kBits rounded half to even, for v >= 0 in signed integer lanes: adding 2^(kBits - 1) - 1 and
// the truncated quotient's low bit before the shift carries exactly the halves above an odd quotient.
template <int kBits, class D>
HWY_INLINE hn::Vec<D> ShiftRoundEven(D d, hn::Vec<D> v) {
  const auto odd = hn::And(hn::ShiftRight<kBits>(v), hn::Set(d, 1));
  return hn::ShiftRight<kBits>(hn::Add(v, hn::Add(hn::Set(d, (1 << (kBits - 1)) - 1), odd)));
}

// to_u8(y * 255) as hd.h computes it: clamp to [0, 255] (NaN -> 0: x86 max returns its second
// operand), then adding 2^23 rounds half to even and leaves the integer in the low mantissa bits:
// masked to its byte, that is the result (no float -> int conversion and no saturating packs).
// (Highway 1.0.3's TruncateTo to bytes is wrong on AVX3_DL, hence U8FromU32 of masked lanes.)
// U8Lanes of y * 255 already made (`scaled`): to_u8's own argument.
template <class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint8_t, DF>> U8OfScaledLanes(DF d, hn::Vec<DF> scaled) {
  const hn::Rebind<uint32_t, DF> du;
  const auto c = hn::Min(hn::Max(scaled, hn::Zero(d)), hn::Set(d, 255.0f));
  return hn::U8FromU32(hn::And(hn::BitCast(du, hn::Add(c, hn::Set(d, 8388608.0f))), hn::Set(du, 0xFFu)));
}

template <class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint8_t, DF>> U8Lanes(DF d, hn::Vec<DF> y) {
  return U8OfScaledLanes(d, hn::Mul(y, hn::Set(d, 255.0f)));
}

template <class DF>
HWY_INLINE void StoreU8Lanes(DF d, hn::Vec<DF> y, uint8_t* p) {
  hn::StoreU(U8Lanes(d, y), hn::Rebind<uint8_t, DF>(), p);
}

// StoreU8Lanes of four vectors into 4 * Lanes(d) consecutive bytes, given y * 255 (`scaled`). On
// x86, for full vectors, in integers: the value capped at 256 by x86's min, which returns its second
// operand, so NaN stays NaN; converted with round-half-to-even (cvtps2dq in the default rounding
// mode, as the 2^23 trick assumes; NaN and everything below -2^31 give INT_MIN); packed with signed
// saturation to 16 bits, then unsigned saturation to bytes: a clamp to [0, 255] after the rounding,
// which for integer bounds is to_u8's clamp before it. The packs work within 128-bit blocks; one
// permute restores the order. A third of the instructions of four single-vector stores, and one
// store instead of four.
template <class DF>
HWY_INLINE void StoreU8OfScaledLanes4(DF d, hn::Vec<DF> v0, hn::Vec<DF> v1, hn::Vec<DF> v2, hn::Vec<DF> v3,
                                      uint8_t* p) {
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  if constexpr (std::is_same<DF, hn::ScalableTag<float>>::value) {
    const auto k256 = hn::Set(d, 256.0f);
    const auto capped = [&](hn::Vec<DF> v) { return hn::Min(k256, v).raw; };
#if HWY_TARGET == HWY_AVX2
    const __m256i ab = _mm256_packs_epi32(_mm256_cvtps_epi32(capped(v0)), _mm256_cvtps_epi32(capped(v1)));
    const __m256i cd = _mm256_packs_epi32(_mm256_cvtps_epi32(capped(v2)), _mm256_cvtps_epi32(capped(v3)));
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm256_permutevar8x32_epi32(_mm256_packus_epi16(ab, cd), order));
#else
    const __m512i ab = _mm512_packs_epi32(_mm512_cvtps_epi32(capped(v0)), _mm512_cvtps_epi32(capped(v1)));
    const __m512i cd = _mm512_packs_epi32(_mm512_cvtps_epi32(capped(v2)), _mm512_cvtps_epi32(capped(v3)));
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    _mm512_storeu_si512(p, _mm512_permutexvar_epi32(order, _mm512_packus_epi16(ab, cd)));
#endif
    return;
  }
#endif
  const size_t n = hn::Lanes(d);
  const hn::Rebind<uint8_t, DF> d8;
  hn::StoreU(U8OfScaledLanes(d, v0), d8, p);
  hn::StoreU(U8OfScaledLanes(d, v1), d8, p + n);
  hn::StoreU(U8OfScaledLanes(d, v2), d8, p + 2 * n);
  hn::StoreU(U8OfScaledLanes(d, v3), d8, p + 3 * n);
}

// StoreU8Lanes of four vectors into 4 * Lanes(d) consecutive bytes.
template <class DF>
HWY_INLINE void StoreU8Lanes4(DF d, hn::Vec<DF> y0, hn::Vec<DF> y1, hn::Vec<DF> y2, hn::Vec<DF> y3, uint8_t* p) {
  const auto k255 = hn::Set(d, 255.0f);
  StoreU8OfScaledLanes4(d, hn::Mul(y0, k255), hn::Mul(y1, k255), hn::Mul(y2, k255), hn::Mul(y3, k255), p);
}

// out[i] = to_u8(value(i)[0] * 255) over a row of n >= Lanes(d) outputs, value(i) the vector of
// outputs [i, i + N): four vectors a store, then single vectors, the last one ending at n (its
// overlap stores the same bytes again).
template <class DF, class Value>
HWY_INLINE void StoreU8Row(DF d, int64_t n, const Value& value, uint8_t* out) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes)
    StoreU8Lanes4(d, value(i), value(i + lanes), value(i + 2 * lanes), value(i + 3 * lanes), out + i);
  for (; i < n; i += lanes) {
    if (i + lanes > n) i = n - lanes;
    StoreU8Lanes(d, value(i), out + i);
  }
}

// Row y of channel c of sample b, columns [left, left + width), as x / 255 floats into `out`.
template <class Src>
HWY_INLINE void UnitRow(const Src& src, int64_t b, int64_t c, int64_t y, int64_t left, int64_t width, float* out) {
  const hn::ScalableTag<float> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const uint8_t* in = &src.at(b, c, y, left);
  int64_t x = 0;
  if (src.stride_w == 1) {
    for (; x + lanes <= width; x += lanes) hn::StoreU(UnitLanes(df, in + x), df, out + x);
    if (x < width && width >= lanes) {  // the last vector again, overlapping: a division per byte
      x = width - lanes;                // of a 300-wide row's tail cost a quarter of the row
      hn::StoreU(UnitLanes(df, in + x), df, out + x);
      x = width;
    }
  } else {
    // an interleaved row (channels_last: a decoded JPEG's layout), converted in lanes: a division per
    // byte took 5x the planar row's time. Three channels: deinterleaved from whole loads, which read
    // this channel's pixels and the two bytes after each, so they stop a pixel before the row's end.
    const hn::Rebind<uint8_t, decltype(df)> d8;
    const hn::Rebind<int32_t, decltype(df)> di;
    if (src.stride_w == 3) {
      for (; x + lanes < width; x += lanes) {
        hn::Vec<decltype(d8)> v0, v1, v2;
        hn::LoadInterleaved3(d8, in + 3 * x, v0, v1, v2);
        hn::StoreU(UnitOfByteLanes(df, hn::ConvertTo(df, hn::PromoteTo(di, v0))), df, out + x);
      }
    }
    HWY_ALIGN uint8_t gathered[hn::MaxLanes(df)];
    for (; x + lanes <= width; x += lanes) {
      for (int64_t k = 0; k < lanes; ++k) gathered[k] = in[(x + k) * src.stride_w];
      hn::StoreU(UnitLanes(df, gathered), df, out + x);
    }
  }
  for (; x < width; ++x) out[x] = static_cast<float>(in[x * src.stride_w]) / 255.0f;
}

// Rows [row_begin, row_end) of a window (top, left, height x width) of sample b, counted channel by
// channel, as x / 255 floats into `out` (planar: row r at out + r * width); the geometry kernels
// sample these instead of dividing per tap.
template <class Src>
HWY_INLINE void UnitWindowRows(const Src& src, int64_t b, int64_t top, int64_t left, int64_t height, int64_t width,
                               float* out, int64_t row_begin, int64_t row_end) {
  for (int64_t r = row_begin; r < row_end; ++r)
    UnitRow(src, b, r / height, top + r % height, left, width, out + r * width);
}

#if HWY_NATIVE_FMA
// pixel/gray.h's luma_unit: r * 0.299, then two fused multiply-adds. Only where the FMA is native.
template <class DF>
HWY_INLINE hn::Vec<DF> LumaLanes(DF d, hn::Vec<DF> r, hn::Vec<DF> g, hn::Vec<DF> b) {
  return hn::MulAdd(b, hn::Set(d, 0.114f), hn::MulAdd(g, hn::Set(d, 0.587f), hn::Mul(r, hn::Set(d, 0.299f))));
}
#endif

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_UNIT_LANES_INL_H_
