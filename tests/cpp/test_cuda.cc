// CUDA kernels against the CPU kernels, byte for byte (pixels and untouched padding). Skipped
// when no GPU is present.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "image_buffer.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace test {
namespace {

bool have_gpu() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

using CudaRun = std::function<void(const ConstImage&, const Image&, cudaStream_t)>;
using CpuRun = std::function<void(const ConstImage&, const Image&)>;

// Device copies of host values, freed at scope exit.
struct DeviceFloats {
  float* ptr = nullptr;
  explicit DeviceFloats(const std::vector<float>& v) {
    cudaMalloc(&ptr, v.size() * sizeof(float));
    cudaMemcpy(ptr, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice);
  }
  ~DeviceFloats() { cudaFree(ptr); }
};

void compare(const CudaRun& gpu, const CpuRun& cpu_run) {
  struct Case {
    int64_t b, c, h, w;
    Layout layout;
  };
  const Case cases[] = {{1, 1, 1, 1, Layout::kPlanar},          {3, 3, 257, 129, Layout::kPlanar},
                        {3, 3, 257, 129, Layout::kInterleaved}, {2, 4, 3, 5, Layout::kInterleaved},
                        {1, 5, 77, 1, Layout::kPlanarPadded},   {8, 3, 224, 224, Layout::kInterleavedPadded},
                        {2, 2, 31, 33, Layout::kPixelPadded}};
  for (const Case& k : cases) {
    SCOPED_TRACE(std::to_string(k.b) + "x" + std::to_string(k.c) + "x" + std::to_string(k.h) + "x" +
                 std::to_string(k.w) + " " + layout_name(k.layout));
    TestImage src(k.layout, k.b, k.c, k.h, k.w), expected(k.layout, k.b, k.c, k.h, k.w),
        got(k.layout, k.b, k.c, k.h, k.w);
    src.fill_random(static_cast<uint32_t>(k.h * 31 + k.w));
    cpu_run(src.view, expected.view);

    uint8_t *d_src = nullptr, *d_dst = nullptr;
    ASSERT_EQ(cudaMalloc(&d_src, src.buffer.size()), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&d_dst, got.buffer.size()), cudaSuccess);
    cudaMemcpy(d_src, src.buffer.data(), src.buffer.size(), cudaMemcpyHostToDevice);
    cudaMemcpy(d_dst, got.buffer.data(), got.buffer.size(), cudaMemcpyHostToDevice);
    ConstImage dev_src = src.view;
    dev_src.data = d_src + kGuard;
    Image dev_dst = got.view;
    dev_dst.data = d_dst + kGuard;
    gpu(dev_src, dev_dst, nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    cudaMemcpy(got.buffer.data(), d_dst, got.buffer.size(), cudaMemcpyDeviceToHost);
    cudaFree(d_src);
    cudaFree(d_dst);
    EXPECT_EQ(got.buffer, expected.buffer);  // pixels and untouched padding alike
  }
}

TEST(CudaFlip, HflipEqualsCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  compare([](auto s, auto d, auto st) { cuda::hflip(s, d, st); }, [](auto s, auto d) { cpu::hflip(s, d); });
}

TEST(CudaFlip, VflipEqualsCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  compare([](auto s, auto d, auto st) { cuda::vflip(s, d, st); }, [](auto s, auto d) { cpu::vflip(s, d); });
}

// Per-sample parameters (8 values, cycled to the batch) and a single shared one.
TEST(CudaPoint, EveryPointOpEqualsCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (int64_t count : {1, 0}) {  // 0: one value per sample
    auto values = [&](std::vector<float> v) {
      std::vector<float> out;
      for (int i = 0; i < 8; ++i) out.push_back(v[i % v.size()]);
      return out;
    };
    const std::vector<float> factor = values({-0.3f, 0.0f, 0.2f}), mul = values({0.5f, 1.0f, 1.7f}),
                             gamma = values({0.5f, 1.0f, 2.2f}), gain = values({1.0f, 0.7f}),
                             thr = values({0.5f, 0.1f, 0.9f}), add = values({0.0f, -0.2f, 0.3f}),
                             bits = values({1.0f, 4.0f, 8.0f, 0.0f});
    DeviceFloats d_factor(factor), d_mul(mul), d_gamma(gamma), d_gain(gain), d_thr(thr), d_add(add), d_bits(bits);
    // Batches in compare() are at most 8; count 0 means "B values", set per case below.
    auto host = [&](const std::vector<float>& v, int64_t b) { return Samples{v.data(), count ? 1 : b}; };
    auto dev = [&](const DeviceFloats& v, int64_t b) { return Samples{v.ptr, count ? 1 : b}; };
    compare([&](auto s, auto d, auto st) { cuda::adjust_brightness(s, d, dev(d_factor, s.batch), st); },
            [&](auto s, auto d) { cpu::adjust_brightness(s, d, host(factor, s.batch)); });
    compare([&](auto s, auto d, auto st) { cuda::adjust_brightness_accumulative(s, d, dev(d_mul, s.batch), st); },
            [&](auto s, auto d) { cpu::adjust_brightness_accumulative(s, d, host(mul, s.batch)); });
    compare([&](auto s, auto d, auto st) { cuda::adjust_contrast(s, d, dev(d_mul, s.batch), st); },
            [&](auto s, auto d) { cpu::adjust_contrast(s, d, host(mul, s.batch)); });
    compare([&](auto s, auto d,
                auto st) { cuda::adjust_contrast_with_mean(s, d, dev(d_mul, s.batch), dev(d_thr, s.batch), st); },
            [&](auto s, auto d) { cpu::adjust_contrast_with_mean(s, d, host(mul, s.batch), host(thr, s.batch)); });
    compare([&](auto s, auto d, auto st) { cuda::adjust_gamma(s, d, dev(d_gamma, s.batch), dev(d_gain, s.batch), st); },
            [&](auto s, auto d) { cpu::adjust_gamma(s, d, host(gamma, s.batch), host(gain, s.batch)); });
    compare([&](auto s, auto d, auto st) { cuda::solarize(s, d, dev(d_thr, s.batch), dev(d_add, s.batch), st); },
            [&](auto s, auto d) { cpu::solarize(s, d, host(thr, s.batch), host(add, s.batch)); });
    compare([&](auto s, auto d, auto st) { cuda::posterize(s, d, dev(d_bits, s.batch), st); },
            [&](auto s, auto d) { cpu::posterize(s, d, host(bits, s.batch)); });
    compare([&](auto s, auto d, auto st) { cuda::invert(s, d, st); }, [&](auto s, auto d) { cpu::invert(s, d); });
  }
}

TEST(CudaNormalize, EqualsCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const std::vector<float> mean = {0.485f, 0.456f, 0.406f}, std = {0.229f, 0.224f, 0.225f};
  DeviceFloats d_mean(mean), d_std(std);
  for (Layout layout : {Layout::kPlanar, Layout::kInterleaved, Layout::kPixelPadded}) {
    TestImage src(layout, 4, 3, 57, 83);
    src.fill_random(11);
    TestBuffer<float> expected(layout, 4, 3, 57, 83), got(layout, 4, 3, 57, 83);
    cpu::normalize(src.view, expected.view, {mean.data(), 3}, {std.data(), 3});
    uint8_t* d_src = nullptr;
    float* d_dst = nullptr;
    ASSERT_EQ(cudaMalloc(&d_src, src.buffer.size()), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&d_dst, got.buffer.size() * sizeof(float)), cudaSuccess);
    cudaMemcpy(d_src, src.buffer.data(), src.buffer.size(), cudaMemcpyHostToDevice);
    cudaMemcpy(d_dst, got.buffer.data(), got.buffer.size() * sizeof(float), cudaMemcpyHostToDevice);
    ConstImage dev_src = src.view;
    dev_src.data = d_src + kGuard;
    FloatImage dev_dst = got.view;
    dev_dst.data = d_dst + kGuard;
    cuda::normalize(dev_src, dev_dst, {d_mean.ptr, 3}, {d_std.ptr, 3}, nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    cudaMemcpy(got.buffer.data(), d_dst, got.buffer.size() * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_src);
    cudaFree(d_dst);
    EXPECT_EQ(got.buffer, expected.buffer) << layout_name(layout);
  }
}

}  // namespace
}  // namespace test
}  // namespace u8aug
