// The CPU flips on every compiled Highway target the CPU supports, against the scalar reference
// (pixel/flip.h run over every index, as the CUDA kernel runs it), byte for byte.
#include <gtest/gtest.h>
#include <hwy/highway.h>
#include <hwy/targets.h>

#include <cctype>
#include <stdexcept>
#include <string>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/flip.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

using CpuFlip = void (*)(const ConstImage&, const Image&, const ParallelFor&);

void reference_flip(const ConstImage& src, const Image& dst, FlipAxes axes) {
  for (int64_t b = 0; b < dst.batch; ++b)
    for (int64_t y = 0; y < dst.height; ++y)
      for (int64_t x = 0; x < dst.width; ++x) flip_pixel(src, dst, axes, b, y, x);
}

// Runs the chunks in reverse order with grain 1, to catch any dependence on row order.
ParallelFor reversed_chunks() {
  return [](int64_t n, int64_t, const RangeBody& body) {
    for (int64_t i = n; i > 0; i -= 3) body(std::max<int64_t>(0, i - 3), i);
  };
}

void check_against_reference(CpuFlip kernel, FlipAxes axes, const ParallelFor& parallel, const std::string& where) {
  for (const Shape s : kShapes)
    for (int64_t c : {1, 2, 3, 4, 5})
      for (int64_t b : {1, 3})
        for (Layout in_layout : kLayouts)
          for (Layout out_layout : {in_layout, Layout::kPlanar}) {
            SCOPED_TRACE(where + " " + std::to_string(b) + "x" + std::to_string(c) + "x" + std::to_string(s.h) + "x" +
                         std::to_string(s.w) + " " + layout_name(in_layout) + " -> " + layout_name(out_layout));
            TestImage src(in_layout, b, c, s.h, s.w);
            src.fill_random(static_cast<uint32_t>(s.h * 131 + s.w * 7 + c));
            const std::vector<uint8_t> src_before = src.buffer;
            TestImage out(out_layout, b, c, s.h, s.w);
            TestImage expected(Layout::kPlanar, b, c, s.h, s.w);

            kernel(src.view, out.view, parallel);
            reference_flip(src.view, expected.view, axes);

            ASSERT_EQ(count_differences(out.view, expected.view), 0);
            ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
            ASSERT_EQ(src.buffer, src_before) << "modified its input";
          }
}

class FlipOnEveryTarget : public OnEveryTarget {};

TEST_P(FlipOnEveryTarget, DispatchPicksTheTargetUnderTest) {
  EXPECT_EQ(build_info().cpu_target_chosen, std::string(hwy::TargetName(GetParam())));
}

TEST_P(FlipOnEveryTarget, HflipMatchesScalarReference) {
  check_against_reference(&cpu::hflip, FlipAxes{true, false}, serial_for(), "serial");
  check_against_reference(&cpu::hflip, FlipAxes{true, false}, reversed_chunks(), "reversed");
}

TEST_P(FlipOnEveryTarget, VflipMatchesScalarReference) {
  check_against_reference(&cpu::vflip, FlipAxes{false, true}, serial_for(), "serial");
  check_against_reference(&cpu::vflip, FlipAxes{false, true}, reversed_chunks(), "reversed");
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(FlipOnEveryTarget);

TEST(Flip, ReferenceIsAMirror) {
  // The reference itself, checked by hand on a 2x3 single-channel image.
  uint8_t in[6] = {1, 2, 3, 4, 5, 6}, out[6] = {};
  const auto src = nchw<const uint8_t>(in, 1, 1, 2, 3);
  const auto dst = nchw<uint8_t>(out, 1, 1, 2, 3);
  reference_flip(src, dst, FlipAxes{true, false});
  EXPECT_EQ(std::vector<uint8_t>(out, out + 6), (std::vector<uint8_t>{3, 2, 1, 6, 5, 4}));
  reference_flip(src, dst, FlipAxes{false, true});
  EXPECT_EQ(std::vector<uint8_t>(out, out + 6), (std::vector<uint8_t>{4, 5, 6, 1, 2, 3}));
}

TEST(Flip, DefaultParallelForMatchesSerial) {
  TestImage src(Layout::kInterleaved, 8, 3, 300, 301), a(Layout::kInterleaved, 8, 3, 300, 301),
      b(Layout::kInterleaved, 8, 3, 300, 301);
  src.fill_random(7);
  cpu::hflip(src.view, a.view);  // empty ParallelFor: the default thread split
  cpu::hflip(src.view, b.view, serial_for());
  EXPECT_EQ(a.buffer, b.buffer);
}

TEST(Flip, BadArgumentsThrowAndWriteNothing) {
  TestImage src(Layout::kPlanar, 1, 3, 4, 5), dst(Layout::kPlanar, 1, 3, 4, 5);
  const std::vector<uint8_t> before = dst.buffer;
  auto expect_invalid = [&](const ConstImage& s, const Image& d, const char* needle) {
    for (CpuFlip k : {&cpu::hflip, &cpu::vflip}) {
      try {
        k(s, d, {});
        ADD_FAILURE() << "no exception, expected one mentioning '" << needle << "'";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("u8aug."), std::string::npos) << e.what();
      }
    }
    EXPECT_EQ(dst.buffer, before);
  };
  Image null_dst = dst.view;
  null_dst.data = nullptr;
  expect_invalid(src.view, null_dst, "null");
  Image zero_w = dst.view;
  zero_w.width = 0;
  expect_invalid(src.view, zero_w, ">= 1");
  Image other_shape = dst.view;
  other_shape.height = 3;
  expect_invalid(src.view, other_shape, "same");
  expect_invalid(src.view, src.view, "overlaps");
  Image negative = dst.view;
  negative.stride_h = -5;
  expect_invalid(src.view, negative, "negative");
  Image broadcast = dst.view;  // every channel the same bytes
  broadcast.stride_c = 0;
  expect_invalid(src.view, broadcast, "overlapping elements");
  Image aliased = dst.view;  // rows that run into the next plane (found by fuzz/fuzz_ops.cc)
  aliased.stride_c = 4 * 5 - 1;
  expect_invalid(src.view, aliased, "overlapping elements");
  Image padded = dst.view;  // gaps are fine
  padded.stride_h = 6;
  padded.stride_c = 25;
  TestImage roomy(Layout::kPlanar, 1, 3, 5, 6);
  padded.data = roomy.view.data;
  cpu::hflip(src.view, padded, {});
}

TEST(CpuTarget, SwitchesAmongSupportedTargetsAndBack) {
  const BuildInfo best = build_info();
  for (const std::string& name : best.cpu_targets_supported) {
    EXPECT_EQ(set_cpu_target(name), name);
    const BuildInfo now = build_info();
    EXPECT_EQ(now.cpu_target_chosen, name);
    EXPECT_EQ(now.cpu_target_requested, name);
    EXPECT_EQ(now.cpu_targets_supported, best.cpu_targets_supported);  // the CPU's, not the switch's
  }
  std::string lower = best.cpu_targets_supported.back();  // any case
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  EXPECT_EQ(set_cpu_target(lower), best.cpu_targets_supported.back());
  EXPECT_EQ(set_cpu_target("auto"), best.cpu_target_chosen);
  EXPECT_EQ(build_info().cpu_target_requested, "auto");
  try {
    set_cpu_target("NEON_OR_NOTHING");
    ADD_FAILURE() << "an unknown target was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("NEON_OR_NOTHING"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find(best.cpu_targets_supported.front()), std::string::npos);
  }
  EXPECT_EQ(build_info().cpu_target_chosen, best.cpu_target_chosen);
}

TEST(BuildInfo, ListsTargets) {
  const BuildInfo info = build_info();
  EXPECT_FALSE(info.version.empty());
  EXPECT_FALSE(info.cpu_targets_compiled.empty());
  EXPECT_FALSE(info.cpu_targets_supported.empty());
  EXPECT_FALSE(info.cpu_target_chosen.empty());
}

}  // namespace
}  // namespace test
}  // namespace u8aug
