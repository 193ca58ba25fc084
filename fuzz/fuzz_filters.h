// The fuzz cases of the filters and the catalogue-I intensity ops (fuzz_ops.cc dispatches to them):
// separable and 2-D filters, boxes, medians, sharpness, offsets, erasing, auto-contrast and the batch
// mixes, each against its each-index body. Returns false when the op refused its arguments (having written
// nothing), true when `expected` holds the reference bytes.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <vector>

#include "fuzz_support.h"
#include "u8aug/pixel/elastic.h"
#include "u8aug/pixel/equalize.h"
#include "u8aug/pixel/erase.h"
#include "u8aug/pixel/filter.h"
#include "u8aug/pixel/mix.h"
#include "u8aug/pixel/offset.h"
#include "u8aug/pixel/sample.h"
#include "u8aug/pixel/sharpness.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace fuzz {

enum class FilterCase : int {
  kSeparable,
  kFilter2d,
  kBox,
  kMedian,
  kSharpness,
  kOffset,
  kErase,
  kAutoContrast,
  kMixUp,
  kPaste,
  kGridSample,
  kElastic,
  kCount
};

template <class Ran>
bool fuzz_filter_case(FilterCase which, FuzzedDataProvider& in, const Buffer<uint8_t>& src, Buffer<uint8_t>& dst,
                      Buffer<uint8_t>& expected, int64_t counts, const Ran& ran) {
  const ConstImage s = src.view;
  const int64_t b = s.batch, c = s.channels, h = s.height, w = s.width;
  const ParallelFor serial = serial_for();
  const Border border = static_cast<Border>(in.ConsumeIntegralInRange<int>(0, 4));  // 4: unknown
  const Fidelity tier = in.ConsumeBool() ? Fidelity::kExact : Fidelity::kFast;
  switch (which) {
    case FilterCase::kSeparable: {
      const int64_t tx = in.ConsumeIntegralInRange<int64_t>(0, 9), ty = in.ConsumeIntegralInRange<int64_t>(0, 9);
      // half the cases draw taps the fast tier's fixed point holds (in [0, 1 / taps]: their sum is at most 1)
      const bool fits = in.ConsumeBool();
      const auto taps_of = [&](int64_t t) {
        return fits ? floats(in, counts * t, 0.0f, 1.0f / static_cast<float>(std::max<int64_t>(t, 1)))
                    : floats(in, counts * t, -2.0f, 2.0f);
      };
      const std::vector<float> wx = taps_of(tx), wy = taps_of(ty);
      FilterKernel kx{wx.data(), counts, tx, tier}, ky{wy.data(), counts, ty, tier};
      if (!ran([&] { cpu::filter2d_separable(s, dst.view, kx, ky, border, serial); })) return false;
      std::vector<float> rows(static_cast<size_t>(b * c * h * w));
      const FloatImage r = nchw(rows.data(), b, c, h, w);
      run_every_index(FilterRowsBody{s, r, kx, ky, border});
      run_every_index(FilterColumnsBody{r, expected.view, kx, ky, border});
      return true;
    }
    case FilterCase::kFilter2d: {
      const int64_t kh = in.ConsumeIntegralInRange<int64_t>(0, 5), kw = in.ConsumeIntegralInRange<int64_t>(0, 5);
      const std::vector<float> k = floats(in, counts * kh * kw, -2.0f, 2.0f);
      const FilterKernel2d kernel{k.data(), counts, kh, kw, tier};
      if (!ran([&] { cpu::filter2d(s, dst.view, kernel, border, serial); })) return false;
      run_every_index(Filter2dBody{s, expected.view, kernel, border});
      return true;
    }
    case FilterCase::kBox: {
      const int64_t ky = in.ConsumeIntegralInRange<int64_t>(0, 7), kx = in.ConsumeIntegralInRange<int64_t>(0, 7);
      const bool separable = in.ConsumeBool();
      if (!ran([&] { cpu::box_blur_pooled(s, dst.view, ky, kx, border, separable, serial); })) return false;
      if (separable) {
        std::vector<float> rows(static_cast<size_t>(b * c * h * w));
        const FloatImage r = nchw(rows.data(), b, c, h, w);
        run_every_index(FilterRowsBody{s, r, box_kernel(kx), box_kernel(ky), border});
        run_every_index(FilterColumnsBody{r, expected.view, box_kernel(kx), box_kernel(ky), border});
      } else {
        run_every_index(Filter2dBody{s, expected.view, box_kernel2d(ky, kx), border});
      }
      return true;
    }
    case FilterCase::kMedian: {
      const int64_t ky = in.ConsumeIntegralInRange<int64_t>(0, 7), kx = in.ConsumeIntegralInRange<int64_t>(0, 7);
      if (!ran([&] { cpu::median_blur(s, dst.view, ky, kx, border, serial); })) return false;
      run_every_index(MedianBody{s, expected.view, ky, kx, border});
      return true;
    }
    case FilterCase::kSharpness: {
      const std::vector<float> f = floats(in, counts, -3.0f, 3.0f);
      const Samples factor{f.data(), counts};
      if (!ran([&] { cpu::sharpness(s, dst.view, factor, serial); })) return false;
      run_every_index(SharpnessBody{s, expected.view, factor});
      return true;
    }
    case FilterCase::kOffset: {
      Buffer<float> offset(in, in.ConsumeBool() ? 1 : b, c, h, w, false);
      for (int64_t i = 0; i < offset.view.batch; ++i)
        for (int64_t k = 0; k < c; ++k)
          for (int64_t y = 0; y < h; ++y)
            for (int64_t x = 0; x < w; ++x) offset.view.at(i, k, y, x) = hostile_float(in, -1.5f, 1.5f);
      OffsetImage view = offset.view;
      if (view.batch != b) view.batch = b, view.stride_b = 0;
      if (!ran([&] { cpu::add_offset(s, view, dst.view, serial); })) return false;
      run_every_index(AddOffsetBody{s, view, expected.view});
      return true;
    }
    case FilterCase::kErase: {
      const std::vector<float> boxes = floats(in, 4 * counts, -4.0f, 80.0f), v = floats(in, counts, -1.0f, 2.0f);
      const Boxes box{boxes.data(), counts};
      const Samples values{v.data(), counts};
      if (!ran([&] { cpu::erase_boxes(s, dst.view, box, values, serial); })) return false;
      run_every_index(EraseBody{s, expected.view, box, values});
      return true;
    }
    case FilterCase::kMixUp: {
      std::vector<int64_t> pairs(static_cast<size_t>(b));
      for (int64_t& p : pairs) p = in.ConsumeIntegralInRange<int64_t>(-1, b);  // -1 and b: rejected
      const std::vector<float> lam = floats(in, counts, -1.0f, 2.0f);
      const MixUpParams p{pairs.data(), Samples{lam.data(), counts}};
      if (!ran([&] { cpu::mix_up(s, dst.view, p, serial); })) return false;
      run_every_index(MixUpBody{s, expected.view, p});
      return true;
    }
    case FilterCase::kPaste: {
      const int64_t mixes = in.ConsumeIntegralInRange<int64_t>(0, 3);
      std::vector<int64_t> sources(static_cast<size_t>(mixes * b));
      for (int64_t& p : sources) p = in.ConsumeIntegralInRange<int64_t>(-1, b);
      const std::vector<float> boxes = floats(in, 4 * mixes * b, -4.0f, 80.0f);
      const PasteParams p{sources.data(), boxes.data(), mixes};
      if (!ran([&] { cpu::paste_boxes(s, dst.view, p, serial); })) return false;
      run_every_index(PasteBody{s, expected.view, p});
      return true;
    }
    case FilterCase::kGridSample: {
      // a grid of dst's size, (x, y) pairs or two planes; modes and paddings past the valid ones
      const int64_t n = in.ConsumeBool() ? 1 : b;
      const std::vector<float> points = floats(in, n * h * w * 2, -1.5f, 1.5f);
      const SampleGrid grid = in.ConsumeBool() ? SampleGrid{points.data(), n, h, w, h * w * 2, w * 2, 2, 1}
                                               : SampleGrid{points.data(), n, h, w, h * w * 2, w, 1, h * w};
      const Interp mode = static_cast<Interp>(in.ConsumeIntegralInRange<int>(0, 3));
      const Padding padding = static_cast<Padding>(in.ConsumeIntegralInRange<int>(0, 3));
      const bool align = in.ConsumeBool();
      const CubicSum across = in.ConsumeBool() ? CubicSum::kPairThenAdds : CubicSum::kChain;
      if (!ran([&] { cpu::grid_sample(s, dst.view, grid, mode, padding, align, serial, across); })) return false;
      run_every_index(GridSampleBody{s, expected.view, grid, mode, padding, align, across});
      return true;
    }
    case FilterCase::kElastic: {
      const int64_t tx = in.ConsumeIntegralInRange<int64_t>(0, 9), ty = in.ConsumeIntegralInRange<int64_t>(0, 9);
      const std::vector<float> noise = floats(in, counts * 2 * h * w, -20.0f, 20.0f);
      const std::vector<float> kx = floats(in, tx, -2.0f, 2.0f), ky = floats(in, ty, -2.0f, 2.0f);
      const std::vector<float> alpha = floats(in, 2, -4.0f, 4.0f);
      ElasticParams p;
      p.noise = noise.data();
      p.count = counts;
      p.kernel_x = kx.data();
      p.taps_x = tx;
      p.kernel_y = ky.data();
      p.taps_y = ty;
      p.alpha = alpha.data();
      p.mode = static_cast<Interp>(in.ConsumeIntegralInRange<int>(0, 3));
      p.padding = static_cast<Padding>(in.ConsumeIntegralInRange<int>(0, 3));
      p.align_corners = in.ConsumeBool();
      if (!ran([&] { cpu::elastic_transform(s, dst.view, p, serial); })) return false;
      std::vector<float> rows(noise.size()), displacement(noise.size());
      run_every_index(ElasticRowsBody{p, h, w, rows.data()});
      run_every_index(ElasticColumnsBody{p, h, w, rows.data(), displacement.data()});
      run_every_index(ElasticSampleBody{s, expected.view, p, displacement.data()});
      return true;
    }
    default: {
      if (!ran([&] { cpu::auto_contrast(s, dst.view, serial); })) return false;
      std::vector<uint32_t> byte_counts(static_cast<size_t>(256 * b * c), 0);
      for (int64_t p = 0; p < b * c; ++p)
        for (int64_t i = 0; i < h * w; ++i) ++byte_counts[static_cast<size_t>(256 * p + plane_byte(s, p, i))];
      std::vector<uint8_t> tables(byte_counts.size());
      run_every_index(AutoContrastTablesBody{byte_counts.data(), tables.data(), b * c});
      run_every_index(PlaneTablesBody{s, expected.view, tables.data()});
      return true;
    }
  }
}

}  // namespace fuzz
}  // namespace u8aug
