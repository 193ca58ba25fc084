// Erasing rectangles on the CPU (pixel/erase.h's rule): each row is copied, then the run of its
// box's columns is set to the fill byte. Rows of consecutive bytes (planar rows, densely interleaved
// pixels, whose channels all take the fill) are a memcpy and a memset; other layouts go element by
// element through erase_value.
#include <cstring>

#include "cpu/parallel.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/erase.h"
#include "u8aug/pixel/filter.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cpu {

void erase_boxes(const ConstImage& src, const Image& dst, Boxes boxes, Samples values, const ParallelFor& parallel) {
  const char* op = "erase_boxes";
  detail::check_erase(op, src, dst, boxes, values);
  for (int64_t i = 0; i < boxes.count * 4; ++i) {
    if (std::isnan(boxes.corners[i])) detail::fail(op, "boxes must not hold NaN");
  }
  detail::check_sample_values(op, "values", values, -std::numeric_limits<float>::max(),
                              std::numeric_limits<float>::max());
  const bool interleaved = interleaved_rows(src) && dst.stride_c == 1 && dst.stride_w == dst.channels;
  const bool runs = interleaved || (src.stride_w == 1 && dst.stride_w == 1);
  const int64_t planes = interleaved ? 1 : src.channels, step = interleaved ? src.channels : 1;
  const int64_t rows = src.batch * planes * src.height;
  run_parallel(parallel, rows, grain_for(src.width * step), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t y = r % src.height, c = (r / src.height) % planes, b = r / (src.height * planes);
      if (!runs) {
        for (int64_t x = 0; x < src.width; ++x) dst.at(b, c, y, x) = erase_value(src, boxes, values, b, c, y, x);
        continue;
      }
      uint8_t* out = &dst.at(b, c, y, 0);
      std::memcpy(out, &src.at(b, c, y, 0), static_cast<size_t>(src.width * step));
      const float* box = boxes.of(b);
      int64_t y0, y1, x0, x1;
      box_range(box[1], box[3], src.height, &y0, &y1);
      box_range(box[0], box[2], src.width, &x0, &x1);
      if (y < y0 || y > y1 || x0 > x1) continue;
      std::memset(out + x0 * step, to_u8(values[b] * 255.0f), static_cast<size_t>((x1 - x0 + 1) * step));
    }
  });
}

}  // namespace cpu
}  // namespace u8aug
