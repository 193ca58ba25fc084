// RandomClahe on the CPU (pixel/clahe.h's math), a plane per task: the byte counts of a row of
// tiles (the padded rows reflected), their tables, then every pixel blended from the tables of the
// tiles around it, the row's and each column's blend axes computed once. Scalar code compiled for
// each target: the blend is four table reads a pixel, which no byte shuffle does faster on AVX2,
// and its fused multiply-adds are one instruction where the target has FMA (a libm call without).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/clahe.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstring>
#include <vector>

#include "cpu/unit_lanes-inl.h"

#include "cpu/parallel.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/clahe.h"
#include "u8aug/u8aug.h"

// Defined once, outside the per-target namespaces: the dispatched function takes it.
#ifndef U8AUG_CPU_CLAHE_COLUMNS_
#define U8AUG_CPU_CLAHE_COLUMNS_
namespace u8aug {
namespace cpu {
// The columns' blend axes, once a call: each pixel's two tile offsets (256 bytes a tile) and weight.
struct ClaheColumns {
  std::vector<int32_t> base, other;
  std::vector<float> weight;
  std::vector<ClaheAxis> axes;
};
}  // namespace cpu
}  // namespace u8aug
#endif

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Byte counts of tile row r, one 256-entry array a tile: every padded row and column read from the
// image through its reflection.
void count_tile_row(const ConstImage& src, int64_t b, int64_t c, const ClaheGrid& g, int64_t r, uint32_t* counts) {
  std::memset(counts, 0, sizeof(uint32_t) * 256 * static_cast<size_t>(g.tiles_w));
  for (int64_t y = r * g.tile_h; y < (r + 1) * g.tile_h; ++y) {
    const uint8_t* row = &src.at(b, c, clahe_reflect(y, src.height), 0);
    const int64_t step = src.stride_w;
    for (int64_t q = 0; q < g.tiles_w; ++q) {
      uint32_t* tile = counts + 256 * q;
      const int64_t x0 = q * g.tile_w, x1 = (q + 1) * g.tile_w, inside = x1 < src.width ? x1 : src.width;
      for (int64_t x = x0; x < inside; ++x) ++tile[row[x * step]];
      for (int64_t x = inside > x0 ? inside : x0; x < x1; ++x) ++tile[row[clahe_reflect(x, src.width) * step]];
    }
  }
}

template <bool kOdd>
void blend_row_scalar(const uint8_t* in, int64_t in_step, uint8_t* out, int64_t out_step, int64_t width,
                      const uint8_t* tables, int64_t tiles_w, ClaheAxis row, const ClaheAxis* columns) {
  for (int64_t x = 0; x < width; ++x) {
    out[x * out_step] = clahe_value(tables, tiles_w, row, columns[x], in[x * in_step], kOdd);
  }
}

// One row in lanes: each pixel's four table bytes read by scalar loads and packed into one word
// (one store a pixel), then clahe_value's lerps (fused on the even path: targets with FMA only),
// the division by 255 and the quantizer a vector at a time. `packed` and `staged` hold a row.
template <bool kOdd>
void blend_row_lanes(const uint8_t* in, int64_t in_step, uint8_t* out, int64_t out_step, int64_t width,
                     const uint8_t* tables, int64_t tiles_w, ClaheAxis row, const ClaheColumns& columns,
                     uint32_t* packed, uint8_t* staged) {
  const uint8_t* base_row = tables + static_cast<int64_t>(row.base) * tiles_w * 256;
  const uint8_t* other_row = tables + static_cast<int64_t>(row.other) * tiles_w * 256;
  const int32_t* col_base = columns.base.data();
  const int32_t* col_other = columns.other.data();
  for (int64_t x = 0; x < width; ++x) {
    const uint8_t v = in[x * in_step];
    const int64_t b = col_base[x] + v, o = col_other[x] + v;
    packed[x] = static_cast<uint32_t>(base_row[b]) | static_cast<uint32_t>(base_row[o]) << 8 |
                static_cast<uint32_t>(other_row[b]) << 16 | static_cast<uint32_t>(other_row[o]) << 24;
  }
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  const hn::RebindToSigned<decltype(df)> di;
  const auto byte = hn::Set(du, 0xFFu);
  const auto k255 = hn::Set(df, 255.0f), row_weight = hn::Set(df, row.weight);
  const float* col_weight = columns.weight.data();
  const auto lerp = [](auto base, auto other, auto weight) {
    return kOdd ? hn::Add(base, hn::Mul(hn::Sub(other, base), weight)) : hn::MulAdd(weight, hn::Sub(other, base), base);
  };
  const auto value = [&](int64_t x) {
    const auto p = hn::LoadU(du, packed + x);
    const auto w = hn::LoadU(df, col_weight + x);
    const auto bb = hn::ConvertTo(df, hn::BitCast(di, hn::And(p, byte)));
    const auto bo = hn::ConvertTo(df, hn::BitCast(di, hn::And(hn::ShiftRight<8>(p), byte)));
    const auto ob = hn::ConvertTo(df, hn::BitCast(di, hn::And(hn::ShiftRight<16>(p), byte)));
    const auto oo = hn::ConvertTo(df, hn::BitCast(di, hn::ShiftRight<24>(p)));
    return hn::Div(lerp(lerp(bb, bo, w), lerp(ob, oo, w), row_weight), k255);
  };
  StoreU8Row(df, width, value, out_step == 1 ? out : staged);
  if (out_step != 1) {
    for (int64_t x = 0; x < width; ++x) out[x * out_step] = staged[x];
  }
}

template <bool kOdd>
void blend_plane(const ConstImage& src, const Image& dst, int64_t b, int64_t c, const ClaheGrid& g,
                 const uint8_t* tables, const ClaheColumns& columns, uint32_t* packed, uint8_t* staged) {
  // the even path's lerps are fused multiply-adds: in lanes only where the target has FMA
  const bool lanes = dst.width >= static_cast<int64_t>(hn::Lanes(hn::ScalableTag<float>())) && (kOdd || HWY_NATIVE_FMA);
  for (int64_t y = 0; y < dst.height; ++y) {
    const ClaheAxis row = clahe_row(y, g);
    const uint8_t* in = &src.at(b, c, y, 0);
    uint8_t* out = &dst.at(b, c, y, 0);
    if (lanes) {
      blend_row_lanes<kOdd>(in, src.stride_w, out, dst.stride_w, dst.width, tables, g.tiles_w, row, columns, packed,
                            staged);
    } else {
      blend_row_scalar<kOdd>(in, src.stride_w, out, dst.stride_w, dst.width, tables, g.tiles_w, row,
                             columns.axes.data());
    }
  }
}

// Planes [begin, end): each plane's tables, then its pixels.
void ClahePlanes(const ConstImage& src, const Image& dst, const ClaheParams& params, const ClaheColumns& columns,
                 int64_t begin, int64_t end) {
  const ClaheGrid g = clahe_grid(src.height, src.width, params.tiles_h, params.tiles_w);
  std::vector<uint32_t> counts(static_cast<size_t>(256 * g.tiles_w));
  std::vector<uint8_t> tables(static_cast<size_t>(256 * g.tiles_h * g.tiles_w));
  std::vector<uint32_t> packed(static_cast<size_t>(src.width));
  std::vector<uint8_t> staged(static_cast<size_t>(src.width));
  uint8_t bin_of[256];
  clahe_bins(bin_of);
  for (int64_t p = begin; p < end; ++p) {
    const int64_t b = p / src.channels, c = p % src.channels;
    for (int64_t r = 0; r < g.tiles_h; ++r) {
      count_tile_row(src, b, c, g, r, counts.data());
      for (int64_t q = 0; q < g.tiles_w; ++q) {
        clahe_table_by_byte(counts.data() + 256 * q, g.tile_h * g.tile_w, params.clip[b], bin_of,
                            tables.data() + 256 * (r * g.tiles_w + q));
      }
    }
    if (g.odd) {
      blend_plane<true>(src, dst, b, c, g, tables.data(), columns, packed.data(), staged.data());
    } else {
      blend_plane<false>(src, dst, b, c, g, tables.data(), columns, packed.data(), staged.data());
    }
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(ClahePlanes);

void clahe(const ConstImage& src, const Image& dst, const ClaheParams& params, const ParallelFor& parallel) {
  detail::check_clahe("clahe", src, dst, params);
  const ClaheGrid g = clahe_grid(src.height, src.width, params.tiles_h, params.tiles_w);
  ClaheColumns columns;
  for (int64_t x = 0; x < src.width; ++x) {
    const ClaheAxis a = clahe_column(x, g);
    columns.axes.push_back(a);
    columns.base.push_back(a.base * 256);
    columns.other.push_back(a.other * 256);
    columns.weight.push_back(a.weight);
  }
  run_parallel(parallel, src.batch * src.channels, 1, [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(ClahePlanes)(src, dst, params, columns, begin, end);
  });
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
