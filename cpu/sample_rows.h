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
// (zero where the image has fewer), pixel (y, x) at word y * stride + x of group(g). A single
// channel is stored as the float32 bits of x / 255 instead (the same words to gather, and no
// conversion per tap) unless `bytes` is asked for (the fast tier's integer taps). Each group is
// framed by zero words, one row and column before and two after (stride = width + 3), so a tap
// pair may start at column or row -1 and end at width or height + 1 (pixel/sample.h's FixedTaps).
struct PackedPixels {
  static constexpr int64_t kPad = 16;
  std::unique_ptr<uint32_t[]> words;  // the interiors are not value-initialised: packing writes them
  int64_t height = 0, width = 0, stride = 0, groups = 0;
  bool unit_floats = false;
  void resize(int64_t channels, int64_t h, int64_t w, bool bytes = false) {
    height = h;
    width = w;
    stride = w + 3;
    groups = (channels + 3) / 4;
    unit_floats = channels == 1 && !bytes;
    const int64_t per_group = (h + 3) * stride, n = groups * per_group + 2 * kPad;
    words.reset(new uint32_t[static_cast<size_t>(n)]);
    uint32_t* all = words.get();
    std::fill(all, all + kPad + stride + 1, 0u);  // the margin, group 0's top row and first column
    for (int64_t g = 0; g < groups; ++g) {
      uint32_t* origin = group(g);
      // each row's last two columns and the next row's first
      for (int64_t y = 0; y < h; ++y) std::fill(origin + y * stride + w, origin + y * stride + w + 3, 0u);
      // the two rows below, then the next group's top row and first column
      uint32_t* below = origin + h * stride - 1;
      std::fill(below, below + 2 * stride + (g + 1 < groups ? stride + 1 : 0), 0u);
    }
    std::fill(all + n - kPad, all + n, 0u);
  }
  uint32_t* group(int64_t g) { return words.get() + kPad + g * (height + 3) * stride + stride + 1; }
  const uint32_t* group(int64_t g) const { return words.get() + kPad + g * (height + 3) * stride + stride + 1; }
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
