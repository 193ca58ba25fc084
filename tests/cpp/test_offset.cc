// add_offset and the plasma maps on every compiled Highway target the CPU supports, against pixel/offset.h's body run
// over every index (the CUDA kernel's), byte for byte: every image layout against planar and
// interleaved offsets, one offset image broadcast over the batch (stride_b 0); and its checks.
// erase_boxes (plain C++, no targets) against pixel/erase.h's body the same way.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/erase.h"
#include "u8aug/pixel/offset.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

class OffsetOnEveryTarget : public OnEveryTarget {};

TEST_P(OffsetOnEveryTarget, MatchesScalarReference) {
  const Shape shapes[] = {{1, 1}, {3, 5}, {4, 70}};
  for (const Shape s : shapes)
    for (int64_t c : {1, 3})
      for (Layout in : kLayouts)
        for (bool interleaved_offset : {false, true})
          for (bool broadcast : {false, true}) {
            SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                         layout_name(in) + (interleaved_offset ? " interleaved offsets" : " planar offsets") +
                         (broadcast ? " broadcast" : ""));
            const int64_t b = 2, n = (broadcast ? 1 : b) * c * s.h * s.w;
            std::vector<float> values(static_cast<size_t>(n));
            for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = std::sin(0.37f * static_cast<float>(i));
            OffsetImage offset = interleaved_offset ? nhwc(values.data(), broadcast ? 1 : b, c, s.h, s.w)
                                                    : nchw(values.data(), broadcast ? 1 : b, c, s.h, s.w);
            if (broadcast) offset.batch = b, offset.stride_b = 0;
            TestImage src(in, b, c, s.h, s.w), out(in, b, c, s.h, s.w), expected(Layout::kPlanar, b, c, s.h, s.w);
            src.fill_random(static_cast<uint32_t>(s.h + s.w + c));
            const std::vector<uint8_t> before = src.buffer;
            cpu::add_offset(src.view, offset, out.view, serial_for());
            const AddOffsetBody body{src.view, offset, expected.view};
            for (int64_t i = 0; i < body.count(); ++i) body(i);
            ASSERT_EQ(count_differences(out.view, expected.view), 0);
            ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
            ASSERT_EQ(src.buffer, before) << "modified its input";
          }
}

TEST(Offset, ClampsAndRoundsAsKornia) {
  // 10 / 255 + 0.5 rounds to 137.5 -> 138 (half to even); past 1 and below 0 clamp
  EXPECT_EQ(offset_value(10, 0.5f), to_u8((10.0f / 255.0f + 0.5f) * 255.0f));
  EXPECT_EQ(offset_value(200, 0.9f), 255);
  EXPECT_EQ(offset_value(3, -0.5f), 0);
}

TEST(Offset, RefusesBadInput) {
  TestImage src(Layout::kPlanar, 2, 3, 4, 5), dst(Layout::kPlanar, 2, 3, 4, 5);
  std::vector<float> values(2 * 3 * 4 * 5);
  expect_invalid([&] { cpu::add_offset(src.view, nchw<const float>(values.data(), 2, 2, 4, 5), dst.view); },
                 "offset must have img's (B, C, H, W) shape");
  expect_invalid([&] { cpu::add_offset(src.view, nchw<const float>(nullptr, 2, 3, 4, 5), dst.view); },
                 "offset has a null data pointer");
  expect_invalid([&] { cpu::add_offset(src.view, nchw<const float>(values.data(), 2, 3, 4, 5), src.view); },
                 "overlaps");
}

TEST_P(OffsetOnEveryTarget, PlasmaMatchesScalarReference) {
  const float a[] = {0.7f, -0.4f}, b[] = {0.35f, 0.8f};
  for (PlasmaKind kind : {PlasmaKind::kBrightness, PlasmaKind::kContrast, PlasmaKind::kShadow})
    for (const Shape s : {Shape{1, 1}, Shape{3, 5}, Shape{4, 70}})
      for (int64_t c : {1, 3})
        for (Layout in : kLayouts)
          for (bool one_channel : {false, true}) {
            SCOPED_TRACE("kind " + std::to_string(static_cast<int>(kind)) + " " + std::to_string(c) + "x" +
                         std::to_string(s.h) + "x" + std::to_string(s.w) + " " + layout_name(in) +
                         (one_channel ? " one map channel" : ""));
            const int64_t batch = 2, mc = one_channel ? 1 : c;
            std::vector<float> values(static_cast<size_t>(batch * mc * s.h * s.w));
            for (size_t i = 0; i < values.size(); ++i)
              values[i] = 0.5f + 0.5f * std::sin(0.61f * static_cast<float>(i));
            OffsetImage map = nchw<const float>(values.data(), batch, mc, s.h, s.w);
            if (one_channel) map.channels = c, map.stride_c = 0;
            const PlasmaParams params{kind, kind == PlasmaKind::kContrast ? Samples{} : Samples{a, 2},
                                      kind == PlasmaKind::kShadow ? Samples{b, 2} : Samples{}};
            TestImage src(in, batch, c, s.h, s.w), out(in, batch, c, s.h, s.w),
                expected(Layout::kPlanar, batch, c, s.h, s.w);
            src.fill_random(static_cast<uint32_t>(s.h * 3 + s.w + c));
            const std::vector<uint8_t> before = src.buffer;
            cpu::plasma(src.view, map, params, out.view, serial_for());
            const PlasmaBody body{src.view, map, params, expected.view};
            for (int64_t i = 0; i < body.count(); ++i) body(i);
            ASSERT_EQ(count_differences(out.view, expected.view), 0);
            ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
            ASSERT_EQ(src.buffer, before) << "modified its input";
          }
}

TEST(Plasma, StepsInKorniasOrder) {
  // kornia: image + (2 * plasma - 1) * intensity; (image - 0.5) * (4 * plasma) + 0.5; image + (plasma < q) * s
  const float x = 77.0f / 255.0f;
  EXPECT_EQ(plasma_value(PlasmaKind::kBrightness, 77, 0.3f, 0.6f, 0.0f),
            to_u8(clamp_unit(x + (2.0f * 0.3f - 1.0f) * 0.6f) * 255.0f));
  EXPECT_EQ(plasma_value(PlasmaKind::kContrast, 77, 0.3f, 0.0f, 0.0f),
            to_u8(clamp_unit((x - 0.5f) * (4.0f * 0.3f) + 0.5f) * 255.0f));
  EXPECT_EQ(plasma_value(PlasmaKind::kShadow, 77, 0.3f, -0.2f, 0.4f), to_u8(clamp_unit(x - 0.2f) * 255.0f));
  EXPECT_EQ(plasma_value(PlasmaKind::kShadow, 77, 0.5f, -0.2f, 0.4f), 77);
  EXPECT_EQ(plasma_value(PlasmaKind::kContrast, 250, 1.0f, 0.0f, 0.0f), 255);
}

TEST(Plasma, RefusesBadInput) {
  TestImage src(Layout::kPlanar, 2, 3, 4, 5), dst(Layout::kPlanar, 2, 3, 4, 5);
  std::vector<float> values(2 * 3 * 4 * 5);
  const float one[] = {0.5f};
  const auto map = nchw<const float>(values.data(), 2, 3, 4, 5);
  expect_invalid([&] { cpu::plasma(src.view, nchw<const float>(values.data(), 2, 2, 4, 5), {}, dst.view); },
                 "plasma must have img's (B, C, H, W) shape");
  expect_invalid(
      [&] {
        cpu::plasma(src.view, map, {PlasmaKind::kBrightness, {}, {}}, dst.view);
      },
      "intensity must hold 1 or B = 2 values, got 0");
  expect_invalid(
      [&] {
        cpu::plasma(src.view, map, {PlasmaKind::kShadow, Samples{one, 1}, {}}, dst.view);
      },
      "shade_quantity must hold 1 or B = 2 values");
  expect_invalid(
      [&] {
        cpu::plasma(src.view, map, {static_cast<PlasmaKind>(7), {}, {}}, dst.view);
      },
      "unknown plasma kind 7");
}

TEST(Erase, MatchesScalarReference) {
  // boxes inside, fractional, past the edges, empty (x_min > x_max) and one for the batch
  const float boxes[] = {1.0f, 0.5f, 3.0f, 2.2f, -5.0f, 2.0f, 99.0f, 2.0f, 4.0f, 1.0f, 2.0f, 3.0f};
  const float values[] = {0.0f, 0.5f, 1.0f};
  for (const Shape s : {Shape{1, 1}, Shape{4, 5}, Shape{6, 70}})
    for (int64_t c : {1, 3})
      for (Layout in : kLayouts)
        for (int64_t count : {1, 3}) {
          SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                       layout_name(in) + " boxes " + std::to_string(count));
          TestImage src(in, 3, c, s.h, s.w), out(in, 3, c, s.h, s.w), expected(Layout::kPlanar, 3, c, s.h, s.w);
          src.fill_random(static_cast<uint32_t>(s.h * 2 + s.w + c));
          const std::vector<uint8_t> before = src.buffer;
          const Boxes b{boxes, count};
          cpu::erase_boxes(src.view, out.view, b, Samples{values, 3}, serial_for());
          const EraseBody body{src.view, expected.view, b, Samples{values, 3}};
          for (int64_t i = 0; i < body.count(); ++i) body(i);
          ASSERT_EQ(count_differences(out.view, expected.view), 0);
          ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
          ASSERT_EQ(src.buffer, before) << "modified its input";
        }
}

TEST(Erase, RefusesBadInput) {
  TestImage src(Layout::kPlanar, 2, 3, 4, 5), dst(Layout::kPlanar, 2, 3, 4, 5);
  const float box[] = {0.0f, 0.0f, 1.0f, NAN}, good[] = {0.0f, 0.0f, 1.0f, 1.0f}, value = 0.5f;
  expect_invalid([&] { cpu::erase_boxes(src.view, dst.view, Boxes{box, 1}, Samples{&value, 1}); }, "NaN");
  expect_invalid([&] { cpu::erase_boxes(src.view, dst.view, Boxes{good, 3}, Samples{&value, 1}); }, "1 or B = 2 boxes");
  expect_invalid([&] { cpu::erase_boxes(src.view, src.view, Boxes{good, 1}, Samples{&value, 1}); }, "overlaps");
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(OffsetOnEveryTarget);

}  // namespace
}  // namespace test
}  // namespace u8aug
