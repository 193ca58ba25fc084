// plasma_level on the CPU (on every target the CPU supports) against pixel/plasma_level.h's CUDA body run over every
// index, bit for bit; one level of a 2 x 2 grid by hand; the checks. The floats against kornia are
// tests/python/test_plasma_level.py's.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "image_buffer.h"
#include "u8aug/pixel/plasma_level.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

struct LevelBuffers {
  std::vector<float> grid, scale, draws, out;
  PlasmaLevel level;
  LevelBuffers(int64_t n, int64_t h, int64_t w, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    grid.resize(static_cast<size_t>(n * h * w));
    scale.resize(static_cast<size_t>(n));
    draws.resize(static_cast<size_t>(n * (2 * h - 1) * (2 * w - 1)));
    out.assign(draws.size(), -1.0f);
    for (float& v : grid) v = u(rng);
    for (float& v : scale) v = u(rng);
    for (float& v : draws) v = u(rng);
    level = PlasmaLevel{grid.data(), scale.data(), draws.data(), out.data(), n, h, w};
  }
};

class PlasmaLevelOnEveryTarget : public OnEveryTarget {};

TEST_P(PlasmaLevelOnEveryTarget, MatchesTheCudaBody) {
  for (const Shape s :
       {Shape{2, 2}, Shape{2, 7}, Shape{6, 2}, Shape{3, 3}, Shape{17, 9}, Shape{33, 65}, Shape{5, 40}}) {
    LevelBuffers a(3, s.h, s.w, static_cast<uint32_t>(s.h * 31 + s.w));
    cpu::plasma_level(a.level, serial_for());
    std::vector<float> expected(a.out.size());
    PlasmaLevel by_index = a.level;
    by_index.out = expected.data();
    const PlasmaLevelBody body{by_index};
    for (int64_t k = 0; k < body.count(); ++k) body(k);
    ASSERT_EQ(std::memcmp(a.out.data(), expected.data(), expected.size() * sizeof(float)), 0) << s.h << "x" << s.w;
  }
}

TEST(PlasmaLevel, TwoByTwoByHand) {
  LevelBuffers a(1, 2, 2, 1);
  a.grid = {0.0f, 0.5f, 1.0f, 0.25f};
  a.scale = {0.5f};
  a.draws.assign(9, 0.5f);
  a.level = PlasmaLevel{a.grid.data(), a.scale.data(), a.draws.data(), a.out.data(), 1, 2, 2};
  cpu::plasma_level(a.level, serial_for());
  // the centre: 0.5 * 0.5 + 0.5 * (0 + 0.125 + 0.25 + 0.0625) = 0.46875
  const float centre = 0.46875f;
  EXPECT_EQ(a.out[4], centre);
  EXPECT_EQ(a.out[0], 0.0f);  // the old cells are copied
  EXPECT_EQ(a.out[8], 0.25f);
  // the top middle: first row, border compensated: ((0 + 0.125) + centre / 4) * (1 / 0.75)
  const float top = ((0.0f + 0.125f) + centre * 0.25f) * kPlasmaBorder;
  EXPECT_EQ(a.out[1], 0.5f * 0.5f + (1.0f - 0.5f) * top);
}

TEST(PlasmaLevel, RefusesBadInput) {
  LevelBuffers a(1, 3, 3, 2);
  PlasmaLevel small = a.level;
  small.height = 1;
  expect_invalid([&] { cpu::plasma_level(small); }, "grids must be at least 2 x 2");
  PlasmaLevel null_draws = a.level;
  null_draws.draws = nullptr;
  expect_invalid([&] { cpu::plasma_level(null_draws); }, "null pointer");
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(PlasmaLevelOnEveryTarget);

}  // namespace
}  // namespace test
}  // namespace u8aug
