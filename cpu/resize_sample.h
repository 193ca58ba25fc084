// What cpu/resize.cc keeps per sample (shared by its targets). Internal to the CPU backend.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cpu/scratch.h"

#include "u8aug/pixel/resize.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cpu {
// One sample's window as float32 x / 255, planar, and the column taps of the output (bilinear's two
// or bicubic's four).
struct ResizeSample {
  ScratchVector<float> planes;  // C x win.height x win.width, then kPlaneMargin zeros
  // Set instead of filling `planes` for bilinear windows larger than a core's L2 (kRowsWindowBytes):
  // BilinearRows converts each source row as it first reads it, so such a window does not pass
  // through memory as floats (a 640x480 window is 3.7 MB of them, written and read again; one such
  // crop 0.51 -> 0.40 ms on Zen 1). Windows that fit stay planes, filled in one streaming pass.
  const ConstImage* source = nullptr;
  std::vector<int32_t> x0, x1;
  std::vector<float> wx0, wx1;
  std::vector<int32_t> cubic_x[4];  // bicubic: the four column taps and their weights
  std::vector<float> cubic_w[4];
  Window win;
  int64_t channels = 0;
  // planes sized for `floats` window values, left for the caller to fill, and the margin after them
  // zeroed: a row's last taps may load a whole vector from their first column, and the lanes past the
  // window's end must be finite (a zero weight times a NaN read from stale memory is NaN)
  void size_planes(int64_t floats) {
    planes.resize(static_cast<size_t>(floats + kPlaneMargin));
    std::fill(planes.end() - kPlaneMargin, planes.end(), 0.0f);
  }
  static constexpr int64_t kPlaneMargin = 64;
  const float* row(int64_t c, int64_t y) const { return planes.data() + (c * win.height + y) * win.width; }
};

constexpr int64_t kRowsWindowBytes = int64_t{1} << 20;

// The fast tier's column taps of one sample (cpu/resize_fixed-inl.h): per output column, the index
// of its first tap in a staged source row (which starts at source column -2; bilinear reads two
// bytes from there, bicubic four) and its weights, 12-bit pairs packed low, high (pairs: bilinear
// 1, bicubic 2).
struct FixedColumns {
  int pairs = 1;
  std::vector<int32_t> first, weight[2];
};

// Two 16-bit weights in one 32-bit lane, the first low (the order of pmaddwd's pairs).
inline int32_t packed_weights(int32_t low, int32_t high) {
  return static_cast<int32_t>((static_cast<uint32_t>(high) << 16) | (static_cast<uint32_t>(low) & 0xFFFFu));
}
inline int32_t low_weight(int32_t packed) { return static_cast<int16_t>(packed & 0xFFFF); }
inline int32_t high_weight(int32_t packed) { return packed >> 16; }

// Where an output row goes: dst's own rows when they are runs of bytes (stride_w 1), else a planar
// scratch row per channel that flush() copies into dst's layout.
struct OutputRows {
  const Image& dst;
  std::vector<uint8_t> scratch;
  explicit OutputRows(const Image& d)
      : dst(d), scratch(d.stride_w == 1 ? 0 : static_cast<size_t>(d.channels * d.width)) {}
  uint8_t* row(int64_t b, int64_t c, int64_t y) {
    return dst.stride_w == 1 ? &dst.at(b, c, y, 0) : scratch.data() + c * dst.width;
  }
  // The staged row into an interleaved dst. Strides and pointers in locals: through dst's fields,
  // every byte store (which may alias them) reloaded them, half a channels_last crop's time.
  void flush(int64_t b, int64_t y) const {
    if (dst.stride_w == 1) return;
    uint8_t* const out = &dst.at(b, 0, y, 0);
    const uint8_t* const in = scratch.data();
    const int64_t width = dst.width, channels = dst.channels, stride_w = dst.stride_w, stride_c = dst.stride_c;
    if (channels == 3 && stride_c == 1 && stride_w == 3) {
      for (int64_t x = 0; x < width; ++x) {
        out[3 * x] = in[x];
        out[3 * x + 1] = in[width + x];
        out[3 * x + 2] = in[2 * width + x];
      }
      return;
    }
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t x = 0; x < width; ++x) out[x * stride_w + c * stride_c] = in[c * width + x];
  }
};

// Resizes sample b from s.planes (filled by the caller: C x win.height x win.width floats in x / 255
// units and a vector's margin, s.win's y0 and x0 unused) to dst's size by `mode`: the column taps,
// then the output rows in parallel (cpu/resize.cc; resize_antialias.cc fills the planes with its blur).
void resize_planes(ResizeSample& s, const Image& dst, int64_t b, Interp mode, bool align_corners, BlendOrder order,
                   const ParallelFor& parallel);
}  // namespace cpu
}  // namespace u8aug
