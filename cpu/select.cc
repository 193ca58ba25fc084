// select_samples on the CPU: each output sample is one copy of the chosen input sample, a single
// memcpy when both are dense in the same layout, pixel/select.h per element otherwise.
#include <cstring>

#include "cpu/parallel.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/select.h"

namespace u8aug {
namespace cpu {
namespace {

template <class A, class B>
bool same_strides(const ImageView<A>& a, const ImageView<B>& b) {
  return a.stride_c == b.stride_c && a.stride_h == b.stride_h && a.stride_w == b.stride_w;
}

// One sample occupies C*H*W consecutive elements (planar or interleaved, no padding).
template <class T>
bool dense_sample(const ImageView<T>& v) {
  const int64_t c = v.channels, h = v.height, w = v.width;
  return (v.stride_w == 1 && v.stride_h == w && v.stride_c == h * w) ||
         (v.stride_c == 1 && v.stride_w == c && v.stride_h == w * c);
}

}  // namespace

void select_samples(const bool* take, const ConstImage& a, const ConstImage& b, const Image& dst,
                    const ParallelFor& parallel) {
  detail::check_select("select_samples", take, a, b, dst);
  const int64_t per_sample = dst.channels * dst.height * dst.width;
  run_parallel(parallel, dst.batch, grain_for(per_sample), [&](int64_t begin, int64_t end) {
    for (int64_t s = begin; s < end; ++s) {
      const ConstImage& from = take[s] ? a : b;
      if (dense_sample(from) && dense_sample(dst) && same_strides(from, dst)) {
        std::memcpy(&dst.at(s, 0, 0, 0), &from.at(s, 0, 0, 0), static_cast<size_t>(per_sample));
        continue;
      }
      for (int64_t c = 0; c < dst.channels; ++c)
        for (int64_t y = 0; y < dst.height; ++y)
          for (int64_t x = 0; x < dst.width; ++x) select_element(a, b, dst, take, s, c, y, x);
    }
  });
}

}  // namespace cpu
}  // namespace u8aug
