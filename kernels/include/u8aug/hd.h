// Host/device qualifiers and the exact-rounding helpers every backend shares.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define U8AUG_HD __host__ __device__ __forceinline__
#else
#define U8AUG_HD inline
#endif

namespace u8aug {

// Saturating clamp to [lo, hi]; NaN maps to lo so a bad float can never index out of a table.
template <class T>
U8AUG_HD T clamp(T v, T lo, T hi) {
  return v > lo ? (v < hi ? v : hi) : lo;
}

// x.float() / 255: the oracle's input, a true division (the one definition of it).
U8AUG_HD float unit(uint8_t x) { return static_cast<float>(x) / 255.0f; }

// float in [0, 255] units -> uint8 with round-half-to-even (torch.round), the one quantizer under
// which identity ops give back all 256 inputs. Built without FMA contraction (-ffp-contract=off,
// nvcc -fmad=false) so host and device round the same float32 value.
U8AUG_HD uint8_t to_u8(float y255) {
  const float c = clamp(y255, 0.0f, 255.0f);
  // 2^23 trick: adding and subtracting 8388608 rounds a float in [0, 2^23) to nearest-even in the
  // default rounding mode, on the host and on the GPU alike.
  const float r = (c + 8388608.0f) - 8388608.0f;
  return static_cast<uint8_t>(r);
}

}  // namespace u8aug
