// libFuzzer target over the C++ API: every op family, on every Highway target this CPU supports.
// The input picks an op, a target, a shape, memory layouts (planar, interleaved, padded, arbitrary
// non-negative strides, overlapping input views) and parameters (NaN, infinities, huge and tiny
// values, singular matrices, boxes outside the image). Each call must either refuse with
// std::invalid_argument having written nothing, or give exactly the bytes of the op's per-pixel
// reference (the each-index bodies of pixel/, themselves tested against the CPU path), without
// writing outside the output (guard bands and the gaps between strided elements) or changing the
// input. Anything else aborts, and with ASan/UBSan every memory or undefined-behaviour error does.
#include <fuzzer/FuzzedDataProvider.h>
#include <hwy/targets.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "u8aug/pixel/color.h"
#include "u8aug/pixel/color_fixed.h"
#include "u8aug/pixel/equalize.h"
#include "u8aug/pixel/flip.h"
#include "u8aug/pixel/gray.h"
#include "u8aug/pixel/index_maps.h"
#include "u8aug/pixel/normalize.h"
#include "u8aug/pixel/filter.h"
#include "u8aug/pixel/resize.h"
#include "u8aug/pixel/select.h"
#include "u8aug/pixel/warp.h"
#include "fuzz_filters.h"
#include "fuzz_support.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace {

using namespace fuzz;  // NOLINT: the case builders of fuzz_support.h

enum class Op : int {
  kHflip,
  kVflip,
  kBrightness,
  kBrightnessMul,
  kContrast,
  kContrastMean,
  kGamma,
  kSolarize,
  kPosterize,
  kInvert,
  kEqualize,
  kImageMean,
  kNormalize,
  kToFloat,
  kRgbToGray,
  kGray,
  kSaturation,
  kHue,
  kJiggle,
  kJitter,
  kSelect,
  kWarpAffine,
  kWarpPerspective,
  kResize,
  kCropAndResize,
  kResizeAntialias,
  kPad,
  kRot90,
  kFilters,  // the first of FilterCase's cases (fuzz_filters.h), one op each
  kCount = kFilters + static_cast<int>(fuzz::FilterCase::kCount)
};

// Runs `call`; a refusal must leave `dst` unwritten. Returns whether the op ran.
template <class Call, class T>
bool ran(const Call& call, const Buffer<T>& dst) {
  try {
    call();
    return true;
  } catch (const std::invalid_argument&) {
    if (!dst.all_sentinel()) die("an op refused its arguments after writing its output");
    return false;
  }
}

PointOp point_op(Op op) {
  switch (op) {
    case Op::kBrightness: return PointOp::kBrightness;
    case Op::kBrightnessMul: return PointOp::kBrightnessMul;
    case Op::kContrast: return PointOp::kContrast;
    case Op::kContrastMean: return PointOp::kContrastMean;
    case Op::kGamma: return PointOp::kGamma;
    case Op::kSolarize: return PointOp::kSolarize;
    case Op::kPosterize: return PointOp::kPosterize;
    default: return PointOp::kInvert;
  }
}

void fuzz_one(FuzzedDataProvider& in) {
  const Op op = static_cast<Op>(in.ConsumeIntegralInRange<int>(0, static_cast<int>(Op::kCount) - 1));
  const int64_t b = in.ConsumeIntegralInRange<int64_t>(1, 3), c = in.ConsumeIntegralInRange<int64_t>(1, 5);
  const int64_t h = in.ConsumeIntegralInRange<int64_t>(1, 24), w = in.ConsumeIntegralInRange<int64_t>(1, 70);
  const bool rgb_op = op == Op::kSaturation || op == Op::kHue || op == Op::kJiggle || op == Op::kJitter;
  const int64_t channels = rgb_op && in.ConsumeBool() ? 3 : c;
  Buffer<uint8_t> src(in, b, channels, h, w, true);
  src.fill(in);
  std::snprintf(g_case, sizeof(g_case), "op %d on %s, src %lldx%lldx%lldx%lld strides %lld %lld %lld %lld",
                static_cast<int>(op), hwy::TargetName(hwy::SupportedTargets() & -hwy::SupportedTargets()),
                static_cast<long long>(b), static_cast<long long>(channels), static_cast<long long>(h),
                static_cast<long long>(w), static_cast<long long>(src.view.stride_b),
                static_cast<long long>(src.view.stride_c), static_cast<long long>(src.view.stride_h),
                static_cast<long long>(src.view.stride_w));
  const std::vector<uint8_t> src_before = src.bytes;
  const ParallelFor serial = serial_for();
  // output size and channels
  int64_t oh = h, ow = w, oc = channels;
  if (op == Op::kRgbToGray) oc = 1;
  const bool resampled = op == Op::kWarpAffine || op == Op::kWarpPerspective || op == Op::kResize ||
                         op == Op::kCropAndResize || op == Op::kResizeAntialias;
  if (resampled) {
    oh = in.ConsumeIntegralInRange<int64_t>(1, 24);
    ow = in.ConsumeIntegralInRange<int64_t>(1, 70);
  }
  PadSpec pad;
  int turns = 0;
  if (op == Op::kPad) {
    pad.left = in.ConsumeIntegralInRange<int64_t>(0, 8);
    pad.right = in.ConsumeIntegralInRange<int64_t>(0, 8);
    pad.top = in.ConsumeIntegralInRange<int64_t>(0, 8);
    pad.bottom = in.ConsumeIntegralInRange<int64_t>(0, 8);
    pad.mode = static_cast<PadMode>(in.ConsumeIntegralInRange<int>(0, 2));
    pad.value = in.ConsumeIntegral<uint8_t>();
    oh = h + pad.top + pad.bottom;
    ow = w + pad.left + pad.right;
  }
  if (op == Op::kRot90) {
    turns = in.ConsumeIntegralInRange<int>(-5, 5);
    if (((turns % 4) + 4) % 4 % 2 == 1) std::swap(oh, ow);
  }
  const bool float_out = op == Op::kNormalize || op == Op::kToFloat;
  Buffer<uint8_t> dst(in, b, oc, oh, ow, true), expected(in, b, oc, oh, ow, false);
  Buffer<float> fdst(in, b, oc, oh, ow, true), fexpected(in, b, oc, oh, ow, false);
  const size_t used = std::strlen(g_case);
  std::snprintf(g_case + used, sizeof(g_case) - used, ", dst %lldx%lldx%lld strides %lld %lld %lld %lld",
                static_cast<long long>(oc), static_cast<long long>(oh), static_cast<long long>(ow),
                static_cast<long long>(dst.view.stride_b), static_cast<long long>(dst.view.stride_c),
                static_cast<long long>(dst.view.stride_h), static_cast<long long>(dst.view.stride_w));
  const int64_t counts = in.ConsumeBool() ? 1 : b;  // per-sample parameters: 1 or B values
  bool checked_bytes = true;

  switch (op) {
    case Op::kHflip:
    case Op::kVflip: {
      const bool hz = op == Op::kHflip;
      if (!ran([&] { hz ? cpu::hflip(src.view, dst.view, serial) : cpu::vflip(src.view, dst.view, serial); }, dst))
        return;
      run_every_index(FlipBody{src.view, expected.view, FlipAxes{hz, !hz}});
      break;
    }
    case Op::kBrightness:
    case Op::kBrightnessMul:
    case Op::kContrast:
    case Op::kContrastMean:
    case Op::kGamma:
    case Op::kSolarize:
    case Op::kPosterize:
    case Op::kInvert: {
      const std::vector<float> a = floats(in, counts, -1.0f, 9.0f), s = floats(in, counts, -0.6f, 1.5f);
      const Samples sa{a.data(), counts}, sb{s.data(), counts};
      auto call = [&] {
        switch (op) {
          case Op::kBrightness: cpu::adjust_brightness(src.view, dst.view, sa, serial); break;
          case Op::kBrightnessMul: cpu::adjust_brightness_accumulative(src.view, dst.view, sa, serial); break;
          case Op::kContrast: cpu::adjust_contrast(src.view, dst.view, sa, serial); break;
          case Op::kContrastMean: cpu::adjust_contrast_with_mean(src.view, dst.view, sa, sb, serial); break;
          case Op::kGamma: cpu::adjust_gamma(src.view, dst.view, sa, sb, serial); break;
          case Op::kSolarize: cpu::solarize(src.view, dst.view, sa, sb, serial); break;
          case Op::kPosterize: cpu::posterize(src.view, dst.view, sa, serial); break;
          default: cpu::invert(src.view, dst.view, serial); break;
        }
      };
      if (!ran(call, dst)) return;
      const bool two = op == Op::kContrastMean || op == Op::kGamma || op == Op::kSolarize;
      for (int64_t i = 0; i < b; ++i) {
        const PointParams p = point_params(op == Op::kInvert ? Samples{} : sa, two ? sb : Samples{}, i);
        uint8_t table[256];
        for (int v = 0; v < 256; ++v) {
          table[v] = op == Op::kGamma ? gamma_entry(pow_f32(unit(static_cast<uint8_t>(v)), p.a), p.b)
                                      : point_value(point_op(op), p, static_cast<uint8_t>(v));
        }
        run_every_index(SampleTableBody{src.view, expected.view, table, i});
      }
      break;
    }
    case Op::kEqualize: {
      if (!ran([&] { cpu::equalize(src.view, dst.view, serial); }, dst)) return;
      const int64_t planes = b * channels;
      std::vector<uint32_t> byte_counts(static_cast<size_t>(256 * planes), 0);
      for (int64_t p = 0; p < planes; ++p)
        for (int64_t i = 0; i < h * w; ++i) ++byte_counts[static_cast<size_t>(256 * p + plane_byte(src.view, p, i))];
      std::vector<uint8_t> tables(static_cast<size_t>(256 * planes));
      run_every_index(EqualizeTablesBody{byte_counts.data(), tables.data(), planes});
      run_every_index(PlaneTablesBody{src.view, expected.view, tables.data()});
      break;
    }
    case Op::kImageMean: {
      std::vector<float> mean(static_cast<size_t>(b + 2), -7.0f), reference(static_cast<size_t>(b));
      cpu::image_mean(src.view, mean.data() + 1, serial);
      if (mean[0] != -7.0f || mean[static_cast<size_t>(b + 1)] != -7.0f) die("image_mean wrote outside its output");
      const int64_t per_sample = channels * h * w;
      std::vector<unsigned long long> sums(static_cast<size_t>(b), 0);
      for (int64_t i = 0; i < b; ++i)
        for (int64_t k = 0; k < per_sample; ++k) sums[static_cast<size_t>(i)] += sample_byte(src.view, i, k);
      run_every_index(ByteMeanBody{sums.data(), reference.data(), b, per_sample});
      if (std::memcmp(mean.data() + 1, reference.data(), sizeof(float) * static_cast<size_t>(b)) != 0) {
        die("image_mean differs from its reference");
      }
      checked_bytes = false;
      break;
    }
    case Op::kNormalize:
    case Op::kToFloat: {
      const int64_t per_channel = in.ConsumeBool() ? 1 : channels;
      const std::vector<float> m = floats(in, per_channel, -2.0f, 2.0f), s = floats(in, per_channel, -2.0f, 2.0f);
      const PerChannel mean{m.data(), per_channel}, std{s.data(), per_channel};
      const bool to_float = op == Op::kToFloat;
      auto call = [&] {
        to_float ? cpu::to_float(src.view, fdst.view, serial) : cpu::normalize(src.view, fdst.view, mean, std, serial);
      };
      if (!ran(call, fdst)) return;
      run_every_index(
          NormalizeBody{src.view, fexpected.view, to_float ? PerChannel{} : mean, to_float ? PerChannel{} : std});
      break;
    }
    case Op::kRgbToGray:
    case Op::kGray: {
      const bool rgb = op == Op::kRgbToGray;
      if (!ran(
              [&] {
                rgb ? cpu::rgb_to_grayscale(src.view, dst.view, serial) : cpu::grayscale(src.view, dst.view, serial);
              },
              dst)) {
        return;
      }
      run_every_index(GrayBody{src.view, expected.view});
      break;
    }
    case Op::kSaturation:
    case Op::kHue:
    case Op::kJiggle:
    case Op::kJitter: {
      const std::vector<float> f = floats(in, counts, -4.0f, 4.0f), jb = floats(in, counts, 0.0f, 2.0f),
                               jc = floats(in, counts, 0.0f, 2.0f), js = floats(in, counts, 0.0f, 2.0f),
                               jh = floats(in, counts, -0.5f, 0.5f);
      const int64_t order_count = in.ConsumeIntegralInRange<int64_t>(0, 4);
      int64_t order[4] = {0, 1, 2, 3};
      for (int64_t i = 0; i < order_count; ++i) order[i] = in.ConsumeIntegralInRange<int64_t>(-1, 4);
      const Fidelity fidelity = in.ConsumeBool() ? Fidelity::kFast : Fidelity::kExact;
      const JiggleParams params{{jb.data(), counts},
                                {jc.data(), counts},
                                {js.data(), counts},
                                {jh.data(), counts},
                                order,
                                order_count,
                                fidelity};
      const Samples factor{f.data(), counts};
      auto call = [&] {
        if (op == Op::kSaturation) cpu::adjust_saturation(src.view, dst.view, factor, serial, fidelity);
        if (op == Op::kHue) cpu::adjust_hue(src.view, dst.view, factor, serial, fidelity);
        if (op == Op::kJiggle) cpu::color_jiggle(src.view, dst.view, params, serial);
        if (op == Op::kJitter) cpu::color_jitter(src.view, dst.view, params, serial);
      };
      if (!ran(call, dst)) return;
      JiggleFactors jiggle = op >= Op::kJiggle ? jiggle_factors(params) : JiggleFactors{};
      std::vector<int64_t> sums(static_cast<size_t>(b), 0);
      if (op == Op::kJitter) {
        jiggle.jitter = true;
        jiggle.gray_sums = sums.data();
        jiggle.pixels = h * w;
        const JitterGrayBody pass{src.view, &jiggle};
        for (int64_t i = 0; i < pass.count(); ++i) {
          const SampleGray g = pass(i);
          sums[static_cast<size_t>(g.b)] += g.fixed;
        }
      }
      const bool fast = fidelity == Fidelity::kFast;
      const ColorOp kind = op == Op::kSaturation ? ColorOp::kSaturation
                           : op == Op::kHue      ? (fast ? ColorOp::kFastHue : ColorOp::kHue)
                                                 : ColorOp::kJiggle;
      if (op >= Op::kJiggle) {  // pixel/color_fixed.h: the fixed point where the fast tier serves a sample
        run_every_index(ColorChainBody{src.view, expected.view, &jiggle});
      } else if (fast && op == Op::kHue) {
        run_every_index(FixedHueBody{src.view, expected.view, factor});
      } else {
        run_every_index(ColorBody{kind, src.view, expected.view, factor, &jiggle});
      }
      break;
    }
    case Op::kSelect: {
      Buffer<uint8_t> other(in, b, channels, h, w, true);
      other.fill(in);
      bool take[3];
      for (bool& t : take) t = in.ConsumeBool();
      if (!ran([&] { cpu::select_samples(take, src.view, other.view, dst.view, serial); }, dst)) return;
      run_every_index(SelectBody{take, src.view, other.view, expected.view});
      break;
    }
    case Op::kWarpAffine:
    case Op::kWarpPerspective: {
      const bool perspective = op == Op::kWarpPerspective;
      const int64_t n = in.ConsumeBool() ? 1 : b;
      std::vector<float> m = floats(in, n * (perspective ? 9 : 6), -3.0f, 3.0f);
      if (in.ConsumeBool()) std::fill(m.begin(), m.end(), 0.0f);  // singular
      const std::vector<float> fill = floats(in, channels, -1.0f, 2.0f);
      WarpParams p;
      p.matrices = m.data();
      p.count = n;
      p.mode = static_cast<Interp>(in.ConsumeIntegralInRange<int>(0, 1));
      p.padding = static_cast<Padding>(in.ConsumeIntegralInRange<int>(0, 3));
      p.align_corners = in.ConsumeBool();
      p.fill = Values{fill.data(), in.ConsumeBool() ? 1 : channels};
      auto call = [&] {
        perspective ? cpu::warp_perspective(src.view, dst.view, p, serial)
                    : cpu::warp_affine(src.view, dst.view, p, serial);
      };
      if (!ran(call, dst)) return;
      for (int64_t i = 0; i < b; ++i) {
        const WarpSetup setup = warp_setup(p, perspective, src.view, expected.view, i);
        run_every_index(WarpBody{src.view, expected.view, &setup, p.fill, i});
      }
      break;
    }
    case Op::kResize:
    case Op::kCropAndResize: {
      const Interp mode = static_cast<Interp>(in.ConsumeIntegralInRange<int>(0, 3));
      const bool align = in.ConsumeBool();
      const BlendOrder order = static_cast<BlendOrder>(in.ConsumeIntegralInRange<int>(0, 3));  // 3: kFast
      const CropBlendOrders orders{order, static_cast<BlendOrder>(in.ConsumeIntegralInRange<int>(0, 3))};
      const std::vector<float> boxes = floats(in, 8 * b, -4.0f, 80.0f);
      const bool crop = op == Op::kCropAndResize;
      auto call = [&] {
        crop ? cpu::crop_and_resize(src.view, dst.view, boxes.data(), mode, align, orders, serial)
             : cpu::resize(src.view, dst.view, mode, align, order, serial);
      };
      if (!ran(call, dst)) return;
      run_every_index(ResizeBody{src.view, expected.view, crop ? boxes.data() : nullptr, mode, align,
                                 crop ? orders : CropBlendOrders{order, order}});
      break;
    }
    case Op::kResizeAntialias: {
      // hostile kernels (0-9 taps, any values, 1 or B of them), modes and orders past the valid ones
      const int64_t tx = in.ConsumeIntegralInRange<int64_t>(0, 9), ty = in.ConsumeIntegralInRange<int64_t>(0, 9);
      const std::vector<float> wx = floats(in, counts * tx, -2.0f, 2.0f), wy = floats(in, counts * ty, -2.0f, 2.0f);
      const FilterKernel kx{wx.data(), counts, tx}, ky{wy.data(), counts, ty};
      const Interp mode = static_cast<Interp>(in.ConsumeIntegralInRange<int>(0, 4));
      const bool align = in.ConsumeBool();
      const BlendOrder order = static_cast<BlendOrder>(in.ConsumeIntegralInRange<int>(0, 4));
      if (!ran([&] { cpu::resize_antialias(src.view, dst.view, kx, ky, mode, align, order, serial); }, dst)) return;
      const ConstImage& s = src.view;
      std::vector<float> rows(static_cast<size_t>(s.numel())), blurred(rows.size());
      const FloatImage r = nchw(rows.data(), s.batch, s.channels, s.height, s.width);
      const FloatImage f = nchw(blurred.data(), s.batch, s.channels, s.height, s.width);
      run_every_index(FilterRowsBody{s, r, kx, ky, Border::kReflect});
      run_every_index(FilterColumnsFloatBody{r, f, ky, Border::kReflect});
      run_every_index(ResizeFloatBody{f, expected.view, mode, align, order});
      break;
    }
    case Op::kPad:
      if (!ran([&] { cpu::pad(src.view, dst.view, pad, serial); }, dst)) return;
      run_every_index(PadBody{src.view, expected.view, pad});
      break;
    case Op::kRot90:
      if (!ran([&] { cpu::rot90(src.view, dst.view, turns, serial); }, dst)) return;
      run_every_index(Rot90Body{src.view, expected.view, ((turns % 4) + 4) % 4});
      break;
    default: {
      const auto refusal_safe = [&](const auto& call) { return ran(call, dst); };
      const auto which = static_cast<fuzz::FilterCase>(static_cast<int>(op) - static_cast<int>(Op::kFilters));
      if (!fuzz::fuzz_filter_case(which, in, src, dst, expected, counts, refusal_safe)) return;
      break;
    }
  }
  if (src.bytes != src_before) die("an op changed its input");
  if (float_out) {
    if (!fdst.outside_untouched()) die("an op wrote outside its float output");
    if (!same_pixels(fdst.view, fexpected.view)) die("float output differs from the reference");
  } else if (checked_bytes) {
    if (!dst.outside_untouched()) die("an op wrote outside its output");
    if (!same_pixels(dst.view, expected.view)) die("output differs from the reference");
  }
}

}  // namespace
}  // namespace u8aug

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  // one of the compiled targets this CPU supports, so every SIMD path is fuzzed
  static const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  const int64_t target = targets[in.ConsumeIntegralInRange<size_t>(0, targets.size() - 1)];
  hwy::SetSupportedTargetsForTest(target);
  u8aug::fuzz_one(in);
  hwy::SetSupportedTargetsForTest(0);
  return 0;
}
