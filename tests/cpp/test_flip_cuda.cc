// CUDA flips against the CPU flips, byte for byte. Skipped when no GPU is present.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

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

using CudaFlip = void (*)(const ConstImage&, const Image&, cudaStream_t);
using CpuFlip = void (*)(const ConstImage&, const Image&, const ParallelFor&);

void compare(CudaFlip gpu, CpuFlip cpu_flip) {
  struct Case {
    int64_t b, c, h, w;
    Layout layout;
  };
  const Case cases[] = {{1, 1, 1, 1, Layout::kPlanar},      {3, 3, 257, 129, Layout::kPlanar},
                        {3, 3, 257, 129, Layout::kInterleaved}, {2, 4, 3, 5, Layout::kInterleaved},
                        {1, 5, 77, 1, Layout::kPlanarPadded}, {8, 3, 224, 224, Layout::kInterleavedPadded},
                        {2, 2, 31, 33, Layout::kPixelPadded}};
  for (const Case& k : cases) {
    SCOPED_TRACE(std::to_string(k.b) + "x" + std::to_string(k.c) + "x" + std::to_string(k.h) +
                 "x" + std::to_string(k.w) + " " + layout_name(k.layout));
    TestImage src(k.layout, k.b, k.c, k.h, k.w), expected(k.layout, k.b, k.c, k.h, k.w),
        got(k.layout, k.b, k.c, k.h, k.w);
    src.fill_random(static_cast<uint32_t>(k.h * 31 + k.w));
    cpu_flip(src.view, expected.view, serial_for());

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
  compare(&cuda::hflip, &cpu::hflip);
}

TEST(CudaFlip, VflipEqualsCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  compare(&cuda::vflip, &cpu::vflip);
}

}  // namespace
}  // namespace test
}  // namespace u8aug
