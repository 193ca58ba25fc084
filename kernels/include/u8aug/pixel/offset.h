// Additive offsets on x / 255 (kornia's RandomGaussianNoise: x + noise; the illumination classes:
// clamp(x + gradient, 0, 1)): the float32 sum of the pixel and its offset, clamped, quantized. The
// offsets are kornia's own tensor (its draws), so the bytes are kornia's. to_u8 clamps to [0, 255]
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

}  // namespace u8aug
