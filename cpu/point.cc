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

#include <hwy/contrib/math/math-inl.h>

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

// SSSE3 has no byte blend (Highway emulates it in three operations): the lookup measured slower than
// the scalar loop there, which it keeps.
#define U8AUG_TABLE_MAP \
  (HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SSSE3 && HWY_TARGET != HWY_AVX3_DL)
#define U8AUG_X86_SHUFFLE (HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4)
#if U8AUG_TABLE_MAP && U8AUG_X86_SHUFFLE
// A 256-entry byte table by sixteen 16-entry byte shuffles (pshufb, within each 128-bit block), one
// per high nibble h, whose results are XORed: pshufb gives 0 where the index's bit 7 is set and
// otherwise the entry of the index's low nibble. Shuffle h gets index x - 16h with signed saturation
// (x seen as a signed byte for h < 8, as x - 128 for h >= 8), which is >= 0, with x's low nibble,
// exactly when h <= x >> 4 within x's half. So x collects the pieces up to its own high nibble
// within its half, and piece h holds the XOR of entries 16h.. and 16(h - 1).. (h not 0 or 8): the XOR
// of those pieces is x's entry. Every step is one single-cycle instruction; the blend tree it
// replaced used 15 byte blends, three micro-ops each on recent Intel cores.
template <class D>
class TableMap {
 public:
  TableMap(D d, const uint8_t* HWY_RESTRICT table) {
    for (int h = 0; h < 16; ++h) {
      uint8_t piece[16];
      for (int k = 0; k < 16; ++k) {
        const bool first = h == 0 || h == 8;
        piece[k] = static_cast<uint8_t>(table[16 * h + k] ^ (first ? 0 : table[16 * (h - 1) + k]));
      }
      pieces_[h] = hn::LoadDup128(d, piece);
    }
  }
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x) const {
    const hn::RebindToSigned<D> di;
    const auto low_half = hn::BitCast(di, x);                              // negative where x >= 128
    const auto high_half = hn::BitCast(di, hn::Xor(x, hn::Set(d, 0x80)));  // negative where x < 128
    auto piece = [&](int h) {
      const auto base = h < 8 ? low_half : high_half;
      const int offset = 16 * (h & 7);
      const auto index = offset == 0 ? base : hn::SaturatedSub(base, hn::Set(di, static_cast<int8_t>(offset)));
      return hn::TableLookupBytesOr0(pieces_[h], hn::BitCast(d, index));
    };
    auto four = [&](int h) { return hn::Xor(hn::Xor(piece(h), piece(h + 1)), hn::Xor(piece(h + 2), piece(h + 3))); };
    return hn::Xor(hn::Xor(four(0), four(4)), hn::Xor(four(8), four(12)));
  }

 private:
  hn::Vec<D> pieces_[16];
};
#elif U8AUG_TABLE_MAP
// Elsewhere (NEON, SVE) sixteen 16-entry pieces, piece h holding entries 16h..16h+15, all looked up
// by x & 15, then a tree of blends keeps, by bit 4, 5, 6 and 7 of x in turn, the half that x's high
// nibble names (bit k is moved to each byte's sign bit by a 16-bit shift left by 7 - k; the bits
// shifted in from the next byte never reach it).
template <class D>
class TableMap {
 public:
  TableMap(D d, const uint8_t* HWY_RESTRICT table) {
    for (int h = 0; h < 16; ++h) pieces_[h] = hn::LoadDup128(d, table + 16 * h);
  }
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x) const {
    const hn::RebindToSigned<D> di;
    const hn::Repartition<uint16_t, D> dw;
    const auto low = hn::And(x, hn::Set(d, 0x0F));
    const auto bit4 = hn::BitCast(di, hn::ShiftLeft<3>(hn::BitCast(dw, x)));
    const auto bit5 = hn::BitCast(di, hn::ShiftLeft<2>(hn::BitCast(dw, x)));
    const auto bit6 = hn::BitCast(di, hn::ShiftLeft<1>(hn::BitCast(dw, x)));
    const auto bit7 = hn::BitCast(di, x);
    auto pick = [&](decltype(bit4) sign, hn::Vec<D> if_set, hn::Vec<D> if_clear) {
      return hn::BitCast(d, hn::IfNegativeThenElse(sign, hn::BitCast(di, if_set), hn::BitCast(di, if_clear)));
    };
    // depth first, so that few partial results are live at once
    auto piece = [&](int h) { return hn::TableLookupBytes(pieces_[h], low); };
    auto by4 = [&](int h) { return pick(bit4, piece(h + 1), piece(h)); };
    auto by5 = [&](int h) { return pick(bit5, by4(h + 2), by4(h)); };
    auto by6 = [&](int h) { return pick(bit6, by5(h + 4), by5(h)); };
    return pick(bit7, by6(8), by6(0));
  }

 private:
  hn::Vec<D> pieces_[16];
};
#endif

#if HWY_TARGET != HWY_SCALAR
// dst row j = f(src row j) for `rows` rows of n >= one vector of contiguous bytes; the last
// vector of a row overlaps the one before, as in flip.cc.
template <class D, class F>
HWY_INLINE void MapVectors(D d, const uint8_t* HWY_RESTRICT src, int64_t src_step, uint8_t* HWY_RESTRICT dst,
                           int64_t dst_step, int64_t rows, int64_t n, const F& f) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t j = 0; j < rows; ++j, src += src_step, dst += dst_step) {
    for (int64_t i = 0;; i += lanes) {
      if (i + lanes > n) i = n - lanes;
      hn::StoreU(f(hn::LoadU(d, src + i)), d, dst + i);
      if (i + lanes == n) break;
    }
  }
}
#endif

#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
#define U8AUG_AFFINE_MAP 1
// dst = round-half-even(src * slope + offset) saturated to [0, 255], in float32 lanes, 32 bytes
// at a time (AVX2 instructions on the AVX3 target too: Highway's generic promote and demote cost
// twice as many instructions here, and a 512-bit version measured no faster); n >= 32.
HWY_INLINE void MapAffine(float slope, float offset, const uint8_t* HWY_RESTRICT src, int64_t src_step,
                          uint8_t* HWY_RESTRICT dst, int64_t dst_step, int64_t rows, int64_t n) {
  const __m256 a = _mm256_set1_ps(slope), c = _mm256_set1_ps(offset);
  // packs work within 128-bit halves: dword k of the packed result holds bytes of quarter k % 4,
  // half k / 4; this puts the quarters back in order.
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  auto quarter = [&](const uint8_t* p) {
    const __m256 x = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
    return _mm256_cvtps_epi32(_mm256_fmadd_ps(x, a, c));
  };
  for (int64_t j = 0; j < rows; ++j, src += src_step, dst += dst_step) {
    for (int64_t i = 0;; i += 32) {
      if (i + 32 > n) i = n - 32;
      const __m256i lo = _mm256_packs_epi32(quarter(src + i), quarter(src + i + 8));
      const __m256i hi = _mm256_packs_epi32(quarter(src + i + 16), quarter(src + i + 24));
      const __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(lo, hi), order);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), bytes);
      if (i + 32 == n) break;
    }
  }
}
#else
#define U8AUG_AFFINE_MAP 0
#endif

// The cheapest form of `table` that gives all its entries: a bitwise operation, the affine
// `candidate` (checked by mapping all 256 bytes with MapAffine itself), or the lookup.
TableForm ClassifyTable(const uint8_t* table, TableForm candidate) {
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
