// resize and crop_and_resize on the CPU: per output row, the row's taps once, then
// pixel/resize.h's math per byte; a box already of the output size is copied.
#include <cmath>
#include <string>
#include <vector>

#include "cpu/parallel.h"
#include "u8aug/check.h"
#include "u8aug/pixel/resize.h"

namespace u8aug {
namespace cpu {
namespace {

void resize_windows(const ConstImage& src, const Image& dst, const std::vector<Window>& windows,
                    Interp mode, bool align_corners, const ParallelFor& parallel) {
  const int64_t rows = dst.batch * dst.height;
  run_parallel(parallel, rows, grain_for(dst.width * dst.channels * 4), [&](int64_t begin, int64_t end) {
    std::vector<AxisTap> taps_x;
    int64_t taps_for = -1;
    for (int64_t r = begin; r < end; ++r) {
      const int64_t b = r / dst.height, y = r % dst.height;
      const Window& win = windows[static_cast<size_t>(b)];
      const bool copy = win.height == dst.height && win.width == dst.width;
      if (copy || mode == Interp::kNearest) {
        const int64_t sy = copy ? y : nearest_index(y, win.height, dst.height);
        for (int64_t x = 0; x < dst.width; ++x) {
          const int64_t sx = copy ? x : nearest_index(x, win.width, dst.width);
          for (int64_t c = 0; c < dst.channels; ++c) {
            dst.at(b, c, y, x) = src.at(b, c, win.y0 + sy, win.x0 + sx);
          }
        }
        continue;
      }
      if (taps_for != b) {  // the column taps depend on the window width only
        taps_x.resize(static_cast<size_t>(dst.width));
        for (int64_t x = 0; x < dst.width; ++x) taps_x[x] = linear_tap(x, win.width, dst.width, align_corners);
        taps_for = b;
      }
      const AxisTap ty = linear_tap(y, win.height, dst.height, align_corners);
      for (int64_t x = 0; x < dst.width; ++x) {
        for (int64_t c = 0; c < dst.channels; ++c) {
          dst.at(b, c, y, x) = to_u8(bilinear_value(src, b, c, win, ty, taps_x[x]) * 255.0f);
        }
      }
    }
  });
}

}  // namespace

void resize(const ConstImage& src, const Image& dst, Interp mode, bool align_corners,
            const ParallelFor& parallel) {
  detail::check_resampled("resize", src, dst);
  detail::check_interp("resize", mode, align_corners);
  std::vector<Window> windows(static_cast<size_t>(dst.batch), Window{0, 0, src.height, src.width});
  resize_windows(src, dst, windows, mode, align_corners, parallel);
}

void crop_and_resize(const ConstImage& src, const Image& dst, const float* boxes, Interp mode,
                     bool align_corners, const ParallelFor& parallel) {
  const char* op = "crop_and_resize";
  detail::check_resampled(op, src, dst);
  detail::check_interp(op, mode, align_corners);
  if (boxes == nullptr) detail::fail(op, "boxes has a null pointer");
  std::vector<Window> windows;
  for (int64_t b = 0; b < dst.batch; ++b) {
    const float* box = boxes + 8 * b;
    for (int k = 0; k < 8; ++k) {
      if (!std::isfinite(box[k])) detail::fail(op, "boxes must be finite (sample " + std::to_string(b) + ")");
    }
    const int64_t x1 = static_cast<int64_t>(box[0]), x2 = static_cast<int64_t>(box[2]) + 1;
    const int64_t y1 = static_cast<int64_t>(box[1]), y2 = static_cast<int64_t>(box[7]) + 1;
    if (x1 < 0 || y1 < 0 || x2 > src.width || y2 > src.height || x2 <= x1 || y2 <= y1) {
      detail::fail(op, "box " + std::to_string(b) + " covers columns [" + std::to_string(x1) + ", " +
                           std::to_string(x2) + ") and rows [" + std::to_string(y1) + ", " +
                           std::to_string(y2) + "), which must be non-empty and inside the " +
                           std::to_string(src.height) + "x" + std::to_string(src.width) + " image");
    }
    windows.push_back(box_window(box, src.height, src.width));
  }
  resize_windows(src, dst, windows, mode, align_corners, parallel);
}

}  // namespace cpu
}  // namespace u8aug
