// The colour ops' shared row loop (cpu/color.cc), which color_jitter (cpu/color_jitter.cc) also
// runs when its order has no contrast step. Internal to the CPU backend.
#pragma once

#include "u8aug/u8aug.h"
#include "u8aug/pixel/color.h"

namespace u8aug {
namespace cpu {

void run_color_rows(ColorOp op, const ConstImage& src, const Image& dst, const Samples& factor,
                    const JiggleFactors& jiggle, const ParallelFor& parallel);

}  // namespace cpu
}  // namespace u8aug
