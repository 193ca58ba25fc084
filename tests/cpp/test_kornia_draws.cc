// u8aug/kornia_draws.h without torch: TorchRandom seeded as torch.manual_seed gives torch.rand's and
// torch.randperm's numbers (values taken from torch 2.11), word for word with the SIMD torch_uniform;
// the gate, crop and jitter draws take the words kornia's take and give parameters in their ranges.
// Bit-for-bit equality with kornia's parameters is tests/python/test_native_draws.py's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "u8aug/kornia_draws.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

TEST(TorchRandom, SeedsAsTorchManualSeed) {
  TorchRandom random(0);
  float u[3];
  random.uniform(u, 3);
  // torch.manual_seed(0); torch.rand(3)
  EXPECT_EQ(u[0], 0x1.fc2abp-2f);
  EXPECT_EQ(u[1], 0x1.89545ep-1f);
  EXPECT_EQ(u[2], 0x1.6a675p-4f);
  // torch.manual_seed(42); torch.rand(700): across the first regeneration
  TorchRandom r42(42);
  std::vector<float> v(700);
  r42.uniform(v.data(), 700);
  EXPECT_EQ(v[0], 0x1.c3b8ccp-1f);
  EXPECT_EQ(v[623], 0x1.c32ac8p-3f);
  EXPECT_EQ(v[624], 0x1.f58b9p-2f);
  EXPECT_EQ(v[699], 0x1.eb5d24p-1f);
  // the seed's low 32 bits, as torch takes it
  TorchRandom a((uint64_t{1} << 32) + 7), b(7);
  EXPECT_EQ(a.word(), b.word());
}

TEST(TorchRandom, RandpermIsTorchs) {
  TorchRandom random(123456789);
  int64_t p[4], q[4];
  random.randperm(4, p);
  random.randperm(4, q);
  // torch.manual_seed(123456789); torch.randperm(4), torch.randperm(4)
  EXPECT_EQ(std::vector<int64_t>(p, p + 4), (std::vector<int64_t>{0, 2, 1, 3}));
  EXPECT_EQ(std::vector<int64_t>(q, q + 4), (std::vector<int64_t>{1, 0, 3, 2}));
}

TEST(TorchRandom, IsTheSimdUniformWordForWord) {
  TorchRandom one(5489), batch(5489);
  MersenneState state = batch.state();
  for (const int64_t count : {1, 7, 616, 624, 1250, 3}) {
    std::vector<float> a(static_cast<size_t>(count)), b(static_cast<size_t>(count));
    one.uniform(a.data(), count);
    cpu::torch_uniform(state, b.data(), count);
    ASSERT_EQ(a, b) << count;
  }
}

// A source that serves an engine's numbers and counts what it is asked (the torch extension's
// source asks torch's generator itself: bindings/draws.cpp).
class CountingSource final : public RandomSource {
 public:
  explicit CountingSource(uint64_t seed) : engine(seed) {}
  void uniform(float* out, int64_t n) override {
    engine.uniform(out, n);
    uniforms += n;
  }
  void randperm(int64_t n, int64_t* out) override {
    engine.randperm(n, out);
    ++permutations;
  }
  TorchRandom engine;
  int64_t uniforms = 0, permutations = 0;
};

TEST(TorchRandom, ADrawOnASourceTakesItsNumbers) {
  ColorJitterConfig c;
  for (int k = 0; k < 4; ++k) c.low[k] = 0.5f, c.high[k] = 1.5f;
  TorchRandom engine(99);
  CountingSource source(99);
  TorchRandom sourced(source);
  std::vector<float> a(12), b(12);
  int64_t order_a[4], order_b[4];
  kornia_color_jitter(engine, c, 3, a.data(), order_a);
  kornia_color_jitter(sourced, c, 3, b.data(), order_b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(std::vector<int64_t>(order_a, order_a + 4), std::vector<int64_t>(order_b, order_b + 4));
  EXPECT_EQ(source.uniforms, 12);
  EXPECT_EQ(source.permutations, 1);
  // torch.rand(m + n) gives torch.rand(m)'s numbers, then torch.rand(n)'s: one word a number
  TorchRandom split(5), whole(5);
  std::vector<float> u(7), w(7);
  split.uniform(u.data(), 3);
  split.uniform(u.data() + 3, 4);
  whole.uniform(w.data(), 7);
  EXPECT_EQ(u, w);
}

TEST(KorniaDraws, GateTakesWordsOnlyBetweenZeroAndOne) {
  TorchRandom random(3), mirror(3);
  std::vector<float> gate(5);
  kornia_gate(random, 1.0, false, 5, gate.data());
  EXPECT_EQ(gate, std::vector<float>(5, 1.0f));
  kornia_gate(random, 0.0, false, 5, gate.data());
  EXPECT_EQ(gate, std::vector<float>(5, 0.0f));
  kornia_gate(random, 0.5, false, 5, gate.data());
  std::vector<float> u(5);
  mirror.uniform(u.data(), 5);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(gate[i], u[i] < 0.5f ? 1.0f : 0.0f);
  kornia_gate(random, 0.5, true, 5, gate.data());  // one word for the batch
  mirror.uniform(u.data(), 1);
  EXPECT_EQ(gate, std::vector<float>(5, u[0] < 0.5f ? 1.0f : 0.0f));
  EXPECT_EQ(random.word(), mirror.word());
}

TEST(KorniaDraws, CropBoxesFitAndTakeKorniasWords) {
  for (const bool same : {false, true}) {
    ResizedCropConfig config;
    config.log_ratio_low = std::log(3.0f / 4.0f), config.log_ratio_high = std::log(4.0f / 3.0f);
    config.out_height = 24, config.out_width = 20;
    config.same_on_batch = same;
    const int64_t batch = 6, height = 37, width = 50;
    TorchRandom random(11), mirror(11);
    std::vector<float> scratch(batch * (2 * kResizedCropCandidates + 2)), src(batch * 8), dst(batch * 8);
    kornia_resized_crop(random, config, batch, height, width, c_library_exp, nullptr, scratch.data(), src.data(),
                        dst.data());
    const int64_t rows = same ? 1 : batch;
    std::vector<float> skip(static_cast<size_t>(rows * (2 * kResizedCropCandidates + 2)));
    mirror.uniform(skip.data(), static_cast<int64_t>(skip.size()));
    EXPECT_EQ(random.word(), mirror.word());
    for (int64_t b = 0; b < batch; ++b) {
      const float* box = &src[b * 8];
      EXPECT_GE(box[0], 0.0f);
      EXPECT_GE(box[1], 0.0f);
      EXPECT_LE(box[4], width - 1.0f);
      EXPECT_LE(box[5], height - 1.0f);
      EXPECT_LE(box[0], box[4]);
      EXPECT_LE(box[1], box[5]);
      EXPECT_EQ(dst[b * 8 + 4], 19.0f);
      EXPECT_EQ(dst[b * 8 + 5], 23.0f);
      if (same) EXPECT_TRUE(std::equal(box, box + 8, &src[0]));
    }
  }
}

TEST(KorniaDraws, JitterFactorsInTheirRangesAndAnOrder) {
  ColorJitterConfig config;
  const float low[4] = {0.6f, 0.6f, -0.1f, 0.6f}, high[4] = {1.4f, 1.4f, 0.1f, 1.4f};
  std::copy(low, low + 4, config.low);
  std::copy(high, high + 4, config.high);
  TorchRandom random(7);
  const int64_t batch = 9;
  std::vector<float> factors(4 * batch);
  int64_t order[4];
  kornia_color_jitter(random, config, batch, factors.data(), order);
  for (int k = 0; k < 4; ++k) {
    for (int64_t b = 0; b < batch; ++b) {
      EXPECT_GE(factors[k * batch + b], low[k]);
      EXPECT_LE(factors[k * batch + b], high[k]);
    }
  }
  std::vector<int64_t> sorted(order, order + 4);
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST(KorniaDraws, UniformIsKorniasRsample) {
  // torch.manual_seed(0); kornia RandomBrightness((0.8, 1.2)).forward_parameters((3, 3, 4, 4))
  const float want[3] = {0x1.ff3bbep-1f, 0x1.1b7746p+0f, 0x1.abb85ep-1f};
  for (const bool same : {false, true}) {
    TorchRandom random(0);
    float got[3];
    kornia_uniform(random, 0.8f, 1.2f, same, 3, got);
    for (int b = 0; b < 3; ++b) EXPECT_EQ(got[b], want[same ? 0 : b]) << same << " " << b;
    TorchRandom after(0);  // one word a value drawn: three, or one for the batch
    float skip[3];
    after.uniform(skip, same ? 1 : 3);
    EXPECT_EQ(random.word(), after.word());
  }
}

TEST(KorniaDraws, PosterizeRoundsKorniasUniformHalfToEven) {
  // torch.manual_seed(0); kornia RandomPosterize((0.0, 8.0), p=1.0).forward_parameters((5, 3, 4, 4))
  const int32_t want[5] = {4, 6, 1, 1, 2};
  TorchRandom random(0);
  int32_t got[5];
  kornia_posterize(random, 0.0f, 8.0f, false, 5, got);
  for (int b = 0; b < 5; ++b) EXPECT_EQ(got[b], want[b]) << b;
  for (const float half : {2.5f, 3.5f}) {  // torch.round: to the even neighbour
    int32_t bits = -1;
    kornia_posterize(random, half, half, true, 1, &bits);
    EXPECT_EQ(bits, half == 2.5f ? 2 : 4);
  }
}

TEST(KorniaDraws, GaussianKernelIsKorniasWithTheCLibrarysExp) {
  // kornia.filters.kernels.gaussian(5, [[1.5], [0.0]]) and gaussian(4, [[0.7]]) on torch 2.11: the C
  // library's expf gives torch's numbers for these (the torch extension passes torch's own exp)
  const float sigma[2] = {1.5f, 0.0f};
  float kernel[10], sums[2];
  kornia_gaussian_kernel1d(sigma, 2, 5, c_library_exp, nullptr, torch_scalar_row_sum, nullptr, sums, kernel);
  const float want[5] = {0x1.ebd74ep-4f, 0x1.defcdep-3f, 0x1.2b1778p-2f, 0x1.defcdep-3f, 0x1.ebd74ep-4f};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(kernel[i], want[i]) << i;
  for (int i = 0; i < 5; ++i) EXPECT_EQ(kernel[5 + i], i == 2 ? 1.0f : 0.0f) << "sigma 0: the unit impulse";
  const float narrow = 0.7f;
  float even[4], sum = 0;
  kornia_gaussian_kernel1d(&narrow, 1, 4, c_library_exp, nullptr, torch_scalar_row_sum, nullptr, &sum, even);
  const float want_even[4] = {0x1.d6f916p-5f, 0x1.c520dcp-2f, 0x1.c520dcp-2f, 0x1.d6f916p-5f};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(even[i], want_even[i]) << i;
}

TEST(KorniaMatrix, AffineIsKorniasWithinAnUlpOnTheCLibrarysTrig) {
  // kornia RandomAffine.compute_transformation on torch 2.11 for translations (3, -2), center
  // (31.5, 23.5), scale (1.1, 0.9), angle 25, shear (10, -5); the torch extension passes torch's
  // sin, cos, tan and bmm and is equal (tests/python/test_native_draws.py), the C library's trig
  // may round the last bit differently
  const float translations[2] = {3.0f, -2.0f}, center[2] = {31.5f, 23.5f}, scale[2] = {1.1f, 0.9f};
  const float angle = 25.0f, shear_x = 10.0f, shear_y = -5.0f;
  const float want[9] = {0x1.ed6514p-1f,
                         -0x1.19bdc6p-1f,
                         0x1.1137ep+4f,
                         0x1.128e64p-1f,
                         0x1.713708p-1f,
                         -0x1.8ad128p+3f,
                         0.0f,
                         0.0f,
                         1.0f};
  std::vector<float> scratch(40);
  float got[9];
  kornia_affine_matrix(translations, center, scale, &angle, &shear_x, &shear_y, 1, c_library_matrix_functions(),
                       scratch.data(), got);
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(got[i], want[i], 4e-6f * (1.0f + std::fabs(want[i]))) << i;
  EXPECT_EQ(got[6], 0.0f);
  EXPECT_EQ(got[8], 1.0f);
  // no rotation, scale 1, no shear or translation: the identity
  const float zero2[2] = {0.0f, 0.0f}, one2[2] = {1.0f, 1.0f}, zero = 0.0f;
  kornia_affine_matrix(zero2, center, one2, &zero, &zero, &zero, 1, c_library_matrix_functions(), scratch.data(), got);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(got[i], i % 4 == 0 ? 1.0f : 0.0f) << i;
}

TEST(KorniaMatrix, PerspectiveMapsTheDrawnCornersOntoTheirEnds) {
  TorchRandom random(3);
  const int64_t batch = 3, height = 40, width = 50;
  float start[24], end[24];
  kornia_perspective(random, 0.5f, 0.0f, 1.0f, false, false, batch, height, width, start, end);
  std::vector<float> scratch(60 * batch);
  float m[27];
  kornia_perspective_matrix(start, end, batch, c_library_matrix_functions(), scratch.data(), m);
  for (int64_t b = 0; b < batch; ++b) {
    EXPECT_EQ(start[8 * b + 2], 49.0f);  // the corners (0, 0), (W - 1, 0), (W - 1, H - 1), (0, H - 1)
    EXPECT_EQ(start[8 * b + 5], 39.0f);
    for (int i = 0; i < 8; ++i) EXPECT_LE(std::fabs(end[8 * b + i] - start[8 * b + i]), (i % 2 ? 20.0f : 25.0f) / 2);
    const float* h = m + 9 * b;
    EXPECT_EQ(h[8], 1.0f);
    for (int k = 0; k < 4; ++k) {
      const float x = start[8 * b + 2 * k], y = start[8 * b + 2 * k + 1];
      const float w = h[6] * x + h[7] * y + h[8];
      EXPECT_NEAR((h[0] * x + h[1] * y + h[2]) / w, end[8 * b + 2 * k], 1e-3f);
      EXPECT_NEAR((h[3] * x + h[4] * y + h[5]) / w, end[8 * b + 2 * k + 1], 1e-3f);
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace u8aug
