// resize_antialias on the CPU (kornia's resize with antialias=True, shrinking). Per plane (or
// interleaved sample): kornia's Gaussian blur in float32 (filter_taps-inl.h's passes, reflect
// border) into a plane-sized scratch image, then every output byte resampled from it by
// pixel/resize.h's arithmetic, the taps of each output row and column found once. The blur reads
// every source pixel once per tap and dominates; the resampling reads a few pixels per output.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/resize_antialias.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <vector>

#include "cpu/filter_rows-inl.h"
#include "cpu/filter_taps-inl.h"

#include "cpu/parallel.h"
#include "cpu/scratch.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/filter.h"
#include "u8aug/pixel/resize.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {

// Every output byte of item (b, c) from its blurred image: `plane` holds h x w pixels of `step`
// values (c = -1: the C channels of an interleaved sample).
void ResamplePlane(const float* plane, int64_t h, int64_t w, const Image& dst, Interp mode, bool align_corners,
                   BlendOrder order, int64_t b, int64_t c) {
  const int64_t step = c < 0 ? dst.channels : 1;
  auto emit = [&](const auto& value_of) {
    for (int64_t y = 0; y < dst.height; ++y)
      for (int64_t x = 0; x < dst.width; ++x)
        for (int64_t k = 0; k < step; ++k) {
          auto at = [&](int64_t yy, int64_t xx) { return plane[(yy * w + xx) * step + k]; };
          dst.at(b, c < 0 ? k : c, y, x) = to_u8(value_of(at, y, x) * 255.0f);
        }
  };
  if (nearest_mode(mode)) {
    const bool exact = mode == Interp::kNearestExact;
    std::vector<int64_t> iy(static_cast<size_t>(dst.height)), ix(static_cast<size_t>(dst.width));
    for (int64_t y = 0; y < dst.height; ++y) iy[static_cast<size_t>(y)] = nearest_index(y, h, dst.height, exact);
    for (int64_t x = 0; x < dst.width; ++x) ix[static_cast<size_t>(x)] = nearest_index(x, w, dst.width, exact);
    emit([&](const auto& at, int64_t y, int64_t x) {
      return at(iy[static_cast<size_t>(y)], ix[static_cast<size_t>(x)]);
    });
  } else if (mode == Interp::kBicubic) {
    std::vector<CubicAxisTap> ty, tx;
    for (int64_t y = 0; y < dst.height; ++y) ty.push_back(cubic_tap(y, h, dst.height, align_corners));
    for (int64_t x = 0; x < dst.width; ++x) tx.push_back(cubic_tap(x, w, dst.width, align_corners));
    emit([&](const auto& at, int64_t y, int64_t x) {
      return bicubic_value(at, ty[static_cast<size_t>(y)], tx[static_cast<size_t>(x)]);
    });
  } else {
    std::vector<AxisTap> ty, tx;
    const bool fused = fuses_source_index(order);
    for (int64_t y = 0; y < dst.height; ++y) ty.push_back(linear_tap(y, h, dst.height, align_corners, fused));
    for (int64_t x = 0; x < dst.width; ++x) tx.push_back(linear_tap(x, w, dst.width, align_corners, fused));
    emit([&](const auto& at, int64_t y, int64_t x) {
      return bilinear_taps_value(at, ty[static_cast<size_t>(y)], tx[static_cast<size_t>(x)], order);
    });
  }
}

// Work items [begin, end): planes (b * C + c) or, interleaved, samples.
void ResizeAntialiasItems(const ConstImage& src, const Image& dst, FilterKernel kx, FilterKernel ky, Interp mode,
                          bool align_corners, BlendOrder order, bool interleaved, int64_t begin, int64_t end) {
  thread_local std::vector<float> padded, rows, blurred;  // cpu/scratch.h
  for (int64_t item = begin; item < end; ++item) {
    const int64_t b = interleaved ? item : item / src.channels, c = interleaved ? -1 : item % src.channels;
    const int64_t n = src.width * (interleaved ? src.channels : 1);
    blurred.resize(static_cast<size_t>(src.height * n));
    SeparablePasses(src, kx, ky, Border::kReflect, b, c, padded, rows,
                    [&](int64_t y, const float* const* taps, const float* wy) {
                      TapColumns(taps, blurred.data() + y * n, n, wy, ky.taps, ky.divisor);
                    });
    ResamplePlane(blurred.data(), src.height, src.width, dst, mode, align_corners, order, b, c);
  }
  release_large_scratch(padded, rows, blurred);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(ResizeAntialiasItems);

void resize_antialias(const ConstImage& src, const Image& dst, FilterKernel kernel_x, FilterKernel kernel_y,
                      Interp mode, bool align_corners, BlendOrder order, const ParallelFor& parallel) {
  const char* op = "resize_antialias";
  detail::check_resize_antialias(op, src, dst, kernel_x, kernel_y, mode, align_corners, order);
  detail::check_filter_values(op, kernel_x, "kernel_x");
  detail::check_filter_values(op, kernel_y, "kernel_y");
  kernel_x.fidelity = kernel_y.fidelity = Fidelity::kExact;  // kornia's float32 taps, none dropped
  const bool interleaved = interleaved_rows(src);
  const int64_t items = interleaved ? src.batch : src.batch * src.channels;
  const int64_t per_item = (interleaved ? src.channels : 1) * src.height * src.width;
  run_parallel(parallel, items, grain_for(8 * per_item * (kernel_x.taps + kernel_y.taps)),
               [&](int64_t begin, int64_t end) {
                 HWY_DYNAMIC_DISPATCH(ResizeAntialiasItems)
                 (src, dst, kernel_x, kernel_y, mode, align_corners, order, interleaved, begin, end);
               });
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
