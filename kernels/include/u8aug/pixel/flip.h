// Flips: the per-pixel definition shared by the CPU scalar path and tails, and the CUDA kernel body.
#pragma once

#include "u8aug/image.h"

namespace u8aug {

struct FlipAxes {
  bool horizontal;  // x -> W - 1 - x
  bool vertical;    // y -> H - 1 - y
};

// One byte of the output: output (b, c, y, x) reads input (b, c, y', x').
U8AUG_HD void flip_element(const ConstImage& src, const Image& dst, FlipAxes axes, int64_t b, int64_t c, int64_t y,
                           int64_t x) {
  const int64_t sy = axes.vertical ? src.height - 1 - y : y;
  const int64_t sx = axes.horizontal ? src.width - 1 - x : x;
  dst.at(b, c, y, x) = src.at(b, c, sy, sx);
}

// One output pixel, all channels.
U8AUG_HD void flip_pixel(const ConstImage& src, const Image& dst, FlipAxes axes, int64_t b, int64_t y, int64_t x) {
  for (int64_t c = 0; c < dst.channels; ++c) flip_element(src, dst, axes, b, c, y, x);
}

// The CUDA kernel's body: one pixel, all its channels (each-index bodies: image.h).
struct FlipBody {
  ConstImage src;
  Image dst;
  FlipAxes axes;
  U8AUG_HD int64_t count() const { return dst.pixels(); }
  U8AUG_HD void operator()(int64_t i) const {
    const PixelIndex k = pixel_index(dst, i);
    flip_pixel(src, dst, axes, k.b, k.y, k.x);
  }
};

}  // namespace u8aug
