// torch_uniform on the CPU: mersenne.h's engine with its words regenerated and tempered in lanes,
// compiled per target. A regeneration's first 227 words read only old words and the rest read new
// words 227 back, so a vector of consecutive words never reads a word it writes; the tails and the
// last word (which reads the new first one) take mersenne.h's scalar functions.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/mersenne.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "u8aug/mersenne.h"
#include "u8aug/u8aug.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DU = hn::ScalableTag<uint32_t>;
using DI = hn::ScalableTag<int32_t>;
using DF = hn::ScalableTag<float>;
using VU = hn::Vec<DU>;

// mersenne_twist in lanes: v's low bit selects the matrix by a mask of 0 - (v & 1).
HWY_INLINE VU Twist(DU d, VU u, VU v, VU far) {
  const VU mixed = hn::Or(hn::And(u, hn::Set(d, 0x80000000u)), hn::And(v, hn::Set(d, 0x7fffffffu)));
  const VU matrix = hn::And(hn::Sub(hn::Zero(d), hn::And(v, hn::Set(d, 1u))), hn::Set(d, 0x9908b0dfu));
  return hn::Xor(hn::Xor(far, hn::ShiftRight<1>(mixed)), matrix);
}

void Regenerate(uint32_t* w) {
  const DU d;
  const int n = static_cast<int>(hn::Lanes(d));
  constexpr int kOldFar = kMersenneWords - kMersenneShift;  // 227 words mix in old words
  int i = 0;
  for (; i + n <= kOldFar; i += n) {
    hn::StoreU(Twist(d, hn::LoadU(d, w + i), hn::LoadU(d, w + i + 1), hn::LoadU(d, w + i + kMersenneShift)), d, w + i);
  }
  mersenne_regenerate_words(w, i, kOldFar);
  for (i = kOldFar; i + n <= kMersenneWords - 1; i += n) {
    hn::StoreU(Twist(d, hn::LoadU(d, w + i), hn::LoadU(d, w + i + 1), hn::LoadU(d, w + i - kOldFar)), d, w + i);
  }
  mersenne_regenerate_words(w, i, kMersenneWords);
}

// count tempered words made floats: torch's 24 low bits times 2^-24.
void Uniforms(const uint32_t* words, float* out, int64_t count) {
  const DU d;
  const DI di;
  const DF df;
  const int64_t n = static_cast<int64_t>(hn::Lanes(d));
  int64_t k = 0;
  for (; k + n <= count; k += n) {
    VU y = hn::LoadU(d, words + k);
    y = hn::Xor(y, hn::ShiftRight<11>(y));
    y = hn::Xor(y, hn::And(hn::ShiftLeft<7>(y), hn::Set(d, 0x9d2c5680u)));
    y = hn::Xor(y, hn::And(hn::ShiftLeft<15>(y), hn::Set(d, 0xefc60000u)));
    y = hn::Xor(y, hn::ShiftRight<18>(y));
    const auto bits = hn::BitCast(di, hn::And(y, hn::Set(d, 0xffffffu)));
    hn::StoreU(hn::Mul(hn::ConvertTo(df, bits), hn::Set(df, 1.0f / 16777216.0f)), df, out + k);
  }
  for (; k < count; ++k) out[k] = uniform_float24(mersenne_temper(words[k]));
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(Regenerate);
HWY_EXPORT(Uniforms);

void torch_uniform(MersenneState& state, float* out, int64_t count) {
  // torch's own states: left in [1, 624] and next + left - 1 <= 624 (next + left - 1 == 624 except
  // after a seed, when left is 1); anything else is not a state torch.rand could continue
  if (count < 0 || state.left < 1 || state.left > kMersenneWords || state.next < 0 ||
      state.next + state.left - 1 > kMersenneWords || (count > 0 && out == nullptr)) {
    throw std::invalid_argument(
        "u8aug.torch_uniform: expected a count >= 0 and a Mersenne Twister state with left in "
        "[1, 624] and next + left - 1 <= 624, got count " +
        std::to_string(count) + ", left " + std::to_string(state.left) + ", next " + std::to_string(state.next));
  }
  while (count > 0) {
    if (state.left == 1) {  // the next draw regenerates (torch: --left == 0), then takes word 0
      HWY_DYNAMIC_DISPATCH(Regenerate)(state.words);
      state.left = kMersenneWords + 1;
      state.next = 0;
    }
    const int64_t k = std::min(count, state.left - 1);
    HWY_DYNAMIC_DISPATCH(Uniforms)(state.words + state.next, out, k);
    state.next += k;
    state.left -= k;
    out += k;
    count -= k;
  }
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
