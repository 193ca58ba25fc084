// Erasing rectangles (kornia's RandomErasing): pixel (x, y) of sample b lies in its box when
// x_min <= x <= x_max and y_min <= y <= y_max, the float comparisons of kornia's bbox_to_mask with
// the pixel's integer index, and takes the byte of kornia's fill, to_u8(value[b] * 255); every other
// byte is the input's.
#pragma once

#include <cmath>

#include "u8aug/image.h"

namespace u8aug {

// One box per sample (count 1: one for the batch): x_min, y_min, x_max, y_max, inclusive.
struct Boxes {
  const float* corners = nullptr;
  int64_t count = 0;
  U8AUG_HD const float* of(int64_t b) const { return corners + 4 * (count == 1 ? 0 : b); }
};

// The integers i in [0, size) with lo <= i <= hi: [*first, *last], empty when *first > *last (NaN
// bounds give an empty range, as their comparisons are false).
U8AUG_HD void box_range(float lo, float hi, int64_t size, int64_t* first, int64_t* last) {
  *first = 1, *last = 0;
  if (!(lo <= hi)) return;
  const float f = lo < 0.0f ? 0.0f : ceilf(lo);
  const float l = hi > static_cast<float>(size - 1) ? static_cast<float>(size - 1) : floorf(hi);
  if (!(f <= l)) return;
  *first = static_cast<int64_t>(f), *last = static_cast<int64_t>(l);
}

U8AUG_HD bool in_box(const float* box, int64_t y, int64_t x) {
  const float fx = static_cast<float>(x), fy = static_cast<float>(y);
  return fx >= box[0] && fx <= box[2] && fy >= box[1] && fy <= box[3];
}

U8AUG_HD uint8_t erase_value(const ConstImage& src, Boxes boxes, Samples values, int64_t b, int64_t c, int64_t y,
                             int64_t x) {
  return in_box(boxes.of(b), y, x) ? to_u8(values[b] * 255.0f) : src.at(b, c, y, x);
}

// The CUDA kernel's body: one output element each, in memory order.
struct EraseBody {
  ConstImage src;
  Image dst;
  Boxes boxes;
  Samples values;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    dst.at(k.b, k.c, k.y, k.x) = erase_value(src, boxes, values, k.b, k.c, k.y, k.x);
  }
};

}  // namespace u8aug
