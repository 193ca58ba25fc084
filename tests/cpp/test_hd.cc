// The shared rounding helper: torch.round's half-to-even, clamped to [0, 255].
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "u8aug/hd.h"

namespace u8aug {
namespace {

TEST(ToU8, RoundsHalfToEvenAndClamps) {
  EXPECT_EQ(to_u8(0.5f), 0);
  EXPECT_EQ(to_u8(1.5f), 2);
  EXPECT_EQ(to_u8(2.5f), 2);
  EXPECT_EQ(to_u8(254.5f), 254);
  EXPECT_EQ(to_u8(253.5f), 254);
  EXPECT_EQ(to_u8(0.49999997f), 0);
  EXPECT_EQ(to_u8(-3.0f), 0);
  EXPECT_EQ(to_u8(300.0f), 255);
  EXPECT_EQ(to_u8(std::numeric_limits<float>::infinity()), 255);
  EXPECT_EQ(to_u8(-std::numeric_limits<float>::infinity()), 0);
  EXPECT_EQ(to_u8(std::nanf("")), 0);
}

TEST(ToU8, MatchesNearbyintOnAGrid) {
  for (int i = -100; i <= 2600; ++i) {
    const float y = static_cast<float>(i) * 0.1f;
    const float c = std::fmin(std::fmax(y, 0.0f), 255.0f);
    EXPECT_EQ(to_u8(y), static_cast<int>(std::nearbyint(c))) << y;
  }
}

TEST(ToU8, IsIdentityOnEveryByte) {
  for (int v = 0; v < 256; ++v) EXPECT_EQ(to_u8(static_cast<float>(v)), v);
}

}  // namespace
}  // namespace u8aug
