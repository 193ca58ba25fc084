// The CPU separable filter on every compiled Highway target the CPU supports, against the
// scalar reference (pixel/filter.h's bodies run over every index, as the CUDA kernels run them),
// byte for byte: every layout, border, kernel size and per-sample kernels; and its checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/filter.h"
#include "u8aug/pixel/resize.h"
#include "u8aug/pixel/sharpness.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

// Normalised Gaussian taps, a different sigma for each of `count` kernels.
std::vector<float> gaussian_taps(int64_t taps, int64_t count) {
  std::vector<float> w;
  for (int64_t k = 0; k < count; ++k) {
    const float sigma = 0.6f + 0.45f * static_cast<float>(k);
    float sum = 0.0f;
    std::vector<float> one;
    for (int64_t t = 0; t < taps; ++t) {
      const float d = static_cast<float>(t - taps / 2);
      one.push_back(std::exp(-d * d / (2 * sigma * sigma)));
      sum += one.back();
    }
    for (float v : one) w.push_back(v / sum);
  }
  return w;
}

void reference_filter(const ConstImage& src, const Image& dst, FilterKernel kx, FilterKernel ky, Border border) {
  std::vector<float> rows(static_cast<size_t>(src.numel()));
  const FloatImage r = nchw(rows.data(), src.batch, src.channels, src.height, src.width);
  const FilterRowsBody first{src, r, kx, ky, border};
  for (int64_t i = 0; i < first.count(); ++i) first(i);
  const FilterColumnsBody second{r, dst, kx, ky, border};
  for (int64_t i = 0; i < second.count(); ++i) second(i);
}

class FilterOnEveryTarget : public OnEveryTarget {};

TEST_P(FilterOnEveryTarget, MatchesScalarReference) {
  // sizes around the vector widths (64 lanes of floats: 16) and the kernel's radius; kept small, as
  // the Arm run is under qemu
  const Shape shapes[] = {{1, 1}, {3, 5}, {2, 63}, {13, 40}, {4, 129}};
  for (const Shape s : shapes)
    for (int64_t c : {1, 3})
      for (Layout in : kLayouts)
        for (Border border : {Border::kConstant, Border::kReflect, Border::kReplicate, Border::kCircular})
          for (int64_t taps : {1, 3, 4, 23})
            for (Fidelity fidelity : {Fidelity::kExact, Fidelity::kFast}) {
              const int64_t r = taps / 2;
              const int64_t tx =
                  (border == Border::kReflect && r >= s.w) || (border == Border::kCircular && r > s.w) ? 1 : taps;
              const int64_t ty =
                  (border == Border::kReflect && r >= s.h) || (border == Border::kCircular && r > s.h) ? 1 : taps;
              const int64_t b = 2;
              SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                           layout_name(in) + " border " + std::to_string(static_cast<int>(border)) + " taps " +
                           std::to_string(taps) + (fidelity == Fidelity::kFast ? " fast" : " exact"));
              std::vector<float> wx = gaussian_taps(tx, b), wy = gaussian_taps(ty, 1);
              // in the fast tier, sample 1's kernel has a negative tap: the fixed point for sample 0 only
              if (fidelity == Fidelity::kFast && tx > 1) wx[static_cast<size_t>(tx)] = -0.25f;
              FilterKernel kx{wx.data(), b, tx}, ky{wy.data(), 1, ty};
              kx.fidelity = ky.fidelity = fidelity;
              ASSERT_EQ(fixed_point_filter(kx, ky, 0), fidelity == Fidelity::kFast);
              ASSERT_EQ(fixed_point_filter(kx, ky, 1), fidelity == Fidelity::kFast && tx == 1);
              TestImage src(in, b, c, s.h, s.w), out(in, b, c, s.h, s.w), expected(Layout::kPlanar, b, c, s.h, s.w);
              src.fill_random(static_cast<uint32_t>(s.h * 31 + s.w + c + taps));
              const std::vector<uint8_t> before = src.buffer;
              cpu::filter2d_separable(src.view, out.view, kx, ky, border, serial_for());
              reference_filter(src.view, expected.view, kx, ky, border);
              ASSERT_EQ(count_differences(out.view, expected.view), 0);
              ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
              ASSERT_EQ(src.buffer, before) << "modified its input";
            }
}

TEST_P(FilterOnEveryTarget, Filter2dMatchesScalarReference) {
  const Shape shapes[] = {{1, 1}, {3, 5}, {2, 63}, {9, 40}};
  for (const Shape s : shapes)
    for (int64_t c : {1, 3})
      for (Layout in : kLayouts)
        for (Border border : {Border::kConstant, Border::kReflect, Border::kReplicate, Border::kCircular})
          for (int64_t kh : {1, 2, 3, 5}) {
            const int64_t kw = kh == 1 ? 3 : kh == 2 ? 4 : kh;
            const bool fits = !((border == Border::kReflect && (kh / 2 >= s.h || kw / 2 >= s.w)) ||
                                (border == Border::kCircular && (kh / 2 > s.h || kw / 2 > s.w)));
            if (!fits) continue;
            const int64_t b = 2;
            SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                         layout_name(in) + " border " + std::to_string(static_cast<int>(border)) + " " +
                         std::to_string(kh) + "x" + std::to_string(kw));
            const std::vector<float> w = gaussian_taps(kh * kw, b);
            const FilterKernel2d k{w.data(), b, kh, kw};
            TestImage src(in, b, c, s.h, s.w), out(in, b, c, s.h, s.w), expected(Layout::kPlanar, b, c, s.h, s.w);
            src.fill_random(static_cast<uint32_t>(s.h * 17 + s.w + c + kh));
            const std::vector<uint8_t> before = src.buffer;
            cpu::filter2d(src.view, out.view, k, border, serial_for());
            const Filter2dBody body{src.view, expected.view, k, border};
            for (int64_t i = 0; i < body.count(); ++i) body(i);
            ASSERT_EQ(count_differences(out.view, expected.view), 0);
            ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
            ASSERT_EQ(src.buffer, before) << "modified its input";
          }
}

// Boxes (avg_pool2d's order): the separable form is the two passes' bodies with unit taps, the 2-D
// form Filter2dBody's; odd and even windows. Odd windows of 3 to 81 run in integers (pixel/filter.h:
// integer_box), so this also checks that their bytes are the float bodies' (9x9: the largest).
TEST_P(FilterOnEveryTarget, BoxMatchesScalarReference) {
  const Shape shapes[] = {{1, 1}, {3, 5}, {9, 40}, {4, 129}};
  for (const Shape s : shapes)
    for (int64_t c : {1, 3})
      for (Layout in : kLayouts)
        for (Border border : {Border::kConstant, Border::kReflect, Border::kReplicate, Border::kCircular})
          for (const Shape k : {Shape{1, 1}, Shape{3, 3}, Shape{2, 4}, Shape{5, 1}, Shape{3, 7}, Shape{9, 9}})
            for (bool separable : {true, false}) {
              if ((border == Border::kReflect && (k.h / 2 >= s.h || k.w / 2 >= s.w)) ||
                  (border == Border::kCircular && (k.h / 2 > s.h || k.w / 2 > s.w)))
                continue;
              SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                           layout_name(in) + " border " + std::to_string(static_cast<int>(border)) + " " +
                           std::to_string(k.h) + "x" + std::to_string(k.w) + (separable ? " separable" : " 2-D"));
              TestImage src(in, 2, c, s.h, s.w), out(in, 2, c, s.h, s.w), expected(Layout::kPlanar, 2, c, s.h, s.w);
              src.fill_random(static_cast<uint32_t>(s.h * 5 + s.w + c + k.h));
              const std::vector<uint8_t> before = src.buffer;
              cpu::box_blur_pooled(src.view, out.view, k.h, k.w, border, separable, serial_for());
              if (separable) {
                reference_filter(src.view, expected.view, box_kernel(k.w), box_kernel(k.h), border);
              } else {
                const Filter2dBody body{src.view, expected.view, box_kernel2d(k.h, k.w), border};
                for (int64_t i = 0; i < body.count(); ++i) body(i);
              }
              ASSERT_EQ(count_differences(out.view, expected.view), 0);
              ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
              ASSERT_EQ(src.buffer, before) << "modified its input";
            }
}

// resize_antialias: the CPU loop against the CUDA kernels' three bodies run over every index (the
// two passes into float images, then ResizeFloatBody): every mode, both layouts, per-sample kernels,
// shrinking and enlarging axes, a one-pixel output.
TEST_P(FilterOnEveryTarget, ResizeAntialiasMatchesScalarReference) {
  struct Case {
    Shape in, out;
  };
  const Case cases[] = {{{9, 40}, {4, 13}}, {{13, 70}, {13, 21}}, {{5, 7}, {1, 1}}, {{20, 33}, {7, 50}}};
  for (const Case& k : cases)
    for (int64_t c : {1, 3})
      for (Layout in : kLayouts)
        for (Interp mode : {Interp::kBilinear, Interp::kBicubic, Interp::kNearest, Interp::kNearestExact})
          for (BlendOrder order : {BlendOrder::kSeparable, BlendOrder::kCorners, BlendOrder::kSeparableUnfusedIndex})
            for (bool align : {false, true}) {
              const bool nearest = mode == Interp::kNearest || mode == Interp::kNearestExact;
              if (nearest && align) continue;
              const int64_t b = 2, tx = k.in.w > 4 ? 5 : 3, ty = 3;
              SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(k.in.h) + "x" + std::to_string(k.in.w) + " -> " +
                           std::to_string(k.out.h) + "x" + std::to_string(k.out.w) + " " + layout_name(in) + " mode " +
                           std::to_string(static_cast<int>(mode)) + " order " +
                           std::to_string(static_cast<int>(order)) + (align ? " align" : ""));
              const std::vector<float> wx = gaussian_taps(tx, b), wy = gaussian_taps(ty, 1);
              const FilterKernel kx{wx.data(), b, tx}, ky{wy.data(), 1, ty};
              TestImage src(in, b, c, k.in.h, k.in.w), out(in, b, c, k.out.h, k.out.w),
                  expected(Layout::kPlanar, b, c, k.out.h, k.out.w);
              src.fill_random(static_cast<uint32_t>(k.in.h * 7 + k.in.w + c));
              const std::vector<uint8_t> before = src.buffer;
              cpu::resize_antialias(src.view, out.view, kx, ky, mode, align, order, serial_for());
              std::vector<float> rows(static_cast<size_t>(src.view.numel())), blurred(rows.size());
              const FloatImage r = nchw(rows.data(), b, c, k.in.h, k.in.w);
              const FloatImage f = nchw(blurred.data(), b, c, k.in.h, k.in.w);
              const FilterRowsBody first{src.view, r, kx, ky, Border::kReflect};
              for (int64_t i = 0; i < first.count(); ++i) first(i);
              const FilterColumnsFloatBody second{r, f, ky, Border::kReflect};
              for (int64_t i = 0; i < second.count(); ++i) second(i);
              const ResizeFloatBody third{f, expected.view, mode, align, order};
              for (int64_t i = 0; i < third.count(); ++i) third(i);
              ASSERT_EQ(count_differences(out.view, expected.view), 0);
              ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
              ASSERT_EQ(src.buffer, before) << "modified its input";
            }
}

TEST(Filter, ResizeAntialiasRejectsBadArguments) {
  TestImage src(Layout::kPlanar, 1, 3, 6, 6), out(Layout::kPlanar, 1, 3, 3, 3), wrong(Layout::kPlanar, 1, 2, 3, 3);
  const std::vector<float> w3 = gaussian_taps(3, 1), w13 = gaussian_taps(13, 1);
  const FilterKernel k3{w3.data(), 1, 3}, k13{w13.data(), 1, 13}, two{w3.data(), 2, 3};
  const auto run = [&](const Image& dst, FilterKernel kx, FilterKernel ky, Interp mode, bool align) {
    cpu::resize_antialias(src.view, dst, kx, ky, mode, align, BlendOrder::kSeparable, serial_for());
  };
  EXPECT_THROW(run(out.view, k13, k3, Interp::kBilinear, false), std::invalid_argument);   // reflect: radius < width
  EXPECT_THROW(run(out.view, k3, two, Interp::kBilinear, false), std::invalid_argument);   // 2 kernels, batch 1
  EXPECT_THROW(run(wrong.view, k3, k3, Interp::kBilinear, false), std::invalid_argument);  // channels differ
  EXPECT_THROW(run(out.view, k3, k3, Interp::kNearest, true), std::invalid_argument);
  const std::vector<float> nan = {0.5f, std::nanf(""), 0.5f};
  EXPECT_THROW(run(out.view, FilterKernel{nan.data(), 1, 3}, k3, Interp::kBilinear, false), std::invalid_argument);
  // the fast tier's BlendOrder is resize's, not this op's
  EXPECT_THROW(cpu::resize_antialias(src.view, out.view, k3, k3, Interp::kBilinear, false, BlendOrder::kFast),
               std::invalid_argument);
}

// The integer boxes' division: every odd count up to kMaxIntegerBox has a multiplier and shift
// (box_division checks each sum of `count` bytes against box_mean), and box_mean rounds to nearest.
TEST(Filter, IntegerBoxDivisionCoversEveryCount) {
  for (uint32_t count = 3; count <= kMaxIntegerBox; count += 2) {
    const BoxDivision division = box_division(count);
    EXPECT_TRUE(division.valid) << count;
    EXPECT_LE(division.multiplier, 65535u) << count;
  }
  EXPECT_EQ(box_mean(12, 25), 0);  // 0.48
  EXPECT_EQ(box_mean(13, 25), 1);  // 0.52
  EXPECT_EQ(box_mean(255 * 81, 81), 255);
  EXPECT_FALSE(integer_box(2, 3));
  EXPECT_FALSE(integer_box(1, 1));
  EXPECT_FALSE(integer_box(9, 11));
  EXPECT_TRUE(integer_box(9, 9));
}

// A box is a sum then a division: a 2-tap box of bytes 1 and 2 is (1/255 + 2/255) / 2 exactly as
// float32 computes it, and an even window reaches one further right than left (kornia's anchor).
TEST(Filter, BoxSumsThenDivides) {
  TestImage src(Layout::kPlanar, 1, 1, 1, 4), out(Layout::kPlanar, 1, 1, 1, 4);
  const uint8_t row[] = {0, 10, 21, 200};
  for (int64_t x = 0; x < 4; ++x) src.view.at(0, 0, 0, x) = row[x];
  cpu::box_blur_pooled(src.view, out.view, 1, 2, Border::kReplicate, true, serial_for());
  for (int64_t x = 0; x < 4; ++x) {
    const float sum = unit(row[x]) + unit(row[std::min<int64_t>(x + 1, 3)]);
    EXPECT_EQ(out.view.at(0, 0, 0, x), to_u8(sum / 2.0f * 255.0f)) << x;
  }
}

// Sharpness: pixel/sharpness.h's body over every index, per-sample factors (smoothing, identity,
// sharpening), images from the smallest (3 x 3) up.
TEST_P(FilterOnEveryTarget, SharpnessMatchesScalarReference) {
  const Shape shapes[] = {{3, 3}, {4, 17}, {9, 40}, {5, 131}};
  const float factors[] = {0.0f, 1.0f, 2.7f};
  for (const Shape s : shapes)
    for (int64_t c : {1, 3})
      for (Layout in : kLayouts) {
        SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " + layout_name(in));
        TestImage src(in, 3, c, s.h, s.w), out(in, 3, c, s.h, s.w), expected(Layout::kPlanar, 3, c, s.h, s.w);
        src.fill_random(static_cast<uint32_t>(s.h * 3 + s.w + c));
        const std::vector<uint8_t> before = src.buffer;
        const Samples factor{factors, 3};
        cpu::sharpness(src.view, out.view, factor, serial_for());
        const SharpnessBody body{src.view, expected.view, factor};
        for (int64_t i = 0; i < body.count(); ++i) body(i);
        ASSERT_EQ(count_differences(out.view, expected.view), 0);
        ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
        ASSERT_EQ(src.buffer, before) << "modified its input";
      }
}

TEST(Filter, SharpnessRefusesBadInput) {
  TestImage small(Layout::kPlanar, 1, 3, 2, 5), dst(Layout::kPlanar, 1, 3, 2, 5);
  const float one = 1.0f, nan = NAN;
  expect_invalid([&] { cpu::sharpness(small.view, dst.view, Samples{&one, 1}); }, "at least 3 x 3");
  TestImage src(Layout::kPlanar, 2, 3, 4, 5), out(Layout::kPlanar, 2, 3, 4, 5);
  expect_invalid([&] { cpu::sharpness(src.view, out.view, Samples{&nan, 1}); }, "factor must be finite");
  const float three[] = {1.0f, 1.0f, 1.0f};
  expect_invalid([&] { cpu::sharpness(src.view, out.view, Samples{three, 3}); }, "1 or B = 2 values");
}

TEST_P(FilterOnEveryTarget, MedianMatchesScalarReference) {
  const Shape shapes[] = {{1, 1}, {3, 5}, {2, 63}, {9, 40}, {3, 129}};
  for (const Shape s : shapes)
    for (int64_t c : {1, 3})
      for (Layout in : kLayouts)
        for (Border border : {Border::kConstant, Border::kReflect, Border::kReplicate, Border::kCircular})
          for (int64_t k : {1, 3, 5}) {
            if ((border == Border::kReflect && k / 2 >= std::min(s.h, s.w)) ||
                (border == Border::kCircular && k / 2 > std::min(s.h, s.w)))
              continue;
            SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                         layout_name(in) + " border " + std::to_string(static_cast<int>(border)) + " k " +
                         std::to_string(k));
            TestImage src(in, 2, c, s.h, s.w), out(in, 2, c, s.h, s.w), expected(Layout::kPlanar, 2, c, s.h, s.w);
            src.fill_random(static_cast<uint32_t>(s.h * 7 + s.w + c + k));
            const std::vector<uint8_t> before = src.buffer;
            cpu::median_blur(src.view, out.view, k, k, border, serial_for());
            const MedianBody body{src.view, expected.view, k, k, border};
            for (int64_t i = 0; i < body.count(); ++i) body(i);
            ASSERT_EQ(count_differences(out.view, expected.view), 0);
            ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
            ASSERT_EQ(src.buffer, before) << "modified its input";
          }
}

TEST(Filter, MedianReferenceIsTheMiddleValue) {
  uint8_t in[9] = {9, 1, 8, 2, 7, 3, 6, 4, 5}, out[9] = {};
  cpu::median_blur(nchw<const uint8_t>(in, 1, 1, 3, 3), nchw(out, 1, 1, 3, 3), 3, 3, Border::kReplicate);
  EXPECT_EQ(out[4], 5);
  expect_invalid(
      [&] { cpu::median_blur(nchw<const uint8_t>(in, 1, 1, 3, 3), nchw(out, 1, 1, 3, 3), 2, 3, Border::kReplicate); },
      "kernel_size must be odd");
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(FilterOnEveryTarget);

TEST(Filter, TheTapsAreFusedFromTheFirst) {
  // a 3-tap box on a constant row: each tap one fused multiply-add from 0, as torch's conv2d sums
  const float third = 1.0f / 3.0f, w[] = {third, third, third};
  const float x = 200.0f / 255.0f;
  const float expected = std::fma(x, third, std::fma(x, third, std::fma(x, third, 0.0f)));
  uint8_t in[5] = {200, 200, 200, 200, 200}, out[5] = {};
  const FilterKernel k{w, 1, 3};
  const float unit_tap[] = {1.0f};
  cpu::filter2d_separable(nchw<const uint8_t>(in, 1, 1, 1, 5), nchw(out, 1, 1, 1, 5), k, FilterKernel{unit_tap, 1, 1},
                          Border::kReplicate);
  EXPECT_EQ(out[2], to_u8(expected * 255.0f));
}

TEST(Filter, RefusesBadKernelsAndBorders) {
  TestImage src(Layout::kPlanar, 2, 3, 4, 5), dst(Layout::kPlanar, 2, 3, 4, 5);
  const std::vector<float> w3 = gaussian_taps(3, 1), w4 = gaussian_taps(4, 1), w9 = gaussian_taps(9, 1),
                           w3x3 = gaussian_taps(3, 3);
  const FilterKernel k3{w3.data(), 1, 3};
  auto run = [&](FilterKernel kx, FilterKernel ky, Border border) {
    return [&, kx, ky, border] { cpu::filter2d_separable(src.view, dst.view, kx, ky, border); };
  };
  expect_invalid(run(FilterKernel{w4.data(), 1, 0}, k3, Border::kReflect), "at least one tap");
  expect_invalid(run(k3, FilterKernel{w9.data(), 1, 9}, Border::kReflect), "height of more than 4 for reflect");
  expect_invalid(run(FilterKernel{w3x3.data(), 3, 3}, k3, Border::kReflect), "1 or B = 2 kernels");
  FilterKernel no_divisor = k3;
  no_divisor.divisor = 0.0f;
  expect_invalid(run(k3, no_divisor, Border::kReflect), "positive divisor");
  expect_invalid(run(k3, k3, static_cast<Border>(7)), "unknown border");
  const float nan[] = {1.0f, NAN, 0.0f};
  expect_invalid(run(k3, FilterKernel{nan, 1, 3}, Border::kReflect), "kernel_y must be finite");
  expect_invalid([&] { cpu::filter2d_separable(src.view, src.view, k3, k3, Border::kReflect); }, "overlap");
  const FilterKernel2d empty{w4.data(), 1, 0, 2}, big{w9.data(), 1, 9, 1};
  expect_invalid([&] { cpu::filter2d(src.view, dst.view, empty, Border::kReflect); }, "at least one row and column");
  expect_invalid([&] { cpu::filter2d(src.view, dst.view, big, Border::kReflect); }, "height of more than 4");
  expect_invalid([&] { cpu::box_blur_pooled(src.view, dst.view, 0, 3, Border::kReflect, true); }, "at least 1 x 1");
  expect_invalid([&] { cpu::box_blur_pooled(src.view, dst.view, 9, 3, Border::kReflect, false); },
                 "height of more than 4");
  expect_invalid([&] { cpu::box_blur_pooled(src.view, src.view, 3, 3, Border::kReflect, true); }, "overlap");
}

}  // namespace
}  // namespace test
}  // namespace u8aug
