// kornia's RandomRain: each sample draws a drop count, one drop shape (a line `height` pixels down
// and `width` across, signed) and (row, column) start coordinates in [0, 1); every pixel a drop
// covers is set, in every channel, to 200 / 255 (the byte 200), the rest is the input. The line is
// torch.linspace(0, last, steps=length, dtype=long) down and across, a start is
// min(long(coordinate * span), span - 1) in float32, and each position is clamped into the image,
// as kornia rasterises it.
#pragma once

#include <cstdint>

#include "u8aug/image.h"

namespace u8aug {

// kornia's drop value 200 / 255, quantized: the byte 200.
constexpr uint8_t kRainDrop = 200;

// The drawn parameters, contiguous, on the backend's memory: sample b's drops are
// coordinates[(b * max_drops + j) * 2 + {0: row, 1: column}] for j < min(drops[b], max_drops).
struct RainDrops {
  const float* coordinates = nullptr;
  int64_t max_drops = 0;
  const int64_t* drops = nullptr;
  const int64_t* heights = nullptr;  // 1 <= height < H
  const int64_t* widths = nullptr;   // |width| < W
};

// One sample's line: its length, its last offsets down and across, the spans a start is drawn in
// and the column shift that keeps a leftward line inside.
struct RainLine {
  int64_t length, last_dy, last_dx, rows, cols, shift;
};

U8AUG_HD int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

U8AUG_HD RainLine rain_line(int64_t height, int64_t width, int64_t image_height, int64_t image_width) {
  RainLine l;
  l.length = height > abs64(width) ? height : abs64(width);
  l.last_dy = height - 1;
  l.last_dx = width > 0 ? width - 1 : (width < 0 ? width + 1 : 0);
  l.rows = image_height - l.last_dy;
  l.cols = image_width - abs64(l.last_dx);
  l.shift = l.last_dx < 0 ? -l.last_dx : 0;
  return l;
}

// torch.linspace(0, end, steps, dtype=torch.long)[i]: a double step, the first half counted from 0
// and the second back from end, each truncated toward zero.
U8AUG_HD int64_t linspace_long(int64_t end, int64_t steps, int64_t i) {
  if (steps <= 1) return 0;
  const double step = static_cast<double>(end) / static_cast<double>(steps - 1);
  return i < steps / 2 ? static_cast<int64_t>(step * static_cast<double>(i))
                       : static_cast<int64_t>(static_cast<double>(end) - step * static_cast<double>(steps - 1 - i));
}

// min(long(coordinate * span), span - 1): the float32 product truncated; NaN and products past
// int64 give INT64_MIN, as x86's conversion does, so the position's clamp puts them at 0.
U8AUG_HD int64_t rain_start(float coordinate, int64_t span) {
  const float v = coordinate * static_cast<float>(span);
  const int64_t s = (v >= -9223372036854775808.0f && v < 9223372036854775808.0f) ? static_cast<int64_t>(v) : INT64_MIN;
  return s < span - 1 ? s : span - 1;
}

U8AUG_HD int64_t clamp_index(int64_t v, int64_t size) { return v < 0 ? 0 : (v >= size ? size - 1 : v); }

// Step k of drop j of sample b: the pixel (y, x) it covers; false past the drop count or the line.
U8AUG_HD bool rain_pixel(const RainDrops& r, int64_t image_height, int64_t image_width, int64_t b, int64_t j, int64_t k,
                         int64_t* y, int64_t* x) {
  const RainLine l = rain_line(r.heights[b], r.widths[b], image_height, image_width);
  if (j >= r.drops[b] || k >= l.length) return false;
  const float* at = r.coordinates + (b * r.max_drops + j) * 2;
  const int64_t row = rain_start(at[0], l.rows), col = rain_start(at[1], l.cols);
  *y = clamp_index(row + linspace_long(l.last_dy, l.length, k), image_height);
  *x = clamp_index(col + (l.shift + linspace_long(l.last_dx, l.length, k)), image_width);
  return true;
}

// The CUDA kernels' bodies: the copy, one element each; then the drops, one (sample, drop, step)
// each, over max_drops x max_length steps per sample (several threads may write the same byte,
// all the same value).
struct RainCopyBody {
  ConstImage src;
  Image dst;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    dst.at(k.b, k.c, k.y, k.x) = src.at(k.b, k.c, k.y, k.x);
  }
};

struct RainDropBody {
  RainDrops drops;
  Image dst;
  int64_t max_length;  // at least every sample's line length
  U8AUG_HD int64_t count() const { return dst.batch * drops.max_drops * max_length; }
  U8AUG_HD void operator()(int64_t i) const {
    const int64_t k = i % max_length, j = (i / max_length) % drops.max_drops, b = i / (max_length * drops.max_drops);
    int64_t y, x;
    if (!rain_pixel(drops, dst.height, dst.width, b, j, k, &y, &x)) return;
    for (int64_t c = 0; c < dst.channels; ++c) dst.at(b, c, y, x) = kRainDrop;
  }
};

}  // namespace u8aug
