// jpeg (row loops and lane-coded blocks, compiled per target) on every target the CPU supports
// against pixel/jpeg.h's CUDA bodies run over every index, byte for byte, in every layout, on sizes
// that need padding; the DCT and its inverse on a flat block; the checks. The bytes against kornia
// are tests/python/test_jpeg.py's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/jpeg.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

// Quantization steps for `count` samples: luma and chroma tables of steps from 1 to about 100.
std::vector<float> some_tables(int64_t count) {
  std::vector<float> t(static_cast<size_t>(count * 128));
  for (size_t i = 0; i < t.size(); ++i) t[i] = 1.0f + static_cast<float>((i * 37 + i / 128 * 11) % 97);
  return t;
}

// The bodies CUDA launches, in its order, over every index.
void run_bodies(const ConstImage& src, const Image& dst, const JpegParams& p) {
  const JpegGeometry g = jpeg_geometry(src.height, src.width);
  std::vector<float> work(static_cast<size_t>(src.batch * g.work_floats())), bases(kJpegBasesFloats);
  jpeg_fill_bases(bases.data());
  auto each = [](const auto& body) {
    for (int64_t i = 0; i < body.count(); ++i) body(i);
  };
  each(JpegYcbcrBody{src, g, work.data()});
  each(JpegBlurAcrossBody{g, src.batch, work.data()});
  each(JpegHalveBody{g, src.batch, p.down, work.data()});
  each(JpegBlockBody{g, src.batch, p.tables, jpeg_bases(bases.data()), work.data()});
  each(JpegRgbBody{g, p.up, work.data(), dst});
}

TEST(Jpeg, GeometryPadsToSixteen) {
  const JpegGeometry g = jpeg_geometry(37, 53);
  EXPECT_EQ(g.padded_h, 48);
  EXPECT_EQ(g.padded_w, 64);
  EXPECT_EQ(g.luma_blocks(), 6 * 8);
  EXPECT_EQ(g.chroma_blocks(), 3 * 4);
  EXPECT_EQ(jpeg_geometry(16, 1).padded_w, 16);
}

TEST(Jpeg, FlatBlockKeepsItsValue) {
  // a flat block is its DC coefficient only: 8 * (v - 128) scaled by 1/8, divided by a step of 1,
  // an integer, so the round trip gives v back exactly
  std::vector<float> bases(kJpegBasesFloats);
  jpeg_fill_bases(bases.data());
  float block[64], ones[64];
  for (float& v : block) v = 200.0f;
  for (float& v : ones) v = 1.0f;
  jpeg_code_block(block, 8, ones, jpeg_bases(bases.data()));
  for (float v : block) EXPECT_NEAR(v, 200.0f, 1e-3f);
}

class JpegOnEveryTarget : public OnEveryTarget {};

TEST_P(JpegOnEveryTarget, MatchesTheCudaBodies) {
  const int64_t batch = 2;
  for (const Shape s : {Shape{16, 16}, Shape{37, 53}, Shape{24, 40}, Shape{5, 70}, Shape{64, 48}})
    for (Layout in : kLayouts)
      for (int64_t count : {1, 2})
        for (BlendOrder order : {BlendOrder::kSeparable, BlendOrder::kCorners, BlendOrder::kSeparableUnfusedIndex}) {
          SCOPED_TRACE(std::to_string(s.h) + "x" + std::to_string(s.w) + " " + layout_name(in) + " tables " +
                       std::to_string(count) + " order " + std::to_string(static_cast<int>(order)));
          const std::vector<float> tables = some_tables(count);
          JpegParams p;
          p.tables = JpegTables{tables.data(), count};
          p.down = order;
          p.up = order == BlendOrder::kCorners ? BlendOrder::kSeparable : BlendOrder::kCorners;
          TestImage src(in, batch, 3, s.h, s.w), out(in, batch, 3, s.h, s.w),
              expected(Layout::kPlanar, batch, 3, s.h, s.w);
          src.fill_random(static_cast<uint32_t>(s.h * 7 + s.w));
          const std::vector<uint8_t> before = src.buffer;
          cpu::jpeg(src.view, out.view, p, serial_for());
          run_bodies(src.view, expected.view, p);
          ASSERT_EQ(count_differences(out.view, expected.view), 0);
          ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
          ASSERT_EQ(src.buffer, before) << "modified its input";
        }
}

TEST(Jpeg, ChunksGiveTheSameBytes) {
  // samples one a chunk, run last to first: what any thread count gives, without starting threads
  // (a std::thread hangs under the qemu-user that runs the Arm tests)
  const ParallelFor one_sample_a_chunk = [](int64_t n, int64_t, const RangeBody& body) {
    for (int64_t p = n; p-- > 0;) body(p, p + 1);
  };
  const std::vector<float> tables = some_tables(4);
  JpegParams p;
  p.tables = JpegTables{tables.data(), 4};
  TestImage src(Layout::kPlanar, 4, 3, 40, 48), one(Layout::kPlanar, 4, 3, 40, 48), many(Layout::kPlanar, 4, 3, 40, 48);
  src.fill_random(7);
  cpu::jpeg(src.view, one.view, p, serial_for());
  cpu::jpeg(src.view, many.view, p, one_sample_a_chunk);
  EXPECT_EQ(count_differences(one.view, many.view), 0);
}

TEST(Jpeg, RefusesBadInput) {
  const std::vector<float> tables = some_tables(3);
  TestImage grey(Layout::kPlanar, 2, 1, 16, 16), grey_out(Layout::kPlanar, 2, 1, 16, 16);
  TestImage src(Layout::kPlanar, 2, 3, 16, 16), dst(Layout::kPlanar, 2, 3, 16, 16);
  JpegParams p;
  p.tables = JpegTables{tables.data(), 1};
  expect_invalid([&] { cpu::jpeg(grey.view, grey_out.view, p); }, "expected 3 (RGB) channels");
  p.tables = JpegTables{tables.data(), 3};
  expect_invalid([&] { cpu::jpeg(src.view, dst.view, p); }, "quantization tables must be given for 1 or B = 2");
  p.tables = JpegTables{nullptr, 1};
  expect_invalid([&] { cpu::jpeg(src.view, dst.view, p); }, "null pointer");
  std::vector<float> zero = some_tables(1);
  zero[70] = 0.0f;
  p.tables = JpegTables{zero.data(), 1};
  expect_invalid([&] { cpu::jpeg(src.view, dst.view, p); },
                 "quality: every quantization step must be positive and finite, got 0");
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(JpegOnEveryTarget);

}  // namespace
}  // namespace test
}  // namespace u8aug
