// The fast tier's integer arithmetic shared by its resamplers (pixel/resize.h's two-pass resize,
// pixel/sample.h's warp taps): values scaled to 2^-7 of a byte in 16-bit lanes, weights in 2^-15,
// x86's pmulhrsw (NEON's vqrdmulh) as the blend, one rounding half to even at the end. Integers
// only, so every CPU target and CUDA give the same bytes.
#pragma once

#include <math.h>

#include <cstdint>

#include "u8aug/hd.h"
#include "u8aug/image.h"

namespace u8aug {

// a * b / 2^15 rounded half up, as pmulhrsw gives it for int16 a and b.
U8AUG_HD int32_t mul_fixed15(int32_t a, int32_t b) { return (a * b + (1 << 14)) >> 15; }

// v / 2^bits rounded half to even (v >> bits is a floor, so negative sums round the same way).
U8AUG_HD int32_t shift_round_even(int32_t v, int bits) {
  return (v + (1 << (bits - 1)) - 1 + ((v >> bits) & 1)) >> bits;
}

// w * 2^bits rounded to the nearest integer (half up; the weights are never negative ties here).
U8AUG_HD int32_t fixed_weight(float w, int bits) {
  return static_cast<int32_t>(floorf(w * static_cast<float>(1 << bits) + 0.5f));
}

// A fraction in [0, 1) as a pmulhrsw weight: 2^-15 units, capped below 1 (2^15 is not an int16).
U8AUG_HD int32_t fraction_fixed15(float f) {
  const int32_t w = fixed_weight(f, 15);
  return w < 32767 ? w : 32767;
}

// A value v / 2^bits of a byte, rounded half to even and clamped to [0, 255].
U8AUG_HD uint8_t fixed_byte(int32_t v, int bits) {
  return static_cast<uint8_t>(clamp<int32_t>(shift_round_even(v, bits), 0, 255));
}

// The bits a byte carries in the 16-bit lanes (x * 2^7 <= 32640 leaves room for a difference's sign).
constexpr int kLinearRowBits = 7;

// Two bilinear blends in 2^-7 units: a + (b - a) * f, f in 2^-15 (pmulhrsw).
U8AUG_HD int32_t lerp_fixed(int32_t a, int32_t b, int32_t f) { return a + mul_fixed15(b - a, f); }

}  // namespace u8aug
