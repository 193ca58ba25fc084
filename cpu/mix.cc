// Batch mixes on the CPU (pixel/mix.h's rules), row by row. MixUp: where the image's rows are runs
// of consecutive bytes (planar rows, or densely interleaved pixels) a vector of bytes and of the
// paired sample's bytes become x / 255, are blended in lanes and quantized; other layouts go element
// by element. CutMix: each plane is copied from its sample (one memcpy where its rows are
// consecutive), then each round's box rows from that round's source (a memcpy each; other layouts
// element by element).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/mix.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/unit_lanes-inl.h"

#include <cstring>
#include <string>

#include "cpu/parallel.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/filter.h"
#include "u8aug/pixel/mix.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void MixUpRun(const uint8_t* HWY_RESTRICT a, const uint8_t* HWY_RESTRICT b, float lam, uint8_t* HWY_RESTRICT out,
              int64_t n) {
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto keep = hn::Set(d, 1.0f - lam), take = hn::Set(d, lam);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    StoreU8Lanes(d, hn::Add(hn::Mul(UnitLanes(d, a + i), keep), hn::Mul(UnitLanes(d, b + i), take)), out + i);
  }
  for (; i < n; ++i) out[i] = to_u8(mixup_blend(unit(a[i]), unit(b[i]), lam) * 255.0f);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {
HWY_EXPORT(MixUpRun);

namespace {

// Rows of consecutive bytes in src and dst alike: planar rows, or whole densely interleaved rows.
struct RowRuns {
  bool interleaved, runs;
  int64_t planes, step;
  RowRuns(const ConstImage& src, const Image& dst) {
    interleaved = interleaved_rows(src) && dst.stride_c == 1 && dst.stride_w == dst.channels;
    runs = interleaved || (src.stride_w == 1 && dst.stride_w == 1);
    planes = interleaved ? 1 : src.channels;
    step = interleaved ? src.channels : 1;
  }
};

void check_indices(const char* op, const char* name, const int64_t* indices, int64_t n, int64_t batch) {
  for (int64_t i = 0; i < n; ++i) {
    if (indices[i] < 0 || indices[i] >= batch) {
      detail::fail(op, std::string(name) + " must lie in [0, B = " + std::to_string(batch) + "), got " +
                           std::to_string(indices[i]));
    }
  }
}

}  // namespace

void mix_up(const ConstImage& src, const Image& dst, const MixUpParams& p, const ParallelFor& parallel) {
  const char* op = "mix_up";
  detail::check_mix_up(op, src, dst, p);
  check_indices(op, "pairs", p.pairs, src.batch, src.batch);
  const RowRuns rows(src, dst);
  run_parallel(parallel, src.batch * rows.planes * src.height, grain_for(src.width * rows.step * 4),
               [&](int64_t begin, int64_t end) {
                 for (int64_t r = begin; r < end; ++r) {
                   const int64_t y = r % src.height, c = (r / src.height) % rows.planes;
                   const int64_t b = r / (src.height * rows.planes);
                   if (!rows.runs) {
                     for (int64_t x = 0; x < src.width; ++x) dst.at(b, c, y, x) = mixup_value(src, p, b, c, y, x);
                     continue;
                   }
                   HWY_DYNAMIC_DISPATCH(MixUpRun)
                   (&src.at(b, c, y, 0), &src.at(p.pairs[b], c, y, 0), p.lambdas[b], &dst.at(b, c, y, 0),
                    src.width * rows.step);
                 }
               });
}

void paste_boxes(const ConstImage& src, const Image& dst, const PasteParams& p, const ParallelFor& parallel) {
  const char* op = "paste_boxes";
  detail::check_paste(op, src, dst, p);
  check_indices(op, "sources", p.sources, p.mixes * src.batch, src.batch);
  const RowRuns rows(src, dst);
  const int64_t row_bytes = src.width * rows.step;
  // a plane (or a sample's interleaved rows) at a time: copied whole where its rows are
  // consecutive in src and dst, then each round's box rows pasted over it
  const bool whole = rows.runs && src.stride_h == row_bytes && dst.stride_h == row_bytes;
  run_parallel(parallel, src.batch * rows.planes, grain_for(src.height * row_bytes), [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const int64_t c = t % rows.planes, b = t / rows.planes;
      if (!rows.runs) {
        for (int64_t y = 0; y < src.height; ++y)
          for (int64_t x = 0; x < src.width; ++x)
            dst.at(b, c, y, x) = src.at(paste_source(p, src.batch, b, y, x), c, y, x);
        continue;
      }
      if (whole) {
        std::memcpy(&dst.at(b, c, 0, 0), &src.at(b, c, 0, 0), static_cast<size_t>(src.height * row_bytes));
      } else {
        for (int64_t y = 0; y < src.height; ++y)
          std::memcpy(&dst.at(b, c, y, 0), &src.at(b, c, y, 0), static_cast<size_t>(row_bytes));
      }
      for (int64_t k = 0; k < p.mixes; ++k) {
        const float* box = p.box(k, b, src.batch);
        int64_t y0, y1, x0, x1;
        box_range(box[1], box[3], src.height, &y0, &y1);
        box_range(box[0], box[2], src.width, &x0, &x1);
        if (x0 > x1) continue;
        const int64_t from = p.sources[k * src.batch + b];
        for (int64_t y = y0; y <= y1; ++y) {
          std::memcpy(&dst.at(b, c, y, x0), &src.at(from, c, y, x0), static_cast<size_t>((x1 - x0 + 1) * rows.step));
        }
      }
    }
  });
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
