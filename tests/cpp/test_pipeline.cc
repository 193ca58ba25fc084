// cpu::run_pipeline against the same steps run one after another over the batch (each step on all
// samples, then kornia's blend for the skipped ones), byte for byte: both output forms, every
// layout, threads, and the checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "image_buffer.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

// Samples in reverse order, two at a time, on the calling thread: another split than serial_for's,
// without threads (the Arm run's qemu-user hangs on std::thread, scripts/test_arm.sh).
ParallelFor reversed_pairs() {
  return [](int64_t n, int64_t, const RangeBody& body) {
    for (int64_t i = n; i > 0; i -= 2) body(std::max<int64_t>(0, i - 2), i);
  };
}

constexpr int64_t kB = 5, kC = 3, kH = 21, kW = 34, kOutH = 13, kOutW = 17;

struct Chain {
  std::vector<float> brightness{0.1f, -0.2f, 0.3f, 0.0f, 0.25f};
  std::vector<float> boxes;
  bool flip_take[kB] = {true, false, true, true, false};
  bool bright_take[kB] = {false, true, true, false, true};

  Chain() {
    for (int64_t b = 0; b < kB; ++b) {
      const float x0 = static_cast<float>(b), y0 = static_cast<float>(b % 3), x1 = x0 + 20, y1 = y0 + 15;
      boxes.insert(boxes.end(), {x0, y0, x1, y0, x1, y1, x0, y1});
    }
  }
  const CropBlendOrders orders{};

  // crop_and_resize -> hflip (gated) -> adjust_brightness (gated) -> grayscale
  std::vector<cpu::PipelineStep> steps() const {
    const CropBlendOrders o = orders;
    const float* corners = boxes.data();
    const std::vector<float>& f = brightness;
    return {
        {kC, kOutH, kOutW, nullptr,
         [corners, o](const ConstImage& s, const Image& d, int64_t b) {
           cpu::crop_and_resize(s, d, corners + 8 * b, Interp::kBilinear, true, o, serial_for());
         }},
        {kC, kOutH, kOutW, flip_take,
         [](const ConstImage& s, const Image& d, int64_t) { cpu::hflip(s, d, serial_for()); }},
        {kC, kOutH, kOutW, bright_take,
         [&f](const ConstImage& s, const Image& d, int64_t b) {
           cpu::adjust_brightness(s, d, Samples{f.data() + b, 1}, serial_for());
         }},
        {kC, kOutH, kOutW, nullptr,
         [](const ConstImage& s, const Image& d, int64_t) { cpu::grayscale(s, d, serial_for()); }},
    };
  }

  // The same chain one op at a time over the whole batch.
  std::vector<uint8_t> step_by_step(const ConstImage& src) const {
    const int64_t n = kB * kC * kOutH * kOutW;
    std::vector<uint8_t> a(n), b(n), c(n);
    const Image A = nchw(a.data(), kB, kC, kOutH, kOutW), B = nchw(b.data(), kB, kC, kOutH, kOutW),
                Cv = nchw(c.data(), kB, kC, kOutH, kOutW);
    cpu::crop_and_resize(src, A, boxes.data(), Interp::kBilinear, true, orders);
    cpu::hflip(A, B);
    cpu::select_samples(flip_take, B, A, Cv);
    cpu::adjust_brightness(Cv, A, Samples{brightness.data(), kB});
    cpu::select_samples(bright_take, A, Cv, B);
    cpu::grayscale(B, A);
    return a;
  }
};

TEST(Pipeline, EqualsTheStepByStepChainInEveryLayout) {
  const Chain chain;
  for (Layout in : kLayouts)
    for (Layout out : {Layout::kPlanar, Layout::kInterleaved, Layout::kPlanarPadded})
      for (bool interleaved : {false, true}) {
        TestImage src(in, kB, kC, kH, kW);
        src.fill_random(11);
        const std::vector<uint8_t> want = chain.step_by_step(src.view);
        TestImage dst(out, kB, kC, kOutH, kOutW);
        cpu::run_pipeline(src.view, dst.view, chain.steps(), interleaved, reversed_pairs());
        const std::vector<uint8_t> copy = want;
        const ConstImage expected = nchw(copy.data(), kB, kC, kOutH, kOutW);
        EXPECT_EQ(count_differences<const uint8_t>(dst.view, expected), 0)
            << layout_name(in) << " -> " << layout_name(out);
        EXPECT_EQ(dst.clobbered_padding(), 0);
      }
}

TEST(Pipeline, NormalizeEndsTheFloatForm) {
  const Chain chain;
  TestImage src(Layout::kInterleaved, kB, kC, kH, kW);
  src.fill_random(12);
  const std::vector<uint8_t> bytes = chain.step_by_step(src.view);
  const float mean[] = {0.4f, 0.5f, 0.6f}, std[] = {0.2f, 0.25f, 0.3f};
  std::vector<float> want(bytes.size()), got(bytes.size());
  cpu::normalize(nchw(bytes.data(), kB, kC, kOutH, kOutW), nchw(want.data(), kB, kC, kOutH, kOutW), {mean, 3},
                 {std, 3});
  cpu::run_pipeline(src.view, nchw(got.data(), kB, kC, kOutH, kOutW), chain.steps(), {mean, 3}, {std, 3}, true,
                    reversed_pairs());
  EXPECT_EQ(want, got);
}

TEST(Pipeline, NoStepIsACopy) {
  TestImage src(Layout::kPlanarPadded, 2, 3, 4, 5), dst(Layout::kInterleaved, 2, 3, 4, 5);
  src.fill_random(13);
  cpu::run_pipeline(src.view, dst.view, {}, false, serial_for());
  EXPECT_EQ(count_differences<uint8_t>(src.view, dst.view), 0);
}

TEST(Pipeline, RefusesInconsistentChains) {
  const Chain chain;
  TestImage src(Layout::kPlanar, kB, kC, kH, kW), dst(Layout::kPlanar, kB, kC, kOutH, kOutW),
      wrong(Layout::kPlanar, kB, kC, kOutH + 1, kOutW);
  expect_invalid([&] { cpu::run_pipeline(src.view, wrong.view, chain.steps(), false); }, "the last step's");
  std::vector<cpu::PipelineStep> gated_resize = chain.steps();
  gated_resize[0].take = chain.flip_take;
  expect_invalid([&] { cpu::run_pipeline(src.view, dst.view, gated_resize, false); }, "cannot skip samples");
  std::vector<cpu::PipelineStep> no_run = chain.steps();
  no_run[2].run = nullptr;
  expect_invalid([&] { cpu::run_pipeline(src.view, dst.view, no_run, false); }, "step 2 has no run function");
  // a step's own check (a factor out of range is caught by the op) reaches the caller
  std::vector<cpu::PipelineStep> bad = chain.steps();
  bad[3].run = [](const ConstImage& s, const Image& d, int64_t) {
    const float hue = 9.0f;
    cpu::adjust_hue(s, d, Samples{&hue, 1}, serial_for());
  };
  expect_invalid([&] { cpu::run_pipeline(src.view, dst.view, bad, false, reversed_pairs()); }, "u8aug.adjust_hue");
}

}  // namespace
}  // namespace test
}  // namespace u8aug
