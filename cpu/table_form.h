// What a 256-entry byte table is, when it is more than a table: mapping a byte by one bitwise
// operation or by a float32 multiply-add costs a fraction of a lookup on targets without a 256-entry
// byte permute (AVX2, SSE4, AVX3 without VBMI). A form is only used after it has been checked to
// give every one of the 256 entries (cpu/point.cc, ClassifyTable), so the bytes never change.
#pragma once

#include <cstdint>

#include "u8aug/pixel/point.h"

namespace u8aug {
namespace cpu {

struct TableForm {
  enum Kind : int { kLookup, kAnd, kXor, kAffine } kind = kLookup;
  uint8_t mask = 0;                    // kAnd: v & mask; kXor: v ^ mask
  float slope = 0.0f, offset = 0.0f;   // kAffine: round-half-even(v * slope + offset), saturated
};

// table[v] == v & mask for every v (posterize, identity), or v ^ mask (invert).
inline TableForm bitwise_form(const uint8_t* table) {
  const uint8_t all = table[255];
  bool is_and = true, is_xor = true;
  for (int v = 0; v < 256; ++v) {
    is_and = is_and && table[v] == (v & all);
    is_xor = is_xor && table[v] == (v ^ table[0]);
  }
  TableForm form;
  if (is_and) form = {TableForm::kAnd, all};
  if (!is_and && is_xor) form = {TableForm::kXor, table[0]};
  return form;
}

// The multiply-add that kornia's float chain amounts to in [0, 255] units, for the ops whose chain
// is affine in x before its clamp; kLookup for the others. A candidate: its float rounding differs
// from the chain's, so it holds only where ClassifyTable finds it gives every entry.
inline TableForm affine_candidate(PointOp op, PointParams p) {
  TableForm form;
  form.kind = TableForm::kAffine;
  switch (op) {
    case PointOp::kBrightness: form.slope = 1.0f; form.offset = 255.0f * p.a; break;
    case PointOp::kBrightnessMul:
    case PointOp::kContrast: form.slope = p.a; break;
    case PointOp::kContrastMean: form.slope = p.a; form.offset = 255.0f * p.b * (1.0f - p.a); break;
    default: form.kind = TableForm::kLookup; break;
  }
  return form;
}

}  // namespace cpu
}  // namespace u8aug
