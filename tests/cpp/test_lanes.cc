// The CPU lanes' quantizers (cpu/unit_lanes-inl.h) against hd.h's to_u8 on every compiled Highway
// target the CPU supports: StoreU8Lanes and StoreU8Lanes4 (x86's integer packs) on every float a
// kernel can hand them: halves around every byte, the clamp's edges, NaN, infinities, the int32
// range's edges, subnormals and random values.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/cpp/test_lanes.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/unit_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace test {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// in[0, n) (n a multiple of 4 vectors) quantized by four-vector stores into four[] and by
// single-vector stores into one[].
void QuantizeLanes(const float* in, size_t n, uint8_t* four, uint8_t* one) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  for (size_t i = 0; i + 4 * lanes <= n; i += 4 * lanes) {
    cpu::HWY_NAMESPACE::StoreU8Lanes4(d, hn::LoadU(d, in + i), hn::LoadU(d, in + i + lanes),
                                      hn::LoadU(d, in + i + 2 * lanes), hn::LoadU(d, in + i + 3 * lanes), four + i);
    for (size_t k = 0; k < 4; ++k)
      cpu::HWY_NAMESPACE::StoreU8Lanes(d, hn::LoadU(d, in + i + k * lanes), one + i + k * lanes);
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace test
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "image_buffer.h"
#include "u8aug/hd.h"

namespace u8aug {
namespace test {
HWY_EXPORT(QuantizeLanes);

class LanesOnEveryTarget : public OnEveryTarget {};

TEST_P(LanesOnEveryTarget, QuantizersMatchToU8) {
  std::vector<float> units;  // values in x / 255 units, as the kernels pass them
  for (int k = -2; k <= 257; ++k)
    for (float off : {-0.5f, -0.25f, 0.0f, 0.25f, 0.5f, 0.4999f, 0.5001f}) units.push_back((k + off) / 255.0f);
  const float inf = std::numeric_limits<float>::infinity();
  for (float v : {std::nanf(""),
                  -std::nanf(""),
                  inf,
                  -inf,
                  0.0f,
                  -0.0f,
                  1e-40f,
                  -1e-40f,
                  8.4e6f,
                  -8.4e6f,
                  2.2e9f,
                  -2.2e9f,
                  1e30f,
                  -1e30f,
                  std::numeric_limits<float>::max(),
                  std::numeric_limits<float>::lowest(),
                  128.5f,
                  32767.0f / 255.0f,
                  32768.0f / 255.0f,
                  65536.0f / 255.0f})
    units.push_back(v);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> wide(-3.0f, 4.0f);
  while (units.size() % 256 != 0 || units.size() < 4096) units.push_back(wide(rng));
  std::vector<uint8_t> four(units.size()), one(units.size());
  HWY_DYNAMIC_DISPATCH(QuantizeLanes)(units.data(), units.size(), four.data(), one.data());
  for (size_t i = 0; i < units.size(); ++i) {
    const uint8_t expected = to_u8(units[i] * 255.0f);
    ASSERT_EQ(four[i], expected) << "StoreU8Lanes4 at " << units[i];
    ASSERT_EQ(one[i], expected) << "StoreU8Lanes at " << units[i];
  }
}

U8AUG_INSTANTIATE_ON_EVERY_TARGET(LanesOnEveryTarget);

}  // namespace test
}  // namespace u8aug
#endif  // HWY_ONCE
