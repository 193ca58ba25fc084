// elastic_transform on the CPU: per noise field, pixel/elastic.h's two smoothing passes in lanes
// (each output its own chain of fused multiply-adds, four vectors of outputs at a time so the chains
// overlap), then, per sample, its pixels packed and the output rows sampled in lanes at base grid +
// displacement (cpu/sample_lanes-inl.h). Row tails and targets without native FMA run the bodies.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/elastic.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/sample_lanes-inl.h"

#include <algorithm>
#include <vector>

#include "cpu/parallel.h"
#include "cpu/scratch.h"
#include "cpu/sample_rows.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/elastic.h"
#include "u8aug/u8aug.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_NATIVE_FMA
// out[x] for x in [x0, x0 + kVectors * N): the chain over taps of line(t)[x] * kernel[t], where
// line(t) points at the values tap t reads for output 0.
template <int kVectors, class D, class Line>
HWY_INLINE void ChainLanes(D d, const Line& line, const float* kernel, int64_t taps, int64_t x0, float* out) {
  const int64_t n = static_cast<int64_t>(hn::Lanes(d));
  hn::Vec<D> acc[kVectors];
  const auto k0 = hn::Set(d, kernel[0]);
  for (int j = 0; j < kVectors; ++j) acc[j] = hn::Mul(hn::LoadU(d, line(0) + x0 + j * n), k0);
  for (int64_t t = 1; t < taps; ++t) {
    const float* in = line(t) + x0;
    const auto k = hn::Set(d, kernel[t]);
    for (int j = 0; j < kVectors; ++j) acc[j] = hn::MulAdd(hn::LoadU(d, in + j * n), k, acc[j]);
  }
  for (int j = 0; j < kVectors; ++j) hn::StoreU(acc[j], d, out + x0 + j * n);
}

// Columns [0, width) of one output line in lanes; returns the first column left to the body.
template <class D, class Line>
HWY_INLINE int64_t ChainRow(D d, const Line& line, const float* kernel, int64_t taps, int64_t width, float* out) {
  const int64_t n = static_cast<int64_t>(hn::Lanes(d));
  int64_t x = 0;
  for (; x + 4 * n <= width; x += 4 * n) ChainLanes<4>(d, line, kernel, taps, x, out);
  for (; x + n <= width; x += n) ChainLanes<1>(d, line, kernel, taps, x, out);
  return x;
}
#endif

// Rows [begin, end) of the row pass over one field's two planes of H x W (row r: plane r / H).
void SmoothRows(const ElasticParams& p, int64_t height, int64_t width, float* rows, int64_t begin, int64_t end) {
  const ElasticRowsBody body{p, height, width, rows};
#if HWY_NATIVE_FMA
  const int64_t anchor = (p.taps_x - 1) / 2;
  std::vector<float> padded(static_cast<size_t>(width + p.taps_x), 0.0f);  // the zero padding, then the row
#endif
  for (int64_t r = begin; r < end; ++r) {
    int64_t done = 0;
#if HWY_NATIVE_FMA
    const hn::ScalableTag<float> d;
    std::copy(p.noise + r * width, p.noise + (r + 1) * width, padded.begin() + anchor);
    done = ChainRow(
        d, [&](int64_t t) { return padded.data() + t; }, p.kernel_x, p.taps_x, width, rows + r * width);
#endif
    for (int64_t x = done; x < width; ++x) body(r * width + x);
  }
}

// Rows [begin, end) of the column pass and alpha.
void SmoothColumns(const ElasticParams& p, int64_t height, int64_t width, const float* rows, float* displacement,
                   int64_t begin, int64_t end) {
  const ElasticColumnsBody body{p, height, width, rows, displacement};
#if HWY_NATIVE_FMA
  const int64_t anchor = (p.taps_y - 1) / 2;
  const std::vector<float> zeros(static_cast<size_t>(width), 0.0f);  // the rows of the zero padding
#endif
  for (int64_t r = begin; r < end; ++r) {
    int64_t done = 0;
#if HWY_NATIVE_FMA
    const int64_t plane = r / height, y = r % height;
    float* out = displacement + r * width;
    const hn::ScalableTag<float> d;
    const float* plane_rows = rows + plane * height * width;
    done = ChainRow(
        d,
        [&](int64_t t) {
          const int64_t j = y - anchor + t;
          return j >= 0 && j < height ? plane_rows + j * width : zeros.data();
        },
        p.kernel_y, p.taps_y, width, out);
    const auto alpha = hn::Set(d, p.alpha[plane % 2]);
    for (int64_t x = 0; x < done; x += static_cast<int64_t>(hn::Lanes(d))) {
      hn::StoreU(hn::Mul(hn::LoadU(d, out + x), alpha), d, out + x);
    }
#endif
    for (int64_t x = done; x < width; ++x) body(r * width + x);
  }
}

// One output row of sample b, its displacement planes at `field`.
void SampleRowRun(const SampleRow& r, const float* field, const float* base_x, float base_y) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const Image& dst = *r.dst;
  const float* dx = field + r.y * dst.width;
  const float* dy = dx + dst.height * dst.width;
  const int64_t done = SampleRowLanes(d, r, [&](int64_t x, V& gx, V& gy) {
    gx = hn::Add(hn::LoadU(d, base_x + x), hn::LoadU(d, dx + x));
    gy = hn::Add(hn::Set(d, base_y), hn::LoadU(d, dy + x));
  });
  const SampleSetup& s = r.setup;
  for (int64_t x = done; x < r.x_end; ++x) {
    sample_pixel(*r.src, dst, elastic_point(field, dst.height, dst.width, r.y, x, s.align_corners), s.mode, s.padding,
                 s.align_corners, s.cubic_across, *r.fill, r.b, r.y, x);
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
HWY_EXPORT(SmoothRows);
HWY_EXPORT(SmoothColumns);
HWY_EXPORT(SampleRowRun);

void elastic_transform(const ConstImage& src, const Image& dst, const ElasticParams& p, const ParallelFor& parallel) {
  detail::check_elastic("elastic_transform", src, dst, p);
  if (dst.batch == 0 || dst.height == 0 || dst.width == 0) return;
  const int64_t h = dst.height, w = dst.width, plane_rows = 2 * h;
  // one field of two planes at a time: the row pass, then the column pass (it reads every row)
  // cpu/scratch.h; named through references, which the lambdas below capture: a thread_local named
  // in a lambda is the running thread's own, and the workers must use the caller's
  thread_local std::vector<float> kept_rows, kept_field;
  std::vector<float>& rows = kept_rows;
  std::vector<float>& field = kept_field;
  rows.resize(static_cast<size_t>(2 * h * w)), field.resize(static_cast<size_t>(2 * h * w));
  auto smooth = [&](int64_t n) {
    ElasticParams one = p;
    one.noise = p.noise + n * 2 * h * w;
    one.count = 1;
    run_parallel(parallel, plane_rows, grain_for(w * p.taps_x * 4), [&](int64_t begin, int64_t end) {
      HWY_DYNAMIC_DISPATCH(SmoothRows)(one, h, w, rows.data(), begin, end);
    });
    run_parallel(parallel, plane_rows, grain_for(w * p.taps_y * 4), [&](int64_t begin, int64_t end) {
      HWY_DYNAMIC_DISPATCH(SmoothColumns)(one, h, w, rows.data(), field.data(), begin, end);
    });
  };
  std::vector<float> base_x(static_cast<size_t>(w));
  for (int64_t x = 0; x < w; ++x) base_x[x] = identity_grid_base(x, w, p.align_corners);
  const Values no_fill{};
  const SampleSetup setup{p.mode, p.padding, p.align_corners, p.cubic_across};
  PackedPixels pixels;
  pixels.resize(src.channels, src.height, src.width);
  for (int64_t b = 0; b < dst.batch; ++b) {
    if (b == 0 || p.count != 1) smooth(p.count == 1 ? 0 : b);
    pack_sample(src, b, pixels, parallel);
    run_parallel(parallel, h, grain_for(8 * w * dst.channels), [&](int64_t begin, int64_t end) {
      std::vector<uint8_t> scratch(static_cast<size_t>(dst.channels * w));
      for (int64_t y = begin; y < end; ++y) {
        const SampleRow row{&src, &dst, setup, &no_fill, &pixels, b, y, 0, w, scratch.data()};
        HWY_DYNAMIC_DISPATCH(SampleRowRun)(row, field.data(), base_x.data(), identity_grid_base(y, h, p.align_corners));
      }
    });
  }
  release_large_scratch(rows, field);
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
