// snow on every compiled Highway target the CPU supports, against pixel/snow.h's body run over
// every index (the CUDA kernel's), byte for byte, in every layout; and its checks. The bytes against
// kornia (the whole colour cube) are tests/python/test_intensity.py's.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/snow.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

class SnowOnEveryTarget : public OnEveryTarget {};

TEST_P(SnowOnEveryTarget, MatchesScalarReference) {
  const float coefficient[] = {0.5f, 0.0f, 1.0f, 0.3f}, brightness[] = {2.0f, 3.0f, 1.0f, 5.5f};
  for (const Shape s : {Shape{1, 1}, Shape{3, 5}, Shape{16, 70}, Shape{2, 600}})
    for (Layout in : kLayouts)
      for (int64_t count : {1, 4}) {
        SCOPED_TRACE(std::to_string(s.h) + "x" + std::to_string(s.w) + " " + layout_name(in) + " values " +
                     std::to_string(count));
        const SnowParams params{Samples{coefficient, count}, Samples{brightness, count}};
        TestImage src(in, 4, 3, s.h, s.w), out(in, 4, 3, s.h, s.w), expected(Layout::kPlanar, 4, 3, s.h, s.w);
        src.fill_random(static_cast<uint32_t>(s.h * 7 + s.w));
        const std::vector<uint8_t> before = src.buffer;
        cpu::snow(src.view, out.view, params, serial_for());
        const SnowBody body{src.view, expected.view, params};
        for (int64_t i = 0; i < body.count(); ++i) body(i);
        ASSERT_EQ(count_differences(out.view, expected.view), 0);
        ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
        ASSERT_EQ(src.buffer, before) << "modified its input";
      }
}

TEST(Snow, KeepsBrightPixelsAndWhitensDarkOnes) {
  // kornia's round trip leaves a pixel above the coefficient as it was; brightness 2 doubles a
  // dark grey's lightness
  const Rgb grey = {unit(40), unit(40), unit(40)};
  const Rgb kept = snow_rgb({unit(200), unit(180), unit(90)}, 0.5f, 2.0f);
  EXPECT_EQ(to_u8(kept.r * 255.0f), 200);
  EXPECT_EQ(to_u8(kept.g * 255.0f), 180);
  EXPECT_EQ(to_u8(kept.b * 255.0f), 90);
  EXPECT_EQ(to_u8(snow_rgb(grey, 0.5f, 2.0f).r * 255.0f), 80);
  EXPECT_EQ(to_u8(snow_rgb(grey, 0.5f, 10.0f).g * 255.0f), 255);
}

TEST(Snow, RefusesBadInput) {
  TestImage src(Layout::kPlanar, 2, 1, 4, 5), dst(Layout::kPlanar, 2, 1, 4, 5);
  TestImage rgb(Layout::kPlanar, 2, 3, 4, 5), rgb_out(Layout::kPlanar, 2, 3, 4, 5);
  const float one[] = {0.5f}, nan[] = {std::numeric_limits<float>::quiet_NaN()};
  expect_invalid([&] { cpu::snow(src.view, dst.view, {Samples{one, 1}, Samples{one, 1}}); }, "3 (RGB) channels");
  expect_invalid([&] { cpu::snow(rgb.view, rgb_out.view, {Samples{one, 1}, Samples{}}); }, "brightness must hold");
  expect_invalid(
      [&] {
        cpu::snow(rgb.view, rgb_out.view, {Samples{nan, 1}, Samples{one, 1}});
      },
      "coefficient must be finite");
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(SnowOnEveryTarget);

}  // namespace

}  // namespace test
}  // namespace u8aug
