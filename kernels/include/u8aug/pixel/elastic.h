// kornia's elastic_transform2d on uint8: the sampling grid its float32 steps make from the drawn
// noise, then grid_sample of the bytes at it. Shared by the CPU loop and the CUDA kernels:
//   1. each noise plane (x, then y displacement) through filter2d_separable with zero padding:
//      F.conv2d of a 1 x Kx kernel along the rows, then of a Ky x 1 kernel down the columns. torch's
//      CPU convolution sums each output as a chain of fused multiply-adds in tap order from the
//      first tap's product, the zero padding included (measured: every output of 1 x K and K x 1
//      kernels, K = 3 to 63, on torch 2.11 and 2.15);
//   2. times alpha (one rounding), plus the identity F.affine_grid's coordinate (another);
//   3. grid_sample at that point (pixel/sample.h).
#pragma once

#include <math.h>

#include <cstdint>

#include "u8aug/hd.h"
#include "u8aug/image.h"
#include "u8aug/pixel/sample.h"
#include "u8aug/pixel/warp.h"

namespace u8aug {

// What an elastic transform is asked for: kornia's drawn noise, float32 (count, 2, H, W) contiguous
// with count 1 (one field for the batch) or B, plane 0 the x and plane 1 the y displacement; the two
// Gaussian kernels (kernel_x along W, kernel_y along H; each anchored at (taps - 1) / 2 as
// filter2d's); alpha (x, y); grid_sample's mode, padding (zeros, border, reflection) and
// align_corners. The arrays are in the memory of the backend that runs it.
struct ElasticParams {
  const float* noise = nullptr;
  int64_t count = 0;
  const float* kernel_x = nullptr;
  int64_t taps_x = 0;
  const float* kernel_y = nullptr;
  int64_t taps_y = 0;
  const float* alpha = nullptr;  // two values
  Interp mode = Interp::kBilinear;
  Padding padding = Padding::kZeros;
  bool align_corners = false;
  CubicSum cubic_across = CubicSum::kPairThenAdds;  // bicubic's row order (WarpParams)
};

// Output i of a zero-padded correlation along a line of `size` values, at(j) the j-th: F.conv2d's
// chain (step 1).
template <class At>
U8AUG_HD float smooth_chain(const At& at, int64_t i, int64_t size, const float* kernel, int64_t taps) {
  const int64_t first = i - (taps - 1) / 2;
  auto value = [&](int64_t j) { return j >= 0 && j < size ? at(j) : 0.0f; };
  float acc = value(first) * kernel[0];
  for (int64_t t = 1; t < taps; ++t) acc = fmaf(value(first + t), kernel[t], acc);
  return acc;
}

// The row pass over every noise value: rows[i] of (count, 2, H, W) from noise.
struct ElasticRowsBody {
  ElasticParams p;
  int64_t height, width;
  float* rows;
  U8AUG_HD int64_t count() const { return p.count * 2 * height * width; }
  U8AUG_HD void operator()(int64_t i) const {
    const float* line = p.noise + (i - i % width);
    rows[i] = smooth_chain([&](int64_t j) { return line[j]; }, i % width, width, p.kernel_x, p.taps_x);
  }
};

// The column pass and alpha: displacement[i] of (count, 2, H, W) from the row pass's output.
struct ElasticColumnsBody {
  ElasticParams p;
  int64_t height, width;
  const float* rows;
  float* displacement;
  U8AUG_HD int64_t count() const { return p.count * 2 * height * width; }
  U8AUG_HD void operator()(int64_t i) const {
    const int64_t plane_size = height * width, x = i % width, y = (i / width) % height;
    const float* column = rows + (i - i % plane_size) + x;
    const float s = smooth_chain([&](int64_t j) { return column[j * width]; }, y, height, p.kernel_y, p.taps_y);
    displacement[i] = s * p.alpha[(i / plane_size) % 2];
  }
};

// F.affine_grid's coordinate i of n for the identity (its linspace_from_neg_one): torch.linspace(-1,
// 1, n), without align_corners times (n - 1), then divided by n, each rounded; 0 for n = 1. (The
// identity's matrix product adds exact zeros.)
U8AUG_HD float identity_grid_base(int64_t i, int64_t n, bool align_corners) {
  if (n <= 1) return 0.0f;
  const float linspace = affine_base(i, n, true);
  return align_corners ? linspace : linspace * static_cast<float>(n - 1) / static_cast<float>(n);
}

// Sample b's grid point at output pixel (y, x) from its displacement planes (step 2).
U8AUG_HD GridPoint elastic_point(const float* displacement, int64_t height, int64_t width, int64_t y, int64_t x,
                                 bool align_corners) {
  const int64_t at = y * width + x;
  return GridPoint{identity_grid_base(x, width, align_corners) + displacement[at],
                   identity_grid_base(y, height, align_corners) + displacement[height * width + at]};
}

// The sampling (step 3): one output pixel, all channels, in (b, y, x) order.
struct ElasticSampleBody {
  ConstImage src;
  Image dst;
  ElasticParams p;
  const float* displacement;  // (count, 2, H, W)
  U8AUG_HD int64_t count() const { return dst.batch * dst.height * dst.width; }
  U8AUG_HD void operator()(int64_t i) const {
    const int64_t x = i % dst.width, y = (i / dst.width) % dst.height, b = i / (dst.width * dst.height);
    const float* d = displacement + (p.count == 1 ? 0 : b) * 2 * dst.height * dst.width;
    sample_pixel(src, dst, elastic_point(d, dst.height, dst.width, y, x, p.align_corners), p.mode, p.padding,
                 p.align_corners, p.cubic_across, Values{}, b, y, x);
  }
};

}  // namespace u8aug
