// Additive offsets on the CPU (pixel/offset.h's arithmetic): row by row, a vector of bytes as x / 255
// plus a vector of offsets, quantized, when the image's and the offsets' rows are both runs of
// consecutive values (planar rows, or both densely interleaved); other layouts element by element.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/offset.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/unit_lanes-inl.h"

#include "cpu/parallel.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/offset.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

HWY_INLINE void OffsetRun(const uint8_t* HWY_RESTRICT in, const float* HWY_RESTRICT offset, uint8_t* HWY_RESTRICT out,
                          int64_t n) {
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  // clamp_unit before the quantizer is implied by U8Lanes' own clamp to [0, 255]
  for (; i + lanes <= n; i += lanes) StoreU8Lanes(d, hn::Add(UnitLanes(d, in + i), hn::LoadU(d, offset + i)), out + i);
  for (; i < n; ++i) out[i] = offset_value(in[i], offset[i]);
}

// Rows [begin, end) of the work: (b, y) pairs of whole interleaved rows, or (b, c, y) planar rows.
void OffsetRows(const ConstImage& src, const OffsetImage& offset, const Image& dst, bool interleaved, bool runs,
                int64_t begin, int64_t end) {
  const int64_t planes = interleaved ? 1 : src.channels;
  for (int64_t r = begin; r < end; ++r) {
    const int64_t y = r % src.height, c = (r / src.height) % planes, b = r / (src.height * planes);
    if (runs) {
      OffsetRun(&src.at(b, c, y, 0), &offset.at(b, c, y, 0), &dst.at(b, c, y, 0),
                interleaved ? src.width * src.channels : src.width);
      continue;
    }
    for (int64_t ch = interleaved ? 0 : c; ch < (interleaved ? src.channels : c + 1); ++ch)
      for (int64_t x = 0; x < src.width; ++x)
        dst.at(b, ch, y, x) = offset_value(src.at(b, ch, y, x), offset.at(b, ch, y, x));
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

HWY_EXPORT(OffsetRows);

namespace {
bool dense_interleaved(int64_t channels, int64_t width, int64_t stride_c, int64_t stride_w, int64_t stride_h) {
  return stride_c == 1 && stride_w == channels && stride_h == channels * width;
}
}  // namespace

void add_offset(const ConstImage& src, const OffsetImage& offset, const Image& dst, const ParallelFor& parallel) {
  detail::check_offset("add_offset", src, offset, dst);
  const bool interleaved =
      src.channels > 1 && dense_interleaved(src.channels, src.width, src.stride_c, src.stride_w, src.stride_h) &&
      dense_interleaved(dst.channels, dst.width, dst.stride_c, dst.stride_w, dst.stride_h) &&
      dense_interleaved(offset.channels, offset.width, offset.stride_c, offset.stride_w, offset.stride_h);
  const bool runs = interleaved || (src.stride_w == 1 && dst.stride_w == 1 && offset.stride_w == 1);
  const int64_t rows = src.batch * (interleaved ? 1 : src.channels) * src.height;
  const int64_t per_row = src.width * (interleaved ? src.channels : 1);
  run_parallel(parallel, rows, grain_for(6 * per_row), [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(OffsetRows)(src, offset, dst, interleaved, runs, begin, end);
  });
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
