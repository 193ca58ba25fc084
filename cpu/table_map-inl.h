// The byte-table mappings of cpu/point.cc, per target: the 256-entry lookup without VBMI (TableMap),
// the row loop (MapVectors) and the multiply-add form (MapAffine, cpu/table_form.h).
// Highway's per-target header convention: included once per target by each foreach_target file.
#if defined(U8AUG_CPU_TABLE_MAP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef U8AUG_CPU_TABLE_MAP_INL_H_
#undef U8AUG_CPU_TABLE_MAP_INL_H_
#else
#define U8AUG_CPU_TABLE_MAP_INL_H_
#endif

#include <hwy/highway.h>

#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// (re)defined for each target this header is compiled for
#undef U8AUG_TABLE_MAP
#undef U8AUG_X86_SHUFFLE
#undef U8AUG_AFFINE_MAP
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
  const int64_t last = n - static_cast<int64_t>(hn::Lanes(d));
  for (int64_t j = 0; j < rows; ++j, src += src_step, dst += dst_step) {
    for (int64_t i = 0; i < last; i += static_cast<int64_t>(hn::Lanes(d)))
      hn::StoreU(f(hn::LoadU(d, src + i)), d, dst + i);
    hn::StoreU(f(hn::LoadU(d, src + last)), d, dst + last);
  }
}
#endif

#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
#define U8AUG_AFFINE_MAP 1
// dst = round-half-even(src * slope + offset) saturated to [0, 255], in float32 lanes, 32 bytes
// at a time, AVX2 instructions on the AVX3 target too (a version in Highway's generic promote,
// NearestInt and demote, a quarter vector at a time, measured 1.62 ms a batch on AVX2 against this
// one's 0.70 ms); n >= 32.
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

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#endif  // U8AUG_CPU_TABLE_MAP_INL_H_
