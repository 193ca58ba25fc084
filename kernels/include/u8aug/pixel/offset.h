// Float32 maps applied to x / 255 element by element, kornia's draws given: additive offsets
// (kornia's RandomGaussianNoise: x + noise; the illumination classes: clamp(x + gradient, 0, 1)) and
// the plasma classes' fractal maps. Each is kornia's float32 arithmetic in its order, clamped,
// quantized; the maps are kornia's own tensors, so the bytes are kornia's. to_u8 clamps to [0, 255]
// itself, so the noise's unclamped output quantizes the same.
#pragma once

#include "u8aug/image.h"
#include "u8aug/pixel/point.h"

namespace u8aug {

using OffsetImage = ImageView<const float>;

U8AUG_HD uint8_t offset_value(uint8_t x, float offset) { return to_u8(clamp_unit(unit(x) + offset) * 255.0f); }

// The CUDA kernel's body: one output element each, in memory order.
struct AddOffsetBody {
  ConstImage src;
  OffsetImage offset;  // batch 1 with stride_b 0 broadcasts over the batch
  Image dst;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    dst.at(k.b, k.c, k.y, k.x) = offset_value(src.at(k.b, k.c, k.y, k.x), offset.at(k.b, k.c, k.y, k.x));
  }
};

// kornia's plasma classes: a float32 fractal map p in [0, 1] per element (kornia's diamond_square
// draws; RandomPlasmaShadow's has one channel for all: stride_c 0) and per-sample values a, b, each
// step in kornia's float32 order on x / 255, clamped, quantized:
//   brightness: x + (2p - 1) * a              (a: intensity)
//   contrast:   (x - 0.5) * 4p + 0.5
//   shadow:     x + (p < b) * a               (a: shade_intensity, b: shade_quantity; (p >= b) * a is
//                                              +-0, which leaves x as it is)
enum class PlasmaKind : int32_t { kBrightness = 0, kContrast = 1, kShadow = 2 };

struct PlasmaParams {
  PlasmaKind kind = PlasmaKind::kBrightness;
  Samples a;  // intensity or shade_intensity (unused by contrast)
  Samples b;  // shade_quantity (shadow only)
  // sample i's values; 0 for one the kind does not read (it may be left empty)
  U8AUG_HD float a_of(int64_t i) const { return a.count ? a[i] : 0.0f; }
  U8AUG_HD float b_of(int64_t i) const { return b.count ? b[i] : 0.0f; }
};

U8AUG_HD float plasma_unit(PlasmaKind kind, float x, float p, float a, float b) {
  switch (kind) {
    case PlasmaKind::kBrightness: return x + (2.0f * p - 1.0f) * a;
    case PlasmaKind::kContrast: return (x - 0.5f) * (4.0f * p) + 0.5f;
    default: return p < b ? x + a : x;
  }
}

U8AUG_HD uint8_t plasma_value(PlasmaKind kind, uint8_t x, float p, float a, float b) {
  return to_u8(clamp_unit(plasma_unit(kind, unit(x), p, a, b)) * 255.0f);
}

// The CUDA kernel's body: one output element each, in memory order.
struct PlasmaBody {
  ConstImage src;
  OffsetImage plasma;  // stride_b 0: one map for the batch; stride_c 0: one for every channel
  PlasmaParams params;
  Image dst;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    dst.at(k.b, k.c, k.y, k.x) = plasma_value(params.kind, src.at(k.b, k.c, k.y, k.x), plasma.at(k.b, k.c, k.y, k.x),
                                              params.a_of(k.b), params.b_of(k.b));
  }
};

}  // namespace u8aug
