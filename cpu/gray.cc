// rgb_to_grayscale and grayscale on the CPU. Planar 3-channel rows run kornia's float arithmetic
// in vector lanes on targets with a native fused multiply-add (kornia's addcmul is fused); every
// other case runs pixel/gray.h per pixel.

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

// One planar row: gray of (r, g, b) written to each of the `out_channels` rows of dst (one plane
// stride apart). False, with nothing written, where the vector path does not apply.
HWY_INLINE bool GrayRowPlanar(const uint8_t* r, const uint8_t* g, const uint8_t* b, uint8_t* dst, int64_t dst_plane,
                              int64_t out_channels, int64_t n) {
#if HWY_NATIVE_FMA
  const hn::ScalableTag<float> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  if (n < lanes) return false;
  const hn::Rebind<uint8_t, decltype(df)> d8;
  const auto luma = [&](int64_t i) {
    return LumaLanes(df, UnitLanes(df, r + i), UnitLanes(df, g + i), UnitLanes(df, b + i));
  };
  // four vectors quantized and packed in one go (StoreU8Lanes4), the packed bytes then copied to
  // the other output channels: the quantizer's and the stores' instructions were half the loop
  const hn::ScalableTag<uint8_t> d8x4;
  int64_t i = 0;
  if (static_cast<int64_t>(hn::Lanes(d8x4)) == 4 * lanes) {
    for (; i + 4 * lanes <= n; i += 4 * lanes) {
      StoreU8Lanes4(df, luma(i), luma(i + lanes), luma(i + 2 * lanes), luma(i + 3 * lanes), dst + i);
      const auto packed = hn::LoadU(d8x4, dst + i);
      for (int64_t c = 1; c < out_channels; ++c) hn::StoreU(packed, d8x4, dst + c * dst_plane + i);
    }
  }
  for (; i < n; i += lanes) {
    if (i + lanes > n) i = n - lanes;
    const auto v = U8Lanes(df, luma(i));
    for (int64_t c = 0; c < out_channels; ++c) hn::StoreU(v, d8, dst + c * dst_plane + i);
  }
  return true;
#else
  (void)r, (void)g, (void)b, (void)dst, (void)dst_plane, (void)out_channels, (void)n;
  return false;
#endif
}

// Rows are (b, y) rows of the whole image: every output channel of a pixel comes from all of its
// input channels.
void GrayRows(const ConstImage& src, const Image& dst, int64_t row_begin, int64_t row_end) {
  const bool planar = src.stride_w == 1 && dst.stride_w == 1 && src.channels == 3;
  for (int64_t row = row_begin; row < row_end; ++row) {
    const int64_t b = row / src.height, y = row % src.height;
    if (planar && GrayRowPlanar(&src.at(b, 0, y, 0), &src.at(b, 1, y, 0), &src.at(b, 2, y, 0), &dst.at(b, 0, y, 0),
                                dst.stride_c, dst.channels, src.width)) {
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
