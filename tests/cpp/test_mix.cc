// The batch mixes: mix_up on every compiled Highway target the CPU supports and paste_boxes (plain
// C++), against pixel/mix.h's bodies run over every index (the CUDA kernels'), byte for byte, every
// layout; lambda 0 and a sample's own index leave its bytes; and their checks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/mix.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

class MixOnEveryTarget : public OnEveryTarget {};

TEST_P(MixOnEveryTarget, MixUpMatchesTheBody) {
  const Shape shapes[] = {{1, 1}, {3, 5}, {4, 70}};
  const int64_t pairs[3] = {2, 0, 1};
  const float lambdas[3] = {0.3f, 0.0f, 0.77f};
  for (const Shape s : shapes)
    for (int64_t c : {1, 3})
      for (Layout layout : kLayouts) {
        SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                     layout_name(layout));
        TestImage src(layout, 3, c, s.h, s.w), out(layout, 3, c, s.h, s.w), expected(layout, 3, c, s.h, s.w);
        src.fill_random(static_cast<uint32_t>(s.h * 3 + s.w + c));
        const std::vector<uint8_t> before = src.buffer;
        const MixUpParams p{pairs, Samples{lambdas, 3}};
        cpu::mix_up(src.view, out.view, p, serial_for());
        run_every_index(MixUpBody{src.view, expected.view, p});
        EXPECT_EQ(count_differences(out.view, expected.view), 0);
        EXPECT_EQ(out.clobbered_padding(), 0);
        EXPECT_EQ(src.buffer, before);
        for (int64_t ch = 0; ch < c; ++ch)  // sample 1: lambda 0, its own bytes
          for (int64_t y = 0; y < s.h; ++y)
            for (int64_t x = 0; x < s.w; ++x) ASSERT_EQ(out.view.at(1, ch, y, x), src.view.at(1, ch, y, x));
      }
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(MixOnEveryTarget);

TEST(Mix, PasteBoxesMatchesTheBody) {
  const int64_t sources[6] = {1, 2, 0, 2, 2, 1};  // round 1 of sample 1 pastes from itself
  const float boxes[24] = {0.0f, 0.0f, 2.0f,  1.0f, 1.5f, -3.0f, 40.0f, 2.0f, 3.0f, 3.0f, 2.0f, 9.0f,
                           2.0f, 1.0f, 60.0f, 3.5f, 0.0f, 0.0f,  0.0f,  0.0f, 1.0f, 0.0f, 5.0f, 0.0f};
  for (const Shape s : {Shape{1, 1}, Shape{3, 5}, Shape{4, 70}})
    for (int64_t c : {1, 3})
      for (Layout layout : kLayouts)
        for (int64_t mixes : {0, 1, 2}) {
          SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                       layout_name(layout) + " rounds " + std::to_string(mixes));
          TestImage src(layout, 3, c, s.h, s.w), out(layout, 3, c, s.h, s.w), expected(layout, 3, c, s.h, s.w);
          src.fill_random(static_cast<uint32_t>(s.h + s.w * 5 + c));
          const std::vector<uint8_t> before = src.buffer;
          const PasteParams p{sources, boxes, mixes};
          cpu::paste_boxes(src.view, out.view, p, serial_for());
          run_every_index(PasteBody{src.view, expected.view, p});
          EXPECT_EQ(count_differences(out.view, expected.view), 0);
          EXPECT_EQ(out.clobbered_padding(), 0);
          EXPECT_EQ(src.buffer, before);
        }
}

TEST(Mix, BadArgumentsThrow) {
  TestImage src(Layout::kPlanar, 2, 3, 4, 5), out(Layout::kPlanar, 2, 3, 4, 5);
  const int64_t outside[2] = {0, 2}, negative[2] = {-1, 0};
  const float lam[2] = {0.5f, 0.5f}, boxes[8] = {0, 0, 1, 1, 0, 0, 1, 1};
  expect_invalid([&] { cpu::mix_up(src.view, out.view, MixUpParams{outside, Samples{lam, 2}}); }, "pairs must lie in");
  expect_invalid([&] { cpu::mix_up(src.view, out.view, MixUpParams{nullptr, Samples{lam, 2}}); }, "null pointer");
  expect_invalid([&] { cpu::mix_up(src.view, out.view, MixUpParams{outside, Samples{lam, 3}}); }, "lambdas must hold");
  expect_invalid([&] { cpu::paste_boxes(src.view, out.view, PasteParams{negative, boxes, 1}); }, "sources must lie");
  expect_invalid([&] { cpu::paste_boxes(src.view, out.view, PasteParams{negative, nullptr, 1}); }, "must not be null");
  expect_invalid([&] { cpu::paste_boxes(src.view, src.view, PasteParams{negative, boxes, 0}); }, "overlap");
}

}  // namespace
}  // namespace test
}  // namespace u8aug
