// The pointwise ops' names and parameters, shared by the CPU and CUDA entry points. Host only.
#pragma once

#include <limits>

#include "u8aug/detail/check.h"
#include "u8aug/pixel/point.h"

namespace u8aug {
namespace detail {

struct PointParamSpec {
  const char* name = nullptr;  // nullptr: the op has no such parameter
  float lo = -std::numeric_limits<float>::max();
  float hi = std::numeric_limits<float>::max();
  bool integral = false;
};

struct PointOpSpec {
  const char* name;
  PointOp op;
  PointParamSpec first, second;
};

constexpr float kHuge = std::numeric_limits<float>::max();

// Ranges are kornia's own checks (it asserts contrast, gamma and gain >= 0 and additions in
// [-0.5, 0.5]); posterize's bits must be a whole number of bits.
constexpr PointOpSpec kBrightness{"adjust_brightness", PointOp::kBrightness, {"factor"}, {}};
constexpr PointOpSpec kBrightnessMul{"adjust_brightness_accumulative", PointOp::kBrightnessMul, {"factor"}, {}};
constexpr PointOpSpec kContrast{"adjust_contrast", PointOp::kContrast, {"factor", 0.0f, kHuge}, {}};
constexpr PointOpSpec kContrastMean{
    "adjust_contrast_with_mean", PointOp::kContrastMean, {"factor", 0.0f, kHuge}, {"mean"}};
constexpr PointOpSpec kGamma{"adjust_gamma", PointOp::kGamma, {"gamma", 0.0f, kHuge}, {"gain", 0.0f, kHuge}};
constexpr PointOpSpec kSolarize{"solarize", PointOp::kSolarize, {"thresholds"}, {"additions", -0.5f, 0.5f}};
constexpr PointOpSpec kPosterize{"posterize", PointOp::kPosterize, {"bits", 0.0f, 8.0f, true}, {}};
constexpr PointOpSpec kInvert{"invert", PointOp::kInvert, {}, {}};

// Counts (1 or B) of the parameters the op has; an absent parameter must be empty.
inline void check_point_counts(const PointOpSpec& spec, const ConstImage& src, const Samples& first,
                               const Samples& second) {
  if (spec.first.name) check_samples(spec.name, spec.first.name, first, src.batch);
  if (spec.second.name) check_samples(spec.name, spec.second.name, second, src.batch);
}

// Values, where the host can read them.
inline void check_point_values(const PointOpSpec& spec, const Samples& first, const Samples& second) {
  for (const auto* p : {&spec.first, &spec.second}) {
    if (!p->name) continue;
    check_sample_values(spec.name, p->name, p == &spec.first ? first : second, p->lo, p->hi, p->integral);
  }
}

}  // namespace detail
}  // namespace u8aug
