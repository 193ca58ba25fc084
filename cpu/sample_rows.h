// What the CPU sampling kernels (warp.cc, grid_sample.cc, elastic.cc) keep per sample and pass per
// output row, shared by their targets (cpu/sample_lanes-inl.h samples with them). Internal to the
// CPU backend.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>

#include "cpu/parallel.h"
#include "u8aug/pixel/sample.h"

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

// Packs sample b of src into pixels (sized for src), rows over `parallel` (cpu/warp.cc).
void pack_sample(const ConstImage& src, int64_t b, PackedPixels& pixels, const ParallelFor& parallel);

// grid_sample's settings, as sample_pixel takes them.
struct SampleSetup {
  Interp mode;
  Padding padding;
  bool align_corners;
  CubicSum cubic_across;
};

// What one output row needs besides its grid points.
struct SampleRow {
  const ConstImage* src;
  const Image* dst;
  SampleSetup setup;
  const Values* fill;  // one per channel for Padding::kFill
  const PackedPixels* pixels;
  int64_t b, y;
  int64_t x_begin, x_end;  // the columns of this call
  uint8_t* scratch;        // dst.channels * dst.width bytes, for interleaved outputs
};
}  // namespace cpu
}  // namespace u8aug
