// Google Benchmark of the CPU flip kernels, single-threaded, with a memcpy of the same bytes as
// the ceiling. bytes_per_second counts bytes read plus written.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "u8aug/u8aug.h"

namespace {

// U8AUG_CPU_TARGET picks the Highway target, as it does for the Python package (u8aug::set_cpu_target);
// the one that ran is in the output's context as u8aug_cpu_target.
const bool kTargetChosen = [] {
  const char* wanted = std::getenv("U8AUG_CPU_TARGET");
  benchmark::AddCustomContext("u8aug_cpu_target", u8aug::set_cpu_target(wanted ? wanted : "auto"));
  return true;
}();

constexpr int64_t kB = 32, kC = 3, kH = 224, kW = 224;

template <bool kInterleaved>
u8aug::ImageView<uint8_t> view(std::vector<uint8_t>& v) {
  return kInterleaved ? u8aug::nhwc(v.data(), kB, kC, kH, kW) : u8aug::nchw(v.data(), kB, kC, kH, kW);
}

template <bool kInterleaved, void (*kFlip)(const u8aug::ConstImage&, const u8aug::Image&, const u8aug::ParallelFor&)>
void BM_Flip(benchmark::State& state) {
  std::vector<uint8_t> in(kB * kC * kH * kW, 7), out(in.size());
  const auto serial = u8aug::serial_for();
  for (auto _ : state) {
    kFlip(view<kInterleaved>(in), view<kInterleaved>(out), serial);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 2 * static_cast<int64_t>(in.size()));
  state.SetItemsProcessed(state.iterations() * kB);  // images
}

void BM_Memcpy(benchmark::State& state) {
  std::vector<uint8_t> in(kB * kC * kH * kW, 7), out(in.size());
  for (auto _ : state) {
    std::memcpy(out.data(), in.data(), in.size());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 2 * static_cast<int64_t>(in.size()));
  state.SetItemsProcessed(state.iterations() * kB);
}

BENCHMARK(BM_Memcpy)->Name("memcpy/32x3x224x224");
BENCHMARK(BM_Flip<false, &u8aug::cpu::hflip>)->Name("hflip/nchw/32x3x224x224");
BENCHMARK(BM_Flip<true, &u8aug::cpu::hflip>)->Name("hflip/nhwc/32x3x224x224");
BENCHMARK(BM_Flip<false, &u8aug::cpu::vflip>)->Name("vflip/nchw/32x3x224x224");
BENCHMARK(BM_Flip<true, &u8aug::cpu::vflip>)->Name("vflip/nhwc/32x3x224x224");

}  // namespace
