// Google Benchmark of the pointwise, normalize, grey and colour kernels, single-threaded, B=32 of
// 3x224x224 planar. bytes_per_second counts bytes read plus written.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "bench_input.h"
#include "u8aug/u8aug.h"

namespace {

using namespace u8aug_bench;  // NOLINT: kB, kC, kH, kW, kN, input(), run_batch()

// Factors as ColorJitter(brightness=0.4) draws them: uniform in [0.6, 1.4] (a fixed seed). Evenly
// spaced dyadic factors would be unrepresentative: x * factor meets exact rounding ties there, and
// such tables take the lookup rather than the multiply-add (cpu/table_form.h).
const std::vector<float> kFactors = [] {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<float> draw(0.6f, 1.4f);
  std::vector<float> f;
  for (int64_t b = 0; b < kB; ++b) f.push_back(draw(rng));
  return f;
}();
const std::vector<float> kHue(kB, 0.05f);
const int64_t kOrder[4] = {0, 1, 2, 3};
// ColorJitter's dearest order: every other step before contrast, whose mean needs them.
const int64_t kHueFirst[4] = {3, 2, 0, 1};

void BM_Brightness(benchmark::State& state) {
  run_batch<uint8_t>(state, [](auto s, auto d, auto& p) {
    u8aug::cpu::adjust_brightness_accumulative(s, d, {kFactors.data(), kB}, p);
  });
}
void BM_Gamma(benchmark::State& state) {
  const float gain = 1.0f;
  run_batch<uint8_t>(state, [&](auto s, auto d, auto& p) {
    u8aug::cpu::adjust_gamma(s, d, {kFactors.data(), kB}, {&gain, 1}, p);
  });
}
void BM_Equalize(benchmark::State& state) {
  run_batch<uint8_t>(state, [](auto s, auto d, auto& p) { u8aug::cpu::equalize(s, d, p); });
}
void BM_Normalize(benchmark::State& state) {
  const float mean[3] = {0.485f, 0.456f, 0.406f}, std[3] = {0.229f, 0.224f, 0.225f};
  run_batch<float>(state, [&](auto s, auto d, auto& p) { u8aug::cpu::normalize(s, d, {mean, 3}, {std, 3}, p); });
}
void BM_Grayscale(benchmark::State& state) {
  run_batch<uint8_t>(state, [](auto s, auto d, auto& p) { u8aug::cpu::grayscale(s, d, p); });
}
void BM_ColorJiggle(benchmark::State& state, u8aug::Fidelity fidelity) {
  const u8aug::JiggleParams params{
      {kFactors.data(), kB}, {kFactors.data(), kB}, {kFactors.data(), kB}, {kHue.data(), kB}, kOrder, 4, fidelity};
  run_batch<uint8_t>(state, [&](auto s, auto d, auto& p) { u8aug::cpu::color_jiggle(s, d, params, p); });
}
void BM_ColorJitter(benchmark::State& state, const int64_t* order, u8aug::Fidelity fidelity) {
  const u8aug::JiggleParams params{
      {kFactors.data(), kB}, {kFactors.data(), kB}, {kFactors.data(), kB}, {kHue.data(), kB}, order, 4, fidelity};
  run_batch<uint8_t>(state, [&](auto s, auto d, auto& p) { u8aug::cpu::color_jitter(s, d, params, p); });
}

BENCHMARK(BM_Brightness)->Name("adjust_brightness_accumulative/32x3x224x224");
BENCHMARK(BM_Gamma)->Name("adjust_gamma/32x3x224x224");
BENCHMARK(BM_Equalize)->Name("equalize/32x3x224x224");
BENCHMARK(BM_Normalize)->Name("normalize/32x3x224x224");
BENCHMARK(BM_Grayscale)->Name("grayscale/32x3x224x224");
constexpr auto kExact = u8aug::Fidelity::kExact;
constexpr auto kFast = u8aug::Fidelity::kFast;
BENCHMARK_CAPTURE(BM_ColorJiggle, exact, kExact)->Name("color_jiggle/32x3x224x224");
BENCHMARK_CAPTURE(BM_ColorJiggle, fast, kFast)->Name("color_jiggle_fast/32x3x224x224");
BENCHMARK_CAPTURE(BM_ColorJitter, contrast_second, kOrder, kExact)->Name("color_jitter/32x3x224x224");
BENCHMARK_CAPTURE(BM_ColorJitter, contrast_second_fast, kOrder, kFast)->Name("color_jitter_fast/32x3x224x224");
BENCHMARK_CAPTURE(BM_ColorJitter, hue_first, kHueFirst, kExact)->Name("color_jitter_hue_first/32x3x224x224");
BENCHMARK_CAPTURE(BM_ColorJitter, hue_first_fast, kHueFirst, kFast)->Name("color_jitter_hue_first_fast/32x3x224x224");

}  // namespace
