// plasma_level on the CPU: pixel/plasma_level.h's value functions a map at a time, compiled per
// target. The old cells' quarters are taken once and each diamond once (the square cells beside it
// read it twice); each output row is two interleaved kinds of cell, computed in lanes (the draws
// split into their even and odd columns, the results interleaved back) where all four neighbours
// exist, and by the scalar functions at the borders and in the tails.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/plasma_level.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <vector>

#include "cpu/parallel.h"
#include "cpu/scratch.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/plasma_level.h"
#include "u8aug/u8aug.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;

HWY_INLINE VF Mix(DF d, VF draw, float scale, VF sum) {
  return hn::Add(hn::Mul(draw, hn::Set(d, scale)), hn::Mul(hn::Set(d, 1.0f - scale), sum));
}
HWY_INLINE VF Four(VF a, VF b, VF c, VF e) { return hn::Add(hn::Add(hn::Add(a, b), c), e); }

// Map n: q (h x w quarters), v (the diamonds) and dq (their quarters), (h - 1) x (w - 1) each.
void LevelMaps(const PlasmaLevel& p, int64_t begin, int64_t end) {
  thread_local std::vector<float> quarters, diamonds, diamond_quarters;  // cpu/scratch.h
  const DF d;
  const int64_t h = p.height, w = p.width, ow = p.out_width(), n_lanes = static_cast<int64_t>(hn::Lanes(d));
  quarters.resize(static_cast<size_t>(h * w));
  diamonds.resize(static_cast<size_t>((h - 1) * (w - 1)));
  diamond_quarters.resize(diamonds.size());
  float *q = quarters.data(), *v = diamonds.data(), *dq = diamond_quarters.data();
  for (int64_t n = begin; n < end; ++n) {
    const float s = p.scale[n];
    const float* grid = p.grid + n * h * w;
    const float* draws = p.draws + n * p.out_plane();
    float* out = p.out + n * p.out_plane();
    for (int64_t k = 0; k < h * w; ++k) q[k] = grid[k] * 0.25f;
    for (int64_t r = 0; r + 1 < h; ++r) {  // the diamonds
      const float *top = q + r * w, *bottom = top + w, *draw = draws + (2 * r + 1) * ow;
      float *vr = v + r * (w - 1), *dqr = dq + r * (w - 1);
      int64_t c = 0;
      for (; c + n_lanes <= w - 1; c += n_lanes) {
        VF even, odd;
        hn::LoadInterleaved2(d, draw + 2 * c, even, odd);
        const VF corners = Four(hn::LoadU(d, top + c), hn::LoadU(d, top + c + 1), hn::LoadU(d, bottom + c),
                                hn::LoadU(d, bottom + c + 1));
        const VF value = Mix(d, odd, s, corners);
        hn::StoreU(value, d, vr + c);
        hn::StoreU(hn::Mul(value, hn::Set(d, 0.25f)), d, dqr + c);
      }
      for (; c + 1 < w; ++c) {
        vr[c] = plasma_diamond(top[c], top[c + 1], bottom[c], bottom[c + 1], draw[2 * c + 1], s);
        dqr[c] = vr[c] * 0.25f;
      }
    }
    for (int64_t r = 0; r < h; ++r) {  // even rows: an old cell, then a row square
      const bool first = r == 0, last = r == h - 1;
      const float *above = dq + (first ? 0 : r - 1) * (w - 1), *below = dq + (last ? 0 : r) * (w - 1);
      const float *qr = q + r * w, *draw = draws + 2 * r * ow, *old = grid + r * w;
      float* out_row = out + 2 * r * ow;
      int64_t c = 0;
      if (!first && !last) {
        for (; c + n_lanes <= w - 1; c += n_lanes) {
          VF even, odd;
          hn::LoadInterleaved2(d, draw + 2 * c, even, odd);
          const VF sum =
              Four(hn::LoadU(d, above + c), hn::LoadU(d, qr + c), hn::LoadU(d, qr + c + 1), hn::LoadU(d, below + c));
          hn::StoreInterleaved2(hn::LoadU(d, old + c), Mix(d, odd, s, sum), d, out_row + 2 * c);
        }
      }
      for (; c + 1 < w; ++c) {
        out_row[2 * c] = old[c];
        const float sum =
            plasma_row_square(first, last, first ? 0.0f : above[c], qr[c], qr[c + 1], last ? 0.0f : below[c]);
        out_row[2 * c + 1] = plasma_mix(draw[2 * c + 1], s, sum);
      }
      out_row[2 * (w - 1)] = old[w - 1];
    }
    for (int64_t r = 0; r + 1 < h; ++r) {  // odd rows: a column square, then a diamond
      const float *vr = v + r * (w - 1), *dqr = dq + r * (w - 1);
      const float *north = q + r * w, *south = north + w, *draw = draws + (2 * r + 1) * ow;
      float* out_row = out + (2 * r + 1) * ow;
      out_row[0] = plasma_mix(draw[0], s, plasma_column_square(true, false, north[0], 0.0f, dqr[0], south[0]));
      out_row[1] = vr[0];
      int64_t c = 1;
      for (; c + n_lanes <= w - 1; c += n_lanes) {
        VF even, odd;
        hn::LoadInterleaved2(d, draw + 2 * c, even, odd);
        const VF sum =
            Four(hn::LoadU(d, north + c), hn::LoadU(d, dqr + c - 1), hn::LoadU(d, dqr + c), hn::LoadU(d, south + c));
        hn::StoreInterleaved2(Mix(d, even, s, sum), hn::LoadU(d, vr + c), d, out_row + 2 * c);
      }
      for (; c < w; ++c) {
        const bool last = c == w - 1;
        const float sum = plasma_column_square(false, last, north[c], dqr[c - 1], last ? 0.0f : dqr[c], south[c]);
        out_row[2 * c] = plasma_mix(draw[2 * c], s, sum);
        if (!last) out_row[2 * c + 1] = vr[c];
      }
    }
  }
  release_large_scratch(quarters, diamonds, diamond_quarters);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(LevelMaps);

void plasma_level(const PlasmaLevel& level, const ParallelFor& parallel) {
  detail::check_plasma_level("plasma_level", level);
  run_parallel(parallel, level.maps, 1, [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(LevelMaps)(level, begin, end);
  });
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
