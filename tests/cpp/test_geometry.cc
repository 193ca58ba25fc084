// Geometry on every compiled Highway target against the scalar references (pixel/warp.h's
// warp_pixel, pixel/resize.h's resize_element, pixel/index_maps.h's maps over every index): every
// mode and padding, odd sizes, all layouts, a guard band around the output, the input untouched;
// then degenerate matrices and the argument checks.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/elastic.h"
#include "u8aug/pixel/index_maps.h"
#include "u8aug/pixel/resize.h"
#include "u8aug/pixel/sample.h"
#include "u8aug/pixel/warp.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

const Shape kGeometryShapes[] = {{1, 1}, {1, 33}, {17, 1}, {3, 5}, {31, 47}, {16, 16}, {40, 65}};

// A rotation with scale, shear and translation about the image, optionally projective.
std::vector<float> matrices(int64_t batch, int64_t h, int64_t w, bool perspective, uint32_t seed) {
  std::vector<float> m;
  for (int64_t b = 0; b < batch; ++b) {
    const float a = 0.37f * static_cast<float>(seed + b), s = 0.7f + 0.11f * static_cast<float>(b);
    const float row[9] = {s * std::cos(a),
                          -s * std::sin(a) + 0.1f,
                          0.3f * static_cast<float>(w),
                          s * std::sin(a),
                          s * std::cos(a),
                          -0.2f * static_cast<float>(h),
                          perspective ? 0.002f : 0.0f,
                          perspective ? -0.001f : 0.0f,
                          1.0f};
    m.insert(m.end(), row, row + (perspective ? 9 : 6));
  }
  return m;
}

class GeometryOnEveryTarget : public OnEveryTarget {};

TEST_P(GeometryOnEveryTarget, WarpsMatchScalarReference) {
  const float fill_values[4] = {0.25f, 0.5f, 1.0f, 0.0f};
  for (const Shape s : kGeometryShapes)
    for (int64_t c : {1, 3, 4, 6})  // 6: two packed groups
      for (Layout layout : {Layout::kPlanar, Layout::kInterleaved, Layout::kPlanarPadded})
        for (bool perspective : {false, true})
          for (Interp mode : {Interp::kBilinear, Interp::kNearest, Interp::kBicubic})
            for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection, Padding::kFill})
              for (bool align : {false, true})
                for (Fidelity fidelity : {Fidelity::kExact, Fidelity::kFast}) {
                  // the fast tier differs only for bilinear (its fixed point; a fill keeps the exact blend)
                  if (fidelity == Fidelity::kFast && mode != Interp::kBilinear) continue;
                  const int64_t batch = 2, oh = s.h + 3, ow = s.w * 2 + 1;
                  SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                               layout_name(layout) + (perspective ? " perspective" : " affine") + " mode " +
                               std::to_string(static_cast<int>(mode)) + " padding " +
                               std::to_string(static_cast<int>(padding)) + (align ? " align" : "") +
                               (fidelity == Fidelity::kFast ? " fast" : ""));
                  TestImage src(layout, batch, c, s.h, s.w);
                  src.fill_random(static_cast<uint32_t>(s.h * 7 + s.w + c));
                  const std::vector<uint8_t> before = src.buffer;
                  TestImage out(layout, batch, c, oh, ow), expected(Layout::kPlanar, batch, c, oh, ow);
                  const std::vector<float> m = matrices(batch, s.h, s.w, perspective, static_cast<uint32_t>(c));
                  WarpParams p;
                  p.matrices = m.data();
                  p.count = batch;
                  p.mode = mode;
                  p.padding = padding;
                  p.align_corners = align;
                  p.fill = Values{fill_values, c == 4 ? 4 : 1};
                  p.fidelity = fidelity;
                  if (perspective) {
                    cpu::warp_perspective(src.view, out.view, p, serial_for());
                  } else {
                    cpu::warp_affine(src.view, out.view, p, serial_for());
                  }
                  for (int64_t b = 0; b < batch; ++b) {
                    const WarpSetup setup = warp_setup(p, perspective, src.view, expected.view, b);
                    for (int64_t y = 0; y < oh; ++y)
                      for (int64_t x = 0; x < ow; ++x)
                        warp_pixel(src.view, expected.view, setup, p.fill, b, y, x, base_coordinate(setup, x, ow),
                                   base_coordinate(setup, y, oh));
                  }
                  ASSERT_EQ(count_differences(out.view, expected.view), 0);
                  ASSERT_EQ(out.clobbered_padding(), 0);
                  ASSERT_EQ(src.buffer, before);
                }
}

// The fast tier's fixed point serves bilinear warps without a fill whose positions do not sit on a
// coarse dyadic grid (pixel/warp.h's warp_ties_common), and stays within one level of the exact tier.
TEST(Geometry, FastWarpTakesTheFixedPointAwayFromTies) {
  const ConstImage src{nullptr, 1, 3, 64, 80, 3 * 64 * 80, 64 * 80, 80, 1};
  const Image dst{nullptr, 1, 3, 64, 80, 3 * 64 * 80, 64 * 80, 80, 1};
  auto takes = [&](std::vector<float> m, Interp mode, Padding padding, bool align) {
    WarpParams p;
    p.matrices = m.data();
    p.count = 1;
    p.mode = mode;
    p.padding = padding;
    p.align_corners = align;
    p.fidelity = Fidelity::kFast;
    return warp_setup(p, m.size() == 9, src, dst, 0).fixed_point;
  };
  const float c = std::cos(0.3f), s = std::sin(0.3f);
  const std::vector<float> rotation = {c, -s, 12.25f, s, c, -7.5f};
  EXPECT_TRUE(takes(rotation, Interp::kBilinear, Padding::kZeros, true));
  EXPECT_TRUE(takes(rotation, Interp::kBilinear, Padding::kReflection, false));
  EXPECT_TRUE(takes({c, -s, 12.25f, s, c, -7.5f, 0.001f, 0.0f, 1.0f}, Interp::kBilinear, Padding::kBorder, true));
  EXPECT_FALSE(takes(rotation, Interp::kBicubic, Padding::kZeros, true));
  EXPECT_FALSE(takes(rotation, Interp::kBilinear, Padding::kFill, true));
  for (bool align : {false, true}) {
    EXPECT_FALSE(takes({1, 0, 0.5f, 0, 1, 0}, Interp::kBilinear, Padding::kZeros, align));          // half a pixel
    EXPECT_FALSE(takes({0, -2, 79, 2, 0, 0, 0, 0, 1}, Interp::kBilinear, Padding::kZeros, align));  // a 1/2 shrink
    EXPECT_FALSE(takes({2, 0, 0, 0, 2, 0}, Interp::kBilinear, Padding::kZeros, align));             // a 2x zoom
    EXPECT_FALSE(takes({4, 0, 0, 0, 4, 0}, Interp::kBilinear, Padding::kZeros, align));             // 19% ties
    const float shrink = 2.0f / 3.0f;  // source steps of 3/2
    EXPECT_FALSE(takes({shrink, 0, 0, 0, shrink, 0}, Interp::kBilinear, Padding::kZeros, align));
    // whole pixels (no ties) and a 16x zoom (3% ties) take the fixed point
    EXPECT_TRUE(takes({0, -1, 79, 1, 0, 0}, Interp::kBilinear, Padding::kZeros, align));
    EXPECT_TRUE(takes({16, 0, 0, 0, 16, 0}, Interp::kBilinear, Padding::kZeros, align));
  }
  EXPECT_NEAR(dyadic_tie_share(1, 0), 0.25, 1e-12);
  EXPECT_NEAR(dyadic_tie_share(2, 2), 0.1875, 1e-12);
  EXPECT_EQ(dyadic_tie_share(0, 0), 0.0);
}

TEST(Geometry, FastWarpIsWithinOneLevelOfTheExactTier) {
  for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
    TestImage src(Layout::kPlanar, 4, 3, 61, 83);
    src.fill_random(11);
    TestImage exact(Layout::kPlanar, 4, 3, 70, 90), fast(Layout::kPlanar, 4, 3, 70, 90);
    const std::vector<float> m = matrices(4, 61, 83, false, 5);
    WarpParams p;
    p.matrices = m.data();
    p.count = 4;
    p.padding = padding;
    cpu::warp_affine(src.view, exact.view, p, serial_for());
    p.fidelity = Fidelity::kFast;
    cpu::warp_affine(src.view, fast.view, p, serial_for());
    int64_t differ = 0, far = 0;
    for (size_t i = 0; i < exact.buffer.size(); ++i) {
      const int d = std::abs(int{exact.buffer[i]} - int{fast.buffer[i]});
      differ += d != 0;
      far += d > 1;
    }
    EXPECT_EQ(far, 0);
    EXPECT_GT(differ, 0);  // the fixed point ran
    EXPECT_LT(differ, static_cast<int64_t>(exact.buffer.size()) / 20);
  }
}

// Bilinear windows over 1 MB as floats are read a source row at a time (cpu/resize.cc's UnitRows)
// rather than as planes: the same bytes as resize_element, in every blend order.
TEST_P(GeometryOnEveryTarget, LargeBilinearWindowsMatchScalarReference) {
  const int64_t batch = 1, c = 3, h = 300, w = 400;
  for (Layout layout : {Layout::kPlanar, Layout::kInterleaved})
    for (const Shape o : {Shape{100, 150}, Shape{301, 257}})
      for (BlendOrder order : {BlendOrder::kSeparable, BlendOrder::kCorners, BlendOrder::kSeparableUnfusedIndex}) {
        SCOPED_TRACE(std::string(layout_name(layout)) + " -> " + std::to_string(o.h) + "x" + std::to_string(o.w) +
                     " order " + std::to_string(static_cast<int>(order)));
        TestImage src(layout, batch, c, h, w);
        src.fill_random(17);
        TestImage out(layout, batch, c, o.h, o.w), expected(Layout::kPlanar, batch, c, o.h, o.w);
        cpu::resize(src.view, out.view, Interp::kBilinear, false, order, serial_for());
        const Window win{0, 0, h, w};
        for (int64_t ch = 0; ch < c; ++ch)
          for (int64_t y = 0; y < o.h; ++y)
            for (int64_t x = 0; x < o.w; ++x)
              resize_element(src.view, expected.view, win, Interp::kBilinear, false, order, 0, ch, y, x);
        ASSERT_EQ(count_differences(out.view, expected.view), 0);
      }
}

TEST_P(GeometryOnEveryTarget, ResizeAndCropMatchScalarReference) {
  for (const Shape s : kGeometryShapes)
    for (int64_t c : {1, 3})
      for (Layout layout : {Layout::kPlanar, Layout::kInterleaved, Layout::kPlanarPadded})
        for (const Shape o : {Shape{1, 1}, Shape{7, 40}, Shape{33, 17}, Shape{s.h, s.w}})
          for (bool align : {false, true})
            for (Interp mode : {Interp::kBilinear, Interp::kBicubic, Interp::kNearest, Interp::kNearestExact})
              for (BlendOrder order : {BlendOrder::kSeparable, BlendOrder::kCorners, BlendOrder::kSeparableUnfusedIndex,
                                       BlendOrder::kFast}) {
                // torch's orders are bilinear's, the fast tier's fixed point bilinear's and bicubic's;
                // torch takes align_corners for neither nearest mode
                const bool nearest = mode == Interp::kNearest || mode == Interp::kNearestExact;
                const bool has_order = order == BlendOrder::kSeparable || mode == Interp::kBilinear ||
                                       (mode == Interp::kBicubic && order == BlendOrder::kFast);
                if (!has_order || (nearest && align)) continue;
                SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " -> " +
                             std::to_string(o.h) + "x" + std::to_string(o.w) + " " + layout_name(layout) +
                             (align ? " align" : "") + " mode " + std::to_string(static_cast<int>(mode)) + " order " +
                             std::to_string(static_cast<int>(order)));
                const int64_t batch = 2;
                TestImage src(layout, batch, c, s.h, s.w);
                src.fill_random(static_cast<uint32_t>(s.h + s.w * 3 + c));
                const std::vector<uint8_t> before = src.buffer;
                TestImage out(layout, batch, c, o.h, o.w), expected(Layout::kPlanar, batch, c, o.h, o.w);
                cpu::resize(src.view, out.view, mode, align, order, serial_for());
                // the reference: resize_element over every output byte, sample b from window_of(b)
                auto reference = [&](auto window_of, CropBlendOrders orders) {
                  for (int64_t b = 0; b < batch; ++b) {
                    const Window win = window_of(b);
                    const BlendOrder taken = crop_blend_order(orders, win, s.w);
                    for (int64_t ch = 0; ch < c; ++ch)
                      for (int64_t y = 0; y < o.h; ++y)
                        for (int64_t x = 0; x < o.w; ++x)
                          resize_element(src.view, expected.view, win, mode, align, taken, b, ch, y, x);
                  }
                };
                reference([&](int64_t) { return Window{0, 0, s.h, s.w}; }, {order, order});
                ASSERT_EQ(count_differences(out.view, expected.view), 0);
                ASSERT_EQ(out.clobbered_padding(), 0);
                // per-sample boxes: the lower-right part of sample 0, all of sample 1
                const float boxes[16] = {static_cast<float>(s.w / 2),
                                         static_cast<float>(s.h / 3),
                                         static_cast<float>(s.w - 1),
                                         static_cast<float>(s.h / 3),
                                         static_cast<float>(s.w - 1),
                                         static_cast<float>(s.h - 1),
                                         static_cast<float>(s.w / 2),
                                         static_cast<float>(s.h - 1),
                                         0.0f,
                                         0.0f,
                                         static_cast<float>(s.w - 1),
                                         0.0f,
                                         static_cast<float>(s.w - 1),
                                         static_cast<float>(s.h - 1),
                                         0.0f,
                                         static_cast<float>(s.h - 1)};
                // whole-row windows (sample 1) take the other order
                const CropBlendOrders orders =
                    order == BlendOrder::kFast
                        ? CropBlendOrders{order, order}
                        : CropBlendOrders{
                              order, order == BlendOrder::kCorners ? BlendOrder::kSeparable : BlendOrder::kCorners};
                cpu::crop_and_resize(src.view, out.view, boxes, mode, align, orders, serial_for());
                reference([&](int64_t b) { return box_window(boxes + 8 * b, s.h, s.w); }, orders);
                ASSERT_EQ(count_differences(out.view, expected.view), 0);
                ASSERT_EQ(out.clobbered_padding(), 0);
                ASSERT_EQ(src.buffer, before);
              }
}

// Grid points spread over and past [-1, 1], with the values grid_sample must survive: NaN, the
// infinities, huge and exactly-on-the-border ones.
std::vector<float> grid_points(int64_t n, uint32_t seed) {
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            1e30f,
                            -1.0f,
                            1.0f,
                            0.0f};
  std::vector<float> v(static_cast<size_t>(n));
  uint32_t state = seed * 2654435761u + 1;
  for (int64_t i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    const float u = static_cast<float>(state >> 8) / 16777216.0f;
    v[i] = (state & 63) == 0 ? specials[(state >> 6) % 7] : 2.6f * u - 1.3f;
  }
  return v;
}

TEST_P(GeometryOnEveryTarget, GridSampleMatchesScalarReference) {
  for (const Shape s : kGeometryShapes)
    for (int64_t c : {1, 3, 6})
      for (Layout layout : {Layout::kPlanar, Layout::kInterleaved})
        for (bool pairs : {true, false})  // (x, y) interleaved as torch's grids, or two planes
          for (int64_t count : {1, 2})
            for (Interp mode : {Interp::kBilinear, Interp::kNearest, Interp::kBicubic})
              for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection})
                for (bool align : {false, true}) {
                  const int64_t batch = 2, oh = s.h + 2, ow = s.w + 19;
                  SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                               layout_name(layout) + (pairs ? " pairs" : " planes") + " grids " +
                               std::to_string(count) + " mode " + std::to_string(static_cast<int>(mode)) + " padding " +
                               std::to_string(static_cast<int>(padding)) + (align ? " align" : ""));
                  TestImage src(layout, batch, c, s.h, s.w);
                  src.fill_random(static_cast<uint32_t>(s.h * 5 + s.w + c));
                  const std::vector<uint8_t> before = src.buffer;
                  const std::vector<float> points = grid_points(count * oh * ow * 2, static_cast<uint32_t>(s.w + c));
                  SampleGrid grid{points.data(), count, oh, ow, oh * ow * 2, ow * 2, 2, 1};
                  if (!pairs) grid = SampleGrid{points.data(), count, oh, ow, oh * ow * 2, ow, 1, oh * ow};
                  TestImage out(layout, batch, c, oh, ow), expected(Layout::kPlanar, batch, c, oh, ow);
                  cpu::grid_sample(src.view, out.view, grid, mode, padding, align, serial_for());
                  run_every_index(
                      GridSampleBody{src.view, expected.view, grid, mode, padding, align, CubicSum::kPairThenAdds});
                  ASSERT_EQ(count_differences(out.view, expected.view), 0);
                  ASSERT_EQ(out.clobbered_padding(), 0);
                  ASSERT_EQ(src.buffer, before);
                }
}

TEST_P(GeometryOnEveryTarget, ElasticMatchesItsBodies) {
  // kernels wider than the image, odd and even, and the one-tap identity
  const std::vector<float> taps[] = {
      {1.0f}, {0.25f, 0.5f, 0.25f}, {0.1f, 0.2f, 0.3f, 0.4f}, std::vector<float>(63, 1.0f / 63)};
  for (const Shape s : kGeometryShapes)
    for (int64_t c : {1, 3})
      for (Layout layout : {Layout::kPlanar, Layout::kInterleaved})
        for (int64_t count : {1, 2})
          for (const auto& kx : taps)
            for (Interp mode : {Interp::kBilinear, Interp::kNearest, Interp::kBicubic})
              for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection})
                for (bool align : {false, true}) {
                  const int64_t batch = 2;
                  const std::vector<float>& ky = taps[(&kx - taps + 1) % 4];
                  SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w) + " " +
                               layout_name(layout) + " fields " + std::to_string(count) + " taps " +
                               std::to_string(kx.size()) + "x" + std::to_string(ky.size()) + " mode " +
                               std::to_string(static_cast<int>(mode)) + " padding " +
                               std::to_string(static_cast<int>(padding)) + (align ? " align" : ""));
                  TestImage src(layout, batch, c, s.h, s.w);
                  src.fill_random(static_cast<uint32_t>(s.h * 3 + s.w + c));
                  const std::vector<uint8_t> before = src.buffer;
                  std::vector<float> noise = grid_points(count * 2 * s.h * s.w, static_cast<uint32_t>(s.h + c));
                  for (float& v : noise) v = std::isfinite(v) ? v * 8.0f : v;  // displacements of pixels, NaN and all
                  ElasticParams p;
                  p.noise = noise.data();
                  p.count = count;
                  p.kernel_x = kx.data();
                  p.taps_x = static_cast<int64_t>(kx.size());
                  p.kernel_y = ky.data();
                  p.taps_y = static_cast<int64_t>(ky.size());
                  const float alpha[2] = {0.75f, 1.5f};
                  p.alpha = alpha;
                  p.mode = mode;
                  p.padding = padding;
                  p.align_corners = align;
                  TestImage out(layout, batch, c, s.h, s.w), expected(Layout::kPlanar, batch, c, s.h, s.w);
                  cpu::elastic_transform(src.view, out.view, p, serial_for());
                  std::vector<float> rows(noise.size()), displacement(noise.size());
                  run_every_index(ElasticRowsBody{p, s.h, s.w, rows.data()});
                  run_every_index(ElasticColumnsBody{p, s.h, s.w, rows.data(), displacement.data()});
                  run_every_index(ElasticSampleBody{src.view, expected.view, p, displacement.data()});
                  ASSERT_EQ(count_differences(out.view, expected.view), 0);
                  ASSERT_EQ(out.clobbered_padding(), 0);
                  ASSERT_EQ(src.buffer, before);
                }
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(GeometryOnEveryTarget);

TEST(Geometry, DegenerateMatricesGiveDefinedImages) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const float cases[][6] = {
      {nan, 0, 0, 0, 1, 0}, {1, 0, inf, 0, 1, 0}, {0, 0, 0, 0, 0, 0}, {1, 0, 1e30f, 0, 1, -1e30f}};
  TestImage src(Layout::kPlanar, 1, 3, 9, 11), out(Layout::kPlanar, 1, 3, 5, 40);
  src.fill_random(3);
  for (const auto& m : cases)
    for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection})
      for (Interp mode : {Interp::kBilinear, Interp::kNearest}) {
        WarpParams p;
        p.matrices = m;
        p.count = 1;
        p.padding = padding;
        p.mode = mode;
        cpu::warp_affine(src.view, out.view, p);  // must not read outside src or crash
        EXPECT_EQ(out.clobbered_padding(), 0);
      }
}

TEST(Geometry, IdentityWarpAndRot90AndPadAreCopies) {
  TestImage src(Layout::kPlanar, 2, 3, 6, 7), out(Layout::kPlanar, 2, 3, 6, 7);
  src.fill_random(5);
  const float identity[6] = {1, 0, 0, 0, 1, 0};
  WarpParams p;
  p.matrices = identity;
  p.count = 1;
  for (bool align : {false, true}) {
    p.align_corners = align;
    cpu::warp_affine(src.view, out.view, p);
    EXPECT_EQ(count_differences(src.view, out.view), 0);
  }
  TestImage turned(Layout::kPlanar, 2, 3, 7, 6), back(Layout::kPlanar, 2, 3, 6, 7);
  cpu::rot90(src.view, turned.view, 1);
  cpu::rot90(turned.view, back.view, -1);
  EXPECT_EQ(count_differences(src.view, back.view), 0);
  TestImage padded(Layout::kInterleaved, 2, 3, 9, 10);
  PadSpec spec;
  spec.left = 1, spec.right = 2, spec.top = 3, spec.bottom = 0, spec.mode = PadMode::kReflect;
  cpu::pad(src.view, padded.view, spec);
  for (int64_t y = 0; y < 6; ++y)
    for (int64_t x = 0; x < 7; ++x) EXPECT_EQ(padded.view.at(1, 2, y + 3, x + 1), src.view.at(1, 2, y, x));
  EXPECT_EQ(padded.view.at(0, 0, 0, 0), src.view.at(0, 0, 3, 1));  // reflected without the edge
}

TEST(Geometry, BadArgumentsThrow) {
  TestImage src(Layout::kPlanar, 2, 3, 6, 7), out(Layout::kPlanar, 2, 3, 4, 4), one(Layout::kPlanar, 2, 1, 4, 4);
  const float m[18] = {1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0};
  WarpParams p;
  p.matrices = m;
  p.count = 3;
  expect_invalid([&] { cpu::warp_affine(src.view, out.view, p); }, "M must hold 1 or B = 2 matrices");
  p.count = 2;
  expect_invalid([&] { cpu::warp_affine(src.view, one.view, p); }, "same batch size and channel count");
  p.fidelity = static_cast<Fidelity>(7);
  expect_invalid([&] { cpu::warp_affine(src.view, out.view, p); }, "fidelity must be Fidelity::kExact or");
  p.fidelity = Fidelity::kFast;
  p.padding = Padding::kFill;
  const float fill[2] = {0.1f, 0.2f};
  p.fill = Values{fill, 2};
  expect_invalid([&] { cpu::warp_affine(src.view, out.view, p); }, "fill must hold 1 or C = 3 values");
  expect_invalid([&] { cpu::resize(src.view, out.view, Interp::kNearest, true, BlendOrder::kSeparable); },
                 "align_corners applies");
  expect_invalid([&] { cpu::resize(src.view, out.view, Interp::kBilinear, false, static_cast<BlendOrder>(4)); },
                 "order must be");
  const float outside[16] = {0, 0, 9, 0, 9, 5, 0, 5, 0, 0, 1, 0, 1, 1, 0, 1};
  expect_invalid([&] { cpu::crop_and_resize(src.view, out.view, outside, Interp::kBilinear, true, CropBlendOrders{}); },
                 "inside the 6x7");
  PadSpec spec;
  spec.left = 7, spec.mode = PadMode::kReflect;
  TestImage wide(Layout::kPlanar, 2, 3, 6, 14);
  expect_invalid([&] { cpu::pad(src.view, wide.view, spec); }, "reflect padding must be smaller");
  expect_invalid([&] { cpu::rot90(src.view, src.view, 2); }, "overlaps");
}

}  // namespace
}  // namespace test
}  // namespace u8aug
