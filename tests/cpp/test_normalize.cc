// normalize / to_float on every compiled Highway target against the scalar reference
// (normalize_element over every index), float for float; and the parameter checks.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/normalize.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

class NormalizeOnEveryTarget : public OnEveryTarget {};

TEST_P(NormalizeOnEveryTarget, MatchesScalarReference) {
  const std::vector<float> mean = {0.485f, 0.456f, 0.406f, 0.5f, -0.25f};
  const std::vector<float> std = {0.229f, 0.224f, 0.225f, 2.0f, -0.7f};
  for (const Shape s : kShapes)
    for (int64_t c : {1, 3, 4})
      for (int64_t batch : {1, 3})
        for (bool one_value : {true, false})
          for (Layout layout : kLayouts) {
            SCOPED_TRACE(std::to_string(batch) + "x" + std::to_string(c) + "x" + std::to_string(s.h) + "x" +
                         std::to_string(s.w) + " " + layout_name(layout) + (one_value ? " one value" : " per channel"));
            const PerChannel m{mean.data(), one_value ? 1 : c}, sd{std.data(), one_value ? 1 : c};
            TestImage src(layout, batch, c, s.h, s.w);
            src.fill_random(static_cast<uint32_t>(s.h + 7 * s.w + c));
            const std::vector<uint8_t> before = src.buffer;
            TestBuffer<float> out(layout, batch, c, s.h, s.w), expected(Layout::kPlanar, batch, c, s.h, s.w);
            cpu::normalize(src.view, out.view, m, sd, serial_for());
            for (int64_t b = 0; b < batch; ++b)
              for (int64_t k = 0; k < c; ++k)
                for (int64_t y = 0; y < s.h; ++y)
                  for (int64_t x = 0; x < s.w; ++x) normalize_element(src.view, expected.view, m, sd, b, k, y, x);
            ASSERT_EQ(count_differences(out.view, expected.view), 0);
            ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
            ASSERT_EQ(src.buffer, before) << "modified its input";

            TestBuffer<float> as_float(layout, batch, c, s.h, s.w);
            cpu::to_float(src.view, as_float.view, serial_for());
            for (int64_t b = 0; b < batch; ++b)
              for (int64_t k = 0; k < c; ++k)
                for (int64_t y = 0; y < s.h; ++y)
                  for (int64_t x = 0; x < s.w; ++x)
                    ASSERT_EQ(as_float.view.at(b, k, y, x), src.view.at(b, k, y, x) / 255.0f);
          }
}

// The division by std takes a reciprocal form where the call finds that it gives every byte's
// quotient (cpu/normalize.cc): over many (mean, std) pairs, some served and some not (counted here
// the same way, by the scalar fused multiply-add), every byte of every channel equals the division.
TEST_P(NormalizeOnEveryTarget, EveryByteForManyMeansAndStds) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f), exponent(-12.0f, 12.0f);
  std::vector<float> mean, std;
  for (float s : {1e-30f, 1e-38f, 3e38f, 1e-45f, -1e-30f}) {  // reciprocals that overflow or lose bits
    mean.push_back(0.5f);
    std.push_back(s);
  }
  while (mean.size() < 3000) {
    mean.push_back(2.0f * unit(rng));
    std.push_back(unit(rng) * std::exp2(exponent(rng)));
    if (std.back() == 0.0f) std.back() = 1.0f;
  }
  int served = 0;
  for (size_t i = 0; i < std.size(); ++i) {
    bool all = true;
    for (int x = 0; x < 256 && all; ++x) {
      const float a = static_cast<float>(x) / 255.0f - mean[i], r = 1.0f / std[i], q = a * r;
      all = std::fmaf(std::fmaf(-q, std[i], a), r, q) == a / std[i];
    }
    served += all;
  }
  EXPECT_GT(served, 0);
  EXPECT_LT(served, static_cast<int>(std.size()));
  const int64_t channels = 3;
  TestImage src(Layout::kPlanar, 1, channels, 1, 256);
  for (int64_t c = 0; c < channels; ++c)
    for (int x = 0; x < 256; ++x) src.view.at(0, c, 0, x) = static_cast<uint8_t>((x + 85 * c) % 256);
  for (size_t i = 0; i + channels <= std.size(); i += channels) {
    const PerChannel m{mean.data() + i, channels}, sd{std.data() + i, channels};
    TestBuffer<float> out(Layout::kPlanar, 1, channels, 1, 256), expected(Layout::kPlanar, 1, channels, 1, 256);
    cpu::normalize(src.view, out.view, m, sd, serial_for());
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t x = 0; x < 256; ++x) normalize_element(src.view, expected.view, m, sd, 0, c, 0, x);
    ASSERT_EQ(count_differences(out.view, expected.view), 0) << "mean " << mean[i] << ", std " << std[i];
  }
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(NormalizeOnEveryTarget);

TEST(Normalize, BadParametersThrowAndWriteNothing) {
  TestImage src(Layout::kPlanar, 2, 3, 4, 5);
  TestBuffer<float> dst(Layout::kPlanar, 2, 3, 4, 5);
  const std::vector<float> before = dst.buffer;
  auto expect_invalid = [&](PerChannel m, PerChannel s, const char* needle) {
    try {
      cpu::normalize(src.view, dst.view, m, s);
      ADD_FAILURE() << "no exception, expected one mentioning '" << needle << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
    EXPECT_EQ(dst.buffer, before);
  };
  const float ok[3] = {0.5f, 0.5f, 0.5f}, two[2] = {0.5f, 0.5f}, zero[1] = {0.0f};
  const float nan[1] = {std::nanf("")};
  expect_invalid({two, 2}, {ok, 3}, "mean must hold 1 or C = 3 values, got 2");
  expect_invalid({ok, 3}, {zero, 1}, "std must not be 0");
  expect_invalid({nan, 1}, {ok, 3}, "mean must be finite");
}

}  // namespace
}  // namespace test
}  // namespace u8aug
