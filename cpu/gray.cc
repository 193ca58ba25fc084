// rgb_to_grayscale and grayscale on the CPU. Planar and interleaved 3-channel rows run
// pixel/gray.h's luma_byte in vector lanes on targets with a native fused multiply-add (its rare
// halves take kornia's float steps, whose addcmul is fused); every other case runs pixel/gray.h
// per pixel.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/gray.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/unit_lanes-inl.h"

#include "cpu/parallel.h"
#include "cpu/rows.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/gray.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
#define U8AUG_GRAY_SUMS 1
// luma_byte of 32 planar pixels in AVX2 integer lanes (the AVX3 targets run them too): n = 299 r +
// 587 g + 114 b + 500 by two pairwise multiply-adds a group of eight, its quotient by 1000 by a float
// multiply and floor (n < 2^18: n * 0.001f lands within 3e-5 above n / 1000, and exactly on it where
// n is a multiple of 1000, so the floor is never off), and the halves (n a multiple of 1000: the
// sum's x.5, 0.1% of colours) found exactly. False, with nothing written, where one of the 32 is a
// half: the caller's float steps decide those. Bytes widen and pair within each 128-bit block, and
// the packs at the end put them back in order.
HWY_INLINE bool LumaBytes32(const uint8_t* r, const uint8_t* g, const uint8_t* b, uint8_t* out) {
  const __m256i zero = _mm256_setzero_si256(), ones = _mm256_set1_epi16(1);
  const __m256i weights_rg = _mm256_set1_epi32(kLumaMilliR | (kLumaMilliG << 16));
  const __m256i weights_b = _mm256_set1_epi32(kLumaMilliB | (500 << 16));  // b * kLumaMilliB + 1 * 500
  const __m256 thousandth = _mm256_set1_ps(0.001f), thousand = _mm256_set1_ps(1000.0f);
  const __m256i vr = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r));
  const __m256i vg = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g));
  const __m256i vb = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
  const __m256i r16[2] = {_mm256_unpacklo_epi8(vr, zero), _mm256_unpackhi_epi8(vr, zero)};
  const __m256i g16[2] = {_mm256_unpacklo_epi8(vg, zero), _mm256_unpackhi_epi8(vg, zero)};
  const __m256i b16[2] = {_mm256_unpacklo_epi8(vb, zero), _mm256_unpackhi_epi8(vb, zero)};
  __m256i q[4];
  __m256 halves = _mm256_setzero_ps();
  for (int h = 0; h < 2; ++h) {
    for (int k = 0; k < 2; ++k) {
      const __m256i rg = k ? _mm256_unpackhi_epi16(r16[h], g16[h]) : _mm256_unpacklo_epi16(r16[h], g16[h]);
      const __m256i b1 = k ? _mm256_unpackhi_epi16(b16[h], ones) : _mm256_unpacklo_epi16(b16[h], ones);
      const __m256 n =
          _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_madd_epi16(rg, weights_rg), _mm256_madd_epi16(b1, weights_b)));
      const __m256 quotient = _mm256_floor_ps(_mm256_mul_ps(n, thousandth));
      halves =
          _mm256_or_ps(halves, _mm256_cmp_ps(_mm256_fnmadd_ps(quotient, thousand, n), _mm256_setzero_ps(), _CMP_EQ_OQ));
      q[2 * h + k] = _mm256_cvtps_epi32(quotient);
    }
  }
  if (HWY_UNLIKELY(!_mm256_testz_ps(halves, halves))) return false;
  const __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(q[0], q[1]), _mm256_packs_epi32(q[2], q[3]));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), bytes);
  return true;
}
#endif

// One planar row: gray of (r, g, b) written to each of the `out_channels` rows of dst (one plane
// stride apart). False, with nothing written, where the vector path does not apply.
HWY_INLINE bool GrayRowPlanar(const uint8_t* r, const uint8_t* g, const uint8_t* b, uint8_t* dst, int64_t dst_plane,
                              int64_t out_channels, int64_t n) {
#if HWY_NATIVE_FMA
  const hn::ScalableTag<float> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  if (n < lanes) return false;
  const hn::Rebind<uint8_t, decltype(df)> d8;
  const auto k299 = hn::Set(df, static_cast<float>(kLumaMilliR)), k587 = hn::Set(df, static_cast<float>(kLumaMilliG));
  const auto k114 = hn::Set(df, static_cast<float>(kLumaMilliB));
  const auto k_thousandth = hn::Set(df, 0.001f), k_half = hn::Set(df, 0.4995f), k255 = hn::Set(df, 255.0f);
  // luma_byte in lanes, as floats for the quantizer (to_u8's argument): the sum is exact in float32
  // (below 2^18) and its quotient by 1000 within 3e-5, so a quotient 0.4995 or more from its
  // nearest integer is a half (0.499 at most otherwise), and a vector holding one takes kornia's
  // float steps whole (float_steps)
  const auto quotient = [&](int64_t i) {
    const auto rf = ByteLanes(df, r + i), gf = ByteLanes(df, g + i), bf = ByteLanes(df, b + i);
    return hn::Mul(hn::MulAdd(bf, k114, hn::MulAdd(gf, k587, hn::Mul(rf, k299))), k_thousandth);
  };
  const auto is_half = [&](decltype(quotient(0)) q, decltype(quotient(0)) nearest) {
    return hn::Ge(hn::Abs(hn::Sub(q, nearest)), k_half);
  };
  const auto float_steps = [&](int64_t i) {
    const auto luma = LumaLanes(df, UnitLanes(df, r + i), UnitLanes(df, g + i), UnitLanes(df, b + i));
    return hn::Mul(luma, k255);
  };
  const auto luma255 = [&](int64_t i) {
    const auto q = quotient(i), nearest = hn::Round(q);
    return HWY_UNLIKELY(!hn::AllFalse(df, is_half(q, nearest))) ? float_steps(i) : nearest;
  };
  // four vectors quantized and packed in one go (StoreU8OfScaledLanes4), with one test for a half
  // among them, the packed bytes then copied to the other output channels: the quantizer's and the
  // stores' instructions were half the loop, a test a vector a fifth of it
  const hn::ScalableTag<uint8_t> d8x4;
  int64_t i = 0;
#if U8AUG_GRAY_SUMS
  // 32 at a time in integers (LumaBytes32: half the float path's instructions), a group with a
  // half by the float steps below
  for (; i + 32 <= n; i += 32) {
    if (HWY_UNLIKELY(!LumaBytes32(r + i, g + i, b + i, dst + i))) {
      for (int64_t j = i; j < i + 32; j += lanes) hn::StoreU(U8OfScaledLanes(df, luma255(j)), d8, dst + j);
    }
    const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(dst + i));
    for (int64_t c = 1; c < out_channels; ++c) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + c * dst_plane + i), bytes);
    }
  }
#endif
  if (static_cast<int64_t>(hn::Lanes(d8x4)) == 4 * lanes) {
    for (; i + 4 * lanes <= n; i += 4 * lanes) {
      const auto q0 = quotient(i), q1 = quotient(i + lanes), q2 = quotient(i + 2 * lanes), q3 = quotient(i + 3 * lanes);
      auto n0 = hn::Round(q0), n1 = hn::Round(q1), n2 = hn::Round(q2), n3 = hn::Round(q3);
      const auto halves = hn::Or(hn::Or(is_half(q0, n0), is_half(q1, n1)), hn::Or(is_half(q2, n2), is_half(q3, n3)));
      if (HWY_UNLIKELY(!hn::AllFalse(df, halves))) {
        n0 = luma255(i), n1 = luma255(i + lanes), n2 = luma255(i + 2 * lanes), n3 = luma255(i + 3 * lanes);
      }
      StoreU8OfScaledLanes4(df, n0, n1, n2, n3, dst + i);
      const auto packed = hn::LoadU(d8x4, dst + i);
      for (int64_t c = 1; c < out_channels; ++c) hn::StoreU(packed, d8x4, dst + c * dst_plane + i);
    }
  }
  for (; i < n; i += lanes) {
    if (i + lanes > n) i = n - lanes;
    const auto v = U8OfScaledLanes(df, luma255(i));
    for (int64_t c = 0; c < out_channels; ++c) hn::StoreU(v, d8, dst + c * dst_plane + i);
  }
  return true;
#else
  (void)r, (void)g, (void)b, (void)dst, (void)dst_plane, (void)out_channels, (void)n;
  return false;
#endif
}

// One interleaved (channels-last) row of RGB pixels, to `out_channels` interleaved channels (1 or
// 3): a vector of pixels at a time split into planes (LoadInterleaved3), GrayRowPlanar on them, and
// the gray bytes interleaved back. False, with nothing written, where the vector path does not apply.
HWY_INLINE bool GrayRowInterleaved(const uint8_t* src, uint8_t* dst, int64_t out_channels, int64_t n) {
  const hn::ScalableTag<uint8_t> d8;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d8));
  if (n < lanes) return false;
  HWY_ALIGN uint8_t r[HWY_MAX_BYTES], g[HWY_MAX_BYTES], b[HWY_MAX_BYTES], gray[HWY_MAX_BYTES];
  for (int64_t x = 0; x < n; x += lanes) {
    if (x + lanes > n) x = n - lanes;  // the last vector overlaps the one before: the same bytes again
    hn::Vec<decltype(d8)> vr, vg, vb;
    hn::LoadInterleaved3(d8, src + 3 * x, vr, vg, vb);
    hn::Store(vr, d8, r), hn::Store(vg, d8, g), hn::Store(vb, d8, b);
    if (!GrayRowPlanar(r, g, b, gray, 0, 1, lanes)) return false;  // only ever on the first vector
    const auto v = hn::Load(d8, gray);
    if (out_channels == 3) {
      hn::StoreInterleaved3(v, v, v, d8, dst + 3 * x);
    } else {
      hn::StoreU(v, d8, dst + x);
    }
  }
  return true;
}

// Rows are (b, y) rows of the whole image: every output channel of a pixel comes from all of its
// input channels.
void GrayRows(const ConstImage& src, const Image& dst, int64_t row_begin, int64_t row_end) {
  const bool planar = src.stride_w == 1 && dst.stride_w == 1 && src.channels == 3;
  const bool interleaved = src.channels == 3 && src.stride_c == 1 && src.stride_w == 3 &&
                           (dst.channels == 1 || dst.channels == 3) && dst.stride_c == 1 &&
                           dst.stride_w == dst.channels;
  for (int64_t row = row_begin; row < row_end; ++row) {
    const int64_t b = row / src.height, y = row % src.height;
    if (planar && GrayRowPlanar(&src.at(b, 0, y, 0), &src.at(b, 1, y, 0), &src.at(b, 2, y, 0), &dst.at(b, 0, y, 0),
                                dst.stride_c, dst.channels, src.width)) {
      continue;
    }
    if (interleaved && GrayRowInterleaved(&src.at(b, 0, y, 0), &dst.at(b, 0, y, 0), dst.channels, src.width)) {
      continue;
    }
    for (int64_t x = 0; x < src.width; ++x) gray_pixel(src, dst, b, y, x);
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(GrayRows);

namespace {
void run_gray(const ConstImage& src, const Image& dst, const ParallelFor& parallel) {
  const int64_t grain = grain_for(src.width * (src.channels + dst.channels));
  run_parallel(parallel, src.batch * src.height, grain, [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(GrayRows)(src, dst, begin, end);
  });
}
}  // namespace

void rgb_to_grayscale(const ConstImage& src, const Image& dst, const ParallelFor& parallel) {
  detail::check_gray("rgb_to_grayscale", src, dst, true);
  run_gray(src, dst, parallel);
}

void grayscale(const ConstImage& src, const Image& dst, const ParallelFor& parallel) {
  detail::check_gray("grayscale", src, dst, false);
  run_gray(src, dst, parallel);
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
