// The colour ops' shared row loop (cpu/color.cc), which color_jitter (cpu/color_jitter.cc) also
// runs when its order has no contrast step, and color_jitter's fixed-point passes. Internal to the
// CPU backend.
#pragma once

#include "u8aug/u8aug.h"
#include "u8aug/pixel/color.h"

namespace u8aug {
namespace cpu {

void run_color_rows(ColorOp op, const ConstImage& src, const Image& dst, const Samples& factor,
                    const JiggleFactors& jiggle, const ParallelFor& parallel);

// color_jitter's and color_jiggle's fast tier on rows y0..y1-1 of sample b (cpu/color_fixed.cc;
// pixel/color_fixed.h says which samples it serves): color_jitter's first pass adds the fixed grey
// before contrast to *sum; finish writes the rows. With `stage` (3 * H * W values of the sample,
// color_jitter with a hue step before contrast) the first pass keeps its results there and the
// second starts from them.
void fixed_jitter_stage(const ConstImage& src, const JiggleFactors& k, int64_t b, int64_t y0, int64_t y1, int64_t* sum,
                        int16_t* stage);
void fixed_jitter_finish(const ConstImage& src, const Image& dst, const JiggleFactors& k, int64_t b, int64_t y0,
                         int64_t y1, int16_t* stage = nullptr);

// adjust_hue's fast tier on rows y0..y1-1 of sample b, whose shift pixel/color_fixed.h's
// fixed_hue_sample serves.
void fixed_hue_rows(const ConstImage& src, const Image& dst, float radians, int64_t b, int64_t y0, int64_t y1);

}  // namespace cpu
}  // namespace u8aug
