// Argument checks of the standalone C++ API, shared by the CPU and CUDA entry points. Host only.
// Every failure throws std::invalid_argument with a message that names the op, the argument and
// what was expected; nothing is written before the checks pass.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "u8aug/image.h"

namespace u8aug {
namespace detail {

[[noreturn]] inline void fail(const char* op, const std::string& what) {
  throw std::invalid_argument(std::string("u8aug.") + op + ": " + what);
}

template <class T>
void check_view(const char* op, const char* name, const ImageView<T>& v) {
  if (v.data == nullptr) fail(op, std::string(name) + " has a null data pointer");
  if (v.batch < 1 || v.channels < 1 || v.height < 1 || v.width < 1) {
    fail(op, std::string(name) + " must have every dimension >= 1, got (B, C, H, W) = (" +
                 std::to_string(v.batch) + ", " + std::to_string(v.channels) + ", " +
                 std::to_string(v.height) + ", " + std::to_string(v.width) + ")");
  }
  if (v.stride_b < 0 || v.stride_c < 0 || v.stride_h < 0 || v.stride_w < 0) {
    fail(op, std::string(name) + " has a negative stride");
  }
}

// [first, last] byte addresses a view can touch.
template <class T>
void byte_span(const ImageView<T>& v, uintptr_t* first, uintptr_t* last) {
  const int64_t extent = (v.batch - 1) * v.stride_b + (v.channels - 1) * v.stride_c +
                         (v.height - 1) * v.stride_h + (v.width - 1) * v.stride_w;
  *first = reinterpret_cast<uintptr_t>(v.data);
  *last = *first + static_cast<uintptr_t>(extent);
}

// The output must not be written through a view that shares any byte with the input: a kernel
// would read pixels it has already overwritten.
inline void check_unary(const char* op, const ConstImage& src, const Image& dst) {
  check_view(op, "src", src);
  check_view(op, "dst", dst);
  if (!same_shape(src, dst)) fail(op, "src and dst must have the same (B, C, H, W) shape");
  uintptr_t s0, s1, d0, d1;
  byte_span(src, &s0, &s1);
  byte_span(dst, &d0, &d1);
  if (std::max(s0, d0) <= std::min(s1, d1)) fail(op, "dst overlaps src; in-place is not supported");
}

}  // namespace detail
}  // namespace u8aug
