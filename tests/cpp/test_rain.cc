// rain (plain C++, no targets) against pixel/rain.h's CUDA bodies run over every index, byte for
// byte, in every layout; torch.linspace's integer lines; kornia's checks of the drawn sizes.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/rain.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

TEST(Rain, LinesAreTorchLinspace) {
  // torch.linspace(0, end, steps, dtype=torch.long).tolist(), torch 2.11 on the CPU
  struct Case {
    int64_t end, steps;
    std::vector<int64_t> expected;
  };
  const Case cases[] = {
      {3, 16, {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3}},
      {-3, 16, {0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -2, -2, -2, -2, -2, -3}},
      {-4, 12, {0, 0, 0, -1, -1, -1, -2, -2, -2, -3, -3, -4}},
      {15, 17, {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
      {3, 8, {0, 0, 0, 1, 1, 2, 2, 3}},
      {0, 1, {0}},
  };
  for (const Case& c : cases)
    for (int64_t i = 0; i < c.steps; ++i)
      EXPECT_EQ(linspace_long(c.end, c.steps, i), c.expected[static_cast<size_t>(i)]) << c.end << " " << c.steps;
}

TEST(Rain, StartsAreKorniasFloat32Products) {
  EXPECT_EQ(rain_start(0.0f, 10), 0);
  EXPECT_EQ(rain_start(0.99999994f, 10), 9);  // 9.9999994 truncates to 9
  EXPECT_EQ(rain_start(1.0f, 10), 9);         // kornia's minimum with span - 1
  EXPECT_EQ(rain_start(0.3f, 10), 3);
  EXPECT_EQ(rain_start(std::numeric_limits<float>::quiet_NaN(), 10), INT64_MIN);
  EXPECT_EQ(clamp_index(INT64_MIN, 7), 0);
}

TEST(Rain, MatchesTheCudaBodies) {
  const int64_t batch = 3;
  for (const Shape s : {Shape{4, 5}, Shape{24, 31}, Shape{40, 70}})
    for (int64_t c : {1, 3})
      for (Layout in : kLayouts) {
        SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " + layout_name(in));
        const int64_t max_drops = 9;
        std::vector<float> coordinates(static_cast<size_t>(batch * max_drops * 2));
        for (size_t i = 0; i < coordinates.size(); ++i) coordinates[i] = static_cast<float>((i * 37) % 101) / 101.0f;
        const int64_t drops[] = {9, 0, 4};
        const int64_t heights[] = {s.h - 1, 1, s.h / 2};
        const int64_t widths[] = {-(s.w - 1), s.w - 1, 0};
        const RainDrops r{coordinates.data(), max_drops, drops, heights, widths};
        TestImage src(in, batch, c, s.h, s.w), out(in, batch, c, s.h, s.w),
            expected(Layout::kPlanar, batch, c, s.h, s.w);
        src.fill_random(static_cast<uint32_t>(s.h + s.w + c));
        const std::vector<uint8_t> before = src.buffer;
        cpu::rain(src.view, out.view, r, serial_for());
        const RainCopyBody copy{src.view, expected.view};
        for (int64_t i = 0; i < copy.count(); ++i) copy(i);
        const RainDropBody body{r, expected.view, s.h > s.w ? s.h : s.w};
        for (int64_t i = 0; i < body.count(); ++i) body(i);
        ASSERT_EQ(count_differences(out.view, expected.view), 0);
        ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
        ASSERT_EQ(src.buffer, before) << "modified its input";
      }
}

TEST(Rain, RefusesBadDraws) {
  TestImage src(Layout::kPlanar, 1, 3, 6, 8), dst(Layout::kPlanar, 1, 3, 6, 8);
  const float coordinates[] = {0.5f, 0.5f};
  const int64_t one[] = {1}, zero[] = {0}, six[] = {6}, eight[] = {-8};
  expect_invalid(
      [&] {
        cpu::rain(src.view, dst.view, {coordinates, 1, one, zero, one});
      },
      "drop heights must be greater than 0 and less than the image height 6, got 0");
  expect_invalid([&] { cpu::rain(src.view, dst.view, {coordinates, 1, one, six, one}); }, "got 6");
  expect_invalid(
      [&] {
        cpu::rain(src.view, dst.view, {coordinates, 1, one, one, eight});
      },
      "drop widths must be less than the image width 8 in magnitude, got -8");
  expect_invalid([&] { cpu::rain(src.view, dst.view, {nullptr, 1, one, one, one}); }, "null pointer");
}

}  // namespace
}  // namespace test
}  // namespace u8aug
