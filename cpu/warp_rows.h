// What cpu/warp.cc keeps per sample and passes per row (shared by its targets). Internal to the
// CPU backend.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>

#include "u8aug/pixel/warp.h"

namespace u8aug {
namespace cpu {
// One sample's pixels packed: group g holds channels 4g..4g+3, byte j of a word channel 4g+j
// (zero where the image has fewer), pixel (y, x) at word y * W + x. A single channel is stored as
// the float32 bits of x / 255 instead: the same words to gather, and no conversion per tap.
// A margin of kPad words before and after lets a pair read start one element early or end one late.
struct PackedPixels {
  static constexpr int64_t kPad = 16;
  std::unique_ptr<uint32_t[]> words;  // not value-initialised: every pixel is written before use
  int64_t height = 0, width = 0, groups = 0;
  bool unit_floats = false;
  void resize(int64_t channels, int64_t h, int64_t w) {
    height = h;
    width = w;
    groups = (channels + 3) / 4;
    unit_floats = channels == 1;
    const int64_t n = groups * h * w + 2 * kPad;
    words.reset(new uint32_t[static_cast<size_t>(n)]);
    std::fill(words.get(), words.get() + kPad, 0u);
    std::fill(words.get() + n - kPad, words.get() + n, 0u);
  }
  uint32_t* group(int64_t g) { return words.get() + kPad + g * height * width; }
  const uint32_t* group(int64_t g) const { return words.get() + kPad + g * height * width; }
};

// What one output row needs besides the image views.
struct WarpRow {
  const ConstImage* src;
  const Image* dst;
  const WarpSetup* setup;
  const Values* fill;
  const PackedPixels* pixels;
  const float* base_x;
  float base_y;
  int64_t b, y;
  int64_t x_begin, x_end;  // the columns of this call
  uint8_t* scratch;        // dst.channels * dst.width bytes, for interleaved outputs
};
}  // namespace cpu
}  // namespace u8aug
