// clahe (scalar code compiled per target) on every target the CPU supports against pixel/clahe.h's
// CUDA bodies run over every index, byte for byte, in every layout, on the even and the odd tile
// paths; a tile's table; the checks. The bytes against kornia are tests/python/test_clahe.py's.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/clahe.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

TEST(Clahe, GridFollowsKornia) {
  const ClaheGrid even = clahe_grid(224, 224, 8, 8);
  EXPECT_EQ(even.tile_h, 28);
  EXPECT_EQ(even.tile_w, 28);
  EXPECT_FALSE(even.odd);
  const ClaheGrid odd = clahe_grid(37, 53, 2, 3);  // 19 x 18 tiles, one reflected row
  EXPECT_EQ(odd.tile_h, 19);
  EXPECT_EQ(odd.tile_w, 18);
  EXPECT_TRUE(odd.odd);
  EXPECT_EQ(clahe_reflect(37, 37), 35);
  EXPECT_EQ(clahe_reflect(36, 37), 36);
}

TEST(Clahe, TableOfOneLevelWithoutAndWithClipping) {
  uint32_t bins[256] = {};
  bins[100] = 64;
  uint8_t table[256];
  clahe_table(bins, 64, 0.0f, table);  // unclipped: everything below 100 is 0, the rest 255
  EXPECT_EQ(table[99], 0);
  EXPECT_EQ(table[100], 255);
  EXPECT_EQ(table[255], 255);
  // clip 4: at most max(floor(4 * 64 / 256), 1) = 1 a bin; the 63 clipped are a residual spread
  // one a bin on bins 0, 4, ..., 248 (step 256 / 63 = 4)
  clahe_table(bins, 64, 4.0f, table);
  EXPECT_EQ(table[0], 4);      // round(1 * 255 / 64)
  EXPECT_EQ(table[100], 108);  // 26 spread on bins 0..100 and the one kept: round(27 * 255 / 64)
  EXPECT_EQ(table[255], 255);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  uint8_t unclipped[256];
  clahe_table(bins, 64, nan, unclipped);  // kornia's `clip > 0` is false for NaN
  EXPECT_EQ(unclipped[100], 255);
}

class ClaheOnEveryTarget : public OnEveryTarget {};

TEST_P(ClaheOnEveryTarget, MatchesTheCudaBodies) {
  const int64_t batch = 3;
  const float clip[] = {40.0f, 2.0f, 0.0f};
  struct Case {
    Shape s;
    int64_t gh, gw;
  };
  for (const Case k : {Case{{16, 16}, 2, 2}, Case{{37, 53}, 2, 3}, Case{{24, 30}, 3, 3}, Case{{9, 40}, 1, 5},
                       Case{{50, 20}, 4, 1}, Case{{64, 64}, 8, 8}, Case{{12, 5}, 3, 2}})
    for (int64_t c : {1, 3})
      for (Layout in : kLayouts)
        for (int64_t count : {1, 3}) {
          SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(k.s.h) + "x" + std::to_string(k.s.w) + " grid " +
                       std::to_string(k.gh) + "x" + std::to_string(k.gw) + " " + layout_name(in) + " clips " +
                       std::to_string(count));
          const ClaheParams params{k.gh, k.gw, Samples{clip, count}};
          TestImage src(in, batch, c, k.s.h, k.s.w), out(in, batch, c, k.s.h, k.s.w),
              expected(Layout::kPlanar, batch, c, k.s.h, k.s.w);
          src.fill_random(static_cast<uint32_t>(k.s.h * 3 + k.s.w + c));
          const std::vector<uint8_t> before = src.buffer;
          cpu::clahe(src.view, out.view, params, serial_for());
          const ClaheGrid g = clahe_grid(k.s.h, k.s.w, k.gh, k.gw);
          const ClaheTablesBody tables_body{src.view, g, params.clip, nullptr};
          std::vector<uint8_t> tables(static_cast<size_t>(tables_body.count() * 256));
          const ClaheTablesBody fill{src.view, g, params.clip, tables.data()};
          for (int64_t i = 0; i < fill.count(); ++i) fill(i);
          const ClaheBlendBody blend{src.view, expected.view, g, tables.data()};
          for (int64_t i = 0; i < blend.count(); ++i) blend(i);
          ASSERT_EQ(count_differences(out.view, expected.view), 0);
          ASSERT_EQ(out.clobbered_padding(), 0) << "wrote outside the output view";
          ASSERT_EQ(src.buffer, before) << "modified its input";
        }
}

TEST(Clahe, ChunksGiveTheSameBytes) {
  // planes one a chunk, run last to first: what any thread count gives, without starting threads
  // (a std::thread hangs under the qemu-user that runs the Arm tests)
  const ParallelFor one_plane_a_chunk = [](int64_t n, int64_t, const RangeBody& body) {
    for (int64_t p = n; p-- > 0;) body(p, p + 1);
  };
  const float clip[] = {3.0f};
  TestImage src(Layout::kPlanar, 4, 3, 48, 40), one(Layout::kPlanar, 4, 3, 48, 40), many(Layout::kPlanar, 4, 3, 48, 40);
  src.fill_random(7);
  cpu::clahe(src.view, one.view, {8, 8, Samples{clip, 1}}, serial_for());
  cpu::clahe(src.view, many.view, {8, 8, Samples{clip, 1}}, one_plane_a_chunk);
  EXPECT_EQ(count_differences(one.view, many.view), 0);
}

TEST(Clahe, RefusesBadInput) {
  TestImage src(Layout::kPlanar, 2, 1, 8, 10), dst(Layout::kPlanar, 2, 1, 8, 10);
  const float one[] = {40.0f};
  expect_invalid([&] { cpu::clahe(src.view, dst.view, {0, 2, Samples{one, 1}}); }, "grid_size must be positive");
  expect_invalid(
      [&] {
        cpu::clahe(src.view, dst.view, {8, 2, Samples{one, 1}});
      },
      "the smallest image this grid admits is (9, 3)");
  expect_invalid(
      [&] {
        cpu::clahe(src.view, dst.view, {2, 10, Samples{one, 1}});
      },
      "the smallest image this grid admits is (3, 11)");
  expect_invalid([&] { cpu::clahe(src.view, dst.view, {2, 2, Samples{}}); }, "clip must hold 1 or B = 2 values, got 0");
  expect_invalid([&] { cpu::clahe(src.view, dst.view, {2, 2, Samples{nullptr, 1}}); }, "clip has a null pointer");
  const float two[] = {1.0f, 2.0f, 3.0f};
  expect_invalid([&] { cpu::clahe(src.view, dst.view, {2, 2, Samples{two, 3}}); }, "clip must hold 1 or B = 2");
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(ClaheOnEveryTarget);

}  // namespace
}  // namespace test
}  // namespace u8aug
