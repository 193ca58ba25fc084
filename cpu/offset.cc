// Float32 maps on the CPU (pixel/offset.h's arithmetic: add_offset, the plasma classes): row by row,
// a vector of bytes as x / 255 and a vector of the map, combined, quantized, when the image's rows
// are runs of consecutive values (planar rows with planar maps, or densely interleaved rows, the
// map's row gathered into their layout where it is not); other layouts element by element.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/offset.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/unit_lanes-inl.h"

#include <vector>

#include "cpu/parallel.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/offset.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// x / 255 plus the offset: the per-element step of add_offset, in lanes and in pixel/offset.h's form.
struct OffsetStep {
  template <class DF>
  HWY_INLINE hn::Vec<DF> operator()(DF /*d*/, hn::Vec<DF> x, hn::Vec<DF> offset) const {
    return hn::Add(x, offset);  // clamp_unit before the quantizer is implied by U8Lanes' clamp to [0, 255]
  }
  HWY_INLINE uint8_t operator()(uint8_t x, float offset) const { return offset_value(x, offset); }
};

// One plasma class's step for sample b (pixel/offset.h's plasma_unit, in lanes).
struct PlasmaStep {
  PlasmaKind kind;
  float a, b;
  template <class DF>
  HWY_INLINE hn::Vec<DF> operator()(DF d, hn::Vec<DF> x, hn::Vec<DF> p) const {
    switch (kind) {
      case PlasmaKind::kBrightness:
        return hn::Add(x, hn::Mul(hn::Sub(hn::Mul(hn::Set(d, 2.0f), p), hn::Set(d, 1.0f)), hn::Set(d, a)));
      case PlasmaKind::kContrast:
        return hn::Add(hn::Mul(hn::Sub(x, hn::Set(d, 0.5f)), hn::Mul(hn::Set(d, 4.0f), p)), hn::Set(d, 0.5f));
      default: return hn::IfThenElse(hn::Lt(p, hn::Set(d, b)), hn::Add(x, hn::Set(d, a)), x);
    }
  }
  HWY_INLINE uint8_t operator()(uint8_t x, float p) const { return plasma_value(kind, x, p, a, b); }
};

template <class Step>
HWY_INLINE void MapRun(const Step& step, const uint8_t* HWY_RESTRICT in, const float* HWY_RESTRICT map,
                       uint8_t* HWY_RESTRICT out, int64_t n) {
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) StoreU8Lanes(d, step(d, UnitLanes(d, in + i), hn::LoadU(d, map + i)), out + i);
  for (; i < n; ++i) out[i] = step(in[i], map[i]);
}

// Rows [begin, end) of the work: (b, y) pairs of whole interleaved rows, or (b, c, y) planar rows;
// step_of(b) is sample b's step. Interleaved image rows whose map is not laid out as they are (a
// planar map of a channels-last image) take the map's row gathered into their layout first: the
// element-by-element loop below quantizes one value at a time, about 40x the runs' time.
template <class StepOf>
void MapRows(const StepOf& step_of, const ConstImage& src, const OffsetImage& map, const Image& dst, bool interleaved,
             bool runs, int64_t begin, int64_t end) {
  const int64_t planes = interleaved ? 1 : src.channels;
  std::vector<float> gathered;
  for (int64_t r = begin; r < end; ++r) {
    const int64_t y = r % src.height, c = (r / src.height) % planes, b = r / (src.height * planes);
    const auto step = step_of(b);
    if (runs) {
      const float* row = &map.at(b, c, y, 0);
      if (interleaved && !(map.stride_c == 1 && map.stride_w == map.channels)) {
        gathered.resize(static_cast<size_t>(src.width * src.channels));
        for (int64_t ch = 0; ch < src.channels; ++ch) {
          const float* plane = &map.at(b, ch, y, 0);
          for (int64_t x = 0; x < src.width; ++x) gathered[x * src.channels + ch] = plane[x * map.stride_w];
        }
        row = gathered.data();
      }
      MapRun(step, &src.at(b, c, y, 0), row, &dst.at(b, c, y, 0), interleaved ? src.width * src.channels : src.width);
      continue;
    }
    for (int64_t ch = interleaved ? 0 : c; ch < (interleaved ? src.channels : c + 1); ++ch)
      for (int64_t x = 0; x < src.width; ++x) dst.at(b, ch, y, x) = step(src.at(b, ch, y, x), map.at(b, ch, y, x));
  }
}

void OffsetRows(const ConstImage& src, const OffsetImage& offset, const Image& dst, bool interleaved, bool runs,
                int64_t begin, int64_t end) {
  MapRows([](int64_t) { return OffsetStep{}; }, src, offset, dst, interleaved, runs, begin, end);
}

void PlasmaRows(const ConstImage& src, const OffsetImage& plasma, const PlasmaParams& params, const Image& dst,
                bool interleaved, bool runs, int64_t begin, int64_t end) {
  MapRows(
      [&](int64_t b) {
        return PlasmaStep{params.kind, params.a_of(b), params.b_of(b)};
      },
      src, plasma, dst, interleaved, runs, begin, end);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(OffsetRows);
HWY_EXPORT(PlasmaRows);

namespace {
bool dense_interleaved(int64_t channels, int64_t width, int64_t stride_c, int64_t stride_w, int64_t stride_h) {
  return stride_c == 1 && stride_w == channels && stride_h == channels * width;
}

// Whole interleaved rows when the image, the output and the map are all densely interleaved; runs
// of consecutive values when every row is one (planar rows); otherwise element by element.
template <class Rows>
void run_map_rows(const ConstImage& src, const OffsetImage& map, const Image& dst, const ParallelFor& parallel,
                  const Rows& rows_of) {
  // the map need not be interleaved: MapRows gathers its row where it is not
  const bool interleaved = src.channels > 1 &&
                           dense_interleaved(src.channels, src.width, src.stride_c, src.stride_w, src.stride_h) &&
                           dense_interleaved(dst.channels, dst.width, dst.stride_c, dst.stride_w, dst.stride_h);
  const bool runs = interleaved || (src.stride_w == 1 && dst.stride_w == 1 && map.stride_w == 1);
  const int64_t rows = src.batch * (interleaved ? 1 : src.channels) * src.height;
  const int64_t per_row = src.width * (interleaved ? src.channels : 1);
  run_parallel(parallel, rows, grain_for(6 * per_row),
               [&](int64_t begin, int64_t end) { rows_of(interleaved, runs, begin, end); });
}

}  // namespace

void add_offset(const ConstImage& src, const OffsetImage& offset, const Image& dst, const ParallelFor& parallel) {
  detail::check_offset("add_offset", src, offset, dst);
  run_map_rows(src, offset, dst, parallel, [&](bool interleaved, bool runs, int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(OffsetRows)(src, offset, dst, interleaved, runs, begin, end);
  });
}

void plasma(const ConstImage& src, const OffsetImage& plasma, const PlasmaParams& params, const Image& dst,
            const ParallelFor& parallel) {
  detail::check_plasma("plasma", src, plasma, params, dst);
  run_map_rows(src, plasma, dst, parallel, [&](bool interleaved, bool runs, int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(PlasmaRows)(src, plasma, params, dst, interleaved, runs, begin, end);
  });
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
