// cpu::torch_uniform (on every target the CPU supports) against the standard library's Mersenne Twister,
// the engine torch's CPU generator is: the same words after the same seed, kept to their 24 low bits
// and scaled, across regenerations and for any split of the draws; the state's checks. The numbers
// against torch.rand itself are tests/python/test_rng.py's.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "image_buffer.h"
#include "u8aug/kornia_draws.h"
#include "u8aug/mersenne.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

// torch.manual_seed's state: the words of the standard seeding, left 1 (the first draw regenerates)
MersenneState seeded(uint32_t seed) { return TorchRandom(seed).state(); }

class MersenneOnEveryTarget : public OnEveryTarget {};

TEST_P(MersenneOnEveryTarget, IsTheStandardEngineInTorchsFloats) {
  for (const uint32_t seed : {0u, 5489u, 123456789u}) {
    std::mt19937 engine(seed);
    MersenneState state = seeded(seed);
    // draws of odd sizes, so that they straddle regenerations anywhere
    for (const int64_t count : {1, 7, 616, 624, 1, 1250, 3, 5000, 0, 623}) {
      std::vector<float> got(static_cast<size_t>(count) + 1, -1.0f);
      cpu::torch_uniform(state, got.data(), count);
      for (int64_t k = 0; k < count; ++k) {
        ASSERT_EQ(got[static_cast<size_t>(k)], static_cast<float>(engine() & 0xffffffu) / 16777216.0f)
            << "seed " << seed << ", draw of " << count << ", number " << k;
      }
      ASSERT_EQ(got.back(), -1.0f);  // nothing written past the count
      ASSERT_GE(state.left, 1);
      ASSERT_LE(state.next + state.left - 1, kMersenneWords);
    }
  }
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(MersenneOnEveryTarget);

TEST(Mersenne, StatesTorchCouldNotContinueAreRefused) {
  float out[4];
  MersenneState s = seeded(1);
  s.left = 0;
  EXPECT_THROW(cpu::torch_uniform(s, out, 4), std::invalid_argument);
  s.left = kMersenneWords + 1;
  EXPECT_THROW(cpu::torch_uniform(s, out, 4), std::invalid_argument);
  s = seeded(1);
  s.left = 2, s.next = kMersenneWords;
  EXPECT_THROW(cpu::torch_uniform(s, out, 4), std::invalid_argument);
  s = seeded(1);
  EXPECT_THROW(cpu::torch_uniform(s, out, -1), std::invalid_argument);
  EXPECT_THROW(cpu::torch_uniform(s, nullptr, 4), std::invalid_argument);
  cpu::torch_uniform(s, nullptr, 0);  // nothing to draw, nothing written
  EXPECT_EQ(s.left, 1);
}

}  // namespace
}  // namespace test
}  // namespace u8aug
