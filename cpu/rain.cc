// RandomRain on the CPU (pixel/rain.h's rule): each sample's rows copied, then its drops' pixels set,
// drop by drop, step by step. Plain C++: the work is a scatter of a few thousand pixels.
#include <cstring>
#include <string>
#include <vector>

#include "cpu/parallel.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/rain.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cpu {

void rain(const ConstImage& src, const Image& dst, const RainDrops& drops, const ParallelFor& parallel) {
  const char* op = "rain";
  detail::check_rain(op, src, dst, drops);
  // kornia's own checks of the drawn shapes, per sample
  for (int64_t b = 0; b < src.batch; ++b) {
    if (drops.heights[b] <= 0 || drops.heights[b] >= src.height) {
      detail::fail(op, "drop heights must be greater than 0 and less than the image height " +
                           std::to_string(src.height) + ", got " + std::to_string(drops.heights[b]));
    }
    if (abs64(drops.widths[b]) >= src.width) {
      detail::fail(op, "drop widths must be less than the image width " + std::to_string(src.width) +
                           " in magnitude, got " + std::to_string(drops.widths[b]));
    }
  }
  const bool dense_rows = src.stride_w == dst.stride_w && src.stride_c == dst.stride_c &&
                          (src.stride_w == 1 || (src.stride_c == 1 && src.stride_w == src.channels));
  const int64_t row_bytes = src.width * src.channels;
  run_parallel(parallel, src.batch, 1, [&](int64_t begin, int64_t end) {
    std::vector<int64_t> offsets[2];
    for (int64_t b = begin; b < end; ++b) {
      for (int64_t c = 0; c < (dense_rows && src.stride_w != 1 ? 1 : src.channels); ++c)
        for (int64_t y = 0; y < src.height; ++y) {
          if (dense_rows) {
            std::memcpy(&dst.at(b, c, y, 0), &src.at(b, c, y, 0),
                        static_cast<size_t>(src.stride_w == 1 ? src.width : row_bytes));
            continue;
          }
          for (int64_t x = 0; x < src.width; ++x) dst.at(b, c, y, x) = src.at(b, c, y, x);
        }
      // the line's offsets once a sample, each drop's start once: pixel/rain.h's rain_pixel, hoisted
      const RainLine line = rain_line(drops.heights[b], drops.widths[b], src.height, src.width);
      std::vector<int64_t>& dy = offsets[0];
      std::vector<int64_t>& dx = offsets[1];
      dy.resize(static_cast<size_t>(line.length));
      dx.resize(static_cast<size_t>(line.length));
      for (int64_t k = 0; k < line.length; ++k) {
        dy[static_cast<size_t>(k)] = linspace_long(line.last_dy, line.length, k);
        dx[static_cast<size_t>(k)] = line.shift + linspace_long(line.last_dx, line.length, k);
      }
      const int64_t count = drops.drops[b] < drops.max_drops ? drops.drops[b] : drops.max_drops;
      // locals, not members: every byte stored may alias any of them (uint8_t), so members would be
      // reloaded after each store
      const int64_t* const down = dy.data();
      const int64_t* const across = dx.data();
      const int64_t length = line.length, rows = line.rows, cols = line.cols, height = src.height, width = src.width,
                    channels = dst.channels, stride_c = dst.stride_c, stride_h = dst.stride_h, stride_w = dst.stride_w;
      uint8_t* const plane = &dst.at(b, 0, 0, 0);
      const float* const starts = drops.coordinates + b * drops.max_drops * 2;
      for (int64_t j = 0; j < count; ++j) {
        const int64_t row = rain_start(starts[2 * j], rows), col = rain_start(starts[2 * j + 1], cols);
        for (int64_t k = 0; k < length; ++k) {
          uint8_t* const p =
              plane + clamp_index(row + down[k], height) * stride_h + clamp_index(col + across[k], width) * stride_w;
          for (int64_t c = 0; c < channels; ++c) p[c * stride_c] = kRainDrop;
        }
      }
    }
  });
}

}  // namespace cpu
}  // namespace u8aug
