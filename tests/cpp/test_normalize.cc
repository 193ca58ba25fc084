// normalize / to_float on every compiled Highway target against the scalar reference
// (normalize_element over every index), float for float; and the parameter checks.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
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
