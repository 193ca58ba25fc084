// resize_antialias on the CPU (kornia's resize with antialias=True, shrinking). Per sample: kornia's
// Gaussian blur in float32 (filter_taps-inl.h's passes, reflect border) into the planar float
// planes resize.cc resamples from (ResizeSample), then resize.cc's rows (resize_planes): the float
// source resize's own kernels read, with the blur in place of the x / 255 conversion.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/resize_antialias.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <vector>

#include "cpu/filter_rows-inl.h"
#include "cpu/filter_taps-inl.h"

#include "cpu/parallel.h"
#include "cpu/resize_sample.h"
#include "cpu/scratch.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/filter.h"
#include "u8aug/pixel/resize.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {

// The blurred planes of sample b's items [begin, end) (planar: channels; interleaved: the one sample,
// blurred as rows of W x C values, then split into planes) into s.planes.
void BlurItems(const ConstImage& src, FilterKernel kx, FilterKernel ky, bool interleaved, int64_t b, ResizeSample& s,
               int64_t begin, int64_t end) {
  thread_local std::vector<float> padded, rows, out_row;  // cpu/scratch.h
  const int64_t h = src.height, w = src.width, channels = src.channels;
  for (int64_t item = begin; item < end; ++item) {
    const int64_t c = interleaved ? -1 : item;
    SeparablePasses(src, kx, ky, Border::kReflect, b, c, padded, rows,
                    [&](int64_t y, const float* const* taps, const float* wy) {
                      if (!interleaved) {
                        TapColumns(taps, s.planes.data() + (c * h + y) * w, w, wy, ky.taps, ky.divisor);
                        return;
                      }
                      out_row.resize(static_cast<size_t>(w * channels));
                      TapColumns(taps, out_row.data(), w * channels, wy, ky.taps, ky.divisor);
                      for (int64_t k = 0; k < channels; ++k) {
                        float* plane_row = s.planes.data() + (k * h + y) * w;
                        for (int64_t x = 0; x < w; ++x) plane_row[x] = out_row[static_cast<size_t>(x * channels + k)];
                      }
                    });
  }
  release_large_scratch(padded, rows, out_row);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(BlurItems);

void resize_antialias(const ConstImage& src, const Image& dst, FilterKernel kernel_x, FilterKernel kernel_y,
                      Interp mode, bool align_corners, BlendOrder order, const ParallelFor& parallel) {
  const char* op = "resize_antialias";
  detail::check_resize_antialias(op, src, dst, kernel_x, kernel_y, mode, align_corners, order);
  detail::check_filter_values(op, kernel_x, "kernel_x");
  detail::check_filter_values(op, kernel_y, "kernel_y");
  kernel_x.fidelity = kernel_y.fidelity = Fidelity::kExact;  // kornia's float32 taps, none dropped
  const bool interleaved = interleaved_rows(src);
  thread_local ResizeSample kept;  // cpu/scratch.h; the workers reach it through `s`
  ResizeSample& s = kept;
  s.channels = src.channels;
  s.win = Window{0, 0, src.height, src.width};
  s.size_planes(src.channels * src.height * src.width);
  const int64_t items = interleaved ? 1 : src.channels;
  for (int64_t b = 0; b < src.batch; ++b) {
    run_parallel(parallel, items, 1, [&](int64_t begin, int64_t end) {
      HWY_DYNAMIC_DISPATCH(BlurItems)(src, kernel_x, kernel_y, interleaved, b, s, begin, end);
    });
    resize_planes(s, dst, b, mode, align_corners, order, parallel);
  }
  release_large_scratch(s.planes);
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
