// What fuzz_ops.cc builds its cases from: buffers holding one view with guard bands and sentinel
// gaps, the comparison with the reference, and hostile parameter values.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "u8aug/image.h"

namespace u8aug {
namespace fuzz {

constexpr int64_t kGuard = 64;
inline char g_case[320];  // what the failing input was, printed by die()
constexpr uint8_t kSentinel = 0xA5;

[[noreturn]] inline void die(const char* what) {
  std::fprintf(stderr, "u8aug fuzz: %s (%s)\n", what, g_case);
  std::abort();
}

// A buffer holding one view with guard bands around it and sentinel bytes in every gap.
template <class T>
struct Buffer {
  std::vector<T> bytes;
  ImageView<T> view;
  Buffer(FuzzedDataProvider& in, int64_t b, int64_t c, int64_t h, int64_t w, bool allow_overlap) {
    const int kind = in.ConsumeIntegralInRange<int>(0, allow_overlap ? 4 : 3);
    const int64_t pad = in.ConsumeIntegralInRange<int64_t>(0, 3);
    switch (kind) {
      case 0: view = nchw<T>(nullptr, b, c, h, w); break;
      case 1: view = nhwc<T>(nullptr, b, c, h, w); break;
      case 2:  // planar with gaps after rows, planes and images
        view = {nullptr, b, c, h, w, c * (h * (w + pad) + pad) + pad, h * (w + pad) + pad, w + pad, 1};
        break;
      case 3:  // interleaved with gaps after pixels and rows
        view = {nullptr, b, c, h, w, h * (w * (c + pad) + pad), 1, w * (c + pad) + pad, c + pad};
        break;
      default:  // samples, channels or rows that alias (stride 0): a broadcast input, an output to refuse
        view = {nullptr, b, c, h, w, in.ConsumeBool() ? 0 : h * w * c, in.ConsumeBool() ? 0 : 1, w * c, c};
        break;
    }
    const int64_t extent =
        (b - 1) * view.stride_b + (c - 1) * view.stride_c + (h - 1) * view.stride_h + (w - 1) * view.stride_w + 1;
    bytes.assign(static_cast<size_t>(extent + 2 * kGuard), static_cast<T>(kSentinel));
    view.data = bytes.data() + kGuard;
  }
  void fill(FuzzedDataProvider& in) {
    for (int64_t i = 0; i < view.batch; ++i)
      for (int64_t c = 0; c < view.channels; ++c)
        for (int64_t y = 0; y < view.height; ++y)
          for (int64_t x = 0; x < view.width; ++x) view.at(i, c, y, x) = static_cast<T>(in.ConsumeIntegral<uint8_t>());
  }
  // Whether every byte outside the view is still the sentinel.
  bool outside_untouched() const {
    std::vector<bool> inside(bytes.size(), false);
    for (int64_t i = 0; i < view.batch; ++i)
      for (int64_t c = 0; c < view.channels; ++c)
        for (int64_t y = 0; y < view.height; ++y)
          for (int64_t x = 0; x < view.width; ++x) inside[static_cast<size_t>(kGuard + view.offset(i, c, y, x))] = true;
    for (size_t k = 0; k < bytes.size(); ++k) {
      if (!inside[k] && std::memcmp(&bytes[k], &kSentinelOf, sizeof(T)) != 0) return false;
    }
    return true;
  }
  bool all_sentinel() const {
    for (const T& v : bytes)
      if (std::memcmp(&v, &kSentinelOf, sizeof(T)) != 0) return false;
    return true;
  }
  static inline const T kSentinelOf = static_cast<T>(kSentinel);
};

template <class T>
bool same_pixels(const ImageView<T>& a, const ImageView<T>& b) {
  for (int64_t i = 0; i < a.batch; ++i)
    for (int64_t c = 0; c < a.channels; ++c)
      for (int64_t y = 0; y < a.height; ++y)
        for (int64_t x = 0; x < a.width; ++x) {
          const T u = a.at(i, c, y, x), v = b.at(i, c, y, x);
          if (std::memcmp(&u, &v, sizeof(T)) != 0) {
            std::fprintf(stderr, "u8aug fuzz: first difference at (%lld, %lld, %lld, %lld): %g, reference %g\n",
                         static_cast<long long>(i), static_cast<long long>(c), static_cast<long long>(y),
                         static_cast<long long>(x), static_cast<double>(u), static_cast<double>(v));
            return false;
          }
        }
  return true;
}

template <class Body>
void run_every_index(const Body& body) {
  for (int64_t i = 0; i < body.count(); ++i) body(i);
}

// A float from the input: ordinary values in a range, or one of the hostile ones.
inline float hostile_float(FuzzedDataProvider& in, float lo, float hi) {
  switch (in.ConsumeIntegralInRange<int>(0, 9)) {
    case 0: return std::numeric_limits<float>::quiet_NaN();
    case 1: return std::numeric_limits<float>::infinity();
    case 2: return -std::numeric_limits<float>::infinity();
    case 3: return in.ConsumeBool() ? 3.0e38f : -3.0e38f;
    case 4: return in.ConsumeBool() ? 1e-38f : -1e-45f;
    case 5: return 0.0f;
    default: return in.ConsumeFloatingPointInRange<float>(lo, hi);
  }
}

inline std::vector<float> floats(FuzzedDataProvider& in, int64_t n, float lo, float hi) {
  std::vector<float> v(static_cast<size_t>(n));
  for (float& f : v) f = hostile_float(in, lo, hi);
  return v;
}

}  // namespace fuzz
}  // namespace u8aug
