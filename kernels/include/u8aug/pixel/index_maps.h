// Pure index maps: pad and rot90. Each output byte is one input byte (or the pad value), so these
// are exact by construction. Shared by the CPU loop and the CUDA kernel.
#pragma once

#include <cstdint>

#include "u8aug/image.h"

namespace u8aug {

enum class PadMode : int32_t { kConstant = 0, kReflect = 1, kReplicate = 2 };

// Amounts added before and after each spatial axis, torch.nn.functional.pad's order.
struct PadSpec {
  int64_t left = 0, right = 0, top = 0, bottom = 0;
  PadMode mode = PadMode::kConstant;
  uint8_t value = 0;  // kConstant
};

// Source index along an axis of `size` for output index i, or -1 for the constant.
U8AUG_HD int64_t pad_source(int64_t i, int64_t before, int64_t size, PadMode mode) {
  int64_t s = i - before;
  if (s >= 0 && s < size) return s;
  if (mode == PadMode::kConstant) return -1;
  if (mode == PadMode::kReplicate) return s < 0 ? 0 : size - 1;
  // reflect without repeating the edge (torch's "reflect"); pads are < size, checked by the caller
  return s < 0 ? -s : 2 * (size - 1) - s;
}

U8AUG_HD void pad_element(const ConstImage& src, const Image& dst, const PadSpec& p, int64_t b, int64_t c, int64_t y,
                          int64_t x) {
  const int64_t sy = pad_source(y, p.top, src.height, p.mode);
  const int64_t sx = pad_source(x, p.left, src.width, p.mode);
  dst.at(b, c, y, x) = (sy < 0 || sx < 0) ? p.value : src.at(b, c, sy, sx);
}

// torch.rot90(img, k, dims=(-2, -1)): k quarter turns counter-clockwise, k taken mod 4.
U8AUG_HD void rot90_element(const ConstImage& src, const Image& dst, int k, int64_t b, int64_t c, int64_t y,
                            int64_t x) {
  int64_t sy = y, sx = x;
  if (k == 1) {
    sy = x;
    sx = src.width - 1 - y;
  } else if (k == 2) {
    sy = src.height - 1 - y;
    sx = src.width - 1 - x;
  } else if (k == 3) {
    sy = src.height - 1 - x;
    sx = y;
  }
  dst.at(b, c, y, x) = src.at(b, c, sy, sx);
}

// The CUDA kernels' bodies: one output byte, in memory order (each-index bodies: image.h).
struct PadBody {
  ConstImage src;
  Image dst;
  PadSpec spec;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    pad_element(src, dst, spec, k.b, k.c, k.y, k.x);
  }
};

struct Rot90Body {
  ConstImage src;
  Image dst;
  int turns;  // 0..3
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    rot90_element(src, dst, turns, k.b, k.c, k.y, k.x);
  }
};

}  // namespace u8aug
