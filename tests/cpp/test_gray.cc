// rgb_to_grayscale / grayscale on every compiled Highway target against the scalar reference
// (gray_pixel over every index); the shape checks.
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/gray.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

class GrayOnEveryTarget : public OnEveryTarget {};

TEST_P(GrayOnEveryTarget, MatchesScalarReference) {
  for (const Shape s : kShapes)
    for (int64_t c : {1, 2, 3, 4})
      for (int64_t batch : {1, 3})
        for (Layout layout : kLayouts)
          for (bool to_one_channel : {false, true}) {
            if (to_one_channel && c != 3) continue;
            SCOPED_TRACE(std::to_string(batch) + "x" + std::to_string(c) + "x" + std::to_string(s.h) + "x" +
                         std::to_string(s.w) + " " + layout_name(layout) +
                         (to_one_channel ? " rgb_to_grayscale" : " grayscale"));
            const int64_t out_c = to_one_channel ? 1 : c;
            TestImage src(layout, batch, c, s.h, s.w);
            src.fill_random(static_cast<uint32_t>(s.h * 13 + s.w + c));
            const std::vector<uint8_t> before = src.buffer;
            TestImage out(layout, batch, out_c, s.h, s.w), expected(Layout::kPlanar, batch, out_c, s.h, s.w);
            if (to_one_channel) {
              cpu::rgb_to_grayscale(src.view, out.view, serial_for());
            } else {
              cpu::grayscale(src.view, out.view, serial_for());
            }
            for (int64_t b = 0; b < batch; ++b)
              for (int64_t y = 0; y < s.h; ++y)
                for (int64_t x = 0; x < s.w; ++x) gray_pixel(src.view, expected.view, b, y, x);
            ASSERT_EQ(count_differences(out.view, expected.view), 0);
            ASSERT_EQ(out.clobbered_padding(), 0);
            ASSERT_EQ(src.buffer, before);
          }
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(GrayOnEveryTarget);

// luma_byte's integers against kornia's float steps (luma_float_byte) on every colour.
TEST(Gray, IntegerLumaEqualsTheFloatStepsOnAllColours) {
  int64_t differences = 0, halves = 0;
  for (int r = 0; r < 256; ++r)
    for (int g = 0; g < 256; ++g)
      for (int b = 0; b < 256; ++b) {
        const auto R = static_cast<uint8_t>(r), G = static_cast<uint8_t>(g), B = static_cast<uint8_t>(b);
        differences += luma_byte(R, G, B) != luma_float_byte(R, G, B);
        halves += luma_sum_is_half(luma_sum(r, g, b));
        // away from a half, the integer quotient alone is kornia's byte
        if (!luma_sum_is_half(luma_sum(r, g, b)))
          differences += (luma_sum(r, g, b) + 500) / 1000 != luma_float_byte(R, G, B);
      }
  EXPECT_EQ(differences, 0);
  EXPECT_EQ(halves, 16782);  // the colours left to the float steps
}

TEST(Gray, KnownValues) {
  // Flat greys map to themselves (the weights sum to 1); white is 255, black 0.
  for (int v : {0, 1, 77, 128, 254, 255}) {
    uint8_t in[3] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v), static_cast<uint8_t>(v)}, out = 0;
    cpu::rgb_to_grayscale(nchw<const uint8_t>(in, 1, 3, 1, 1), nchw(&out, 1, 1, 1, 1));
    EXPECT_EQ(out, v);
  }
}

TEST(Gray, BadShapesThrow) {
  TestImage four(Layout::kPlanar, 1, 4, 3, 3), one(Layout::kPlanar, 1, 1, 3, 3), three(Layout::kPlanar, 1, 3, 3, 3);
  expect_invalid([&] { cpu::rgb_to_grayscale(four.view, one.view); }, "expected 3 (RGB) channels");
  Image first_plane = three.view;  // channel 0 of the input itself
  first_plane.channels = 1;
  expect_invalid([&] { cpu::rgb_to_grayscale(three.view, first_plane); }, "overlaps");
  TestImage three_b(Layout::kPlanar, 1, 3, 3, 3);
  expect_invalid([&] { cpu::rgb_to_grayscale(three.view, three_b.view); }, "1 channel");
  expect_invalid([&] { cpu::grayscale(three.view, one.view); }, "channel count");
}

}  // namespace
}  // namespace test
}  // namespace u8aug
