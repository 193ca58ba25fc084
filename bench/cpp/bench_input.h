// The benchmarks' input: B=32 of 3x224x224, planar, bytes from a multiplicative hash (every value
// occurs, no run repeats, and every run of the benchmark sees the same image).
#pragma once

#include <cstdint>
#include <vector>

namespace u8aug_bench {

constexpr int64_t kB = 32, kC = 3, kH = 224, kW = 224, kN = kB * kC * kH * kW;

inline std::vector<uint8_t> input() {
  std::vector<uint8_t> v(kN);
  for (int64_t i = 0; i < kN; ++i) v[i] = static_cast<uint8_t>((i * 2654435761u) >> 24);
  return v;
}

}  // namespace u8aug_bench
