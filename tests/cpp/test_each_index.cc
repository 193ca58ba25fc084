// The CUDA kernels' bodies (the each-index functors of pixel/, u8aug/image.h), run here on the CPU
// for every index exactly as cuda/launch.cuh runs them on the GPU (the reductions' atomics replaced
// by plain sums), against the CPU path's bytes: so the GPU's index decomposition and per-pixel math
// are tested on every machine, with or without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/color.h"
#include "u8aug/pixel/color_fixed.h"
#include "u8aug/pixel/equalize.h"
#include "u8aug/pixel/flip.h"
#include "u8aug/pixel/gray.h"
#include "u8aug/pixel/index_maps.h"
#include "u8aug/pixel/normalize.h"
#include "u8aug/pixel/resize.h"
#include "u8aug/pixel/select.h"
#include "u8aug/pixel/warp.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

const Layout kBodyLayouts[] = {Layout::kPlanar, Layout::kInterleaved, Layout::kPlanarPadded};

struct Case {
  Layout layout;
  int64_t batch, channels, height, width;
  std::string name() const {
    return std::string(layout_name(layout)) + " " + std::to_string(batch) + "x" + std::to_string(channels) + "x" +
           std::to_string(height) + "x" + std::to_string(width);
  }
};

std::vector<Case> cases(std::vector<int64_t> channel_counts) {
  std::vector<Case> out;
  for (Layout layout : kBodyLayouts)
    for (int64_t c : channel_counts) {
      out.push_back({layout, 3, c, 5, 7});
      out.push_back({layout, 1, c, 1, 33});
    }
  return out;
}

// out (written by a body) equals expected (written by the CPU op), nothing outside out's view.
void expect_same(const TestImage& out, const TestImage& expected) {
  EXPECT_EQ(count_differences(out.view, expected.view), 0);
  EXPECT_EQ(out.clobbered_padding(), 0);
}

TEST(EachIndexBodies, FlipGraySelectAndIndexMaps) {
  for (const Case& k : cases({1, 3, 4})) {
    SCOPED_TRACE(k.name());
    TestImage src(k.layout, k.batch, k.channels, k.height, k.width),
        other(k.layout, k.batch, k.channels, k.height, k.width);
    src.fill_random(1);
    other.fill_random(2);
    auto same_size = [&] { return TestImage(k.layout, k.batch, k.channels, k.height, k.width); };
    for (bool horizontal : {true, false}) {
      TestImage out = same_size(), expected = same_size();
      run_every_index(FlipBody{src.view, out.view, FlipAxes{horizontal, !horizontal}});
      if (horizontal) cpu::hflip(src.view, expected.view, serial_for());
      if (!horizontal) cpu::vflip(src.view, expected.view, serial_for());
      expect_same(out, expected);
    }
    {
      TestImage out = same_size(), expected = same_size();
      run_every_index(GrayBody{src.view, out.view});
      cpu::grayscale(src.view, expected.view, serial_for());
      expect_same(out, expected);
    }
    if (k.channels == 3) {
      TestImage out(k.layout, k.batch, 1, k.height, k.width), expected(k.layout, k.batch, 1, k.height, k.width);
      run_every_index(GrayBody{src.view, out.view});
      cpu::rgb_to_grayscale(src.view, expected.view, serial_for());
      expect_same(out, expected);
    }
    {
      const bool take[3] = {true, false, true};
      TestImage out = same_size(), expected = same_size();
      run_every_index(SelectBody{take, src.view, other.view, out.view});
      cpu::select_samples(take, src.view, other.view, expected.view, serial_for());
      expect_same(out, expected);
    }
    for (PadMode mode : {PadMode::kConstant, PadMode::kReflect, PadMode::kReplicate}) {
      PadSpec spec;
      spec.left = 0;
      spec.right = k.width > 2 ? 2 : 0;
      spec.top = k.height > 1 ? 1 : 0;
      spec.bottom = k.height > 3 ? 3 : 0;
      spec.mode = mode;
      spec.value = 17;
      const int64_t h = k.height + spec.top + spec.bottom, w = k.width + spec.left + spec.right;
      TestImage out(k.layout, k.batch, k.channels, h, w), expected(k.layout, k.batch, k.channels, h, w);
      run_every_index(PadBody{src.view, out.view, spec});
      cpu::pad(src.view, expected.view, spec, serial_for());
      expect_same(out, expected);
    }
    for (int turns = 0; turns < 4; ++turns) {
      const int64_t h = turns % 2 ? k.width : k.height, w = turns % 2 ? k.height : k.width;
      TestImage out(k.layout, k.batch, k.channels, h, w), expected(k.layout, k.batch, k.channels, h, w);
      run_every_index(Rot90Body{src.view, out.view, turns});
      cpu::rot90(src.view, expected.view, turns, serial_for());
      expect_same(out, expected);
    }
  }
}

TEST(EachIndexBodies, NormalizeAndToFloat) {
  const float mean[4] = {0.4f, 0.5f, 0.45f, 0.1f}, std[4] = {0.2f, 0.25f, 0.3f, 0.9f};
  for (const Case& k : cases({1, 3, 4})) {
    SCOPED_TRACE(k.name());
    TestImage src(k.layout, k.batch, k.channels, k.height, k.width);
    src.fill_random(3);
    for (bool to_float : {false, true}) {
      TestBuffer<float> out(k.layout, k.batch, k.channels, k.height, k.width);
      TestBuffer<float> expected(k.layout, k.batch, k.channels, k.height, k.width);
      const PerChannel m{mean, k.channels}, s{std, k.channels};
      run_every_index(NormalizeBody{src.view, out.view, to_float ? PerChannel{} : m, to_float ? PerChannel{} : s});
      if (to_float) cpu::to_float(src.view, expected.view, serial_for());
      if (!to_float) cpu::normalize(src.view, expected.view, m, s, serial_for());
      EXPECT_EQ(out.buffer, expected.buffer);
    }
  }
}

TEST(EachIndexBodies, ResizeAndCrops) {
  for (const Case& k : cases({1, 3})) {
    SCOPED_TRACE(k.name());
    TestImage src(k.layout, k.batch, k.channels, k.height, k.width);
    src.fill_random(4);
    std::vector<float> boxes;
    for (int64_t b = 0; b < k.batch; ++b) {
      const float x1 = static_cast<float>(b % k.width), x2 = static_cast<float>(k.width - 1);
      const float y1 = 0.0f, y2 = static_cast<float>(k.height - 1 - b % k.height);
      const float box[8] = {x1, y1, x2, y1, x2, y2, x1, y2};
      boxes.insert(boxes.end(), box, box + 8);
    }
    for (Interp mode : {Interp::kBilinear, Interp::kNearest, Interp::kBicubic, Interp::kNearestExact})
      for (bool crop : {false, true})
        for (BlendOrder order :
             {BlendOrder::kSeparable, BlendOrder::kCorners, BlendOrder::kSeparableUnfusedIndex, BlendOrder::kFast}) {
          const bool align = (mode == Interp::kBilinear || mode == Interp::kBicubic) && crop;
          TestImage out(k.layout, k.batch, k.channels, 6, 11), expected(k.layout, k.batch, k.channels, 6, 11);
          const CropBlendOrders orders{order, order};
          run_every_index(ResizeBody{src.view, out.view, crop ? boxes.data() : nullptr, mode, align, orders});
          if (crop) cpu::crop_and_resize(src.view, expected.view, boxes.data(), mode, align, orders, serial_for());
          if (!crop) cpu::resize(src.view, expected.view, mode, align, order, serial_for());
          expect_same(out, expected);
        }
  }
}

TEST(EachIndexBodies, PointTablesEqualizeAndMean) {
  for (const Case& k : cases({1, 3, 4})) {
    SCOPED_TRACE(k.name());
    TestImage src(k.layout, k.batch, k.channels, k.height, k.width);
    src.fill_random(5);
    {  // a block's sample table, as point_kernel builds it in shared memory
      const float factors[3] = {0.7f, 1.3f, 0.0f};
      TestImage out(k.layout, k.batch, k.channels, k.height, k.width),
          expected(k.layout, k.batch, k.channels, k.height, k.width);
      for (int64_t b = 0; b < k.batch; ++b) {
        uint8_t table[256];
        for (int v = 0; v < 256; ++v) table[v] = point_value(PointOp::kContrast, PointParams{factors[b], 0.0f}, v);
        run_every_index(SampleTableBody{src.view, out.view, table, b});
      }
      cpu::adjust_contrast(src.view, expected.view, Samples{factors, k.batch}, serial_for());
      expect_same(out, expected);
    }
    {  // equalize: byte counts over plane_byte, tables, then the mapping pass
      const int64_t planes = k.batch * k.channels;
      std::vector<uint32_t> counts(static_cast<size_t>(256 * planes), 0);
      for (int64_t p = 0; p < planes; ++p)
        for (int64_t i = 0; i < k.height * k.width; ++i)
          ++counts[static_cast<size_t>(256 * p + plane_byte(src.view, p, i))];
      std::vector<uint8_t> tables(static_cast<size_t>(256 * planes));
      run_every_index(EqualizeTablesBody{counts.data(), tables.data(), planes});
      TestImage out(k.layout, k.batch, k.channels, k.height, k.width),
          expected(k.layout, k.batch, k.channels, k.height, k.width);
      run_every_index(PlaneTablesBody{src.view, out.view, tables.data()});
      cpu::equalize(src.view, expected.view, serial_for());
      expect_same(out, expected);
    }
    {  // image_mean: sums over sample_byte, then ByteMeanBody
      const int64_t per_sample = k.channels * k.height * k.width;
      std::vector<unsigned long long> sums(static_cast<size_t>(k.batch), 0);
      for (int64_t b = 0; b < k.batch; ++b)
        for (int64_t i = 0; i < per_sample; ++i) sums[static_cast<size_t>(b)] += sample_byte(src.view, b, i);
      std::vector<float> mean(static_cast<size_t>(k.batch)), expected(static_cast<size_t>(k.batch));
      run_every_index(ByteMeanBody{sums.data(), mean.data(), k.batch, per_sample});
      cpu::image_mean(src.view, expected.data(), serial_for());
      EXPECT_EQ(mean, expected);
    }
  }
}

TEST(EachIndexBodies, ColourOps) {
  const float sat[3] = {0.6f, 2.3f, 0.0f}, hue[3] = {0.7f, -2.0f, 3.1415f};
  const float jb[3] = {0.7f, 1.3f, 1.0f}, jc[3] = {1.2f, 0.8f, 1.4f}, js[3] = {1.2f, 0.3f, 1.9f},
              jh[3] = {0.05f, -0.2f, 0.5f};
  const int64_t order[4] = {3, 1, 0, 2};
  for (const Case& k : cases({3})) {
    SCOPED_TRACE(k.name());
    TestImage src(k.layout, k.batch, 3, k.height, k.width);
    src.fill_random(6);
    for (Fidelity fidelity : {Fidelity::kExact, Fidelity::kFast})
      for (int op = 0; op < 4; ++op) {  // saturation, hue, jiggle, jitter
        SCOPED_TRACE(fidelity == Fidelity::kFast ? "fast" : "exact");
        const JiggleParams params{{jb, k.batch}, {jc, k.batch}, {js, k.batch}, {jh, k.batch}, order, 4, fidelity};
        const bool fast = fidelity == Fidelity::kFast;
        TestImage out(k.layout, k.batch, 3, k.height, k.width), expected(k.layout, k.batch, 3, k.height, k.width);
        JiggleFactors jiggle = jiggle_factors(params);
        std::vector<int64_t> sums(static_cast<size_t>(k.batch), 0);
        if (op == 3) {  // the first pass, as gray_sum_kernel adds it
          jiggle.jitter = true;
          jiggle.gray_sums = sums.data();
          jiggle.pixels = k.height * k.width;
          const JitterGrayBody pass{src.view, &jiggle};
          for (int64_t i = 0; i < pass.count(); ++i) {
            const SampleGray g = pass(i);
            sums[static_cast<size_t>(g.b)] += g.fixed;
          }
        }
        ColorOp kind = op < 2 ? static_cast<ColorOp>(op) : ColorOp::kJiggle;
        if (op == 1 && fast) kind = ColorOp::kFastHue;  // what cuda/color.cu launches for it
        const Samples factor{op == 0 ? sat : hue, k.batch};
        if (op >= 2) {
          run_every_index(ColorChainBody{src.view, out.view, &jiggle});  // what cuda/color.cu launches for it
        } else if (fast && op == 1) {
          run_every_index(FixedHueBody{src.view, out.view, factor});
        } else {
          run_every_index(ColorBody{kind, src.view, out.view, factor, &jiggle});
        }
        if (op == 0) cpu::adjust_saturation(src.view, expected.view, factor, serial_for(), fidelity);
        if (op == 1) cpu::adjust_hue(src.view, expected.view, factor, serial_for(), fidelity);
        if (op == 2) cpu::color_jiggle(src.view, expected.view, params, serial_for());
        if (op == 3) cpu::color_jitter(src.view, expected.view, params, serial_for());
        expect_same(out, expected);
      }
  }
}

TEST(EachIndexBodies, Warps) {
  const float fill[4] = {0.25f, 0.5f, 1.0f, 0.0f};
  for (const Case& k : cases({1, 3, 4})) {
    SCOPED_TRACE(k.name());
    TestImage src(k.layout, k.batch, k.channels, k.height, k.width);
    src.fill_random(7);
    for (bool perspective : {false, true})
      for (Interp mode : {Interp::kBilinear, Interp::kBicubic})
        for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection, Padding::kFill})
          for (Fidelity fidelity : {Fidelity::kExact, Fidelity::kFast}) {
            std::vector<float> m;
            for (int64_t b = 0; b < k.batch; ++b) {
              const float a = 0.4f + 0.9f * static_cast<float>(b);
              const float row[9] = {std::cos(a),
                                    -std::sin(a),
                                    1.5f,
                                    std::sin(a),
                                    std::cos(a),
                                    -0.5f,
                                    perspective ? 0.01f : 0.0f,
                                    perspective ? -0.02f : 0.0f,
                                    1.0f};
              m.insert(m.end(), row, row + (perspective ? 9 : 6));
            }
            WarpParams p;
            p.matrices = m.data();
            p.count = k.batch;
            p.mode = mode;
            p.padding = padding;
            p.align_corners = padding != Padding::kBorder;
            p.cubic_across = padding == Padding::kReflection ? CubicSum::kChain : CubicSum::kPairThenAdds;
            p.fill = Values{fill, k.channels == 4 ? 4 : 1};
            p.fidelity = fidelity;
            TestImage out(k.layout, k.batch, k.channels, 4, 37), expected(k.layout, k.batch, k.channels, 4, 37);
            for (int64_t b = 0; b < k.batch; ++b) {  // a block's sample, its setup formed once
              const WarpSetup setup = warp_setup(p, perspective, src.view, out.view, b);
              run_every_index(WarpBody{src.view, out.view, &setup, p.fill, b});
            }
            if (perspective) cpu::warp_perspective(src.view, expected.view, p, serial_for());
            if (!perspective) cpu::warp_affine(src.view, expected.view, p, serial_for());
            expect_same(out, expected);
          }
  }
}

}  // namespace
}  // namespace test
}  // namespace u8aug
