// What cpu/resize.cc keeps per sample (shared by its targets). Internal to the CPU backend.
#pragma once

#include <cstdint>
#include <vector>

#include "u8aug/pixel/resize.h"

namespace u8aug {
namespace cpu {
// One sample's window as float32 x / 255, planar, and the column taps of the output (bilinear's two
// or bicubic's four).
struct ResizeSample {
  std::vector<float> planes;  // C x win.height x win.width
  std::vector<int32_t> x0, x1;
  std::vector<float> wx0, wx1;
  std::vector<int32_t> cubic_x[4];  // bicubic: the four column taps and their weights
  std::vector<float> cubic_w[4];
  Window win;
  int64_t channels = 0;
  const float* row(int64_t c, int64_t y) const { return planes.data() + (c * win.height + y) * win.width; }
};
}  // namespace cpu
}  // namespace u8aug
