// RandomJPEG: kornia's jpeg_codec_differentiable on x / 255, in its float32 order. The image is
// padded to a multiple of 16 (replicated edges) and made YCbCr in [0, 255]; Cb and Cr are blurred
// by kornia's antialias Gaussian (3 taps, sigma 0.5, reflected) and halved by bilinear interpolate;
// each 8x8 block is transformed by kornia's 64x64 DCT matrix, quantized by its tables with its
// polynomial rounding, dequantized and transformed back; the chroma is doubled by bilinear
// interpolate and the result made RGB. Shared by the CPU loop and the CUDA kernels.
//
// Sum orders, as torch's CPU matrix products give them (checked against torch's own products): the
// DCT is a tensordot, one product with K = 64, each output one chain of fused multiply-adds in k
// order; the inverse is two products with K = 8, each output its rounded products added in k order. The blur is torch's
// convolution (pixel/filter.h's tap order), the interpolations its bilinear kernel in the order torch picks for a
// one-channel image of that size (pixel/resize.h).
#pragma once

#include <math.h>

#include <cstdint>

#include "u8aug/hd.h"
#include "u8aug/image.h"
#include "u8aug/pixel/filter.h"
#include "u8aug/pixel/point.h"
#include "u8aug/pixel/resize.h"

namespace u8aug {

// torch.cos((2i + 1) * j * (pi / 16)) in float32, [i][j] (kornia's DCT basis; its dct tensor is
// [x][y][u][v] = basis[x][u] * basis[y][v]). Kornia computes the inverse's basis, cos((2s + 1) *
// f * pi / 16), with other roundings of its argument: kJpegIdctBasis, [f][s].
constexpr float kJpegDctBasis[64] = {
    0x1p+0f,         0x1.f6297ep-1f,  0x1.d906bcp-1f,  0x1.a9b662p-1f,  0x1.6a09e6p-1f,  0x1.1c73b2p-1f,
    0x1.87de2ap-2f,  0x1.8f8b78p-3f,  0x1p+0f,         0x1.a9b662p-1f,  0x1.87de2ap-2f,  -0x1.8f8b84p-3f,
    -0x1.6a09e6p-1f, -0x1.f6297ep-1f, -0x1.d906bcp-1f, -0x1.1c73acp-1f, 0x1p+0f,         0x1.1c73b2p-1f,
    -0x1.87de3p-2f,  -0x1.f6297ep-1f, -0x1.6a09e2p-1f, 0x1.8f8b9p-3f,   0x1.d906bep-1f,  0x1.a9b65ap-1f,
    0x1p+0f,         0x1.8f8b78p-3f,  -0x1.d906cp-1f,  -0x1.1c73acp-1f, 0x1.6a09eep-1f,  0x1.a9b65ap-1f,
    -0x1.87de4ap-2f, -0x1.f6297ap-1f, 0x1p+0f,         -0x1.8f8b84p-3f, -0x1.d906bcp-1f, 0x1.1c73bap-1f,
    0x1.6a09e6p-1f,  -0x1.a9b668p-1f, -0x1.87de0cp-2f, 0x1.f62982p-1f,  0x1p+0f,         -0x1.1c73b8p-1f,
    -0x1.87de16p-2f, 0x1.f6297cp-1f,  -0x1.6a09f6p-1f, -0x1.8f8b76p-3f, 0x1.d906b6p-1f,  -0x1.a9b662p-1f,
    0x1p+0f,         -0x1.a9b664p-1f, 0x1.87de36p-2f,  0x1.8f8b62p-3f,  -0x1.6a09dep-1f, 0x1.f6297ep-1f,
    -0x1.d906c4p-1f, 0x1.1c73d2p-1f,  0x1p+0f,         -0x1.f6297ep-1f, 0x1.d906bep-1f,  -0x1.a9b668p-1f,
    0x1.6a09e8p-1f,  -0x1.1c73c8p-1f, 0x1.87de4ap-2f,  -0x1.8f8c28p-3f};
constexpr float kJpegIdctBasis[64] = {
    0x1p+0f,         0x1p+0f,         0x1p+0f,         0x1p+0f,         0x1p+0f,         0x1p+0f,
    0x1p+0f,         0x1p+0f,         0x1.f6297ep-1f,  0x1.a9b662p-1f,  0x1.1c73b2p-1f,  0x1.8f8b78p-3f,
    -0x1.8f8b84p-3f, -0x1.1c73b8p-1f, -0x1.a9b664p-1f, -0x1.f6297ep-1f, 0x1.d906bcp-1f,  0x1.87de2ap-2f,
    -0x1.87de3p-2f,  -0x1.d906cp-1f,  -0x1.d906bcp-1f, -0x1.87de16p-2f, 0x1.87de36p-2f,  0x1.d906bep-1f,
    0x1.a9b662p-1f,  -0x1.8f8b84p-3f, -0x1.f6297ep-1f, -0x1.1c73acp-1f, 0x1.1c73bap-1f,  0x1.f6297cp-1f,
    0x1.8f8b62p-3f,  -0x1.a9b668p-1f, 0x1.6a09e6p-1f,  -0x1.6a09e6p-1f, -0x1.6a09e2p-1f, 0x1.6a09eep-1f,
    0x1.6a09e6p-1f,  -0x1.6a09f6p-1f, -0x1.6a09dep-1f, 0x1.6a09e8p-1f,  0x1.1c73b2p-1f,  -0x1.f6297ep-1f,
    0x1.8f8b9p-3f,   0x1.a9b65ap-1f,  -0x1.a9b668p-1f, -0x1.8f8b76p-3f, 0x1.f6297ep-1f,  -0x1.1c73c8p-1f,
    0x1.87de2ap-2f,  -0x1.d906bcp-1f, 0x1.d906bep-1f,  -0x1.87de4ap-2f, -0x1.87de0cp-2f, 0x1.d906b6p-1f,
    -0x1.d906c4p-1f, 0x1.87de4ap-2f,  0x1.8f8b78p-3f,  -0x1.1c73acp-1f, 0x1.a9b65ap-1f,  -0x1.f6297ap-1f,
    0x1.f62982p-1f,  -0x1.a9b662p-1f, 0x1.1c73d2p-1f,  -0x1.8f8c28p-3f};
// float32(1 / sqrt(2)): kornia's alpha[0]; the DCT's scale is outer(alpha, alpha) * 0.25, the
// inverse's outer(alpha, alpha), each product rounded once.
constexpr float kJpegAlpha0 = 0x1.6a09e6p-1f;
// kornia's antialias blur for a halving (sigma 0.5, 3 taps), float32.
constexpr float kJpegBlurSide = 0x1.b440a8p-4f, kJpegBlurCentre = 0x1.92efd4p-1f;

U8AUG_HD float jpeg_alpha(int64_t i) { return i == 0 ? kJpegAlpha0 : 1.0f; }

// The bases a block is coded with, in memory the backend reads (the tables above live on the host):
// the dct tensor as [k][c] for input k = 8x + y and coefficient c = 8u + v (4096 floats, each
// torch's float32 product of two basis values), then the inverse's basis (64 floats).
constexpr int64_t kJpegBasesFloats = 64 * 64 + 64;
struct JpegBases {
  const float* dct;
  const float* idct;
};
inline void jpeg_fill_bases(float* out) {
  for (int64_t k = 0; k < 64; ++k) {
    for (int64_t c = 0; c < 64; ++c) {
      out[k * 64 + c] = kJpegDctBasis[(k / 8) * 8 + c / 8] * kJpegDctBasis[(k % 8) * 8 + c % 8];
    }
  }
  for (int64_t i = 0; i < 64; ++i) out[64 * 64 + i] = kJpegIdctBasis[i];
}
U8AUG_HD JpegBases jpeg_bases(const float* filled) { return {filled, filled + 64 * 64}; }

// The sizes of one call: the image, its padding to multiples of 16, and each sample's float work
// area (work_floats() a sample): luma, the two full chroma planes, those blurred across, and the
// two halved chroma planes, each row-major.
struct JpegGeometry {
  int64_t height = 0, width = 0, padded_h = 0, padded_w = 0;
  U8AUG_HD int64_t plane() const { return padded_h * padded_w; }
  U8AUG_HD int64_t half_h() const { return padded_h / 2; }
  U8AUG_HD int64_t half_w() const { return padded_w / 2; }
  U8AUG_HD int64_t half_plane() const { return half_h() * half_w(); }
  U8AUG_HD int64_t work_floats() const { return 5 * plane() + 2 * half_plane(); }
  // plane 0: luma; 1, 2: Cb, Cr; 3, 4: Cb, Cr blurred across. Halved chroma c (0 Cb, 1 Cr):
  U8AUG_HD float* full(float* work, int64_t i) const { return work + i * plane(); }
  U8AUG_HD float* half(float* work, int64_t c) const { return work + 5 * plane() + c * half_plane(); }
  // 8x8 blocks: the luma's, then each halved chroma plane's
  U8AUG_HD int64_t luma_blocks() const { return (padded_h / 8) * (padded_w / 8); }
  U8AUG_HD int64_t chroma_blocks() const { return (padded_h / 16) * (padded_w / 16); }
  U8AUG_HD int64_t blocks() const { return luma_blocks() + 2 * chroma_blocks(); }
};

U8AUG_HD JpegGeometry jpeg_geometry(int64_t height, int64_t width) {
  return {height, width, (height + 15) / 16 * 16, (width + 15) / 16 * 16};
}

// The quantization tables of one call: 128 floats a sample (luma's 64, then chroma's, row-major
// [u][v]), already scaled by the sample's quality as kornia scales them; count 1: shared.
struct JpegTables {
  const float* values = nullptr;
  int64_t count = 0;
  U8AUG_HD const float* of(int64_t b, int64_t chroma) const {
    return values + (count == 1 ? 0 : b) * 128 + 64 * chroma;
  }
};

// The orders torch's bilinear interpolate takes for kornia's halving and doubling of the chroma
// (one channel each, pixel/resize.h's torch_blend_order).
struct JpegParams {
  JpegTables tables;
  BlendOrder down = BlendOrder::kSeparable, up = BlendOrder::kSeparable;
};

// rgb_to_ycbcr(x / 255) * 255 of one pixel's x / 255 values.
struct JpegYcc {
  float y, cb, cr;
};
U8AUG_HD JpegYcc jpeg_ycbcr(float r, float g, float b) {
  const float luma = (0.299f * r + 0.587f * g) + 0.114f * b;
  const float cb = (b - luma) * 0.564f + 0.5f, cr = (r - luma) * 0.713f + 0.5f;
  return {255.0f * luma, 255.0f * cb, 255.0f * cr};
}

// The YCbCr of padded pixel (y, x) (replicated past the image) into planes 0-2.
U8AUG_HD void jpeg_ycbcr_pixel(const ConstImage& src, const JpegGeometry& g, float* work, int64_t b, int64_t y,
                               int64_t x) {
  const int64_t sy = y < g.height ? y : g.height - 1, sx = x < g.width ? x : g.width - 1;
  const JpegYcc v = jpeg_ycbcr(unit(src.at(b, 0, sy, sx)), unit(src.at(b, 1, sy, sx)), unit(src.at(b, 2, sy, sx)));
  const int64_t i = y * g.padded_w + x;
  g.full(work, 0)[i] = v.y;
  g.full(work, 1)[i] = v.cb;
  g.full(work, 2)[i] = v.cr;
}

// The blur's three taps: torch's convolution, one fused multiply-add a tap from zero.
U8AUG_HD float jpeg_blur3(float before, float centre, float after) {
  return tap(tap(tap(0.0f, before, kJpegBlurSide), centre, kJpegBlurCentre), after, kJpegBlurSide);
}

// The blur at position i of a row or column of `size` values read by at(i), reflected at the ends.
template <class At>
U8AUG_HD float jpeg_blur(At at, int64_t size, int64_t i) {
  return jpeg_blur3(at(border_source(i - 1, size, Border::kReflect)), at(i),
                    at(border_source(i + 1, size, Border::kReflect)));
}

// Chroma plane c (0 Cb, 1 Cr) blurred across at padded (y, x), into plane 3 + c.
U8AUG_HD void jpeg_blur_across_pixel(const JpegGeometry& g, float* work, int64_t c, int64_t y, int64_t x) {
  const float* row = g.full(work, 1 + c) + y * g.padded_w;
  g.full(work, 3 + c)[y * g.padded_w + x] = jpeg_blur([&](int64_t i) { return row[i]; }, g.padded_w, x);
}

// The bilinear taps of kornia's halving (padded -> half) and doubling (half -> padded) of an axis.
U8AUG_HD AxisTap jpeg_halving_tap(int64_t d, int64_t padded, BlendOrder order) {
  return linear_tap(d, padded, padded / 2, false, fuses_source_index(order));
}
U8AUG_HD AxisTap jpeg_doubling_tap(int64_t d, int64_t padded, BlendOrder order) {
  return linear_tap(d, padded / 2, padded, false, fuses_source_index(order));
}

// Halved chroma c at (y, x): the blur down the blurred-across plane, sampled by interpolate's
// bilinear halving.
U8AUG_HD void jpeg_halve_pixel(const JpegGeometry& g, float* work, int64_t c, BlendOrder order, int64_t y, int64_t x) {
  const float* across = g.full(work, 3 + c);
  const int64_t w = g.padded_w;
  auto at = [&](int64_t yy, int64_t xx) {
    return jpeg_blur([&](int64_t i) { return across[i * w + xx]; }, g.padded_h, yy);
  };
  g.half(work, c)[y * g.half_w() + x] =
      bilinear_taps_value(at, jpeg_halving_tap(y, g.padded_h, order), jpeg_halving_tap(x, w, order), order);
}

// kornia's _differentiable_polynomial_rounding: round half to even, plus the cube of the remainder.
U8AUG_HD float jpeg_polynomial_round(float q) {
  const float r = rintf(q), d = q - r;
  return r + d * d * d;
}

// One 8x8 block (row stride `stride` floats) coded in place with quantization table `table`: the
// DCT as kornia's tensordot (the 64 products of each coefficient chained in input order, then its
// scale), quantized and dequantized, and the inverse as its two products of 8 terms (each rounded
// product added in order), times 0.25 plus 128.
U8AUG_HD void jpeg_code_block(float* block, int64_t stride, const float* table, const JpegBases& bases) {
  float in[64], coef[64];
  for (int64_t k = 0; k < 64; ++k) in[k] = block[(k / 8) * stride + k % 8] - 128.0f;
  for (int64_t c = 0; c < 64; ++c) coef[c] = 0.0f;
  for (int64_t k = 0; k < 64; ++k) {
    for (int64_t c = 0; c < 64; ++c) coef[c] = fmaf(in[k], bases.dct[k * 64 + c], coef[c]);
  }
  for (int64_t c = 0; c < 64; ++c) {
    const float scale = (jpeg_alpha(c / 8) * jpeg_alpha(c % 8)) * 0.25f;
    const float quantized = jpeg_polynomial_round((scale * coef[c]) / table[c]);
    coef[c] = (quantized * table[c]) * (jpeg_alpha(c / 8) * jpeg_alpha(c % 8));
  }
  float tmp[64];  // [u][s] = sum over v of coef[u][v] * basis[v][s]
  for (int64_t u = 0; u < 8; ++u) {
    for (int64_t s = 0; s < 8; ++s) {
      float acc = coef[u * 8] * bases.idct[s];
      for (int64_t v = 1; v < 8; ++v) acc = acc + coef[u * 8 + v] * bases.idct[v * 8 + s];
      tmp[u * 8 + s] = acc;
    }
  }
  for (int64_t x = 0; x < 8; ++x) {  // out[x][s] = sum over u of tmp[u][s] * basis[u][x]
    for (int64_t s = 0; s < 8; ++s) {
      float acc = tmp[s] * bases.idct[x];
      for (int64_t u = 1; u < 8; ++u) acc = acc + tmp[u * 8 + s] * bases.idct[u * 8 + x];
      block[x * stride + s] = acc * 0.25f + 128.0f;
    }
  }
}

// Block i of a sample (JpegGeometry::blocks' order): its top-left float, row stride and table.
struct JpegBlock {
  float* origin;
  int64_t stride;
  const float* table;
};
U8AUG_HD JpegBlock jpeg_block(const JpegGeometry& g, float* work, const JpegTables& tables, int64_t b, int64_t i) {
  if (i < g.luma_blocks()) {
    const int64_t across = g.padded_w / 8;
    return {g.full(work, 0) + (i / across) * 8 * g.padded_w + (i % across) * 8, g.padded_w, tables.of(b, 0)};
  }
  i -= g.luma_blocks();
  const int64_t c = i / g.chroma_blocks(), j = i % g.chroma_blocks(), across = g.padded_w / 16;
  return {g.half(work, c) + (j / across) * 8 * g.half_w() + (j % across) * 8, g.half_w(), tables.of(b, 1)};
}

// An output pixel from its decoded luma and doubled chroma ([0, 255] units): / 255, ycbcr_to_rgb
// (kornia's inverse coefficients, clamped to [0, 1]), quantized.
struct JpegBytes {
  uint8_t r, g, b;
};
U8AUG_HD JpegBytes jpeg_rgb_bytes(float luma255, float cb255, float cr255) {
  const float luma = luma255 / 255.0f, cb = cb255 / 255.0f - 0.5f, cr = cr255 / 255.0f - 0.5f;
  const float r = luma + 1.4025245442f * cr;
  const float g = (luma - 0.7144034731f * cr) - 0.3443401356f * cb;
  const float b = luma + 1.7730496454f * cb;
  return {to_u8(clamp_unit(r) * 255.0f), to_u8(clamp_unit(g) * 255.0f), to_u8(clamp_unit(b) * 255.0f)};
}

// Output pixel (y, x): the decoded luma and the decoded chroma doubled by bilinear interpolate.
U8AUG_HD void jpeg_rgb_pixel(const JpegGeometry& g, float* work, BlendOrder order, const Image& dst, int64_t b,
                             int64_t y, int64_t x) {
  const AxisTap ty = jpeg_doubling_tap(y, g.padded_h, order), tx = jpeg_doubling_tap(x, g.padded_w, order);
  float chroma[2];
  for (int64_t c = 0; c < 2; ++c) {
    const float* half = g.half(work, c);
    chroma[c] = bilinear_taps_value([&](int64_t yy, int64_t xx) { return half[yy * g.half_w() + xx]; }, ty, tx, order);
  }
  const JpegBytes v = jpeg_rgb_bytes(g.full(work, 0)[y * g.padded_w + x], chroma[0], chroma[1]);
  dst.at(b, 0, y, x) = v.r;
  dst.at(b, 1, y, x) = v.g;
  dst.at(b, 2, y, x) = v.b;
}

// The CUDA kernels' bodies (each-index bodies: image.h), in launch order; work holds every
// sample's area (work_floats() apart).
struct JpegYcbcrBody {
  ConstImage src;
  JpegGeometry g;
  float* work;
  U8AUG_HD int64_t count() const { return src.batch * g.plane(); }
  U8AUG_HD void operator()(int64_t i) const {
    const int64_t b = i / g.plane(), p = i % g.plane();
    jpeg_ycbcr_pixel(src, g, work + b * g.work_floats(), b, p / g.padded_w, p % g.padded_w);
  }
};
struct JpegBlurAcrossBody {
  JpegGeometry g;
  int64_t batch;
  float* work;
  U8AUG_HD int64_t count() const { return batch * 2 * g.plane(); }
  U8AUG_HD void operator()(int64_t i) const {
    const int64_t b = i / (2 * g.plane()), c = (i / g.plane()) % 2, p = i % g.plane();
    jpeg_blur_across_pixel(g, work + b * g.work_floats(), c, p / g.padded_w, p % g.padded_w);
  }
};
struct JpegHalveBody {
  JpegGeometry g;
  int64_t batch;
  BlendOrder order;
  float* work;
  U8AUG_HD int64_t count() const { return batch * 2 * g.half_plane(); }
  U8AUG_HD void operator()(int64_t i) const {
    const int64_t b = i / (2 * g.half_plane()), c = (i / g.half_plane()) % 2, p = i % g.half_plane();
    jpeg_halve_pixel(g, work + b * g.work_floats(), c, order, p / g.half_w(), p % g.half_w());
  }
};
struct JpegBlockBody {
  JpegGeometry g;
  int64_t batch;
  JpegTables tables;
  JpegBases bases;
  float* work;
  U8AUG_HD int64_t count() const { return batch * g.blocks(); }
  U8AUG_HD void operator()(int64_t i) const {
    const int64_t b = i / g.blocks();
    const JpegBlock k = jpeg_block(g, work + b * g.work_floats(), tables, b, i % g.blocks());
    jpeg_code_block(k.origin, k.stride, k.table, bases);
  }
};
struct JpegRgbBody {
  JpegGeometry g;
  BlendOrder order;
  float* work;
  Image dst;
  U8AUG_HD int64_t count() const { return dst.batch * g.height * g.width; }
  U8AUG_HD void operator()(int64_t i) const {
    const int64_t b = i / (g.height * g.width), p = i % (g.height * g.width);
    jpeg_rgb_pixel(g, work + b * g.work_floats(), order, dst, b, p / g.width, p % g.width);
  }
};

}  // namespace u8aug
