// adjust_saturation, adjust_hue, color_jiggle and color_jitter, both fidelity tiers, on every
// compiled Highway target against the scalar reference (color_pixel, and jitter_pixel for
// color_jitter, over every pixel), byte for byte; the fast remainder against fmod.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/color.h"
#include "u8aug/pixel/color_fixed.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

class ColorOnEveryTarget : public OnEveryTarget {};

TEST_P(ColorOnEveryTarget, MatchesScalarReference) {
  // 9 samples: color_jitter runs batches of 8 or more sample by sample, smaller ones row by row
  const std::vector<float> sat = {0.0f, 0.6f, 1.0f, 2.3f, 0.5f, 1.1f, 0.9f, 1.7f, 0.2f},
                           hue = {0.0f, 0.7f, -2.0f, 3.1415f, -0.4f, 1.2f, -3.1415f, 0.1f, 2.2f};
  const std::vector<float> jb = {0.7f, 1.0f, 1.3f, 0.9f, 1.1f, 0.6f, 1.4f, 1.0f, 0.8f},
                           jc = {1.0f, 0.8f, 1.4f, 1.1f, 0.7f, 1.2f, 0.9f, 1.3f, 0.6f},
                           js = {1.2f, 1.0f, 0.3f, 1.9f, 0.8f, 1.5f, 0.0f, 1.1f, 0.6f},
                           jh = {0.05f, -0.2f, 0.0f, 0.5f, -0.5f, 0.1f, 0.3f, -0.05f, 0.2f};
  const int64_t orders[4][4] = {{0, 1, 2, 3}, {3, 1, 0, 2}, {2, 3, 1, 0}, {3, 2, 0, 1}};
  for (const Shape s : kShapes)
    for (int64_t batch : {1, 4, 9})
      for (Layout layout : kLayouts)
        for (int op = 0; op < 4; ++op)  // 3: color_jitter
          for (Fidelity fidelity : {Fidelity::kExact, Fidelity::kFast}) {
            const bool fast = fidelity == Fidelity::kFast;
            SCOPED_TRACE(std::to_string(batch) + "x3x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                         layout_name(layout) + " op " + std::to_string(op) + (fast ? " fast" : " exact"));
            TestImage src(layout, batch, 3, s.h, s.w);
            src.fill_random(static_cast<uint32_t>(s.h * 3 + s.w + op));
            const std::vector<uint8_t> before = src.buffer;
            TestImage out(layout, batch, 3, s.h, s.w), expected(Layout::kPlanar, batch, 3, s.h, s.w);
            const Samples factor{op == 0 ? sat.data() : hue.data(), batch};
            JiggleParams params{{jb.data(), batch},
                                {jc.data(), batch},
                                {js.data(), batch},
                                {jh.data(), batch},
                                orders[(s.w + batch + op) % 4],
                                4,
                                fidelity};
            const bool jitter = op == 3;
            const ColorOp kind = jitter ? ColorOp::kJiggle : static_cast<ColorOp>(op);
            if (kind == ColorOp::kSaturation)
              cpu::adjust_saturation(src.view, out.view, factor, serial_for(), fidelity);
            if (kind == ColorOp::kHue) cpu::adjust_hue(src.view, out.view, factor, serial_for(), fidelity);
            if (kind == ColorOp::kJiggle && !jitter) cpu::color_jiggle(src.view, out.view, params, serial_for());
            if (jitter) cpu::color_jitter(src.view, out.view, params, serial_for());
            JiggleFactors jiggle = jiggle_factors(params);
            std::vector<int64_t> sums(batch, 0);
            if (jitter) {  // the reference mean: the grey before contrast, in fixed point, per pixel
              jiggle.jitter = true;
              jiggle.pixels = s.h * s.w;
              for (int64_t b = 0; b < batch; ++b)
                for (int64_t y = 0; y < s.h; ++y)
                  for (int64_t x = 0; x < s.w; ++x) sums[b] += jitter_gray_term(src.view, jiggle, b, y, x);
              jiggle.gray_sums = sums.data();
            }
            for (int64_t b = 0; b < batch; ++b)
              for (int64_t y = 0; y < s.h; ++y)
                for (int64_t x = 0; x < s.w; ++x) {
                  const ColorOp reference = kind == ColorOp::kHue && fast ? ColorOp::kFastHue : kind;
                  if (kind == ColorOp::kJiggle) {  // pixel/color_fixed.h: the fixed point where fast serves a sample
                    color_chain_pixel(src.view, expected.view, jiggle, b, y, x);
                  } else if (fast && kind == ColorOp::kHue) {
                    fixed_hue_pixel(src.view, expected.view, factor, b, y, x);
                  } else {
                    color_pixel(reference, src.view, expected.view, factor, jiggle, b, y, x);
                  }
                }
            ASSERT_EQ(count_differences(out.view, expected.view), 0);
            ASSERT_EQ(out.clobbered_padding(), 0);
            ASSERT_EQ(src.buffer, before);
          }
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(ColorOnEveryTarget);

TEST(ColorMath, RemainderIsTorchRemainder) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(-40.0f, 40.0f);
  for (float b : {1.0f, 6.0f, kTwoPi}) {
    for (int i = 0; i < 200000; ++i) {
      const float a = i < 8 ? std::vector<float>{0.0f, -0.0f, b, -b, 2 * b, -2 * b, 1e-30f, -1e-30f}[i] : dist(rng);
      float m = std::fmod(a, b);
      if (m != 0.0f && ((b < 0.0f) != (m < 0.0f))) m += b;
      ASSERT_EQ(remainder(a, b), m) << a << " % " << b;
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace u8aug
