// color_jitter's, color_jiggle's and adjust_hue's fast tier on the CPU: pixel/color_fixed.h's
// 16-bit fixed point in int16 lanes, all of a pixel's steps in registers. cpu/color_jitter.cc and
// cpu/color.cc decide per sample which tier's rows run.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/color_fixed.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/color_lanes-inl.h"

#include <algorithm>

#include "cpu/color_rows.h"
#include "u8aug/pixel/color_fixed.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D16 = hn::ScalableTag<int16_t>;
using V16 = hn::Vec<D16>;

struct VFixed {
  V16 r, g, b;
};

// The sample's constants as vectors. Saturating adds stand for pixel/color_fixed.h's int32 sums:
// each sum below adds its negative term first, so only an upward saturation can occur, and that
// lands above kFixedOne, where the clamp takes it anyway.
struct FixedLanes {
  V16 brightness, contrast, saturation, shift, hue_whole, hue_fraction, one, zero;
  V16 k1, k2, k3, k4, k5, k6;  // small whole numbers for the hue's sectors (and its code's bits 1-4)
  V16 k8, k16, k32, k64;       // the code's other bits
  // the sector's wrap into [0, 6) and what it selects, as one byte lookup: hue_index is hue_whole + 4
  // with bit 15 set, so that a sector j in [-4, 8] plus it has j + 4 in its low byte and 0x80 (a zero
  // byte) in its high one
  V16 hue_index, sector_code;
  bool contrast_up;    // f > 1: contrast's product is the positive term, its shift the negative one
  bool jitter;         // ColorJitter's steps, else ColorJiggle's
  bool saturation_up;  // f > 1: ColorJiggle's saturation can clip
};

// What sector j mod 6 selects, at byte j + 4 for j in [-4, 8], in every 128-bit block (byte
// lookups stay within one): bit 0 red is the max, 1 red the min, 2 and 3 the same for green, 4 and
// 5 for blue; bit 6 an odd sector. AVX-512 tests each bit in one instruction, where telling the
// sector from six comparisons and choosing the channels from their ORs took twelve (AVX2 tests a
// bit in two: the same count as before).
V16 SectorCodeTable(D16 d) {
#if HWY_TARGET == HWY_SCALAR
  return hn::Zero(d);  // one lane: Hue wraps and selects by comparisons
#else
  // sectors 0..5: red max, blue min; green max, blue min, odd; red min, green max; red min, blue
  // max, odd; green min, blue max; red max, green min, odd
  constexpr uint8_t s0 = 1 | 32, s1 = 4 | 32 | 64, s2 = 2 | 4, s3 = 2 | 16 | 64, s4 = 8 | 16, s5 = 1 | 8 | 64;
  const hn::Repartition<uint8_t, D16> d8;
  alignas(16) static constexpr uint8_t kCodes[16] = {s2, s3, s4, s5, s0, s1, s2, s3, s4, s5, s0, s1, s2, 0, 0, 0};
  return hn::BitCast(d, hn::LoadDup128(d8, kCodes));
#endif
}

FixedLanes LanesOf(const FixedColor& s) {
  const D16 d;
  auto set = [&](int32_t v) { return hn::Set(d, static_cast<int16_t>(v)); };
  return {set(s.brightness),
          set(s.contrast),
          set(s.saturation),
          set(s.shift),
          set(s.hue_whole),
          set(s.hue_fraction),
          set(kFixedOne),
          hn::Zero(d),
          set(1),
          set(2),
          set(3),
          set(4),
          set(5),
          set(6),
          set(8),
          set(16),
          set(32),
          set(64),
          set(s.hue_whole + 4 - 32768),
          SectorCodeTable(d),
          s.contrast > 0,
          s.jitter,
          s.saturation > 0};
}

HWY_INLINE V16 Clamp(const FixedLanes& k, V16 v) { return hn::Min(hn::Max(v, k.zero), k.one); }

HWY_INLINE V16 Luma(D16 d, const VFixed& p) {
  return hn::Add(hn::Add(hn::MulFixedPoint15(p.r, hn::Set(d, kLumaR)), hn::MulFixedPoint15(p.g, hn::Set(d, kLumaG))),
                 hn::MulFixedPoint15(p.b, hn::Set(d, kLumaB)));
}

HWY_INLINE V16 Brightness(const FixedLanes& k, V16 v) {
  return hn::Min(hn::SaturatedAdd(v, hn::MulFixedPoint15(v, k.brightness)), k.one);
}

// ColorJitter's saturation: x + (f - 1) * (x - grey).
HWY_INLINE V16 Saturation(const FixedLanes& k, V16 v, V16 grey) {
  return Clamp(k, hn::SaturatedAdd(v, hn::MulFixedPoint15(hn::Sub(v, grey), k.saturation)));
}

// ColorJiggle's: pixel/color_fixed.h's fixed_saturation. The clipped form's floats run over a
// buffer in float lanes, only for vectors where some pixel clips.
HWY_INLINE VFixed JiggleSaturation(D16 d, const FixedLanes& k, const VFixed& p) {
  const V16 mx = hn::Max(hn::Max(p.r, p.g), p.b), mn = hn::Min(hn::Min(p.r, p.g), p.b);
  auto kept = [&](V16 v) { return Clamp(k, hn::Add(v, hn::MulFixedPoint15(hn::Sub(v, mx), k.saturation))); };
  VFixed out{kept(p.r), kept(p.g), kept(p.b)};
  if (!k.saturation_up) return out;
  const V16 delta = hn::Sub(mx, mn);
  const auto clips = hn::Gt(hn::SaturatedAdd(delta, hn::MulFixedPoint15(delta, k.saturation)), mx);
  if (hn::AllFalse(d, clips)) return out;
  constexpr size_t kMax = HWY_MAX_BYTES / sizeof(int16_t);
  HWY_ALIGN int16_t c[3][kMax], top[kMax], span[kMax];
  hn::Store(hn::Sub(p.r, mn), d, c[0]);
  hn::Store(hn::Sub(p.g, mn), d, c[1]);
  hn::Store(hn::Sub(p.b, mn), d, c[2]);
  hn::Store(mx, d, top);
  hn::Store(hn::Max(delta, k.k1), d, span);  // lanes where delta is 0 do not clip
  const DF df;
  const hn::Rebind<int16_t, DF> d16;
  const hn::Rebind<int32_t, DF> d32;
  const VF round = hn::Set(df, 8388608.0f);  // adding 2^23 rounds half to even: rintf on [0, 2^22)
  auto to_float = [&](const int16_t* q) { return hn::ConvertTo(df, hn::PromoteTo(d32, hn::Load(d16, q))); };
  for (size_t i = 0; i < hn::Lanes(d); i += hn::Lanes(df)) {
    const VF ratio = hn::Div(to_float(top + i), to_float(span + i));
    for (int ch = 0; ch < 3; ++ch) {
      const VF v = hn::Mul(to_float(c[ch] + i), ratio);
      hn::Store(hn::DemoteTo(d16, hn::ConvertTo(d32, hn::Sub(hn::Add(v, round), round))), d16, c[ch] + i);
    }
  }
  return {hn::IfThenElse(clips, hn::Load(d, c[0]), out.r), hn::IfThenElse(clips, hn::Load(d, c[1]), out.g),
          hn::IfThenElse(clips, hn::Load(d, c[2]), out.b)};
}

// pixel/color_fixed.h's fixed_hue, operation for operation (numerator + t - chroma saturates only
// below -2^15, where its sign is all that is read; numerator + t is read only below chroma).
HWY_INLINE VFixed Hue(const FixedLanes& k, const VFixed& p) {
  const V16 mx = hn::Max(hn::Max(p.r, p.g), p.b), mn = hn::Min(hn::Min(p.r, p.g), p.b);
  const V16 chroma = hn::Sub(mx, mn);
  const auto red = hn::Eq(p.r, mx), green = hn::Eq(p.g, mx);
  const V16 numerator =
      hn::IfThenElse(red, hn::Sub(p.g, p.b), hn::IfThenElse(green, hn::Sub(p.b, p.r), hn::Sub(p.r, p.g)));
  V16 j = hn::IfThenElse(red, k.zero, hn::IfThenElse(green, k.k2, k.k4));
  const V16 t = hn::MulFixedPoint15(chroma, k.hue_fraction);
  const V16 past = hn::SaturatedSub(numerator, hn::Sub(chroma, t));
  const V16 within = hn::Add(numerator, t);
  const auto next = hn::Not(hn::Lt(past, k.zero)), before = hn::AndNot(next, hn::Lt(within, k.zero));
  const V16 r = hn::IfThenElse(next, past, hn::IfThenElse(before, hn::Add(within, chroma), within));
#if HWY_TARGET == HWY_SCALAR
  j = hn::Add(j, hn::Add(k.hue_whole, hn::IfThenElse(next, k.k1, hn::IfThenElseZero(before, hn::Neg(k.k1)))));
  j = hn::IfThenElse(hn::Lt(j, k.zero), hn::Add(j, k.k6), hn::IfThenElse(hn::Lt(j, k.k6), j, hn::Sub(j, k.k6)));
  const V16 mid = hn::IfThenElse(hn::Eq(hn::And(j, k.k1), k.zero), hn::Add(mn, r), hn::Sub(mx, r));
  const auto e0 = hn::Eq(j, k.zero), e1 = hn::Eq(j, k.k1), e2 = hn::Eq(j, k.k2), e3 = hn::Eq(j, k.k3),
             e4 = hn::Eq(j, k.k4), e5 = hn::Eq(j, k.k5);
  auto channel = [&](decltype(e0) is_max, decltype(e0) is_min) {
    return hn::IfThenElse(is_max, mx, hn::IfThenElse(is_min, mn, mid));
  };
  return {channel(hn::Or(e0, e5), hn::Or(e2, e3)), channel(hn::Or(e1, e2), hn::Or(e4, e5)),
          channel(hn::Or(e3, e4), hn::Or(e0, e1))};
#else
  j = hn::Add(j, hn::Add(k.hue_index, hn::IfThenElse(next, k.k1, hn::IfThenElseZero(before, hn::Neg(k.k1)))));
  const hn::Repartition<uint8_t, D16> d8;
  const V16 code = hn::BitCast(D16(), hn::TableLookupBytesOr0(hn::BitCast(d8, k.sector_code), hn::BitCast(d8, j)));
  const V16 mid = hn::IfThenElse(hn::TestBit(code, k.k64), hn::Sub(mx, r), hn::Add(mn, r));
  auto channel = [&](V16 max_bit, V16 min_bit) {
    return hn::IfThenElse(hn::TestBit(code, max_bit), mx, hn::IfThenElse(hn::TestBit(code, min_bit), mn, mid));
  };
  return {channel(k.k1, k.k2), channel(k.k4, k.k8), channel(k.k16, k.k32)};
#endif
}

// The steps of order[first..last) that run, each as the one form it takes for this sample, so
// that the pixel loop's dispatch is one jump a step.
enum class FixedOp : uint8_t { kScale, kAdd, kContrastUp, kContrastDown, kGreySaturation, kSaturation, kHue };
struct FixedProgram {
  FixedOp ops[4];
  int count = 0;
};

FixedProgram ProgramOf(const JiggleFactors& k, const FixedLanes& lanes, int first, int last) {
  FixedProgram program;
  for (int i = first; i < last; ++i) {
    const int step = k.order[i];
    if (!k.apply[step]) continue;
    FixedOp op = FixedOp::kHue;
    if (step == 0) op = lanes.jitter ? FixedOp::kScale : FixedOp::kAdd;
    if (step == 1) op = lanes.contrast_up ? FixedOp::kContrastUp : FixedOp::kContrastDown;
    if (step == 2) op = lanes.jitter ? FixedOp::kGreySaturation : FixedOp::kSaturation;
    program.ops[program.count++] = op;
  }
  return program;
}

// A chunk of a row's pixels as int16 planes, kept in L1 while each step runs over all of it: one
// dispatch a step per chunk, and each step's loop holds only its own constants, where a dispatch
// a step per vector and the loop's bookkeeping cost as many instructions as the steps themselves.
constexpr int64_t kChunk = 256;
static_assert(kChunk % (HWY_MAX_BYTES / sizeof(int16_t)) == 0, "a chunk is whole vectors on every target");
using Chunk = int16_t[3][kChunk];

// f over the chunk's first `padded` pixels (a whole number of vectors).
template <class F>
HWY_INLINE void EachVector(D16 d, Chunk& chunk, int64_t padded, const F& f) {
  const int64_t count = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t i = 0; i < padded; i += count) {
    const VFixed p = f(VFixed{hn::Load(d, chunk[0] + i), hn::Load(d, chunk[1] + i), hn::Load(d, chunk[2] + i)});
    hn::Store(p.r, d, chunk[0] + i);
    hn::Store(p.g, d, chunk[1] + i);
    hn::Store(p.b, d, chunk[2] + i);
  }
}

void Step(D16 d, FixedOp op, const FixedLanes& lanes, Chunk& chunk, int64_t padded) {
  auto each = [&](auto f) {
    EachVector(d, chunk, padded, [&](const VFixed& p) { return VFixed{f(p.r), f(p.g), f(p.b)}; });
  };
  switch (op) {
    case FixedOp::kScale: each([&](V16 v) { return Brightness(lanes, v); }); break;
    case FixedOp::kAdd:  // ColorJiggle's brightness: x + (f - 1)
      each([&](V16 v) { return Clamp(lanes, hn::SaturatedAdd(v, lanes.brightness)); });
      break;
    case FixedOp::kContrastUp:
      each([&](V16 v) {
        return Clamp(lanes, hn::SaturatedAdd(hn::Add(v, lanes.shift), hn::MulFixedPoint15(v, lanes.contrast)));
      });
      break;
    case FixedOp::kContrastDown:
      each([&](V16 v) {
        return Clamp(lanes, hn::SaturatedAdd(hn::Add(v, hn::MulFixedPoint15(v, lanes.contrast)), lanes.shift));
      });
      break;
    case FixedOp::kGreySaturation:
      EachVector(d, chunk, padded, [&](const VFixed& p) {
        const V16 grey = Luma(d, p);
        return VFixed{Saturation(lanes, p.r, grey), Saturation(lanes, p.g, grey), Saturation(lanes, p.b, grey)};
      });
      break;
    case FixedOp::kSaturation:
      EachVector(d, chunk, padded, [&](const VFixed& p) { return JiggleSaturation(d, lanes, p); });
      break;
    default: EachVector(d, chunk, padded, [&](const VFixed& p) { return Hue(lanes, p); }); break;
  }
}

// color_jitter's first pass, kept for its second wherever a step comes before contrast (cheaper to
// reload than to run twice: cpu/color_jitter.cc): three int16 planes of one sample, `plane` values
// each, resident in L2 for a 224 x 224 sample.
struct FixedStage {
  int16_t* data = nullptr;
  int64_t plane = 0;
};

// Steps order[first..last) over rows y0..y1-1 of sample b, from src's bytes or, with
// stage.data in the second pass, from the stage. With `sum` (the first pass) the grey of each
// result is added to *sum and the results go to the stage if there is one; otherwise they go to
// dst as bytes. A row runs in chunks: its pixels in (planar and interleaved rows a vector at a
// time, other layouts and the row's last pixels one at a time), padded with 0 to a whole vector
// (whose grey before contrast is 0), each step over the chunk, then its pixels out.
void FixedRows(const ConstImage& src, const Image& dst, const JiggleFactors& k, const FixedColor& s, int first,
               int last, int64_t b, int64_t y0, int64_t y1, int64_t* sum, const FixedStage& stage = {}) {
  const D16 d;
  const hn::Rebind<uint8_t, D16> d8;
  const hn::Repartition<int32_t, D16> d32;
  const FixedLanes lanes = LanesOf(s);
  const int64_t count = static_cast<int64_t>(hn::Lanes(d)), w = src.width;
  const bool from_stage = stage.data != nullptr && sum == nullptr;
  const V16 ones = hn::Set(d, 1);
  auto widen = [&](hn::Vec<decltype(d8)> v) { return hn::ShiftLeft<7>(hn::PromoteTo(d, v)); };
  // pixel/color_fixed.h's byte_of_fixed: (v + 63 + bit 7 of v) >> 7
  auto bytes = [&](V16 v) { return hn::DemoteTo(d8, ShiftRoundEven<7>(d, v)); };
  const bool planar_in = src.stride_w == 1, packed_in = Interleaved(src);
  const bool planar_out = !sum && dst.stride_w == 1, packed_out = !sum && Interleaved(dst);
  HWY_ALIGN Chunk chunk;
  const FixedProgram program = ProgramOf(k, lanes, first, last);
  for (int64_t y = y0; y < y1; ++y) {
    auto sum0 = hn::Zero(d32), sum1 = hn::Zero(d32);
    int16_t* kept[3] = {nullptr, nullptr, nullptr};
    if (stage.data) {
      for (int c = 0; c < 3; ++c) kept[c] = stage.data + c * stage.plane + y * w;
    }
    for (int64_t x0 = 0; x0 < w; x0 += kChunk) {
      const int64_t n = std::min(kChunk, w - x0), whole = n - n % count, padded = (n + count - 1) / count * count;
      // in: whole vectors by the layout, then the rest one at a time
      int64_t i = 0;
      if (from_stage) {
        for (; i < whole; i += count) {
          for (int c = 0; c < 3; ++c) hn::Store(hn::LoadU(d, kept[c] + x0 + i), d, chunk[c] + i);
        }
      } else if (planar_in) {
        const uint8_t* in[3] = {&src.at(b, 0, y, x0), &src.at(b, 1, y, x0), &src.at(b, 2, y, x0)};
        for (; i < whole; i += count) {
          for (int c = 0; c < 3; ++c) hn::Store(widen(hn::LoadU(d8, in[c] + i)), d, chunk[c] + i);
        }
      } else if (packed_in) {
        const uint8_t* in = &src.at(b, 0, y, x0);
        for (; i < whole; i += count) {
          hn::Vec<decltype(d8)> r8, g8, b8;
          hn::LoadInterleaved3(d8, in + 3 * i, r8, g8, b8);
          hn::Store(widen(r8), d, chunk[0] + i);
          hn::Store(widen(g8), d, chunk[1] + i);
          hn::Store(widen(b8), d, chunk[2] + i);
        }
      }
      for (int c = 0; c < 3; ++c) {
        for (int64_t j = i; j < padded; ++j) {
          const int32_t v = j >= n ? 0 : (from_stage ? kept[c][x0 + j] : fixed_of_byte(src.at(b, c, y, x0 + j)));
          chunk[c][j] = static_cast<int16_t>(v);
        }
      }
      for (int op = 0; op < program.count; ++op) Step(d, program.ops[op], lanes, chunk, padded);
      // out: the grey sum and the stage, or bytes by the layout, then the rest one at a time
      i = 0;
      if (sum) {
        for (int64_t j = 0; j < padded; j += count) {
          const VFixed p{hn::Load(d, chunk[0] + j), hn::Load(d, chunk[1] + j), hn::Load(d, chunk[2] + j)};
          sum0 = hn::ReorderWidenMulAccumulate(d32, Luma(d, p), ones, sum0, sum1);
        }
        // not past the row: another thread may be writing the next one
        if (stage.data) {
          for (int c = 0; c < 3; ++c) std::copy(chunk[c], chunk[c] + n, kept[c] + x0);
        }
        continue;
      }
      if (planar_out) {
        uint8_t* out[3] = {&dst.at(b, 0, y, x0), &dst.at(b, 1, y, x0), &dst.at(b, 2, y, x0)};
        for (; i < whole; i += count) {
          for (int c = 0; c < 3; ++c) hn::StoreU(bytes(hn::Load(d, chunk[c] + i)), d8, out[c] + i);
        }
      } else if (packed_out) {
        uint8_t* out = &dst.at(b, 0, y, x0);
        for (; i < whole; i += count) {
          hn::StoreInterleaved3(bytes(hn::Load(d, chunk[0] + i)), bytes(hn::Load(d, chunk[1] + i)),
                                bytes(hn::Load(d, chunk[2] + i)), d8, out + 3 * i);
        }
      }
      for (int c = 0; c < 3; ++c) {
        for (int64_t j = i; j < n; ++j) dst.at(b, c, y, x0 + j) = byte_of_fixed(chunk[c][j]);
      }
    }
    if (sum) *sum += static_cast<int64_t>(hn::GetLane(hn::SumOfLanes(d32, hn::Add(sum0, sum1))));
  }
}

void FixedStageRows(const ConstImage& src, const JiggleFactors& k, int64_t b, int64_t y0, int64_t y1, int64_t* sum,
                    int16_t* stage) {
  const FixedStage kept{stage, src.height * src.width};
  FixedRows(src, {}, k, fixed_color_sample(k, b), 0, contrast_position(k), b, y0, y1, sum, kept);
}

void FixedFinishRows(const ConstImage& src, const Image& dst, const JiggleFactors& k, int64_t b, int64_t y0, int64_t y1,
                     int16_t* stage) {
  FixedColor s = fixed_color_sample(k, b);
  if (k.jitter && k.apply[1]) s.shift = fixed_contrast_shift(k.gray_sums[b], k.pixels, k.contrast[b]);
  const FixedStage kept{stage, src.height * src.width};
  FixedRows(src, dst, k, s, stage ? contrast_position(k) : 0, k.steps, b, y0, y1, nullptr, kept);
}

void FixedHueRows(const ConstImage& src, const Image& dst, float radians, int64_t b, int64_t y0, int64_t y1) {
  FixedRows(src, dst, hue_step_factors(), fixed_hue_sample(radians), 0, 1, b, y0, y1, nullptr);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(FixedStageRows);
HWY_EXPORT(FixedFinishRows);
HWY_EXPORT(FixedHueRows);

void fixed_jitter_stage(const ConstImage& src, const JiggleFactors& k, int64_t b, int64_t y0, int64_t y1, int64_t* sum,
                        int16_t* stage) {
  HWY_DYNAMIC_DISPATCH(FixedStageRows)(src, k, b, y0, y1, sum, stage);
}

void fixed_jitter_finish(const ConstImage& src, const Image& dst, const JiggleFactors& k, int64_t b, int64_t y0,
                         int64_t y1, int16_t* stage) {
  HWY_DYNAMIC_DISPATCH(FixedFinishRows)(src, dst, k, b, y0, y1, stage);
}

void fixed_hue_rows(const ConstImage& src, const Image& dst, float radians, int64_t b, int64_t y0, int64_t y1) {
  HWY_DYNAMIC_DISPATCH(FixedHueRows)(src, dst, radians, b, y0, y1);
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
