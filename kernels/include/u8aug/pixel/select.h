// Per-sample selection: output sample b is sample b of `a` where take[b], of `b` otherwise. What
// kornia's augmentations do to blend applied and skipped samples (torch.where over the batch).
#pragma once

#include "u8aug/image.h"

namespace u8aug {

U8AUG_HD void select_element(const ConstImage& a, const ConstImage& b, const Image& dst,
                             const bool* take, int64_t s, int64_t c, int64_t y, int64_t x) {
  dst.at(s, c, y, x) = take[s] ? a.at(s, c, y, x) : b.at(s, c, y, x);
}

}  // namespace u8aug
