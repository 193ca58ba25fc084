// RandomJPEG on the CPU (pixel/jpeg.h's math), a sample per task in its own float work area: the
// YCbCr planes, the chroma blurred and halved, every 8x8 block coded in place, then the output
// pixels, each axis' taps computed once a call. Where the target has FMA (the DCT's chains and the
// blurs' taps are fused) the blocks and the rows run in vector lanes, each lane the scalar value
// function's operations in its order; elsewhere pixel/jpeg.h's scalar functions themselves.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/jpeg.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstring>
#include <vector>

#include "cpu/unit_lanes-inl.h"

#include "cpu/parallel.h"
#include "cpu/scratch.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/jpeg.h"
#include "u8aug/u8aug.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Whether this target runs the lanes below (every FMA target has at least 4 float lanes).
constexpr bool kLanes = HWY_NATIVE_FMA;

// pixel/jpeg.h's jpeg_code_block in lanes, the same operations in the same order: the DCT's 64
// chains side by side (a vector of coefficients a fused multiply-add per input value: only where
// the target has FMA), the inverse's rows of 8 as products and sums of whole rows.
// Each coefficient's scales: the DCT's (alpha_u * alpha_v) * 0.25 and the inverse's alpha_u * alpha_v.
struct BlockScales {
  HWY_ALIGN float dct[64];
  HWY_ALIGN float idct[64];
  BlockScales() {
    for (int64_t c = 0; c < 64; ++c) {
      idct[c] = jpeg_alpha(c / 8) * jpeg_alpha(c % 8);
      dct[c] = idct[c] * 0.25f;
    }
  }
};

void CodeBlockLanes(float* block, int64_t stride, const float* table, const JpegBases& bases) {
  static const BlockScales scales;
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 8> d8;
  constexpr size_t kMaxVectors = 64 / 4;  // at least 4 lanes on every target that takes this path
  // only targets with kLanes call this (at least 4 lanes); 0 vectors elsewhere keeps acc in bounds
  const size_t n = hn::Lanes(d), vectors = kLanes ? 64 / n : 0, n8 = hn::Lanes(d8);
  HWY_ALIGN float in[64], coef[64], tmp[64];
  for (int64_t x = 0; x < 8; ++x) {
    for (size_t s = 0; s < 8; s += n8)
      hn::StoreU(hn::Sub(hn::LoadU(d8, block + x * stride + s), hn::Set(d8, 128.0f)), d8, in + x * 8 + s);
  }
  hn::Vec<decltype(d)> acc[kMaxVectors];
  for (size_t j = 0; j < vectors; ++j) acc[j] = hn::Zero(d);
  for (int64_t k = 0; k < 64; ++k) {
    const auto x = hn::Set(d, in[k]);
    const float* w = bases.dct + k * 64;
    for (size_t j = 0; j < vectors; ++j) acc[j] = hn::MulAdd(x, hn::LoadU(d, w + j * n), acc[j]);
  }
  for (size_t j = 0; j < vectors; ++j) {  // jpeg_polynomial_round of (scale * coefficient) / step
    const auto step = hn::LoadU(d, table + j * n);
    const auto q = hn::Div(hn::Mul(hn::Load(d, scales.dct + j * n), acc[j]), step);
    const auto r = hn::Round(q), rest = hn::Sub(q, r);
    const auto rounded = hn::Add(r, hn::Mul(hn::Mul(rest, rest), rest));
    hn::Store(hn::Mul(hn::Mul(rounded, step), hn::Load(d, scales.idct + j * n)), d, coef + j * n);
  }
  for (int64_t u = 0; u < 8; ++u) {  // tmp[u][s]: coefficient row u times the basis, row by row
    for (size_t s = 0; s < 8; s += n8) {
      auto sum = hn::Mul(hn::Set(d8, coef[u * 8]), hn::LoadU(d8, bases.idct + s));
      for (int64_t v = 1; v < 8; ++v) {
        sum = hn::Add(sum, hn::Mul(hn::Set(d8, coef[u * 8 + v]), hn::LoadU(d8, bases.idct + v * 8 + s)));
      }
      hn::StoreU(sum, d8, tmp + u * 8 + s);
    }
  }
  for (int64_t x = 0; x < 8; ++x) {  // out[x][s]: tmp's rows weighted by the basis' column x
    for (size_t s = 0; s < 8; s += n8) {
      auto sum = hn::Mul(hn::LoadU(d8, tmp + s), hn::Set(d8, bases.idct[x]));
      for (int64_t u = 1; u < 8; ++u) {
        sum = hn::Add(sum, hn::Mul(hn::LoadU(d8, tmp + u * 8 + s), hn::Set(d8, bases.idct[u * 8 + x])));
      }
      sum = hn::Add(hn::Mul(sum, hn::Set(d8, 0.25f)), hn::Set(d8, 128.0f));
      hn::StoreU(sum, d8, block + x * stride + s);
    }
  }
}

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;

HWY_INLINE VF Blur3Lanes(DF d, VF before, VF centre, VF after) {
  const VF side = hn::Set(d, kJpegBlurSide);
  return hn::MulAdd(after, side,
                    hn::MulAdd(centre, hn::Set(d, kJpegBlurCentre), hn::MulAdd(before, side, hn::Zero(d))));
}

// One sample's YCbCr planes, a padded row at a time (the source row and column replicated past the
// image, staged as three byte rows), then the chroma blurred across.
void YcbcrRows(const ConstImage& src, const JpegGeometry& g, float* work, int64_t b, uint8_t* staged) {
  const DF d;
  const int64_t w = g.padded_w, n = static_cast<int64_t>(hn::Lanes(d));
  uint8_t* channel[3] = {staged, staged + w, staged + 2 * w};
  for (int64_t y = 0; y < g.padded_h; ++y) {
    const int64_t sy = y < g.height ? y : g.height - 1;
    for (int64_t c = 0; c < 3; ++c) {
      const uint8_t* in = &src.at(b, c, sy, 0);
      if (src.stride_w == 1) {
        std::memcpy(channel[c], in, static_cast<size_t>(g.width));
      } else {
        for (int64_t x = 0; x < g.width; ++x) channel[c][x] = in[x * src.stride_w];
      }
      std::memset(channel[c] + g.width, channel[c][g.width - 1], static_cast<size_t>(w - g.width));
    }
    float *luma = g.full(work, 0) + y * w, *cb = g.full(work, 1) + y * w, *cr = g.full(work, 2) + y * w;
    if (kLanes) {  // w is a multiple of 16, so of the lane count
      for (int64_t x = 0; x < w; x += n) {
        const VF r = UnitLanes(d, channel[0] + x), gr = UnitLanes(d, channel[1] + x), bl = UnitLanes(d, channel[2] + x);
        const VF l = hn::Add(hn::Add(hn::Mul(hn::Set(d, 0.299f), r), hn::Mul(hn::Set(d, 0.587f), gr)),
                             hn::Mul(hn::Set(d, 0.114f), bl));
        const VF half = hn::Set(d, 0.5f), k255 = hn::Set(d, 255.0f);
        hn::StoreU(hn::Mul(k255, l), d, luma + x);
        hn::StoreU(hn::Mul(k255, hn::Add(hn::Mul(hn::Sub(bl, l), hn::Set(d, 0.564f)), half)), d, cb + x);
        hn::StoreU(hn::Mul(k255, hn::Add(hn::Mul(hn::Sub(r, l), hn::Set(d, 0.713f)), half)), d, cr + x);
      }
    } else {
      for (int64_t x = 0; x < w; ++x) {
        const JpegYcc v = jpeg_ycbcr(unit(channel[0][x]), unit(channel[1][x]), unit(channel[2][x]));
        luma[x] = v.y;
        cb[x] = v.cb;
        cr[x] = v.cr;
      }
    }
    for (int64_t c = 0; c < 2; ++c) {
      const float* in = g.full(work, 1 + c) + y * w;
      float* out = g.full(work, 3 + c) + y * w;
      out[0] = jpeg_blur3(in[1], in[0], in[1]);  // reflected: w >= 16
      int64_t x = 1;
      if (kLanes && w - 2 >= n) {
        for (;; x += n) {
          if (x + n > w - 1) x = w - 1 - n;  // the last vector overlaps: it writes the same values again
          hn::StoreU(Blur3Lanes(d, hn::LoadU(d, in + x - 1), hn::LoadU(d, in + x), hn::LoadU(d, in + x + 1)), d,
                     out + x);
          if (x + n == w - 1) break;
        }
        x = w - 1;
      }
      for (; x + 1 < w; ++x) out[x] = jpeg_blur3(in[x - 1], in[x], in[x + 1]);
      out[w - 1] = jpeg_blur3(in[w - 2], in[w - 1], in[w - 2]);
    }
  }
}

// The blurred-across plane's row i blurred down (reflected) into out.
void BlurDownRow(const float* across, const JpegGeometry& g, int64_t i, float* out) {
  const DF d;
  const int64_t w = g.padded_w, n = static_cast<int64_t>(hn::Lanes(d));
  const float* above = across + border_source(i - 1, g.padded_h, Border::kReflect) * w;
  const float* row = across + i * w;
  const float* below = across + border_source(i + 1, g.padded_h, Border::kReflect) * w;
  if (kLanes) {
    for (int64_t x = 0; x < w; x += n)
      hn::StoreU(Blur3Lanes(d, hn::LoadU(d, above + x), hn::LoadU(d, row + x), hn::LoadU(d, below + x)), d, out + x);
    return;
  }
  for (int64_t x = 0; x < w; ++x) out[x] = jpeg_blur3(above[x], row[x], below[x]);
}

// The axis taps of a call, as arrays the lanes read: each output column's source columns and weights.
struct Taps {
  std::vector<AxisTap> taps;
  std::vector<float> l0, l1;
  void resize(int64_t n) {
    taps.resize(static_cast<size_t>(n));
    l0.resize(static_cast<size_t>(n));
    l1.resize(static_cast<size_t>(n));
  }
  void set(int64_t x, AxisTap t) {
    taps[static_cast<size_t>(x)] = t;
    l0[static_cast<size_t>(x)] = t.l0;
    l1[static_cast<size_t>(x)] = t.l1;
  }
};

// pixel/resize.h's blend_taps in lanes, from the four corners gathered into rows.
HWY_INLINE VF BlendTapsLanes(DF d, VF v00, VF v01, VF v10, VF v11, const AxisTap& ty, VF lx0, VF lx1,
                             BlendOrder order) {
  const VF ly0 = hn::Set(d, ty.l0), ly1 = hn::Set(d, ty.l1);
  if (!blends_rows_first(order)) {
    const VF w00 = hn::Mul(ly0, lx0), w01 = hn::Mul(ly0, lx1), w10 = hn::Mul(ly1, lx0), w11 = hn::Mul(ly1, lx1);
    return hn::MulAdd(v11, w11, hn::MulAdd(v10, w10, hn::MulAdd(v00, w00, hn::Mul(v01, w01))));
  }
  const VF row0 = hn::MulAdd(v00, lx0, hn::Mul(v01, lx1)), row1 = hn::MulAdd(v10, lx0, hn::Mul(v11, lx1));
  return hn::MulAdd(row0, ly0, hn::Mul(row1, ly1));
}

// pixel/jpeg.h's jpeg_rgb_bytes in lanes up to the quantizer: red, green and blue of the lanes at
// luma, into rgb, rgb + w and rgb + 2w.
HWY_INLINE void RgbLanes(DF d, const float* luma, VF cb255, VF cr255, float* rgb, int64_t w) {
  const VF k255 = hn::Set(d, 255.0f), half_unit = hn::Set(d, 0.5f);
  const VF l = hn::Div(hn::LoadU(d, luma), k255);
  const VF cb = hn::Sub(hn::Div(cb255, k255), half_unit), cr = hn::Sub(hn::Div(cr255, k255), half_unit);
  hn::StoreU(hn::Add(l, hn::Mul(hn::Set(d, 1.4025245442f), cr)), d, rgb);
  hn::StoreU(hn::Sub(hn::Sub(l, hn::Mul(hn::Set(d, 0.7144034731f), cr)), hn::Mul(hn::Set(d, 0.3443401356f), cb)), d,
             rgb + w);
  hn::StoreU(hn::Add(l, hn::Mul(hn::Set(d, 1.7730496454f), cb)), d, rgb + 2 * w);
}

// The three float rows quantized into the output row (to_u8(clamp_unit(v) * 255) is to_u8(v * 255):
// both clamp).
HWY_INLINE void StoreRgbRows(DF d, const float* rgb, int64_t w, uint8_t* const* out, int64_t stride) {
  for (int64_t c = 0; c < 3; ++c) {
    const float* v = rgb + c * w;
    if (stride == 1) {
      StoreU8Row(
          d, w, [&](int64_t i) { return hn::LoadU(d, v + i); }, out[c]);
    } else {
      for (int64_t x = 0; x < w; ++x) out[c][x * stride] = to_u8(clamp_unit(v[x]) * 255.0f);
    }
  }
}

// Each halved chroma row blended across to the output width (the first pass of the doubling where
// torch blends rows first): across[c][r][x] = fma(v0, l0, v1 * l1), gathered then in lanes.
void AcrossRows(const JpegGeometry& g, float* work, const Taps& doubling, float* gathered, float* across) {
  const DF d;
  const int64_t w = g.width, n = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t c = 0; c < 2; ++c) {
    for (int64_t r = 0; r < g.half_h(); ++r) {
      const float* half = g.half(work, c) + r * g.half_w();
      float* out = across + (c * g.half_h() + r) * w;
      for (int64_t x = 0; x < w; ++x) {
        const AxisTap& t = doubling.taps[static_cast<size_t>(x)];
        gathered[x] = half[t.i0];
        gathered[w + x] = half[t.i1];
      }
      for (int64_t x = 0;; x += n) {
        if (x + n > w) x = w - n;
        const VF v = hn::MulAdd(hn::LoadU(d, gathered + x), hn::LoadU(d, doubling.l0.data() + x),
                                hn::Mul(hn::LoadU(d, gathered + w + x), hn::LoadU(d, doubling.l1.data() + x)));
        hn::StoreU(v, d, out + x);
        if (x + n == w) break;
      }
    }
  }
}

// Output row y of sample b: the chroma doubled, made RGB, quantized. rows: 11 float rows of the
// output width (8 gathered chroma corners, then red, green and blue).
void RgbRow(const JpegGeometry& g, float* work, const Taps& doubling, BlendOrder order, const float* across,
            const Image& dst, int64_t b, int64_t y, float* rows) {
  const DF d;
  const int64_t w = g.width, n = static_cast<int64_t>(hn::Lanes(d));
  const AxisTap ty = jpeg_doubling_tap(y, g.padded_h, order);
  const float* luma = g.full(work, 0) + y * g.padded_w;
  const float* half[2][2];
  for (int64_t c = 0; c < 2; ++c) {
    half[c][0] = g.half(work, c) + ty.i0 * g.half_w();
    half[c][1] = g.half(work, c) + ty.i1 * g.half_w();
  }
  uint8_t* out[3] = {&dst.at(b, 0, y, 0), &dst.at(b, 1, y, 0), &dst.at(b, 2, y, 0)};
  if (!kLanes || w < n) {
    for (int64_t x = 0; x < w; ++x) {
      const AxisTap& tx = doubling.taps[static_cast<size_t>(x)];
      float chroma[2];
      for (int64_t c = 0; c < 2; ++c)
        chroma[c] =
            blend_taps(half[c][0][tx.i0], half[c][0][tx.i1], half[c][1][tx.i0], half[c][1][tx.i1], ty, tx, order);
      const JpegBytes v = jpeg_rgb_bytes(luma[x], chroma[0], chroma[1]);
      out[0][x * dst.stride_w] = v.r;
      out[1][x * dst.stride_w] = v.g;
      out[2][x * dst.stride_w] = v.b;
    }
    return;
  }
  if (blends_rows_first(order)) {  // the rows blended across once a call (across), then down here
    for (int64_t x = 0;; x += n) {
      if (x + n > w) x = w - n;
      const VF ly0 = hn::Set(d, ty.l0), ly1 = hn::Set(d, ty.l1);
      VF chroma[2];
      for (int64_t c = 0; c < 2; ++c) {
        const float* r0 = across + (c * g.half_h() + ty.i0) * w + x;
        const float* r1 = across + (c * g.half_h() + ty.i1) * w + x;
        chroma[c] = hn::MulAdd(hn::LoadU(d, r0), ly0, hn::Mul(hn::LoadU(d, r1), ly1));
      }
      RgbLanes(d, luma + x, chroma[0], chroma[1], rows + 8 * w + x, w);
      if (x + n == w) break;
    }
    StoreRgbRows(d, rows + 8 * w, w, out, dst.stride_w);
    return;
  }
  float* corner = rows;  // [c][row][column side][x]
  for (int64_t x = 0; x < w; ++x) {
    const AxisTap& tx = doubling.taps[static_cast<size_t>(x)];
    for (int64_t c = 0; c < 2; ++c) {
      corner[(c * 4 + 0) * w + x] = half[c][0][tx.i0];
      corner[(c * 4 + 1) * w + x] = half[c][0][tx.i1];
      corner[(c * 4 + 2) * w + x] = half[c][1][tx.i0];
      corner[(c * 4 + 3) * w + x] = half[c][1][tx.i1];
    }
  }
  float* rgb = rows + 8 * w;
  for (int64_t x = 0;; x += n) {
    if (x + n > w) x = w - n;  // the last vector overlaps: the same values again
    const VF lx0 = hn::LoadU(d, doubling.l0.data() + x), lx1 = hn::LoadU(d, doubling.l1.data() + x);
    VF chroma[2];
    for (int64_t c = 0; c < 2; ++c) {
      const float* k = corner + c * 4 * w + x;
      chroma[c] = BlendTapsLanes(d, hn::LoadU(d, k), hn::LoadU(d, k + w), hn::LoadU(d, k + 2 * w),
                                 hn::LoadU(d, k + 3 * w), ty, lx0, lx1, order);
    }
    RgbLanes(d, luma + x, chroma[0], chroma[1], rgb + x, w);
    if (x + n == w) break;
  }
  StoreRgbRows(d, rgb, w, out, dst.stride_w);
}

void JpegSamples(const ConstImage& src, const Image& dst, const JpegParams& params, const float* bases, int64_t begin,
                 int64_t end) {
  thread_local std::vector<float> kept, rows, across;  // cpu/scratch.h
  thread_local std::vector<uint8_t> staged;
  thread_local Taps doubling;
  const JpegGeometry g = jpeg_geometry(src.height, src.width);
  kept.resize(static_cast<size_t>(g.work_floats()));
  rows.resize(static_cast<size_t>(2 * g.padded_w + 11 * g.width));
  staged.resize(static_cast<size_t>(3 * g.padded_w));
  across.resize(static_cast<size_t>(2 * g.half_h() * g.width));
  std::vector<AxisTap> halving(static_cast<size_t>(g.half_w()));
  for (int64_t x = 0; x < g.half_w(); ++x)
    halving[static_cast<size_t>(x)] = jpeg_halving_tap(x, g.padded_w, params.down);
  doubling.resize(g.width);
  for (int64_t x = 0; x < g.width; ++x) doubling.set(x, jpeg_doubling_tap(x, g.padded_w, params.up));
  float* work = kept.data();
  float *row0 = rows.data(), *row1 = rows.data() + g.padded_w;
  const JpegBases coding = jpeg_bases(bases);
  for (int64_t b = begin; b < end; ++b) {
    YcbcrRows(src, g, work, b, staged.data());
    for (int64_t c = 0; c < 2; ++c) {
      for (int64_t y = 0; y < g.half_h(); ++y) {
        const AxisTap ty = jpeg_halving_tap(y, g.padded_h, params.down);
        BlurDownRow(g.full(work, 3 + c), g, ty.i0, row0);
        BlurDownRow(g.full(work, 3 + c), g, ty.i1, row1);
        float* out = g.half(work, c) + y * g.half_w();
        for (int64_t x = 0; x < g.half_w(); ++x) {
          const AxisTap& tx = halving[static_cast<size_t>(x)];
          out[x] = blend_taps(row0[tx.i0], row0[tx.i1], row1[tx.i0], row1[tx.i1], ty, tx, params.down);
        }
      }
    }
    for (int64_t i = 0; i < g.blocks(); ++i) {
      const JpegBlock k = jpeg_block(g, work, params.tables, b, i);
      if (kLanes) {
        CodeBlockLanes(k.origin, k.stride, k.table, coding);
      } else {
        jpeg_code_block(k.origin, k.stride, k.table, coding);
      }
    }
    const bool across_first =
        kLanes && g.width >= static_cast<int64_t>(hn::Lanes(DF())) && blends_rows_first(params.up);
    if (across_first) AcrossRows(g, work, doubling, rows.data() + 2 * g.padded_w, across.data());
    for (int64_t y = 0; y < g.height; ++y)
      RgbRow(g, work, doubling, params.up, across.data(), dst, b, y, rows.data() + 2 * g.padded_w);
  }
  release_large_scratch(kept, rows, across, staged);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(JpegSamples);

void jpeg(const ConstImage& src, const Image& dst, const JpegParams& params, const ParallelFor& parallel) {
  detail::check_jpeg("jpeg", src, dst, params);
  detail::check_jpeg_table_values("jpeg", params.tables);
  if (src.batch == 0 || src.height == 0 || src.width == 0) return;
  static const std::vector<float> bases = [] {
    std::vector<float> b(kJpegBasesFloats);
    jpeg_fill_bases(b.data());
    return b;
  }();
  run_parallel(parallel, src.batch, 1, [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(JpegSamples)(src, dst, params, bases.data(), begin, end);
  });
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
