// Google Benchmark of the geometry kernels, single-threaded, B=32 of 3x224x224 planar in and out:
// an affine and a perspective warp (bilinear, zeros; exact and fast) and a crop-and-resize of 141x161 boxes
// (bilinear in both blend orders, and bicubic).
// items_per_second is images per second.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "bench_input.h"
#include "u8aug/u8aug.h"

namespace {

using namespace u8aug_bench;  // NOLINT: kB, kC, kH, kW, kN, input(), run_batch()

// A 0.3 rad rotation about the centre with a small projective row for the perspective case.
std::vector<float> matrices(bool perspective) {
  const float c = std::cos(0.3f), s = std::sin(0.3f), cx = kW / 2.0f, cy = kH / 2.0f;
  const float m[9] = {c, -s, cx - c * cx + s * cy, s, c, cy - s * cx - c * cy, perspective ? 1e-4f : 0.0f, 0.0f, 1.0f};
  return std::vector<float>(m, m + (perspective ? 9 : 6));
}

void BM_WarpAffine(benchmark::State& state, u8aug::Fidelity fidelity) {
  const std::vector<float> m = matrices(false);
  u8aug::WarpParams p;
  p.matrices = m.data();
  p.count = 1;
  p.align_corners = false;
  p.fidelity = fidelity;
  run_batch(state, [&](auto s, auto d, auto& par) { u8aug::cpu::warp_affine(s, d, p, par); });
}
void BM_WarpPerspective(benchmark::State& state, u8aug::Fidelity fidelity) {
  const std::vector<float> m = matrices(true);
  u8aug::WarpParams p;
  p.matrices = m.data();
  p.count = 1;
  p.fidelity = fidelity;
  run_batch(state, [&](auto s, auto d, auto& par) { u8aug::cpu::warp_perspective(s, d, p, par); });
}
void BM_CropAndResize(benchmark::State& state, u8aug::BlendOrder order, u8aug::Interp interp) {
  std::vector<float> boxes;
  for (int64_t b = 0; b < kB; ++b) {
    const float box[8] = {10, 20, 150, 20, 150, 180, 10, 180};
    boxes.insert(boxes.end(), box, box + 8);
  }
  run_batch(state, [&](auto s, auto d, auto& par) {
    u8aug::cpu::crop_and_resize(s, d, boxes.data(), interp, true, u8aug::CropBlendOrders{order, order}, par);
  });
}

BENCHMARK_CAPTURE(BM_WarpAffine, exact, u8aug::Fidelity::kExact)
    ->Name("warp_affine/32x3x224x224")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_WarpPerspective, exact, u8aug::Fidelity::kExact)
    ->Name("warp_perspective/32x3x224x224")
    ->Unit(benchmark::kMillisecond);
// the fast tier's fixed point (pixel/sample.h's sample_fixed_pixel)
BENCHMARK_CAPTURE(BM_WarpAffine, fast, u8aug::Fidelity::kFast)
    ->Name("warp_affine_fast/32x3x224x224")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_WarpPerspective, fast, u8aug::Fidelity::kFast)
    ->Name("warp_perspective_fast/32x3x224x224")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CropAndResize, separable, u8aug::BlendOrder::kSeparable, u8aug::Interp::kBilinear)
    ->Name("crop_and_resize/32x3x224x224")
    ->Unit(benchmark::kMillisecond);
// torch's order for RGB at one thread (pixel/resize.h's torch_blend_order)
BENCHMARK_CAPTURE(BM_CropAndResize, corners, u8aug::BlendOrder::kCorners, u8aug::Interp::kBilinear)
    ->Name("crop_and_resize_corners/32x3x224x224")
    ->Unit(benchmark::kMillisecond);
// DINO's crops: bicubic (its blend order is kornia's one order for bicubic)
BENCHMARK_CAPTURE(BM_CropAndResize, bicubic, u8aug::BlendOrder::kSeparable, u8aug::Interp::kBicubic)
    ->Name("crop_and_resize_bicubic/32x3x224x224")
    ->Unit(benchmark::kMillisecond);
// the fast tier's fixed point (pixel/resize.h, kFast)
BENCHMARK_CAPTURE(BM_CropAndResize, fast, u8aug::BlendOrder::kFast, u8aug::Interp::kBilinear)
    ->Name("crop_and_resize_fast/32x3x224x224")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CropAndResize, bicubic_fast, u8aug::BlendOrder::kFast, u8aug::Interp::kBicubic)
    ->Name("crop_and_resize_bicubic_fast/32x3x224x224")
    ->Unit(benchmark::kMillisecond);

}  // namespace
