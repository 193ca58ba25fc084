// pad and rot90 on the CPU: pixel/index_maps.h's index maps, rows spread over threads.
#include <string>

#include "cpu/parallel.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/index_maps.h"

namespace u8aug {
namespace cpu {
namespace {

template <class Element>
void for_each_element(const Image& dst, const ParallelFor& parallel, Element&& element) {
  run_parallel(parallel, dst.batch * dst.height, grain_for(dst.width * dst.channels), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t b = r / dst.height, y = r % dst.height;
      for (int64_t x = 0; x < dst.width; ++x)
        for (int64_t c = 0; c < dst.channels; ++c) element(b, c, y, x);
    }
  });
}

}  // namespace

void pad(const ConstImage& src, const Image& dst, const PadSpec& spec, const ParallelFor& parallel) {
  detail::check_pad("pad", src, dst, spec);
  for_each_element(dst, parallel,
                   [&](int64_t b, int64_t c, int64_t y, int64_t x) { pad_element(src, dst, spec, b, c, y, x); });
}

void rot90(const ConstImage& src, const Image& dst, int k, const ParallelFor& parallel) {
  detail::check_rot90("rot90", src, dst, k);
  const int turns = ((k % 4) + 4) % 4;
  for_each_element(dst, parallel,
                   [&](int64_t b, int64_t c, int64_t y, int64_t x) { rot90_element(src, dst, turns, b, c, y, x); });
}

}  // namespace cpu
}  // namespace u8aug
