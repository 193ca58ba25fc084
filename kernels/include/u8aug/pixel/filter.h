// Separable filters (kornia.filters.filter2d_separable, what gaussian_blur2d and box_blur run):
// a horizontal pass, then a vertical one, each output the float32 sum over the kernel's taps of
// the padded input times the tap, accumulated from the first tap to the last with one fused
// multiply-add per tap, starting from 0: the order torch's CPU conv2d (oneDNN's depthwise kernel)
// and kornia's slice-and-addcmul path both take (measured: 100% of outputs bit for bit, kernels of
// 5 and 23 taps, 224x224 and 256x272 images, contiguous and channels_last). The first pass is
// rounded to float32 as kornia's intermediate tensor is; the second is quantized with to_u8.
#pragma once

#include <cmath>

#include "u8aug/image.h"

namespace u8aug {

// kornia's border types (F.pad's modes): constant pads zeros, reflect mirrors without repeating
// the edge, replicate repeats it, circular wraps around.
enum class Border : int32_t { kConstant = 0, kReflect = 1, kReplicate = 2, kCircular = 3 };

// The source index of padded position i (in [-radius, size + radius)) along an axis, or -1 for
// the constant. Reflect needs radius < size and circular radius <= size (F.pad's own limits,
// checked by the caller).
U8AUG_HD int64_t border_source(int64_t i, int64_t size, Border border) {
  if (i >= 0 && i < size) return i;
  switch (border) {
    case Border::kConstant: return -1;
    case Border::kReflect: return i < 0 ? -i : 2 * (size - 1) - i;
    case Border::kReplicate: return i < 0 ? 0 : size - 1;
    default: return i < 0 ? i + size : i - size;
  }
}

// Interleaved rows (a pixel's channels together) are filtered a sample at a time on the CPU; others a
// plane at a time.
inline bool interleaved_rows(const ConstImage& src) {
  return src.channels > 1 && src.stride_c == 1 && src.stride_w == src.channels;
}

// The anchor of a k-tap kernel: the taps before the output's own position ((k - 1) / 2, kornia's).
U8AUG_HD int64_t filter_anchor(int64_t taps) { return (taps - 1) / 2; }

// One tap: acc + x * w with a single rounding (fmaf is fused on the host and the GPU alike).
U8AUG_HD float tap(float acc, float x, float w) { return fmaf(x, w, acc); }

// Below this a tap's product with a byte's x / 255 (>= 2^-8 when nonzero) can leave float32's
// normal range, and x86 multiplies subnormals through microcode: a 23-tap kernel with a sigma under
// about 1.2 has such tails and ran 11x slower (96 ms against 8.5 ms a batch of 32x3x224x224).
constexpr float kTinyTap = 3.3881318e-36f;  // 2^-118

// The kernel taps of one sample: `taps` floats for each of `count` samples (count 1: shared).
// Fidelity::kFast drops the taps below kTinyTap (their share of a sum is under 2^-110: they change a
// byte only by breaking a rounding tie), so every product and sum stays normal.
struct FilterKernel {
  const float* values = nullptr;
  int64_t count = 0, taps = 0;
  Fidelity fidelity = Fidelity::kExact;
  // the weighted sum's divisor: 1 for a convolution, the window's size for a box of unit taps
  // (avg_pool2d's sum / k; a division by 1 is exact, so every body divides)
  float divisor = 1.0f;
  U8AUG_HD const float* of(int64_t b) const { return values + (count == 1 ? 0 : b) * taps; }
  U8AUG_HD float weight(int64_t b, int64_t t) const {
    if (values == nullptr) return 1.0f;  // a box
    const float w = of(b)[t];
    return fidelity == Fidelity::kFast && fabsf(w) < kTinyTap ? 0.0f : w;
  }
};

// The horizontal pass at (b, c, y, x): from the uint8 source as kornia's x / 255.
U8AUG_HD float filter_row_value(const ConstImage& src, FilterKernel k, Border border, int64_t b, int64_t c, int64_t y,
                                int64_t x) {
  const int64_t r = filter_anchor(k.taps);
  float acc = 0.0f;
  for (int64_t t = 0; t < k.taps; ++t) {
    const int64_t sx = border_source(x + t - r, src.width, border);
    acc = tap(acc, sx < 0 ? 0.0f : unit(src.at(b, c, y, sx)), k.weight(b, t));
  }
  return acc / k.divisor;
}

// The vertical pass at (b, c, y, x), from the horizontal pass's float32 image.
U8AUG_HD float filter_column_value(const ImageView<const float>& rows, FilterKernel k, Border border, int64_t b,
                                   int64_t c, int64_t y, int64_t x) {
  const int64_t r = filter_anchor(k.taps);
  float acc = 0.0f;
  for (int64_t t = 0; t < k.taps; ++t) {
    const int64_t sy = border_source(y + t - r, rows.height, border);
    acc = tap(acc, sy < 0 ? 0.0f : rows.at(b, c, sy, x), k.weight(b, t));
  }
  return acc / k.divisor;
}

// A 2-D kernel of kh x kw taps for each of `count` samples (count 1: shared), row-major.
struct FilterKernel2d {
  const float* values = nullptr;
  int64_t count = 0, height = 0, width = 0;
  Fidelity fidelity = Fidelity::kExact;
  float divisor = 1.0f;  // as FilterKernel's
  U8AUG_HD const float* of(int64_t b) const { return values + (count == 1 ? 0 : b) * height * width; }
  U8AUG_HD float weight(int64_t b, int64_t t) const {
    if (values == nullptr) return 1.0f;  // a box
    const float w = of(b)[t];
    return fidelity == Fidelity::kFast && fabsf(w) < kTinyTap ? 0.0f : w;
  }
};

// Boxes (kornia.filters.box_blur's pooled path, torch's avg_pool2d): unit taps (values null) summed
// in order, then divided by the window's size; a 2-D box sums row-major as avg_pool2d does.
inline FilterKernel box_kernel(int64_t taps) {
  FilterKernel k;
  k.count = 1, k.taps = taps, k.divisor = static_cast<float>(taps);
  return k;
}

// kornia.filters.filter2d (correlation, "same" padding) at (b, c, y, x): the taps fused in
// row-major order from the top-left, as torch's depthwise conv2d sums them (measured: 100% for 3x3,
// 5x5 and 9x9 kernels against F.conv2d; column-major order gave 24-59%).
U8AUG_HD float filter2d_value(const ConstImage& src, FilterKernel2d k, Border border, int64_t b, int64_t c, int64_t y,
                              int64_t x) {
  const int64_t ry = filter_anchor(k.height), rx = filter_anchor(k.width);
  float acc = 0.0f;
  for (int64_t i = 0; i < k.height; ++i) {
    const int64_t sy = border_source(y + i - ry, src.height, border);
    for (int64_t j = 0; j < k.width; ++j) {
      const int64_t sx = border_source(x + j - rx, src.width, border);
      acc = tap(acc, sy < 0 || sx < 0 ? 0.0f : unit(src.at(b, c, sy, sx)), k.weight(b, i * k.width + j));
    }
  }
  return acc / k.divisor;
}

inline FilterKernel2d box_kernel2d(int64_t height, int64_t width) {
  FilterKernel2d k;
  k.count = 1, k.height = height, k.width = width, k.divisor = static_cast<float>(height * width);
  return k;
}

// Boxes of an odd count N = ky * kx, 3 <= N <= kMaxIntegerBox, in integers: kornia's float result,
// pooled or convolved, separable or not, is the window's byte sum S over N, rounded (box_mean).
// Why: S / N lies at least 1 / (2N) from every half-integer (a tie needs 2S = (2m + 1) N, even
// against odd), and float32's error on those sums of nonnegative terms (N products or additions,
// a tap's or a division's rounding each, and the / 255 and * 255), in byte units, is at most
// 255 (2N + 5) 2^-24: 0.0025 at N = 81, under half the distance (1 / (4N) = 0.0031). So the bytes
// are kornia's exactly, in both tiers (tests/python/test_filters.py checks it against kornia).
constexpr int64_t kMaxIntegerBox = 81;

U8AUG_HD bool integer_box(int64_t ky, int64_t kx) {
  const int64_t count = ky * kx;
  return count % 2 == 1 && count >= 3 && count <= kMaxIntegerBox;
}

// The rounded mean of `count` bytes summing to `sum` (an odd count: no ties).
U8AUG_HD uint8_t box_mean(uint32_t sum, uint32_t count) { return static_cast<uint8_t>((sum + count / 2) / count); }

// box_mean as 16-bit lanes compute it: (((sum + count / 2) * multiplier) >> 16) >> shift, a high-half
// multiply (x86's pmulhuw) and a shift. box_division finds the smallest shift whose multiplier
// (the quotient 2^(16 + shift) / count rounded up) gives box_mean for every sum of `count` bytes,
// checked sum by sum; valid is false where none does (never for the integer boxes' counts).
struct BoxDivision {
  uint32_t multiplier = 0;
  int shift = 0;
  bool valid = false;
};

inline BoxDivision box_division(uint32_t count) {
  for (int shift = 0; shift < 16; ++shift) {
    const uint64_t multiplier = ((uint64_t{1} << (16 + shift)) + count - 1) / count;
    if (multiplier > 65535) break;
    bool exact = true;
    for (uint32_t sum = 0; sum <= 255 * count && exact; ++sum)
      exact = ((((sum + count / 2) * multiplier) >> 16) >> shift) == box_mean(sum, count);
    if (exact) return BoxDivision{static_cast<uint32_t>(multiplier), shift, true};
  }
  return BoxDivision{};
}

// The fast tier's fixed point (Fidelity::kFast, kernels whose taps it holds): 16-bit lanes, no
// float. Each kernel's taps become Q16 integers by cumulative rounding (tap t is round(C_t * 2^16) -
// round(C_{t-1} * 2^16), C_t the float64 sum of taps 0..t, so the integer taps sum to the rounded
// whole; a lone tap of 1 is held as 65535). A byte is x * 256 (Q8); each tap's product keeps its
// high 16 bits (x86's pmulhuw), the horizontal pass sums them into a Q8 value (at most 65280), the
// vertical pass does the same over those, adds half the count of nonzero taps (the mean of what
// the truncations dropped) and rounds half up to a byte. Measured against the exact tier (kornia's
// float32), in a numpy model of this arithmetic on photos and random bytes: 99.3-100% of bytes
// identical and the rest 1 apart for Gaussians of 3, 5 and 23 taps with sigma 0.12-5, 99.95-100%
// for boxes of 3-7 (README's fast tier; tests/python/test_fast_tier.py asserts the class).
constexpr int kFixedTapBits = 16;

// A tap as a weight of the sum, a box's divisor folded in (its unit taps are 1 / k each).
U8AUG_HD double unit_weight(const FilterKernel& k, int64_t b, int64_t t) {
  return k.values == nullptr ? 1.0 / static_cast<double>(k.divisor) : static_cast<double>(k.of(b)[t]);
}

// The next Q16 tap of a running quantization: `sum` and `rounded` carry C_{t-1} and its rounding.
U8AUG_HD uint32_t next_fixed_tap(double weight, double& sum, int64_t& rounded) {
  sum += weight;
  const int64_t r = static_cast<int64_t>(floor(sum * (1 << kFixedTapBits) + 0.5));
  const int64_t tap = r - rounded;
  rounded = r;
  return static_cast<uint32_t>(tap > 65535 ? 65535 : tap);
}

// Whether sample b's kernel fits the fixed point: taps in [0, 1] summing to at most 1 (Gaussians,
// boxes), so every sum stays within 16 bits. Other kernels keep the float path in the fast tier too.
U8AUG_HD bool fixed_taps_fit(const FilterKernel& k, int64_t b) {
  double sum = 0.0;
  for (int64_t t = 0; t < k.taps; ++t) {
    const double w = unit_weight(k, b, t);
    if (!(w >= 0.0 && w <= 1.0)) return false;
    sum += w;
  }
  return sum * (1 << kFixedTapBits) + 0.5 < (1 << kFixedTapBits) + 1;
}

U8AUG_HD bool fixed_point_filter(const FilterKernel& kx, const FilterKernel& ky, int64_t b) {
  return kx.fidelity == Fidelity::kFast && ky.fidelity == Fidelity::kFast && fixed_taps_fit(kx, b) &&
         fixed_taps_fit(ky, b);
}

// Sample b's Q16 taps into out[0, k.taps); returns how many are nonzero.
U8AUG_HD int64_t fixed_taps(const FilterKernel& k, int64_t b, uint32_t* out) {
  double sum = 0.0;
  int64_t rounded = 0, nonzero = 0;
  for (int64_t t = 0; t < k.taps; ++t) {
    out[t] = next_fixed_tap(unit_weight(k, b, t), sum, rounded);
    nonzero += out[t] != 0;
  }
  return nonzero;
}

// One tap's product: the high half of a Q8 value times a Q16 tap.
U8AUG_HD uint32_t fixed_product(uint32_t q8, uint32_t tap) { return (q8 * tap) >> 16; }

// What the vertical pass adds before its rounding shift: a half (128) plus half the nonzero taps,
// held to 16 bits (the lanes add it as one; only kernels of more than 130,000 taps reach the cap).
U8AUG_HD uint32_t fixed_rounding(int64_t nonzero_x, int64_t nonzero_y) {
  const int64_t r = 128 + (nonzero_x + nonzero_y) / 2;
  return static_cast<uint32_t>(r > 65535 ? 65535 : r);
}

// The fixed horizontal pass at (b, c, y, x): Q8, at most 65280.
U8AUG_HD uint32_t fixed_row_value(const ConstImage& src, FilterKernel k, Border border, int64_t b, int64_t c, int64_t y,
                                  int64_t x) {
  const int64_t r = filter_anchor(k.taps);
  double sum = 0.0;
  int64_t rounded = 0;
  uint32_t acc = 0;
  for (int64_t t = 0; t < k.taps; ++t) {
    const uint32_t w = next_fixed_tap(unit_weight(k, b, t), sum, rounded);
    const int64_t sx = border_source(x + t - r, src.width, border);
    if (sx >= 0) acc += fixed_product(static_cast<uint32_t>(src.at(b, c, y, sx)) << 8, w);
  }
  return acc;
}

// The fixed vertical pass at (b, c, y, x) from the horizontal pass's Q8 values (held exactly by
// either element type: uint16 on the CPU, float on CUDA), to a byte.
template <class T>
U8AUG_HD uint8_t fixed_column_value(const ImageView<const T>& rows, FilterKernel kx, FilterKernel ky, Border border,
                                    int64_t b, int64_t c, int64_t y, int64_t x) {
  const int64_t r = filter_anchor(ky.taps);
  double sum = 0.0;
  int64_t rounded = 0, nonzero_x = 0, nonzero_y = 0;
  uint32_t acc = 0;
  for (int64_t t = 0; t < ky.taps; ++t) {
    const uint32_t w = next_fixed_tap(unit_weight(ky, b, t), sum, rounded);
    nonzero_y += w != 0;
    const int64_t sy = border_source(y + t - r, rows.height, border);
    if (sy >= 0) acc += fixed_product(static_cast<uint32_t>(rows.at(b, c, sy, x)), w);
  }
  sum = 0.0, rounded = 0;
  for (int64_t t = 0; t < kx.taps; ++t) nonzero_x += next_fixed_tap(unit_weight(kx, b, t), sum, rounded) != 0;
  const uint32_t v = (acc + fixed_rounding(nonzero_x, nonzero_y)) >> 8;
  return static_cast<uint8_t>(v > 255 ? 255 : v);
}

// The CUDA kernels' bodies, one output element each in memory order (each-index bodies: image.h):
// the horizontal pass into a float32 image, then the vertical pass into dst. Both carry both
// kernels: a sample in the fixed point (fixed_point_filter) keeps its Q8 integers in that image.
struct FilterRowsBody {
  ConstImage src;
  FloatImage rows;
  FilterKernel kernel_x, kernel_y;
  Border border;
  U8AUG_HD int64_t count() const { return rows.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(rows, i);
    rows.at(k.b, k.c, k.y, k.x) = fixed_point_filter(kernel_x, kernel_y, k.b)
                                      ? static_cast<float>(fixed_row_value(src, kernel_x, border, k.b, k.c, k.y, k.x))
                                      : filter_row_value(src, kernel_x, border, k.b, k.c, k.y, k.x);
  }
};

struct FilterColumnsBody {
  ImageView<const float> rows;
  Image dst;
  FilterKernel kernel_x, kernel_y;
  Border border;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    dst.at(k.b, k.c, k.y, k.x) = fixed_point_filter(kernel_x, kernel_y, k.b)
                                     ? fixed_column_value(rows, kernel_x, kernel_y, border, k.b, k.c, k.y, k.x)
                                     : to_u8(filter_column_value(rows, kernel_y, border, k.b, k.c, k.y, k.x) * 255.0f);
  }
};

// resize_antialias's blur (kornia's Gaussian before its resize): the vertical pass kept in float32,
// as kornia resamples it unquantized (pixel/resize.h's ResizeFloatBody reads it).
struct FilterColumnsFloatBody {
  ImageView<const float> rows;
  FloatImage out;
  FilterKernel kernel_y;
  Border border;
  U8AUG_HD int64_t count() const { return out.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(out, i);
    out.at(k.b, k.c, k.y, k.x) = filter_column_value(rows, kernel_y, border, k.b, k.c, k.y, k.x);
  }
};

struct Filter2dBody {
  ConstImage src;
  Image dst;
  FilterKernel2d kernel;
  Border border;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    dst.at(k.b, k.c, k.y, k.x) = to_u8(filter2d_value(src, kernel, border, k.b, k.c, k.y, k.x) * 255.0f);
  }
};

// Median filters (kornia.filters.median_blur): the median of a window is one of its values, and
// x / 255 keeps the bytes' order, so the byte median is kornia's result exactly (to_u8 gives back
// every byte). Windows of odd height and width (kornia's rule), up to kMaxMedianTaps values.
constexpr int64_t kMaxMedianTaps = 15 * 15;

U8AUG_HD uint8_t median_value(const ConstImage& src, int64_t ky, int64_t kx, Border border, int64_t b, int64_t c,
                              int64_t y, int64_t x) {
  uint8_t v[kMaxMedianTaps];
  int64_t n = 0;
  for (int64_t i = 0; i < ky; ++i) {
    const int64_t sy = border_source(y + i - ky / 2, src.height, border);
    for (int64_t j = 0; j < kx; ++j) {
      const int64_t sx = border_source(x + j - kx / 2, src.width, border);
      v[n++] = sy < 0 || sx < 0 ? 0 : src.at(b, c, sy, sx);
    }
  }
  // counting selection: the smallest byte with more than n / 2 values at or below it
  const int64_t half = n / 2;
  int lo = 0, hi = 255;
  while (lo < hi) {  // binary search over byte values: 8 passes over the window
    const int mid = (lo + hi) / 2;
    int64_t at_or_below = 0;
    for (int64_t t = 0; t < n; ++t) at_or_below += v[t] <= mid;
    if (at_or_below > half) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return static_cast<uint8_t>(lo);
}

struct MedianBody {
  ConstImage src;
  Image dst;
  int64_t ky, kx;
  Border border;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    dst.at(k.b, k.c, k.y, k.x) = median_value(src, ky, kx, border, k.b, k.c, k.y, k.x);
  }
};

}  // namespace u8aug
