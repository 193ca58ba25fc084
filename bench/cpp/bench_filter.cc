// Google Benchmark of the filter kernels, single-threaded, B=32 of 3x224x224 planar in and out:
// the 3x3 median, the 5-tap Gaussian (sigma 1.5) in both tiers, and the 5x5 box (pooled, separable).
// items_per_second is images per second. The kernels alone, without the Python class around them:
// the steadier numbers on a noisy machine (run with --benchmark_repetitions and read the min).
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "bench_input.h"
#include "u8aug/u8aug.h"

namespace {

using namespace u8aug_bench;  // NOLINT: kB, kC, kH, kW, kN, input(), run_batch()

void BM_Median3(benchmark::State& state) {
  run_batch(state,
            [](auto s, auto d, auto& par) { u8aug::cpu::median_blur(s, d, 3, 3, u8aug::Border::kReflect, par); });
}

// kornia's get_gaussian_kernel1d(5, 1.5): exp(-x^2 / (2 sigma^2)) normalised.
std::vector<float> gaussian5() {
  std::vector<float> w(5);
  float sum = 0.0f;
  for (int i = 0; i < 5; ++i) sum += w[i] = std::exp(-float((i - 2) * (i - 2)) / (2.0f * 1.5f * 1.5f));
  for (float& v : w) v /= sum;
  return w;
}

void BM_Gaussian5(benchmark::State& state, u8aug::Fidelity fidelity) {
  const std::vector<float> w = gaussian5();
  u8aug::FilterKernel k{w.data(), 1, 5, fidelity};
  run_batch(state, [&](auto s, auto d, auto& par) {
    u8aug::cpu::filter2d_separable(s, d, k, k, u8aug::Border::kReflect, par);
  });
}

void BM_BoxPooled5(benchmark::State& state) {
  run_batch(state, [](auto s, auto d, auto& par) {
    u8aug::cpu::box_blur_pooled(s, d, 5, 5, u8aug::Border::kReflect, true, par);
  });
}

BENCHMARK(BM_Median3)->Name("median_blur_3/32x3x224x224")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gaussian5, exact, u8aug::Fidelity::kExact)
    ->Name("gaussian_blur_5/32x3x224x224")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gaussian5, fast, u8aug::Fidelity::kFast)
    ->Name("gaussian_blur_5_fast/32x3x224x224")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BoxPooled5)->Name("box_blur_pooled_5/32x3x224x224")->Unit(benchmark::kMillisecond);

}  // namespace
