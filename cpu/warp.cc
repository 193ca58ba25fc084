// warp_affine and warp_perspective on the CPU. Per sample: its sampling matrix, its pixels packed
// four channels to a 32-bit word, then the output rows in parallel. On targets with a native fused
// multiply-add the rows run in vector lanes: grid point, source coordinate, padding, taps and the
// fused corner sum exactly as pixel/warp.h's warp_pixel computes them one pixel at a time. One
// 64-bit gather element reads a tap and its east neighbour for up to four channels at once (the
// gathers are most of the time: a third of them for RGB against one float plane per channel),
// and each byte becomes x / 255 in lanes. Row tails, rows narrower than a vector, bicubic and
// targets without FMA run warp_pixel.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/warp.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/unit_lanes-inl.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "cpu/parallel.h"
#include "cpu/warp_rows.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/warp.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Rows [row_begin, row_end) of sample b's packed groups (row r: group r / H, image row r % H).
void PackRows(const ConstImage& src, int64_t b, PackedPixels& pixels, int64_t row_begin, int64_t row_end) {
  const hn::ScalableTag<uint32_t> du;
  const hn::Rebind<uint8_t, decltype(du)> d8;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(du)), w = src.width;
  for (int64_t r = row_begin; r < row_end; ++r) {
    const int64_t g = r / src.height, y = r % src.height;
    const int64_t channels = std::min<int64_t>(4, src.channels - 4 * g);
    uint32_t* out = pixels.group(g) + y * w;
    if (pixels.unit_floats) {
      UnitWindowRows(src, b, y, 0, 1, w, reinterpret_cast<float*>(out), 0, 1);
      continue;
    }
    int64_t x = 0;
    if (src.stride_w == 1) {
      for (; x + lanes <= w; x += lanes) {
        auto word = hn::Zero(du);
        for (int64_t j = 0; j < channels; ++j) {
          const auto bytes = hn::PromoteTo(du, hn::LoadU(d8, &src.at(b, 4 * g + j, y, x)));
          word = hn::Or(word, hn::ShiftLeftSame(bytes, static_cast<int>(8 * j)));
        }
        hn::StoreU(word, du, out + x);
      }
    }
    for (; x < w; ++x) {
      uint32_t word = 0;
      for (int64_t j = 0; j < channels; ++j) word |= uint32_t{src.at(b, 4 * g + j, y, x)} << (8 * j);
      out[x] = word;
    }
  }
}

#if HWY_NATIVE_FMA
// For each lane, the words group[off] and group[off + 1] (a tap and its east neighbour): one
// 64-bit gather element per pair, half the elements of two 32-bit gathers.
template <class D, class VI>
HWY_INLINE void GatherPairs(D d, const uint32_t* group, VI off, hn::Vec<D>& first, hn::Vec<D>& second) {
  const hn::Repartition<double, D> dd;
  const hn::Rebind<int64_t, decltype(dd)> d64;
  const hn::Half<hn::RebindToSigned<D>> dih;
  const auto lo = hn::ShiftLeft<2>(hn::PromoteTo(d64, hn::LowerHalf(dih, off)));
  const auto hi = hn::ShiftLeft<2>(hn::PromoteTo(d64, hn::UpperHalf(dih, off)));
  const double* base = reinterpret_cast<const double*>(group);
  const auto pairs_lo = hn::BitCast(d, hn::GatherOffset(dd, base, lo));
  const auto pairs_hi = hn::BitCast(d, hn::GatherOffset(dd, base, hi));
  first = hn::ConcatEven(d, pairs_hi, pairs_lo);
  second = hn::ConcatOdd(d, pairs_hi, pairs_lo);
}

template <class D>
HWY_INLINE hn::Vec<D> SourceLanes(D d, hn::Vec<D> g, int64_t size, Padding padding, bool align_corners) {
  const auto one = hn::Set(d, 1.0f);
  auto x = align_corners ? hn::Mul(hn::Add(g, one), hn::Set(d, static_cast<float>(size - 1) / 2.0f))
                         : hn::MulAdd(hn::Add(g, one), hn::Set(d, static_cast<float>(size) / 2.0f), hn::Set(d, -0.5f));
  if (padding == Padding::kBorder || padding == Padding::kReflection) {
    if (padding == Padding::kReflection) {
      if (align_corners && size <= 1) {
        x = hn::Zero(d);
      } else {
        const float low = align_corners ? 0.0f : -0.5f;
        const auto twice_span =
            hn::Set(d, align_corners ? static_cast<float>(size - 1) * 2.0f : static_cast<float>(size) * 2.0f);
        const auto a = hn::Abs(hn::Sub(x, hn::Set(d, low)));
        const auto flips = hn::Trunc(hn::Div(a, twice_span));
        const auto extra = hn::Sub(a, hn::Mul(flips, twice_span));
        x = hn::Add(hn::Min(extra, hn::Sub(twice_span, extra)), hn::Set(d, low));
      }
    }
    x = hn::IfThenElseZero(hn::Eq(x, x), x);  // NaN -> 0, then clamp to [0, size - 1]
    x = hn::Min(hn::Max(x, hn::Zero(d)), hn::Set(d, static_cast<float>(size - 1)));
  }
  return x;
}

// Channel j of each word, as x / 255 (see PackedPixels).
template <class D>
HWY_INLINE hn::Vec<D> UnitByte(D d, hn::Vec<hn::RebindToUnsigned<D>> words, int j, bool unit_floats) {
  if (unit_floats) return hn::BitCast(d, words);
  const hn::RebindToUnsigned<D> du;
  const hn::RebindToSigned<D> di;
  const auto byte = hn::And(hn::ShiftRightSame(words, 8 * j), hn::Set(du, 0xFFu));
  return UnitOfByteLanes(d, hn::ConvertTo(d, hn::BitCast(di, byte)));
}

// Lanes [x, x + N) of one output row, every channel.
template <class D>
HWY_INLINE void WarpLanes(D d, const WarpRow& r, int64_t x) {
  using DI = hn::RebindToSigned<D>;
  const DI di;
  const ConstImage& src = *r.src;
  const Image& dst = *r.dst;
  const WarpSetup& s = *r.setup;
  const float* t = s.sampling.m;
  const auto bx = hn::LoadU(d, r.base_x + x);
  const float by = r.base_y;
  auto gx = hn::Add(hn::Add(hn::Mul(hn::Set(d, t[0]), bx), hn::Set(d, t[1] * by)), hn::Set(d, t[2]));
  auto gy = hn::Add(hn::Add(hn::Mul(hn::Set(d, t[3]), bx), hn::Set(d, t[4] * by)), hn::Set(d, t[5]));
  if (s.perspective) {
    const auto denom = hn::Add(hn::Add(hn::Mul(hn::Set(d, t[6]), bx), hn::Set(d, t[7] * by)), hn::Set(d, t[8]));
    gx = hn::Div(gx, denom);
    gy = hn::Div(gy, denom);
  }
  const bool zeros = s.padding == Padding::kZeros || s.padding == Padding::kFill;
  const Padding coord_padding = zeros ? Padding::kZeros : s.padding;
  const auto sx = SourceLanes(d, gx, src.width, coord_padding, s.align_corners);
  const auto sy = SourceLanes(d, gy, src.height, coord_padding, s.align_corners);
  const auto W = hn::Set(d, static_cast<float>(src.width)), H = hn::Set(d, static_cast<float>(src.height));
  const auto minus1 = hn::Set(d, -1.0f), one = hn::Set(d, 1.0f);
  auto inside = [&](hn::Vec<D> i, hn::Vec<D> size) { return hn::And(hn::Gt(i, minus1), hn::Lt(i, size)); };
  const auto wstride = hn::Set(di, static_cast<int32_t>(src.width));
  auto offset = [&](hn::Mask<D> ok, hn::Vec<D> fx, hn::Vec<D> fy) {
    const auto ix = hn::ConvertTo(di, hn::IfThenElseZero(ok, fx));
    const auto iy = hn::ConvertTo(di, hn::IfThenElseZero(ok, fy));
    return hn::Add(hn::Mul(iy, wstride), ix);
  };
  const bool interleaved = dst.stride_w != 1;
  auto store = [&](int64_t c, hn::Vec<D> v) {
    uint8_t* out = interleaved ? r.scratch + c * dst.width + x : &dst.at(r.b, c, r.y, x);
    StoreU8Lanes(d, v, out);
  };
  if (s.mode == Interp::kNearest) {
    const auto xr = hn::Round(sx), yr = hn::Round(sy);
    const auto ok = zeros ? hn::And(inside(xr, W), inside(yr, H)) : hn::Eq(xr, xr);
    const auto off = offset(ok, xr, yr);
    const auto miss = hn::Sub(one, hn::IfThenElseZero(ok, one));
    const hn::RebindToUnsigned<D> du;
    for (int64_t c = 0; c < dst.channels; ++c) {
      const auto words = hn::GatherIndex(du, r.pixels->group(c / 4), off);
      auto v = hn::IfThenElseZero(ok, UnitByte(d, words, static_cast<int>(c % 4), r.pixels->unit_floats));
      if (s.padding == Padding::kFill) v = hn::Add(v, hn::Mul(miss, hn::Set(d, (*r.fill)[c])));
      store(c, v);
    }
    return;
  }
  const auto x_w = hn::Floor(sx), y_n = hn::Floor(sy);
  const auto dw = hn::Sub(sx, x_w), de = hn::Sub(one, dw), dn = hn::Sub(sy, y_n), ds = hn::Sub(one, dn);
  const auto w0 = hn::Mul(ds, de), w1 = hn::Mul(ds, dw), w2 = hn::Mul(dn, de), w3 = hn::Mul(dn, dw);
  const auto x_e = hn::Add(x_w, one), y_s = hn::Add(y_n, one);
  const auto all = hn::Eq(x_w, x_w);
  const auto w_ok = zeros ? inside(x_w, W) : all, n_ok = zeros ? inside(y_n, H) : all;
  const auto e_ok = zeros ? inside(x_e, W) : hn::Lt(x_e, W), s_ok = zeros ? inside(y_s, H) : hn::Lt(y_s, H);
  const auto m0 = hn::And(w_ok, n_ok), m1 = hn::And(e_ok, n_ok), m2 = hn::And(w_ok, s_ok), m3 = hn::And(e_ok, s_ok);
  // pair offsets start at the west tap, which may be column -1 or W - 1 (the planes' margins)
  if (s.padding == Padding::kZeros && hn::AllFalse(d, hn::Or(hn::Or(m0, m1), hn::Or(m2, m3)))) {
    for (int64_t c = 0; c < dst.channels; ++c) store(c, hn::Zero(d));  // wholly outside: zeros, no reads
    return;
  }
  const auto north = offset(hn::Or(m0, m1), x_w, y_n), south = offset(hn::Or(m2, m3), x_w, y_s);
  hn::Vec<D> uncovered = hn::Zero(d);
  if (s.padding == Padding::kFill) {
    const auto cov =
        hn::MulAdd(hn::IfThenElseZero(m3, one), w3,
                   hn::MulAdd(hn::IfThenElseZero(m2, one), w2,
                              hn::MulAdd(hn::IfThenElseZero(m1, one), w1, hn::Mul(hn::IfThenElseZero(m0, one), w0))));
    uncovered = hn::Sub(one, cov);
  }
  const hn::RebindToUnsigned<D> du;
  hn::Vec<decltype(du)> nw, ne, sw, se;
  for (int64_t c = 0; c < dst.channels; ++c) {
    const int j = static_cast<int>(c % 4);
    if (j == 0) {  // the next group's words: the four taps of up to four channels
      const uint32_t* group = r.pixels->group(c / 4);
      GatherPairs(du, group, north, nw, ne);
      GatherPairs(du, group, south, sw, se);
    }
    const bool f = r.pixels->unit_floats;
    const auto p0 = hn::IfThenElseZero(m0, UnitByte(d, nw, j, f)), p1 = hn::IfThenElseZero(m1, UnitByte(d, ne, j, f));
    const auto p2 = hn::IfThenElseZero(m2, UnitByte(d, sw, j, f)), p3 = hn::IfThenElseZero(m3, UnitByte(d, se, j, f));
    auto v = hn::MulAdd(p3, w3, hn::MulAdd(p2, w2, hn::MulAdd(p1, w1, hn::Mul(p0, w0))));
    if (s.padding == Padding::kFill) v = hn::Add(v, hn::Mul(uncovered, hn::Set(d, (*r.fill)[c])));
    store(c, v);
  }
}
#endif

void WarpRowRun(const WarpRow& r) {
  const Image& dst = *r.dst;
  int64_t done = r.x_begin;
#if HWY_NATIVE_FMA
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  // int32 gather offsets address at most 2^31 words per group
  // (bicubic runs warp_pixel: its sixteen taps a channel have no lane form here yet)
  if (r.src->height * r.src->width < (int64_t{1} << 31) && r.setup->mode != Interp::kBicubic) {
    for (; done + lanes <= r.x_end; done += lanes) WarpLanes(d, r, done);
  }
  if (dst.stride_w != 1) {
    for (int64_t x = r.x_begin; x < done; ++x)
      for (int64_t c = 0; c < dst.channels; ++c) dst.at(r.b, c, r.y, x) = r.scratch[c * dst.width + x];
  }
#endif
  for (int64_t x = done; x < r.x_end; ++x) {
    warp_pixel(*r.src, dst, *r.setup, *r.fill, r.b, r.y, x, r.base_x[x], r.base_y);
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
HWY_EXPORT(PackRows);
HWY_EXPORT(WarpRowRun);

namespace {

void warp(const char* op, bool perspective, const ConstImage& src, const Image& dst, const WarpParams& p,
          const ParallelFor& parallel) {
  detail::check_warp(op, src, dst, p);
  if (p.padding == Padding::kFill) {
    detail::check_sample_values(op, "fill", p.fill, -std::numeric_limits<float>::max(),
                                std::numeric_limits<float>::max());
  }
  std::vector<WarpSetup> setups;
  setups.reserve(static_cast<size_t>(dst.batch));
  for (int64_t b = 0; b < dst.batch; ++b) setups.push_back(warp_setup(p, perspective, src, dst, b));
  const WarpSetup& any = setups.front();
  std::vector<float> base_x(static_cast<size_t>(dst.width)), base_y(static_cast<size_t>(dst.height));
  for (int64_t x = 0; x < dst.width; ++x) base_x[x] = base_coordinate(any, x, dst.width);
  for (int64_t y = 0; y < dst.height; ++y) base_y[y] = base_coordinate(any, y, dst.height);
  PackedPixels pixels;
  pixels.resize(src.channels, src.height, src.width);
  const int64_t packed_rows = pixels.groups * src.height;
  for (int64_t b = 0; b < dst.batch; ++b) {
    run_parallel(parallel, packed_rows, grain_for(src.width * 4), [&](int64_t begin, int64_t end) {
      HWY_DYNAMIC_DISPATCH(PackRows)(src, b, pixels, begin, end);
    });
    // Output tiles of kBand rows x kTile columns: a tile's taps come from a compact patch of the
    // source (a whole output row of a rotation crosses hundreds of source rows), so gathers hit cache.
    constexpr int64_t kBand = 16, kTile = 128;
    const int64_t bands = (dst.height + kBand - 1) / kBand;
    run_parallel(parallel, bands, std::max<int64_t>(1, grain_for(dst.width * dst.channels * 16 * kBand)),
                 [&](int64_t begin, int64_t end) {
                   std::vector<uint8_t> scratch(static_cast<size_t>(dst.channels * dst.width));
                   for (int64_t band = begin; band < end; ++band) {
                     const int64_t y_end = std::min(dst.height, (band + 1) * kBand);
                     for (int64_t x0 = 0; x0 < dst.width; x0 += kTile) {
                       for (int64_t y = band * kBand; y < y_end; ++y) {
                         const WarpRow row{&src,
                                           &dst,
                                           &setups[b],
                                           &p.fill,
                                           &pixels,
                                           base_x.data(),
                                           base_y[y],
                                           b,
                                           y,
                                           x0,
                                           std::min(dst.width, x0 + kTile),
                                           scratch.data()};
                         HWY_DYNAMIC_DISPATCH(WarpRowRun)(row);
                       }
                     }
                   }
                 });
  }
}

}  // namespace

void warp_affine(const ConstImage& src, const Image& dst, const WarpParams& params, const ParallelFor& parallel) {
  warp("warp_affine", false, src, dst, params, parallel);
}

void warp_perspective(const ConstImage& src, const Image& dst, const WarpParams& params, const ParallelFor& parallel) {
  warp("warp_perspective", true, src, dst, params, parallel);
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
