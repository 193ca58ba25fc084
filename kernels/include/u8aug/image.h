// Image views: a pointer, the (B, C, H, W) shape and strides in elements. NCHW and NHWC are just
// two stride patterns; every kernel reads and writes through these, so the layout is data, not code.
#pragma once

#include <cstdint>
#include <type_traits>

#include "u8aug/hd.h"

namespace u8aug {

template <class T>
struct ImageView {
  T* data = nullptr;
  int64_t batch = 0, channels = 0, height = 0, width = 0;
  int64_t stride_b = 0, stride_c = 0, stride_h = 0, stride_w = 0;

  // 64-bit offsets: B*C*H*W passes 2^31 for ordinary batches of large images.
  U8AUG_HD int64_t offset(int64_t b, int64_t c, int64_t y, int64_t x) const {
    return b * stride_b + c * stride_c + y * stride_h + x * stride_w;
  }
  U8AUG_HD T& at(int64_t b, int64_t c, int64_t y, int64_t x) const { return data[offset(b, c, y, x)]; }
  U8AUG_HD int64_t numel() const { return batch * channels * height * width; }
  U8AUG_HD int64_t pixels() const { return batch * height * width; }

  // A read-only view of the same pixels (only for views of mutable pixels).
  template <class U = T, class = std::enable_if_t<!std::is_const<U>::value>>
  operator ImageView<const U>() const {
    return {data, batch, channels, height, width, stride_b, stride_c, stride_h, stride_w};
  }
};

using Image = ImageView<uint8_t>;
using ConstImage = ImageView<const uint8_t>;

// Dense planar layout: each channel is an H x W plane.
template <class T>
ImageView<T> nchw(T* data, int64_t b, int64_t c, int64_t h, int64_t w) {
  return {data, b, c, h, w, c * h * w, h * w, w, 1};
}

// Dense interleaved layout (torch's channels_last): each pixel holds its C channels together.
template <class T>
ImageView<T> nhwc(T* data, int64_t b, int64_t c, int64_t h, int64_t w) {
  return {data, b, c, h, w, h * w * c, 1, w * c, c};
}

struct Index4 {
  int64_t b, c, y, x;
};

// The i-th element of a (B, C, H, W) image counted in its memory order: channels fastest when the
// view is interleaved, columns fastest otherwise. GPU threads walk outputs this way so that
// neighbouring threads write neighbouring bytes.
template <class T>
U8AUG_HD Index4 element_index(const ImageView<T>& v, int64_t i) {
  Index4 k;
  if (v.stride_c < v.stride_w) {  // interleaved: b, y, x, c
    k.c = i % v.channels;
    i /= v.channels;
    k.x = i % v.width;
    i /= v.width;
    k.y = i % v.height;
    k.b = i / v.height;
  } else {  // planar: b, c, y, x
    k.x = i % v.width;
    i /= v.width;
    k.y = i % v.height;
    i /= v.height;
    k.c = i % v.channels;
    k.b = i / v.channels;
  }
  return k;
}

struct PixelIndex {
  int64_t b, y, x;
};

// The i-th pixel (b, y, x) of a view, columns fastest: for the kernels whose thread writes all
// channels of one pixel.
template <class T>
U8AUG_HD PixelIndex pixel_index(const ImageView<T>& v, int64_t i) {
  PixelIndex k;
  k.x = i % v.width;
  i /= v.width;
  k.y = i % v.height;
  k.b = i / v.height;
  return k;
}

// Each-index bodies. Every CUDA kernel is a functor body with count() and body(i) for i in
// [0, count()), written once in pixel/ next to the op's per-pixel function: the body decomposes
// i into the element or pixel it writes (element_index, pixel_index) and runs that function.
// cuda/launch.cuh runs a body for every index over a grid (launch_each_index, or for_each_index
// inside kernels that first fill shared memory); tests/cpp/test_each_index.cc runs the same bodies
// for every index on the CPU and compares them with the CPU path.

// Parameters that broadcast: `count` float32 values, one per item (per sample of the batch, or
// per channel), or one for all of them (count 1). Host memory for the cpu:: functions, device
// memory for the cuda:: ones.
struct Values {
  const float* values = nullptr;
  int64_t count = 0;

  U8AUG_HD float operator[](int64_t i) const { return values[count == 1 ? 0 : i]; }
};
using Samples = Values;     // one per image of the batch
using PerChannel = Values;  // one per channel

using FloatImage = ImageView<float>;

// Which arithmetic an op with a fast tier runs (FIDELITY.md): kExact, the default, reproduces
// kornia's float32 bytes; kFast is the opt-in fast class (every byte at most 1 from the exact
// tier's, at least 95% identical, no drift), the same on every backend, target and thread count.
enum class Fidelity : int32_t { kExact = 0, kFast = 1 };

template <class A, class B>
bool same_shape(const ImageView<A>& a, const ImageView<B>& b) {
  return a.batch == b.batch && a.channels == b.channels && a.height == b.height && a.width == b.width;
}

}  // namespace u8aug
