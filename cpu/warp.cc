// warp_affine and warp_perspective on the CPU. Per sample: its sampling matrix, its pixels as
// planar float32 x / 255 (one division per source byte instead of four per output tap), then the
// output rows in parallel. On targets with a native fused multiply-add the rows run in vector
// lanes: grid point, source coordinate, padding, taps and the fused corner sum exactly as
// pixel/warp.h's warp_pixel computes them one pixel at a time, taps read with gathers from the
// float planes. Row tails, rows narrower than a vector and targets without FMA run warp_pixel.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/warp.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/unit_lanes-inl.h"

#ifndef U8AUG_CPU_WARP_ONCE
#define U8AUG_CPU_WARP_ONCE
#include <algorithm>
#include <memory>
#include <vector>

#include "cpu/parallel.h"
#include "u8aug/check.h"
#include "u8aug/pixel/warp.h"

namespace u8aug {
namespace cpu {
// One sample's pixels as float32 x / 255, planar: plane c row y at plane(c) + y * W. A margin of
// kPad floats before and after lets a pair read start one element early or end one late.
struct FloatPlanes {
  static constexpr int64_t kPad = 16;
  std::unique_ptr<float[]> values;  // not value-initialised: every pixel is written before use
  int64_t height = 0, width = 0;
  void resize(int64_t channels, int64_t h, int64_t w) {
    height = h;
    width = w;
    const int64_t n = channels * h * w + 2 * kPad;
    values.reset(new float[static_cast<size_t>(n)]);
    std::fill(values.get(), values.get() + kPad, 0.0f);
    std::fill(values.get() + n - kPad, values.get() + n, 0.0f);
  }
  float* plane(int64_t c) { return values.get() + kPad + c * height * width; }
  const float* plane(int64_t c) const { return values.get() + kPad + c * height * width; }
};

// What one output row needs besides the image views.
struct WarpRow {
  const ConstImage* src;
  const Image* dst;
  const WarpSetup* setup;
  const Values* fill;
  const FloatPlanes* planes;
  const float* base_x;
  float base_y;
  int64_t b, y;
  int64_t x_begin, x_end;  // the columns of this call
  uint8_t* scratch;        // dst.channels * dst.width bytes, for interleaved outputs
};
}  // namespace cpu
}  // namespace u8aug
#endif

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void FillPlanes(const ConstImage& src, int64_t b, FloatPlanes& planes, int64_t row_begin, int64_t row_end) {
  UnitWindowRows(src, b, 0, 0, src.height, src.width, planes.plane(0), row_begin, row_end);
}

#if HWY_NATIVE_FMA
// For each lane, the floats plane[off] and plane[off + 1] (a tap and its east neighbour): one
// 64-bit gather element per pair, half the elements of two 32-bit gathers.
template <class D, class VI>
HWY_INLINE void GatherPairs(D d, const float* plane, VI off, hn::Vec<D>& first, hn::Vec<D>& second) {
  const hn::Repartition<double, D> dd;
  const hn::Rebind<int64_t, decltype(dd)> d64;
  const hn::Half<hn::RebindToSigned<D>> dih;
  const auto lo = hn::ShiftLeft<2>(hn::PromoteTo(d64, hn::LowerHalf(dih, off)));
  const auto hi = hn::ShiftLeft<2>(hn::PromoteTo(d64, hn::UpperHalf(dih, off)));
  const double* base = reinterpret_cast<const double*>(plane);
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
        const auto twice_span = hn::Set(d, align_corners ? static_cast<float>(size - 1) * 2.0f : static_cast<float>(size) * 2.0f);
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
    for (int64_t c = 0; c < dst.channels; ++c) {
      auto v = hn::IfThenElseZero(ok, hn::GatherIndex(d, r.planes->plane(c), off));
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
    const auto cov = hn::MulAdd(hn::IfThenElseZero(m3, one), w3,
                                hn::MulAdd(hn::IfThenElseZero(m2, one), w2,
                                           hn::MulAdd(hn::IfThenElseZero(m1, one), w1, hn::Mul(hn::IfThenElseZero(m0, one), w0))));
    uncovered = hn::Sub(one, cov);
  }
  for (int64_t c = 0; c < dst.channels; ++c) {
    const float* plane = r.planes->plane(c);
    hn::Vec<D> nw, ne, sw, se;
    GatherPairs(d, plane, north, nw, ne);
    GatherPairs(d, plane, south, sw, se);
    const auto p0 = hn::IfThenElseZero(m0, nw), p1 = hn::IfThenElseZero(m1, ne);
    const auto p2 = hn::IfThenElseZero(m2, sw), p3 = hn::IfThenElseZero(m3, se);
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
  // int32 gather offsets address at most 2^31 floats per plane
  if (r.src->height * r.src->width < (int64_t{1} << 31)) {
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
HWY_EXPORT(FillPlanes);
HWY_EXPORT(WarpRowRun);

namespace {

void warp(const char* op, bool perspective, const ConstImage& src, const Image& dst,
          const WarpParams& p, const ParallelFor& parallel) {
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
  FloatPlanes planes;
  planes.resize(src.channels, src.height, src.width);
  const int64_t plane_rows = src.channels * src.height;
  for (int64_t b = 0; b < dst.batch; ++b) {
    run_parallel(parallel, plane_rows, grain_for(src.width * 4), [&](int64_t begin, int64_t end) {
      HWY_DYNAMIC_DISPATCH(FillPlanes)(src, b, planes, begin, end);
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
            const WarpRow row{&src, &dst, &setups[b], &p.fill, &planes, base_x.data(), base_y[y],
                              b, y, x0, std::min(dst.width, x0 + kTile), scratch.data()};
            HWY_DYNAMIC_DISPATCH(WarpRowRun)(row);
          }
        }
      }
    });
  }
}

}  // namespace

void warp_affine(const ConstImage& src, const Image& dst, const WarpParams& params,
                 const ParallelFor& parallel) {
  warp("warp_affine", false, src, dst, params, parallel);
}

void warp_perspective(const ConstImage& src, const Image& dst, const WarpParams& params,
                      const ParallelFor& parallel) {
  warp("warp_perspective", true, src, dst, params, parallel);
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
