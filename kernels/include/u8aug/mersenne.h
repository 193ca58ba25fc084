// torch's CPU random engine (at::mt19937, the default CPU generator's) and its float32 uniform, so
// that u8aug can make torch.rand's numbers for kornia's large draws (the plasma fractal) faster than
// torch's one-number-at-a-time kernel, from the generator's own state, leaving the state where
// torch.rand would. The engine is the standard 32-bit Mersenne Twister; torch.rand on the CPU takes
// one engine word per float32 and keeps its low 24 bits: (word & 0xFFFFFF) * 2^-24, exact.
// tests/python/test_rng.py checks the numbers and the state after against torch.rand.
#pragma once

#include <cstdint>

namespace u8aug {

inline constexpr int kMersenneWords = 624;  // the engine's state
inline constexpr int kMersenneShift = 397;  // the word each new word mixes in

// at::mt19937's data: `left` counts down to the next regeneration (it regenerates when a draw
// takes it to 0; a fresh seed has left 1), `next` indexes the next word to temper.
struct MersenneState {
  uint32_t words[kMersenneWords];
  int64_t left = 1;
  int64_t next = 0;
};

// A new word from the one it replaces (u), the next one (v) and the word kMersenneShift ahead.
inline uint32_t mersenne_twist(uint32_t u, uint32_t v, uint32_t far) {
  const uint32_t mixed = (u & 0x80000000u) | (v & 0x7fffffffu);
  return far ^ (mixed >> 1) ^ ((v & 1u) ? 0x9908b0dfu : 0u);
}

inline uint32_t mersenne_temper(uint32_t y) {
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  return y ^ (y >> 18);
}

// torch's uniform_real_distribution<float> on [0, 1) from one engine word.
inline float uniform_float24(uint32_t word) { return static_cast<float>(word & 0xffffffu) * (1.0f / 16777216.0f); }

// Words [begin, end) of a regeneration, in place: the first kMersenneWords - kMersenneShift words
// mix in old words, the rest new ones (already regenerated), the last one the new first word.
inline void mersenne_regenerate_words(uint32_t* w, int begin, int end) {
  for (int i = begin; i < end; ++i) {
    const int far = i + kMersenneShift < kMersenneWords ? i + kMersenneShift : i + kMersenneShift - kMersenneWords;
    const uint32_t v = w[i + 1 < kMersenneWords ? i + 1 : 0];
    w[i] = mersenne_twist(w[i], v, w[far]);
  }
}

}  // namespace u8aug
