// The CPU loops work on image rows. How a row is laid out decides which loop can run:
//  planar      (stride_w == 1 in src and dst): a row is W bytes of one channel, B*C*H rows;
//  interleaved (stride_c == 1, stride_w == C): a row is W pixels of C bytes, B*H rows;
//  strided     anything else (padded pixels, transposed views): B*H rows, per-pixel scalar code.
// Planar is preferred when both hold (C == 1).
#pragma once

#include <algorithm>
#include <cstdint>

#include "u8aug/image.h"

namespace u8aug {
namespace cpu {

enum class RowLayout : int { kPlanar, kInterleaved, kStrided };

struct RowIndex {
  int64_t b, c, y;  // c is 0 for interleaved and strided rows, which hold every channel
};

template <class A, class B>
RowLayout row_layout(const ImageView<A>& src, const ImageView<B>& dst) {
  if (src.stride_w == 1 && dst.stride_w == 1) return RowLayout::kPlanar;
  const int64_t c = src.channels;
  if (src.stride_c == 1 && dst.stride_c == 1 && src.stride_w == c && dst.stride_w == c) {
    return RowLayout::kInterleaved;
  }
  return RowLayout::kStrided;
}

template <class T>
int64_t row_count(RowLayout layout, const ImageView<T>& v) {
  return layout == RowLayout::kPlanar ? v.batch * v.channels * v.height : v.batch * v.height;
}

// Bytes of one row a loop touches in one image (for sizing parallel chunks).
template <class T>
int64_t row_bytes(RowLayout layout, const ImageView<T>& v) {
  return layout == RowLayout::kPlanar ? v.width : v.width * v.channels;
}

template <class T>
RowIndex row_index(RowLayout layout, const ImageView<T>& v, int64_t row) {
  if (layout == RowLayout::kPlanar) {
    const int64_t y = row % v.height;
    const int64_t bc = row / v.height;
    return {bc / v.channels, bc % v.channels, y};
  }
  return {row / v.height, 0, row % v.height};
}

// Calls f(first, rows) for each run of consecutive rows first.y .. first.y + rows - 1 of one plane
// (planar) or one image (interleaved, strided) inside [begin, end): rows of a run are one
// stride_h apart, so a loop walks them by pointer increments.
template <class T, class F>
void for_each_row_run(RowLayout layout, const ImageView<T>& v, int64_t begin, int64_t end, F&& f) {
  for (int64_t row = begin; row < end;) {
    const RowIndex first = row_index(layout, v, row);
    const int64_t rows = std::min(end - row, v.height - first.y);
    f(first, rows);
    row += rows;
  }
}

// Where the 256-entry table of (sample b, channel c) is, in a block of tables:
// tables + 256 * (b * per_b + c * per_c).
struct TableLayout {
  int64_t per_b, per_c;
};

}  // namespace cpu
}  // namespace u8aug
