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
  enum Kind : int { kLookup, kAnd, kXor, kAffine, kSolarize } kind = kLookup;
  uint8_t mask = 0;                   // kAnd: v & mask; kXor: v ^ mask; kSolarize: see below
  float slope = 0.0f, offset = 0.0f;  // kAffine: round-half-even(v * slope + offset), saturated
  // kSolarize: s = clamp(v + shift, 0, 255), then s ^ mask where s >= threshold, else s (mask 0:
  // levels added alone, as most brightness tables are)
  int shift = 0;
  uint8_t threshold = 0;
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

// The table as `shift` whole levels added with saturation, nothing inverted (solarize_form's mask
// 0), or kLookup: one pass over the entries, where a brightness table is asked first.
inline TableForm shift_form(const uint8_t* table, int shift) {
  bool all = true;
  for (int v = 0; v < 256; ++v) {
    const int s = v + shift < 0 ? 0 : (v + shift > 255 ? 255 : v + shift);
    all = all && table[v] == s;
  }
  TableForm form;
  if (all) {
    form.kind = TableForm::kSolarize;
    form.shift = shift;
    form.threshold = 255;  // mask 0: the top level stays
  }
  return form;
}

// solarize's table as whole-level steps: add `shift` levels with saturation, then invert from the
// first level whose entry is inverted. kLookup unless every entry agrees.
inline TableForm solarize_form(const uint8_t* table, int shift) {
  auto level = [&](int v) { return v + shift < 0 ? 0 : (v + shift > 255 ? 255 : v + shift); };
  int threshold = 256;
  for (int v = 0; v < 256; ++v) {
    if (table[v] != level(v) && level(v) < threshold) threshold = level(v);
  }
  TableForm form;
  form.kind = TableForm::kSolarize;
  form.shift = shift;
  form.threshold = static_cast<uint8_t>(threshold > 255 ? 255 : threshold);
  form.mask = threshold > 255 ? 0 : 0xFF;  // none inverted: 255 ^ 0 keeps the top level
  for (int v = 0; v < 256; ++v) {
    const int s = level(v);
    if (table[v] != (s >= form.threshold ? s ^ form.mask : s)) return TableForm{};
  }
  return form;
}

// The cheaper form kornia's float chain may amount to in [0, 255] units: a multiply-add for the
// ops whose chain is affine in x before its clamp, whole-level steps for solarize; kLookup for the
// others. A candidate: its rounding differs from the chain's, so it holds only where ClassifyTable
// finds it gives every entry.
inline TableForm form_candidate(PointOp op, PointParams p) {
  TableForm form;
  form.kind = TableForm::kAffine;
  switch (op) {
    case PointOp::kBrightness:
      form.slope = 1.0f;
      form.offset = 255.0f * p.a;
      break;
    case PointOp::kBrightnessMul:
    case PointOp::kContrast: form.slope = p.a; break;
    case PointOp::kContrastMean:
      form.slope = p.a;
      form.offset = 255.0f * p.b * (1.0f - p.a);
      break;
    case PointOp::kSolarize: {
      form.kind = TableForm::kSolarize;
      const float shift = 255.0f * p.b;  // additions are within [-0.5, 0.5]
      form.shift = static_cast<int>(shift < 0.0f ? shift - 0.5f : shift + 0.5f);
      break;
    }
    default: form.kind = TableForm::kLookup; break;
  }
  return form;
}

}  // namespace cpu
}  // namespace u8aug
