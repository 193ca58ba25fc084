// Test images: a byte buffer with guard bytes around an image view of any layout, so a test can
// check that a kernel wrote every pixel of its output and nothing else.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include "u8aug/image.h"

namespace u8aug {
namespace test {

enum class Layout { kPlanar, kInterleaved, kPlanarPadded, kInterleavedPadded, kPixelPadded };

inline const char* layout_name(Layout l) {
  switch (l) {
    case Layout::kPlanar: return "planar";
    case Layout::kInterleaved: return "interleaved";
    case Layout::kPlanarPadded: return "planar-padded";
    case Layout::kInterleavedPadded: return "interleaved-padded";
    case Layout::kPixelPadded: return "pixel-padded";
  }
  return "?";
}

constexpr uint8_t kSentinel = 0xA5;
constexpr int64_t kGuard = 64;

template <class T>
struct TestBuffer {
  std::vector<T> buffer;
  ImageView<T> view;

  TestBuffer(Layout layout, int64_t b, int64_t c, int64_t h, int64_t w) {
    view = ImageView<T>{nullptr, b, c, h, w, 0, 0, 0, 0};
    switch (layout) {
      case Layout::kPlanar: view = nchw<T>(nullptr, b, c, h, w); break;
      case Layout::kInterleaved: view = nhwc<T>(nullptr, b, c, h, w); break;
      case Layout::kPlanarPadded:  // odd paddings after each row, plane and image
        view.stride_w = 1;
        view.stride_h = w + 7;
        view.stride_c = h * view.stride_h + 3;
        view.stride_b = c * view.stride_c + 5;
        break;
      case Layout::kInterleavedPadded:
        view.stride_c = 1;
        view.stride_w = c;
        view.stride_h = w * c + 9;
        view.stride_b = h * view.stride_h + 1;
        break;
      case Layout::kPixelPadded:  // 2 spare bytes per pixel: no SIMD row layout applies
        view.stride_c = 1;
        view.stride_w = c + 2;
        view.stride_h = w * view.stride_w;
        view.stride_b = h * view.stride_h;
        break;
    }
    const int64_t extent =
        (b - 1) * view.stride_b + (c - 1) * view.stride_c + (h - 1) * view.stride_h + (w - 1) * view.stride_w + 1;
    buffer.assign(static_cast<size_t>(extent + 2 * kGuard), static_cast<T>(kSentinel));
    view.data = buffer.data() + kGuard;
  }

  void fill_random(uint32_t seed) {
    std::mt19937 rng(seed);
    for (auto& v : buffer) v = static_cast<T>(static_cast<uint8_t>(rng()));
  }

  // Every byte of the buffer that is not a pixel of the view.
  std::vector<bool> pixel_mask() const {
    std::vector<bool> mask(buffer.size(), false);
    for (int64_t b = 0; b < view.batch; ++b)
      for (int64_t c = 0; c < view.channels; ++c)
        for (int64_t y = 0; y < view.height; ++y)
          for (int64_t x = 0; x < view.width; ++x) mask[static_cast<size_t>(kGuard + view.offset(b, c, y, x))] = true;
    return mask;
  }

  // Number of non-pixel bytes that no longer hold the sentinel.
  int64_t clobbered_padding() const {
    const std::vector<bool> mask = pixel_mask();
    int64_t n = 0;
    for (size_t i = 0; i < buffer.size(); ++i) n += !mask[i] && buffer[i] != static_cast<T>(kSentinel);
    return n;
  }
};
using TestImage = TestBuffer<uint8_t>;

struct Shape {
  int64_t h, w;
};
// Sizes around the vector widths (16/32/64 lanes, 3 channels per interleaved load) and odd sizes.
inline const Shape kShapes[] = {{1, 1},   {1, 77},  {77, 1}, {3, 5},  {257, 129}, {2, 63}, {2, 64}, {2, 65}, {1, 191},
                                {1, 192}, {3, 257}, {2, 15}, {2, 16}, {2, 17},    {1, 31}, {1, 33}, {4, 224}};
inline const Layout kLayouts[] = {Layout::kPlanar, Layout::kInterleaved, Layout::kPlanarPadded,
                                  Layout::kInterleavedPadded, Layout::kPixelPadded};

// Pixels that differ between two views of one shape (floats: bit for bit, via ==).
template <class T>
int64_t count_differences(const ImageView<T>& a, const ImageView<T>& b) {
  int64_t n = 0;
  for (int64_t i = 0; i < a.batch; ++i)
    for (int64_t c = 0; c < a.channels; ++c)
      for (int64_t y = 0; y < a.height; ++y)
        for (int64_t x = 0; x < a.width; ++x) n += a.at(i, c, y, x) != b.at(i, c, y, x);
  return n;
}

// call() must throw std::invalid_argument whose message contains needle.
inline void expect_invalid(const std::function<void()>& call, const char* needle) {
  try {
    call();
    ADD_FAILURE() << "no exception, expected one mentioning '" << needle << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

// A test fixture run once per Highway target that is compiled in and that this CPU supports,
// with dynamic dispatch pinned to that target.
class OnEveryTarget : public ::testing::TestWithParam<int64_t> {
 protected:
  void SetUp() override { hwy::SetSupportedTargetsForTest(GetParam()); }
  void TearDown() override { hwy::SetSupportedTargetsForTest(0); }
};

#define U8AUG_INSTANTIATE_ON_EVERY_TARGET(Fixture)                                \
  INSTANTIATE_TEST_SUITE_P(                                                       \
      Targets, Fixture, ::testing::ValuesIn(hwy::SupportedAndGeneratedTargets()), \
      [](const ::testing::TestParamInfo<int64_t>& info) { return std::string(hwy::TargetName(info.param)); })

// A CUDA kernel's each-index body run on the CPU for every index, as cuda/launch.cuh runs it.
template <class Body>
void run_every_index(const Body& body) {
  for (int64_t i = 0; i < body.count(); ++i) body(i);
}

}  // namespace test
}  // namespace u8aug
