// The benchmarks' input: B=32 of 3x224x224, planar, bytes from a multiplicative hash (every value
// occurs, no run repeats, and every run of the benchmark sees the same image), and the loop that
// runs a kernel over it.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "u8aug/u8aug.h"

namespace u8aug_bench {

constexpr int64_t kB = 32, kC = 3, kH = 224, kW = 224, kN = kB * kC * kH * kW;

inline std::vector<uint8_t> input() {
  std::vector<uint8_t> v(kN);
  for (int64_t i = 0; i < kN; ++i) v[i] = static_cast<uint8_t>((i * 2654435761u) >> 24);
  return v;
}

// op(source view, destination view, serial ParallelFor) over the batch, single-threaded, into an
// output of `Out` values of the same shape. items_per_second is images per second;
// bytes_per_second counts the bytes read plus written.
template <class Out = uint8_t, class Run>
void run_batch(benchmark::State& state, Run&& op) {
  const std::vector<uint8_t> in = input();
  std::vector<Out> out(kN);
  const auto serial = u8aug::serial_for();
  for (auto _ : state) {
    op(u8aug::nchw(in.data(), kB, kC, kH, kW), u8aug::nchw(out.data(), kB, kC, kH, kW), serial);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kN * (1 + static_cast<int64_t>(sizeof(Out))));
  state.SetItemsProcessed(state.iterations() * kB);
}

}  // namespace u8aug_bench
