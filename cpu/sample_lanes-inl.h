// The lane form of pixel/sample.h's sample_pixel on one sample's PackedPixels, shared by the CPU
// kernels that sample (warp.cc, grid_sample.cc, elastic.cc): given a vector of grid points, the
// source coordinate, padding, taps and the fused corner sum exactly as sample_pixel computes them
// one pixel at a time. One 64-bit gather element reads a tap and its east neighbour for up to four
// channels at once (the gathers are most of the time: a third of them for RGB against one float
// plane per channel), and each byte becomes x / 255 in lanes. Only where the FMA is native (the
// corner sums are fused as torch's); bicubic has no lane form here (sample_pixel runs it).
// Highway's per-target header convention: included once per target by each foreach_target file.
#if defined(U8AUG_CPU_SAMPLE_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef U8AUG_CPU_SAMPLE_LANES_INL_H_
#undef U8AUG_CPU_SAMPLE_LANES_INL_H_
#else
#define U8AUG_CPU_SAMPLE_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include "cpu/sample_rows.h"
#include "cpu/unit_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

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

// Lanes [x, x + N) of one output row, every channel, sampled at the grid points (gx, gy).
template <class D>
HWY_INLINE void SampleLanes(D d, const SampleRow& r, int64_t x, hn::Vec<D> gx, hn::Vec<D> gy) {
  using DI = hn::RebindToSigned<D>;
  const DI di;
  const ConstImage& src = *r.src;
  const Image& dst = *r.dst;
  const SampleSetup& s = r.setup;
  const bool zeros = s.padding == Padding::kZeros || s.padding == Padding::kFill;
  const Padding coord_padding = zeros ? Padding::kZeros : s.padding;
  const auto sx = SourceLanes(d, gx, src.width, coord_padding, s.align_corners);
  const auto sy = SourceLanes(d, gy, src.height, coord_padding, s.align_corners);
  const auto W = hn::Set(d, static_cast<float>(src.width)), H = hn::Set(d, static_cast<float>(src.height));
  const auto minus1 = hn::Set(d, -1.0f), one = hn::Set(d, 1.0f);
  auto inside = [&](hn::Vec<D> i, hn::Vec<D> size) { return hn::And(hn::Gt(i, minus1), hn::Lt(i, size)); };
  const auto wstride = hn::Set(di, static_cast<int32_t>(r.pixels->stride));
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
  auto nw = hn::Zero(du), ne = nw, sw = nw, se = nw;  // each group's words, gathered at its first channel
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
#endif  // HWY_NATIVE_FMA

// The columns [r.x_begin, r.x_end) of one output row that whole vectors cover, their grid points
// from grid(x, gx, gy), sampled by sample(d, r, x, gx, gy) (SampleLanes, or the fast tier's
// FixedSampleLanes); an interleaved output is copied from the scratch planes. Returns the first
// column left to the per-pixel form (the row's tail; every column for bicubic, without native FMA,
// for an empty source or past int32 gather offsets).
template <class D, class GridLanes, class Sample>
HWY_INLINE int64_t SampleRowLanes(D d, const SampleRow& r, const GridLanes& grid, const Sample& sample) {
  int64_t done = r.x_begin;
#if HWY_NATIVE_FMA
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const int64_t area = r.src->height * r.src->width, framed = (r.src->height + 3) * (r.src->width + 3);
  if (area > 0 && framed < (int64_t{1} << 31) && r.setup.mode != Interp::kBicubic) {
    for (; done + lanes <= r.x_end; done += lanes) {
      hn::Vec<D> gx, gy;
      grid(done, gx, gy);
      sample(d, r, done, gx, gy);
    }
  }
  const Image& dst = *r.dst;
  if (dst.stride_w != 1) {
    for (int64_t x = r.x_begin; x < done; ++x)
      for (int64_t c = 0; c < dst.channels; ++c) dst.at(r.b, c, r.y, x) = r.scratch[c * dst.width + x];
  }
#else
  (void)d;
  (void)grid;
  (void)sample;
#endif
  return done;
}

template <class D, class GridLanes>
HWY_INLINE int64_t SampleRowLanes(D d, const SampleRow& r, const GridLanes& grid) {
  return SampleRowLanes(d, r, grid, [](D dd, const SampleRow& rr, int64_t x, hn::Vec<D> gx, hn::Vec<D> gy) {
#if HWY_NATIVE_FMA
    SampleLanes(dd, rr, x, gx, gy);
#else
    (void)dd, (void)rr, (void)x, (void)gx, (void)gy;
#endif
  });
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_SAMPLE_LANES_INL_H_
