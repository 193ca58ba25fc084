// The pointwise ops on every compiled Highway target against the scalar reference (the sample's
// table from point_value, applied with point_element over every index), byte for byte; the
// parameter checks; and the tables' defining identities.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/equalize.h"
#include "u8aug/pixel/point.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

using Run = std::function<void(const ConstImage&, const Image&, Samples, Samples, const ParallelFor&)>;

struct Case {
  const char* name;
  PointOp op;
  Run run;
  std::vector<float> first, second;  // per-sample values (cycled over the batch)
};

std::vector<Case> cases() {
  return {
      {"adjust_brightness",
       PointOp::kBrightness,
       [](auto s, auto d, Samples a, Samples, auto& p) { cpu::adjust_brightness(s, d, a, p); },
       {-0.3f, 0.0f, 0.25f},
       {}},
      {"adjust_brightness_accumulative",
       PointOp::kBrightnessMul,
       [](auto s, auto d, Samples a, Samples, auto& p) { cpu::adjust_brightness_accumulative(s, d, a, p); },
       {0.5f, 1.0f, 1.7f},
       {}},
      {"adjust_contrast",
       PointOp::kContrast,
       [](auto s, auto d, Samples a, Samples, auto& p) { cpu::adjust_contrast(s, d, a, p); },
       {0.0f, 0.8f, 1.3f},
       {}},
      {"adjust_contrast_with_mean",
       PointOp::kContrastMean,
       [](auto s, auto d, Samples a, Samples b, auto& p) { cpu::adjust_contrast_with_mean(s, d, a, b, p); },
       {0.0f, 0.8f, 1.3f},
       {0.5f, 0.1f, 0.93f}},
      {"adjust_gamma",
       PointOp::kGamma,
       [](auto s, auto d, Samples a, Samples b, auto& p) { cpu::adjust_gamma(s, d, a, b, p); },
       {0.5f, 1.0f, 2.2f},
       {1.0f, 0.7f, 1.2f}},
      {"solarize",
       PointOp::kSolarize,
       [](auto s, auto d, Samples a, Samples b, auto& p) { cpu::solarize(s, d, a, b, p); },
       {0.5f, 0.1f, 0.9f},
       {0.0f, -0.2f, 0.3f}},
      {"posterize",
       PointOp::kPosterize,
       [](auto s, auto d, Samples a, Samples, auto& p) { cpu::posterize(s, d, a, p); },
       {1.0f, 4.0f, 8.0f},
       {}},
      {"invert", PointOp::kInvert, [](auto s, auto d, Samples, Samples, auto& p) { cpu::invert(s, d, p); }, {}, {}},
  };
}

std::vector<float> per_sample(const std::vector<float>& values, int64_t batch) {
  std::vector<float> out;
  for (int64_t b = 0; b < batch; ++b) out.push_back(values[b % values.size()]);
  return out;
}

void reference(const Case& k, const ConstImage& src, const Image& dst, Samples a, Samples b) {
  for (int64_t i = 0; i < dst.batch; ++i) {
    uint8_t table[256];
    for (int v = 0; v < 256; ++v) table[v] = point_value(k.op, point_params(a, b, i), v);
    for (int64_t c = 0; c < dst.channels; ++c)
      for (int64_t y = 0; y < dst.height; ++y)
        for (int64_t x = 0; x < dst.width; ++x) point_element(src, dst, table, i, c, y, x);
  }
}

class PointOnEveryTarget : public OnEveryTarget {};

TEST_P(PointOnEveryTarget, MatchesScalarReference) {
  for (const Case& k : cases())
    for (const Shape s : kShapes)
      for (int64_t c : {1, 3, 4})
        for (int64_t batch : {1, 3})
          for (bool one_value : {true, false})
            for (Layout layout : kLayouts) {
              SCOPED_TRACE(std::string(k.name) + " " + std::to_string(batch) + "x" + std::to_string(c) + "x" +
                           std::to_string(s.h) + "x" + std::to_string(s.w) + " " + layout_name(layout) +
                           (one_value ? " one value" : " per sample"));
              const int64_t n = one_value ? 1 : batch;
              const std::vector<float> a = k.first.empty() ? std::vector<float>{} : per_sample(k.first, batch);
              const std::vector<float> b = k.second.empty() ? std::vector<float>{} : per_sample(k.second, batch);
              const Samples sa{a.empty() ? nullptr : a.data(), a.empty() ? 0 : n};
              const Samples sb{b.empty() ? nullptr : b.data(), b.empty() ? 0 : n};
              TestImage src(layout, batch, c, s.h, s.w);
              src.fill_random(static_cast<uint32_t>(s.h * 31 + s.w + c));
              const std::vector<uint8_t> src_before = src.buffer;
              TestImage out(layout, batch, c, s.h, s.w), expected(Layout::kPlanar, batch, c, s.h, s.w);
              k.run(src.view, out.view, sa, sb, serial_for());
              reference(k, src.view, expected.view, sa, sb);
              ASSERT_EQ(count_differences(out.view, expected.view), 0);
              ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
              ASSERT_EQ(src.buffer, src_before) << "modified its input";
            }
}

TEST_P(PointOnEveryTarget, EqualizeMatchesScalarReference) {
  for (const Shape s : kShapes)
    for (int64_t c : {1, 3, 4})
      for (Layout layout : kLayouts)
        for (int levels : {1, 4, 256}) {  // 1 level: kornia's step == 0 branch
          SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                       layout_name(layout) + " levels " + std::to_string(levels));
          TestImage src(layout, 2, c, s.h, s.w);
          src.fill_random(static_cast<uint32_t>(s.h + 5 * s.w + c));
          for (auto& v : src.buffer) v = static_cast<uint8_t>((v % levels) * (256 / levels));
          const std::vector<uint8_t> before = src.buffer;
          TestImage out(layout, 2, c, s.h, s.w), expected(Layout::kPlanar, 2, c, s.h, s.w);
          cpu::equalize(src.view, out.view, serial_for());
          for (int64_t b = 0; b < 2; ++b)
            for (int64_t k = 0; k < c; ++k) {
              uint32_t counts[256] = {};
              for (int64_t y = 0; y < s.h; ++y)
                for (int64_t x = 0; x < s.w; ++x) ++counts[equalize_index(src.view.at(b, k, y, x))];
              uint8_t table[256];
              equalize_table(counts, table);
              for (int64_t y = 0; y < s.h; ++y)
                for (int64_t x = 0; x < s.w; ++x) point_element(src.view, expected.view, table, b, k, y, x);
            }
          ASSERT_EQ(count_differences(out.view, expected.view), 0);
          ASSERT_EQ(out.clobbered_padding(), 0);
          ASSERT_EQ(src.buffer, before);
        }
}

// The affine ops map most tables by a float multiply-add, solarize by a saturating add and an
// invert (cpu/table_form.h), each kept only where it gives all 256 entries: many parameters from
// kornia's ranges and beyond, rows shorter than, equal to and longer than one 32-byte step, so both
// the cheap forms and the lookup they fall back to are checked against the reference.
// auto_contrast: each plane's table from its extreme bytes (AutoContrastTablesBody: the CUDA path, from
// byte counts), constant planes included.
TEST_P(PointOnEveryTarget, AutoContrastMatchesScalarReference) {
  for (const Shape s : kShapes)
    for (int64_t c : {1, 3})
      for (Layout layout : kLayouts)
        for (int levels : {1, 7, 256}) {
          SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                       layout_name(layout) + " levels " + std::to_string(levels));
          TestImage src(layout, 2, c, s.h, s.w), out(layout, 2, c, s.h, s.w), expected(Layout::kPlanar, 2, c, s.h, s.w);
          src.fill_random(static_cast<uint32_t>(s.h + 3 * s.w + c));
          for (auto& v : src.buffer) v = static_cast<uint8_t>(40 + v % levels / 2);
          const std::vector<uint8_t> before = src.buffer;
          cpu::auto_contrast(src.view, out.view, serial_for());
          std::vector<uint32_t> counts(static_cast<size_t>(2 * c * 256));
          for (int64_t b = 0; b < 2; ++b)
            for (int64_t k = 0; k < c; ++k)
              for (int64_t y = 0; y < s.h; ++y)
                for (int64_t x = 0; x < s.w; ++x)
                  ++counts[static_cast<size_t>((b * c + k) * 256 + src.view.at(b, k, y, x))];
          std::vector<uint8_t> tables(counts.size());
          const AutoContrastTablesBody build{counts.data(), tables.data(), 2 * c};
          for (int64_t p = 0; p < build.count(); ++p) build(p);
          const PlaneTablesBody map{src.view, expected.view, tables.data()};
          for (int64_t i = 0; i < map.count(); ++i) map(i);
          ASSERT_EQ(count_differences(out.view, expected.view), 0);
          ASSERT_EQ(out.clobbered_padding(), 0);
          ASSERT_EQ(src.buffer, before);
        }
}

TEST_P(PointOnEveryTarget, CheapTableFormsMatchForManyParameters) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> factor(0.0f, 3.0f), offset(-1.0f, 1.0f);
  std::vector<float> a, b;
  for (int i = 0; i < 96; ++i) {
    // every third a dyadic factor or an offset of half a level, where x * a + c meets a rounding
    // tie that kornia's chain breaks either way and the multiply-add must be refused
    const bool tie = i % 3 == 0;
    a.push_back(i < 4 ? std::vector<float>{0.0f, 1.0f, 1e-7f, 250.0f}[i]
                : tie ? static_cast<float>(i) / 32.0f
                      : factor(rng));
    b.push_back(tie ? static_cast<float>(i - 48) / 510.0f : offset(rng));
  }
  for (const Case& k : cases()) {
    if (k.op != PointOp::kBrightness && k.op != PointOp::kBrightnessMul && k.op != PointOp::kContrast &&
        k.op != PointOp::kContrastMean && k.op != PointOp::kSolarize) {
      continue;
    }
    for (int64_t w : {31, 32, 33, 100}) {
      for (Layout layout : {Layout::kPlanar, Layout::kInterleaved}) {
        SCOPED_TRACE(std::string(k.name) + " width " + std::to_string(w) + " " + layout_name(layout));
        const int64_t batch = static_cast<int64_t>(a.size());
        std::vector<float> first = a, second = b;
        if (k.op == PointOp::kBrightness) first = b;
        if (k.op == PointOp::kSolarize) {  // thresholds in [0, 1.1], additions in [-0.5, 0.5]
          for (float& t : first) t = t / 3.0f * 1.1f;
          for (float& v : second) v *= 0.5f;
        }
        const Samples sa{first.data(), batch};
        const bool two = k.op == PointOp::kContrastMean || k.op == PointOp::kSolarize;
        const Samples sb = two ? Samples{second.data(), batch} : Samples{};
        TestImage src(layout, batch, 3, 9, w);
        src.fill_random(static_cast<uint32_t>(w));
        TestImage out(layout, batch, 3, 9, w), expected(Layout::kPlanar, batch, 3, 9, w);
        k.run(src.view, out.view, sa, sb, serial_for());
        reference(k, src.view, expected.view, sa, sb);
        ASSERT_EQ(count_differences(out.view, expected.view), 0);
        ASSERT_EQ(out.clobbered_padding(), 0);
      }
    }
  }
}

TEST_P(PointOnEveryTarget, GammaTablesEqualPowOnEveryByte) {
  // adjust_gamma builds its tables from exp(gamma * log(x)) in double lanes, falling back to
  // pow_f32 near rounding boundaries: every entry must still be point_value's.
  std::vector<float> gammas = {0.0f, 1e-7f, 0.001f, 0.25f, 0.5f,   1.0f, 1.5f,
                               2.0f, 2.2f,  3.0f,   10.0f, 100.0f, 1e4f, 1e30f};
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(0.0f, 4.0f);
  for (int i = 0; i < 400; ++i) gammas.push_back(dist(rng));
  TestImage src(Layout::kPlanar, 1, 1, 16, 16);
  for (int v = 0; v < 256; ++v) src.view.at(0, 0, v / 16, v % 16) = static_cast<uint8_t>(v);
  for (const float gamma : gammas)
    for (const float gain : {1.0f, 0.7f}) {
      TestImage out(Layout::kPlanar, 1, 1, 16, 16);
      cpu::adjust_gamma(src.view, out.view, {&gamma, 1}, {&gain, 1}, serial_for());
      for (int v = 0; v < 256; ++v)
        ASSERT_EQ(out.view.at(0, 0, v / 16, v % 16),
                  point_value(PointOp::kGamma, {gamma, gain}, static_cast<uint8_t>(v)))
            << "gamma " << gamma << " gain " << gain << " byte " << v;
    }
}

TEST_P(PointOnEveryTarget, ImageMeanIsTheRoundedExactMean) {
  for (const Shape s : kShapes)
    for (int64_t c : {1, 3, 4})
      for (Layout layout : kLayouts) {
        SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                     layout_name(layout));
        TestImage src(layout, 3, c, s.h, s.w);
        src.fill_random(static_cast<uint32_t>(7 * s.h + s.w + c));
        std::vector<float> mean(3, -1.0f);
        cpu::image_mean(src.view, mean.data(), serial_for());
        for (int64_t b = 0; b < 3; ++b) {
          uint64_t sum = 0;
          for (int64_t k = 0; k < c; ++k)
            for (int64_t y = 0; y < s.h; ++y)
              for (int64_t x = 0; x < s.w; ++x) sum += src.view.at(b, k, y, x);
          ASSERT_EQ(mean[b], static_cast<float>(static_cast<double>(sum) / (255.0 * c * s.h * s.w)));
        }
      }
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(PointOnEveryTarget);

TEST(PointTables, DefiningIdentities) {
  for (int v = 0; v < 256; ++v) {
    const uint8_t x = static_cast<uint8_t>(v);
    EXPECT_EQ(point_value(PointOp::kBrightness, {0.0f, 0.0f}, x), x);
    EXPECT_EQ(point_value(PointOp::kBrightnessMul, {1.0f, 0.0f}, x), x);
    EXPECT_EQ(point_value(PointOp::kGamma, {1.0f, 1.0f}, x), x);
    EXPECT_EQ(point_value(PointOp::kPosterize, {8.0f, 0.0f}, x), x);
    EXPECT_EQ(point_value(PointOp::kPosterize, {0.0f, 0.0f}, x), 0);
    EXPECT_EQ(point_value(PointOp::kInvert, {}, x), 255 - v);
    EXPECT_EQ(point_value(PointOp::kSolarize, {2.0f, 0.0f}, x), x);  // threshold above every value
    EXPECT_EQ(point_value(PointOp::kBrightness, {1.0f, 0.0f}, x), 255);
    EXPECT_EQ(point_value(PointOp::kContrast, {0.0f, 0.0f}, x), 0);
  }
}

TEST(Point, BadParametersThrowAndWriteNothing) {
  TestImage src(Layout::kPlanar, 2, 3, 4, 5), dst(Layout::kPlanar, 2, 3, 4, 5);
  const std::vector<uint8_t> before = dst.buffer;
  auto expect_invalid_unwritten = [&](const std::function<void()>& call, const char* needle) {
    expect_invalid(call, needle);
    EXPECT_EQ(dst.buffer, before);
  };
  const float nan = std::nanf(""), inf = std::numeric_limits<float>::infinity();
  const float three[3] = {0.1f, 0.2f, 0.3f}, neg[1] = {-0.5f}, half[1] = {0.5f};
  expect_invalid_unwritten([&] { cpu::adjust_brightness(src.view, dst.view, {three, 3}); }, "1 or B = 2");
  expect_invalid_unwritten([&] { cpu::adjust_brightness(src.view, dst.view, {nullptr, 1}); }, "null");
  expect_invalid_unwritten([&] { cpu::adjust_brightness(src.view, dst.view, {&nan, 1}); }, "finite");
  expect_invalid_unwritten([&] { cpu::adjust_brightness(src.view, dst.view, {&inf, 1}); }, "finite");
  expect_invalid_unwritten([&] { cpu::adjust_contrast(src.view, dst.view, {neg, 1}); }, "factor must be >= 0");
  expect_invalid_unwritten([&] { cpu::adjust_gamma(src.view, dst.view, {neg, 1}, {half, 1}); }, "gamma");
  expect_invalid_unwritten([&] { cpu::adjust_gamma(src.view, dst.view, {half, 1}, {neg, 1}); }, "gain");
  const float big_add[1] = {0.6f}, frac_bits[1] = {2.5f}, nine[1] = {9.0f};
  expect_invalid_unwritten([&] { cpu::solarize(src.view, dst.view, {half, 1}, {big_add, 1}); }, "additions");
  expect_invalid_unwritten([&] { cpu::posterize(src.view, dst.view, {frac_bits, 1}); }, "integer");
  expect_invalid_unwritten([&] { cpu::posterize(src.view, dst.view, {nine, 1}); }, "bits must be in [0, 8]");
  expect_invalid_unwritten([&] { cpu::invert(src.view, src.view); }, "overlaps");
}

}  // namespace
}  // namespace test
}  // namespace u8aug
