// Pointwise ops on the CPU: build each sample's 256-entry table from pixel/point.h (or, for
// equalize, each plane's from its histogram, pixel/equalize.h), then map every byte through it,
// row by row. With AVX-512 VBMI (the AVX3_DL target) a 64-byte vector is mapped by two 128-entry
// byte permutes and a blend; AVX3, AVX2 and SSE4 by sixteen 16-entry byte shuffles (TableMap);
// SSSE3 and the scalar target byte by byte. Before that, each table is classified
// (cpu/table_form.h): one that is a bitwise operation, a multiply-add of x (AVX2, AVX3) or
// solarize's saturating add and invert is mapped by those few operations instead.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/point.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/table_map-inl.h"

#include <hwy/contrib/math/math-inl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "cpu/parallel.h"
#include "cpu/rows.h"
#include "cpu/table_form.h"
#include "u8aug/pixel/equalize.h"
#include "u8aug/detail/point_ops.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The cheapest form of `table` that gives all its entries: a bitwise operation, whole levels added
// (a slope-1 candidate's), the affine `candidate` (checked by mapping all 256 bytes with MapAffine
// itself), or the lookup.
TableForm ClassifyTable(const uint8_t* table, TableForm candidate) {
#if HWY_TARGET != HWY_SCALAR
  // slope 1 (brightness): its table is nearly always whole levels added with saturation, one
  // saturating add a vector, cheaper than the multiply-add and the lookup on every target
  if (candidate.kind == TableForm::kAffine && candidate.slope == 1.0f) {
    const float levels = std::min(std::max(candidate.offset, -255.0f), 255.0f);
    const TableForm shifted = shift_form(table, static_cast<int>(std::lrint(levels)));
    if (shifted.kind != TableForm::kLookup) return shifted;
  }
#endif
  const TableForm bitwise = bitwise_form(table);
  if (bitwise.kind != TableForm::kLookup) return bitwise;
#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_AVX3_DL
  if (candidate.kind == TableForm::kSolarize) return solarize_form(table, candidate.shift);
#endif
  if (candidate.kind != TableForm::kAffine) return bitwise;
#if !U8AUG_AFFINE_MAP
  return bitwise;  // no faster than the lookup on the other targets
#else
  uint8_t identity[256], mapped[256];
  for (int v = 0; v < 256; ++v) identity[v] = static_cast<uint8_t>(v);
  MapAffine(candidate.slope, candidate.offset, identity, 0, mapped, 0, 1, 256);
  return std::memcmp(mapped, table, 256) == 0 ? candidate : bitwise;
#endif
}

// Row j of dst = table[row j of src], `rows` rows of n contiguous bytes, by the table's form.
HWY_INLINE void MapRows(const uint8_t* HWY_RESTRICT table, TableForm form, const uint8_t* HWY_RESTRICT src,
                        int64_t src_step, uint8_t* HWY_RESTRICT dst, int64_t dst_step, int64_t rows, int64_t n) {
  (void)form;  // the scalar target has only the lookup
#if HWY_TARGET != HWY_SCALAR
  const hn::ScalableTag<uint8_t> d;
  if (n >= static_cast<int64_t>(hn::Lanes(d))) {
    const auto mask = hn::Set(d, form.mask);
    if (form.kind == TableForm::kAnd) {
      return MapVectors(d, src, src_step, dst, dst_step, rows, n,
                        [&](hn::Vec<decltype(d)> x) { return hn::And(x, mask); });
    }
    if (form.kind == TableForm::kXor) {
      return MapVectors(d, src, src_step, dst, dst_step, rows, n,
                        [&](hn::Vec<decltype(d)> x) { return hn::Xor(x, mask); });
    }
    if (form.kind == TableForm::kSolarize) {
      const auto shift = hn::Set(d, static_cast<uint8_t>(form.shift < 0 ? -form.shift : form.shift));
      const auto threshold = hn::Set(d, form.threshold);
      const bool up = form.shift >= 0;
      if (form.mask == 0) {  // levels added, nothing inverted (a brightness table)
        return MapVectors(d, src, src_step, dst, dst_step, rows, n, [&](hn::Vec<decltype(d)> x) {
          return up ? hn::SaturatedAdd(x, shift) : hn::SaturatedSub(x, shift);
        });
      }
      return MapVectors(d, src, src_step, dst, dst_step, rows, n, [&](hn::Vec<decltype(d)> x) {
        const auto s = up ? hn::SaturatedAdd(x, shift) : hn::SaturatedSub(x, shift);
        const auto inverted = hn::Eq(hn::Max(s, threshold), s);  // s >= threshold
        return hn::Xor(s, hn::And(hn::VecFromMask(d, inverted), mask));
      });
    }
#if U8AUG_AFFINE_MAP
    if (form.kind == TableForm::kAffine && n >= 32)
      return MapAffine(form.slope, form.offset, src, src_step, dst, dst_step, rows, n);
#endif
#if HWY_TARGET == HWY_AVX3_DL
    const __m512i t0 = hn::LoadU(d, table).raw, t1 = hn::LoadU(d, table + 64).raw;
    const __m512i t2 = hn::LoadU(d, table + 128).raw, t3 = hn::LoadU(d, table + 192).raw;
    return MapVectors(d, src, src_step, dst, dst_step, rows, n, [&](hn::Vec<decltype(d)> v) {
      const __m512i x = v.raw;
      const __m512i low = _mm512_permutex2var_epi8(t0, x, t1);   // entries 0..127 by x & 127
      const __m512i high = _mm512_permutex2var_epi8(t2, x, t3);  // entries 128..255
      return hn::Vec512<uint8_t>{_mm512_mask_blend_epi8(_mm512_movepi8_mask(x), low, high)};
    });
#elif U8AUG_TABLE_MAP
    const TableMap<decltype(d)> map(d, table);
    return MapVectors(d, src, src_step, dst, dst_step, rows, n, [&](hn::Vec<decltype(d)> x) { return map(d, x); });
#endif
  }
#endif
  for (int64_t j = 0; j < rows; ++j, src += src_step, dst += dst_step) {
    for (int64_t i = 0; i < n; ++i) dst[i] = table[src[i]];
  }
}

void PointRows(const ConstImage& src, const Image& dst, const uint8_t* tables, const TableForm* forms, TableLayout t,
               RowLayout layout, int64_t row_begin, int64_t row_end) {
  const int64_t bytes = row_bytes(layout, src);
  // A row holds one table's bytes when it is planar, or when tables do not vary by channel.
  const bool one_table_per_row = layout == RowLayout::kPlanar || (t.per_c == 0 && layout != RowLayout::kStrided);
  for_each_row_run(layout, src, row_begin, row_end, [&](RowIndex r, int64_t rows) {
    if (one_table_per_row) {
      const int64_t k = r.b * t.per_b + r.c * t.per_c;
      MapRows(tables + 256 * k, forms[k], &src.at(r.b, r.c, r.y, 0), src.stride_h, &dst.at(r.b, r.c, r.y, 0),
              dst.stride_h, rows, bytes);
      return;
    }
    if (layout == RowLayout::kInterleaved) {
      // tables by channel, the bytes in memory order: channel c's table every c-th byte (about
      // 10x fewer instructions than the element-by-element loop below, which recomputes addresses)
      const int64_t channels = src.channels;
      const uint8_t* table_of[4] = {};
      for (int64_t c = 0; c < channels && c < 4; ++c) table_of[c] = tables + 256 * (r.b * t.per_b + c * t.per_c);
      if (channels <= 4) {
        for (int64_t y = r.y; y < r.y + rows; ++y) {
          const uint8_t* s = &src.at(r.b, 0, y, 0);
          uint8_t* d = &dst.at(r.b, 0, y, 0);
          for (int64_t x = 0; x < src.width; ++x, s += channels, d += channels)
            for (int64_t c = 0; c < channels; ++c) d[c] = table_of[c][s[c]];
        }
        return;
      }
    }
    for (int64_t y = r.y; y < r.y + rows; ++y)
      for (int64_t x = 0; x < src.width; ++x)
        for (int64_t c = 0; c < src.channels; ++c) {
          point_element(src, dst, tables + 256 * (r.b * t.per_b + c * t.per_c), r.b, c, y, x);
        }
  });
}

// Byte counts of plane (b, c), folded into kornia's histogram bins.
void PlaneHistogram(const ConstImage& src, int64_t b, int64_t c, uint32_t* counts) {
  uint32_t bytes[4][256] = {};  // four sub-histograms: consecutive equal bytes don't serialise
  for (int64_t y = 0; y < src.height; ++y) {
    const uint8_t* row = &src.at(b, c, y, 0);
    int64_t x = 0;
    if (src.stride_w == 1) {
      for (; x + 4 <= src.width; x += 4) {
        ++bytes[0][row[x]];
        ++bytes[1][row[x + 1]];
        ++bytes[2][row[x + 2]];
        ++bytes[3][row[x + 3]];
      }
    }
    for (; x < src.width; ++x) ++bytes[0][row[x * src.stride_w]];
  }
  for (int k = 0; k < 256; ++k) counts[k] = 0;
  for (int v = 0; v < 256; ++v) {
    counts[equalize_index(static_cast<uint8_t>(v))] += bytes[0][v] + bytes[1][v] + bytes[2][v] + bytes[3][v];
  }
}

// Three interleaved channels (channels-last RGB): a plane's bytes are every third byte of a row.
HWY_INLINE bool Interleaved3(const ConstImage& src) {
  return src.channels == 3 && src.stride_c == 1 && src.stride_w == 3;
}

// Channel c's bytes of the lanes' pixels from `pixels` (interleaved RGB), split out in lanes.
template <class D>
HWY_INLINE hn::Vec<D> Channel3(D d, const uint8_t* pixels, int64_t c) {
  hn::Vec<D> v0, v1, v2;
  hn::LoadInterleaved3(d, pixels, v0, v1, v2);
  return c == 0 ? v0 : c == 1 ? v1 : v2;
}

// The smallest and largest byte of plane (b, c): byte lanes' min and max over each row.
void PlaneMinMax(const ConstImage& src, int64_t b, int64_t c, uint8_t* lo, uint8_t* hi) {
  const hn::ScalableTag<uint8_t> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  auto vmin = hn::Set(d, 255), vmax = hn::Zero(d);
  uint8_t smin = 255, smax = 0;
  for (int64_t y = 0; y < src.height; ++y) {
    const uint8_t* row = &src.at(b, c, y, 0);
    int64_t x = 0;
    if (src.stride_w == 1) {
      for (; x + lanes <= src.width; x += lanes) {
        const auto v = hn::LoadU(d, row + x);
        vmin = hn::Min(vmin, v), vmax = hn::Max(vmax, v);
      }
    } else if (Interleaved3(src)) {
      for (; x + lanes <= src.width; x += lanes) {
        const auto v = Channel3(d, &src.at(b, 0, y, x), c);
        vmin = hn::Min(vmin, v), vmax = hn::Max(vmax, v);
      }
    }
    for (; x < src.width; ++x) {
      const uint8_t v = row[x * src.stride_w];
      smin = v < smin ? v : smin, smax = v > smax ? v : smax;
    }
  }
  // Highway 1.0.3 has no byte MinOfLanes on every target: the lanes are reduced through memory
  HWY_ALIGN uint8_t low[hn::MaxLanes(d)], high[hn::MaxLanes(d)];
  hn::Store(vmin, d, low);
  hn::Store(vmax, d, high);
  for (int64_t i = 0; i < lanes; ++i) {
    smin = low[i] < smin ? low[i] : smin;
    smax = high[i] > smax ? high[i] : smax;
  }
  *lo = smin;
  *hi = smax;
}

// pow_f32(v / 255, gamma) for every byte v, as adjust_gamma's tables need them (a pow call each
// costs more than mapping a 224x224 RGB image through the table): exp(gamma * log(x)) in double
// lanes (Highway's Log and Exp: a few ulps of a double, ~1e-15 relative with the product), then
// rounded to float. An entry whose double lies within 1e-13 (scaled by the exponent) of the
// midpoint between two floats, where that error could change the rounding, is computed by pow_f32
// itself, as are x = 0, gamma = 0 and results near underflow; so every entry equals pow_f32's.
void GammaPowers(float gamma, float* out) {
  const hn::ScalableTag<double> dd;
  const int lanes = static_cast<int>(hn::Lanes(dd));
  HWY_ALIGN double approx[256 + hn::MaxLanes(dd)];
  HWY_ALIGN double x[256 + hn::MaxLanes(dd)];
  for (int v = 0; v < 256 + lanes; ++v) x[v] = v < 256 ? static_cast<double>(unit(static_cast<uint8_t>(v))) : 1.0;
  const auto g = hn::Set(dd, static_cast<double>(gamma));
  for (int v = 0; v < 256; v += lanes)
    hn::Store(hn::Exp(dd, hn::Mul(g, hn::Log(dd, hn::Load(dd, x + v)))), dd, approx + v);
  const double margin = 1e-13 * (1.0 + 6.0 * static_cast<double>(gamma));
  for (int v = 0; v < 256; ++v) {
    const double a = approx[v];
    const float f = static_cast<float>(a);
    const float next = std::nextafter(f, a > static_cast<double>(f) ? HUGE_VALF : -HUGE_VALF);
    const double midpoint = 0.5 * (static_cast<double>(f) + static_cast<double>(next));
    const bool trusted =
        v != 0 && gamma != 0.0f && a > 1e-30 && std::isfinite(a) && std::fabs(a - midpoint) > margin * a;
    out[v] = trusted ? f : pow_f32(static_cast<float>(x[v]), gamma);
  }
}

// The sum of the bytes of plane (b, c).
uint64_t PlaneSum(const ConstImage& src, int64_t b, int64_t c) {
  const hn::ScalableTag<uint8_t> d8;
  const hn::Repartition<uint64_t, decltype(d8)> d64;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d8));
  auto sums = hn::Zero(d64);
  uint64_t sum = 0;
  for (int64_t y = 0; y < src.height; ++y) {
    const uint8_t* row = &src.at(b, c, y, 0);
    int64_t x = 0;
    if (src.stride_w == 1) {
      for (; x + lanes <= src.width; x += lanes) sums = hn::Add(sums, hn::SumsOf8(hn::LoadU(d8, row + x)));
    } else if (Interleaved3(src)) {
      for (; x + lanes <= src.width; x += lanes)
        sums = hn::Add(sums, hn::SumsOf8(Channel3(d8, &src.at(b, 0, y, x), c)));
    }
    for (; x < src.width; ++x) sum += row[x * src.stride_w];
  }
  return sum + hn::GetLane(hn::SumOfLanes(d64, sums));
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(PointRows);
HWY_EXPORT(ClassifyTable);
HWY_EXPORT(PlaneHistogram);
HWY_EXPORT(PlaneMinMax);
HWY_EXPORT(PlaneSum);
HWY_EXPORT(GammaPowers);

namespace {

// `candidates`: one per table, or none.
void apply_tables(const ConstImage& src, const Image& dst, const uint8_t* tables, int64_t n_tables,
                  const TableForm* candidates, TableLayout layout_of_tables, const ParallelFor& parallel) {
  std::vector<TableForm> forms(static_cast<size_t>(n_tables));
  for (int64_t k = 0; k < n_tables; ++k) {
    forms[k] = HWY_DYNAMIC_DISPATCH(ClassifyTable)(tables + 256 * k, candidates ? candidates[k] : TableForm{});
  }
  const RowLayout layout = row_layout(src, dst);
  run_parallel(parallel, row_count(layout, src), grain_for(row_bytes(layout, src)), [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(PointRows)(src, dst, tables, forms.data(), layout_of_tables, layout, begin, end);
  });
}

void run_point(const detail::PointOpSpec& spec, const ConstImage& src, const Image& dst, Samples first, Samples second,
               const ParallelFor& parallel) {
  detail::check_unary(spec.name, src, dst);
  detail::check_point_counts(spec, src, first, second);
  detail::check_point_values(spec, first, second);

  const bool per_sample = first.count > 1 || second.count > 1;
  const int64_t n_tables = per_sample ? src.batch : 1;
  std::vector<uint8_t> tables(static_cast<size_t>(256 * n_tables));
  std::vector<TableForm> candidates(static_cast<size_t>(n_tables));
  // Samples often share parameters (same_on_batch, posterize's 9 possible bit counts): a table is
  // computed once per distinct parameter pair and copied for the others.
  std::map<std::pair<float, float>, int64_t> built;
  for (int64_t b = 0; b < n_tables; ++b) {
    const PointParams p = point_params(first, second, b);
    candidates[b] = form_candidate(spec.op, p);
    const auto found = built.emplace(std::make_pair(p.a, p.b), b);
    uint8_t* table = tables.data() + 256 * b;
    if (!found.second) {
      std::memcpy(table, tables.data() + 256 * found.first->second, 256);
      continue;
    }
    if (spec.op == PointOp::kGamma) {
      float powers[256];
      HWY_DYNAMIC_DISPATCH(GammaPowers)(p.a, powers);
      for (int v = 0; v < 256; ++v) table[v] = gamma_entry(powers[v], p.b);
      continue;
    }
    for (int v = 0; v < 256; ++v) table[v] = point_value(spec.op, p, static_cast<uint8_t>(v));
  }
  apply_tables(src, dst, tables.data(), n_tables, candidates.data(), {per_sample ? 1 : 0, 0}, parallel);
}

}  // namespace

void adjust_brightness(const ConstImage& src, const Image& dst, Samples factor, const ParallelFor& parallel) {
  run_point(detail::kBrightness, src, dst, factor, {}, parallel);
}
void adjust_brightness_accumulative(const ConstImage& src, const Image& dst, Samples factor,
                                    const ParallelFor& parallel) {
  run_point(detail::kBrightnessMul, src, dst, factor, {}, parallel);
}
void adjust_contrast(const ConstImage& src, const Image& dst, Samples factor, const ParallelFor& parallel) {
  run_point(detail::kContrast, src, dst, factor, {}, parallel);
}
void adjust_contrast_with_mean(const ConstImage& src, const Image& dst, Samples factor, Samples mean,
                               const ParallelFor& parallel) {
  run_point(detail::kContrastMean, src, dst, factor, mean, parallel);
}
void adjust_gamma(const ConstImage& src, const Image& dst, Samples gamma, Samples gain, const ParallelFor& parallel) {
  run_point(detail::kGamma, src, dst, gamma, gain, parallel);
}
void solarize(const ConstImage& src, const Image& dst, Samples thresholds, Samples additions,
              const ParallelFor& parallel) {
  run_point(detail::kSolarize, src, dst, thresholds, additions, parallel);
}
void posterize(const ConstImage& src, const Image& dst, Samples bits, const ParallelFor& parallel) {
  run_point(detail::kPosterize, src, dst, bits, {}, parallel);
}
void invert(const ConstImage& src, const Image& dst, const ParallelFor& parallel) {
  run_point(detail::kInvert, src, dst, {}, {}, parallel);
}

void equalize(const ConstImage& src, const Image& dst, const ParallelFor& parallel) {
  detail::check_unary("equalize", src, dst);
  if (src.height * src.width > (int64_t{1} << 24)) {
    detail::fail("equalize",
                 "planes of more than 2^24 pixels are not supported (kornia counts in "
                 "float32, which is inexact beyond that)");
  }
  const int64_t planes = src.batch * src.channels;
  std::vector<uint32_t> counts(static_cast<size_t>(256 * planes));
  std::vector<uint8_t> tables(static_cast<size_t>(256 * planes));
  run_parallel(parallel, planes, grain_for(src.height * src.width), [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      uint32_t* c = counts.data() + 256 * p;
      HWY_DYNAMIC_DISPATCH(PlaneHistogram)(src, p / src.channels, p % src.channels, c);
      equalize_table(c, tables.data() + 256 * p);
    }
  });
  apply_tables(src, dst, tables.data(), planes, nullptr, {src.channels, 1}, parallel);
}

void auto_contrast(const ConstImage& src, const Image& dst, const ParallelFor& parallel) {
  detail::check_unary("auto_contrast", src, dst);
  const int64_t planes = src.batch * src.channels;
  std::vector<uint8_t> tables(static_cast<size_t>(256 * planes));
  run_parallel(parallel, planes, grain_for(src.height * src.width), [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      uint8_t lo, hi;
      HWY_DYNAMIC_DISPATCH(PlaneMinMax)(src, p / src.channels, p % src.channels, &lo, &hi);
      auto_contrast_table(lo, hi, tables.data() + 256 * p);
    }
  });
  apply_tables(src, dst, tables.data(), planes, nullptr, {src.channels, 1}, parallel);
}

void image_mean(const ConstImage& src, float* mean, const ParallelFor& parallel) {
  detail::check_view("image_mean", "src", src);
  if (mean == nullptr) detail::fail("image_mean", "mean has a null data pointer");
  const int64_t planes = src.batch * src.channels;
  std::vector<uint64_t> sums(static_cast<size_t>(planes));
  run_parallel(parallel, planes, grain_for(src.height * src.width), [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      sums[static_cast<size_t>(p)] = HWY_DYNAMIC_DISPATCH(PlaneSum)(src, p / src.channels, p % src.channels);
    }
  });
  for (int64_t b = 0; b < src.batch; ++b) {
    uint64_t sum = 0;
    for (int64_t c = 0; c < src.channels; ++c) sum += sums[static_cast<size_t>(b * src.channels + c)];
    mean[b] = byte_mean(sum, src.channels * src.height * src.width);
  }
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
