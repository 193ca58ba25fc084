// warp_affine and warp_perspective on the CPU. Per sample: its sampling matrix, its pixels packed
// four channels to a 32-bit word, then the output rows in parallel, in tiles. Where whole vectors
// fit, each row's grid points are computed in lanes exactly as pixel/warp.h's grid_point and sampled
// by cpu/sample_lanes-inl.h (the fast tier's fixed point: cpu/sample_fixed-inl.h); row tails,
// bicubic and targets without FMA run warp_pixel.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/warp.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/sample_fixed-inl.h"
#include "cpu/sample_lanes-inl.h"
#include "cpu/unit_lanes-inl.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "cpu/parallel.h"
#include "cpu/sample_rows.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/warp.h"

#ifndef U8AUG_CPU_WARP_ROW_  // once, outside the per-target namespaces
#define U8AUG_CPU_WARP_ROW_
namespace u8aug {
namespace cpu {
// What one output row of a warp needs: its sampling row, the sample's matrix and the base grid.
struct WarpRow {
  SampleRow row;
  const WarpSetup* setup;
  const float* base_x;
  float base_y;
};
}  // namespace cpu
}  // namespace u8aug
#endif

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
    uint32_t* out = pixels.group(g) + y * pixels.stride;
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

void WarpRowRun(const WarpRow& w) {
  const SampleRow& r = w.row;
  const hn::ScalableTag<float> d;
  // the row's grid terms as vectors, once (an output byte store may alias any memory)
  const float* t = w.setup->sampling.m;
  const float by = w.base_y;
  const bool perspective = w.setup->perspective, fixed_point = w.setup->fixed_point;
  const float* base_x = w.base_x;
  const auto t0 = hn::Set(d, t[0]), t1y = hn::Set(d, t[1] * by), t2 = hn::Set(d, t[2]);
  const auto t3 = hn::Set(d, t[3]), t4y = hn::Set(d, t[4] * by), t5 = hn::Set(d, t[5]);
  const auto t6 = hn::Set(d, t[6]), t7y = hn::Set(d, t[7] * by), t8 = hn::Set(d, t[8]);
  const auto grid = [=](int64_t x, hn::Vec<decltype(d)>& gx, hn::Vec<decltype(d)>& gy) {
    const auto bx = hn::LoadU(d, base_x + x);
    gx = hn::Add(hn::Add(hn::Mul(t0, bx), t1y), t2);
    gy = hn::Add(hn::Add(hn::Mul(t3, bx), t4y), t5);
    if (perspective) {
      const auto denom = hn::Add(hn::Add(hn::Mul(t6, bx), t7y), t8);
      if (fixed_point) {  // grid_point's reciprocal form
        const auto r = hn::Div(hn::Set(d, 1.0f), denom);
        gx = hn::Mul(gx, r);
        gy = hn::Mul(gy, r);
      } else {
        gx = hn::Div(gx, denom);
        gy = hn::Div(gy, denom);
      }
    }
  };
  int64_t done = r.x_begin;
  if (!w.setup->fixed_point) {
    done = SampleRowLanes(d, r, grid);
  } else {
#if HWY_NATIVE_FMA && HWY_TARGET != HWY_SCALAR
    const int64_t framed = (r.src->height + 3) * (r.src->width + 3);
    if (framed < (int64_t{1} << 31)) done = FixedSampleRow(d, r, grid);
    if (r.dst->stride_w != 1) {
      for (int64_t x = r.x_begin; x < done; ++x)
        for (int64_t c = 0; c < r.dst->channels; ++c) r.dst->at(r.b, c, r.y, x) = r.scratch[c * r.dst->width + x];
    }
#endif
  }
  for (int64_t x = done; x < r.x_end; ++x) {
    warp_pixel(*r.src, *r.dst, *w.setup, *r.fill, r.b, r.y, x, w.base_x[x], by);
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

void pack_sample(const ConstImage& src, int64_t b, PackedPixels& pixels, const ParallelFor& parallel) {
  run_parallel(parallel, pixels.groups * src.height, grain_for(src.width * 4), [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(PackRows)(src, b, pixels, begin, end);
  });
}

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
  // the fast tier's taps are bytes, a single channel's too
  const bool any_fixed = std::any_of(setups.begin(), setups.end(), [](const WarpSetup& s) { return s.fixed_point; });
  PackedPixels pixels;
  pixels.resize(src.channels, src.height, src.width, any_fixed);
  for (int64_t b = 0; b < dst.batch; ++b) {
    pack_sample(src, b, pixels, parallel);
    // Output tiles of kBand rows x kTile columns: a tile's taps come from a compact patch of the
    // source (a whole output row of a rotation crosses hundreds of source rows), so gathers hit cache.
    constexpr int64_t kBand = 16, kTile = 128;
    const int64_t bands = (dst.height + kBand - 1) / kBand;
    run_parallel(
        parallel, bands, std::max<int64_t>(1, grain_for(dst.width * dst.channels * 16 * kBand)),
        [&](int64_t begin, int64_t end) {
          std::vector<uint8_t> scratch(static_cast<size_t>(dst.channels * dst.width));
          for (int64_t band = begin; band < end; ++band) {
            const int64_t y_end = std::min(dst.height, (band + 1) * kBand);
            for (int64_t x0 = 0; x0 < dst.width; x0 += kTile) {
              for (int64_t y = band * kBand; y < y_end; ++y) {
                const WarpSetup& setup = setups[b];
                const WarpRow row{
                    {&src, &dst, SampleSetup{setup.mode, setup.padding, setup.align_corners, setup.cubic_across},
                     &p.fill, &pixels, b, y, x0, std::min(dst.width, x0 + kTile), scratch.data()},
                    &setup,
                    base_x.data(),
                    base_y[y]};
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
