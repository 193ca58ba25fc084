// Per-sample selection: output sample b is sample b of `a` where take[b], of `b` otherwise. What
// kornia's augmentations do to blend applied and skipped samples (torch.where over the batch).
#pragma once

#include "u8aug/image.h"

namespace u8aug {

U8AUG_HD void select_element(const ConstImage& a, const ConstImage& b, const Image& dst, const bool* take, int64_t s,
                             int64_t c, int64_t y, int64_t x) {
  dst.at(s, c, y, x) = take[s] ? a.at(s, c, y, x) : b.at(s, c, y, x);
}

// The CUDA kernel's body: one output byte, in memory order (each-index bodies: image.h).
struct SelectBody {
  const bool* take;
  ConstImage a, b;
  Image dst;
  U8AUG_HD int64_t count() const { return dst.numel(); }
  U8AUG_HD void operator()(int64_t i) const {
    const Index4 k = element_index(dst, i);
    select_element(a, b, dst, take, k.b, k.c, k.y, k.x);
  }
};

}  // namespace u8aug
