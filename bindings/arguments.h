// The torch ops' arguments besides the image: parameter tensors, ColorJiggle's order, geometry
// names and sizes, and the bilinear kernel torch would pick (bindings/torch_rules.h). Every parser
// checks its argument and says what was wrong, naming the op and the argument.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "bindings/pipeline_steps.h"
#include "bindings/tensor_image.h"
#include "bindings/torch_rules.h"
#include "u8aug/pixel/filter.h"
#include "u8aug/pixel/index_maps.h"
#include "u8aug/pixel/resize.h"
#include "u8aug/pixel/warp.h"

namespace u8aug {
namespace bindings {

enum class Per { kSample, kChannel };

// A parameter tensor: float32, 0-D or 1-D with 1 value or one per sample (B) or per channel (C),
// on the image's device. Its values are checked by the C++ core where the host can read them (CPU).
inline Values values_of(const char* op, const char* name, const Tensor& t, const Tensor& img, Per per = Per::kSample) {
  check(t.defined(), "u8aug.", op, ": ", name, " is an undefined tensor");
  check(t.scalar_type() == ScalarType::Float, "u8aug.", op, ": expected ", name, " of dtype torch.float32, got ",
        torch::headeronly::toString(t.scalar_type()));
  const bool per_sample = per == Per::kSample;
  check(t.dim() <= 1, "u8aug.", op, ": expected ", name, " to be 0-D or 1-D (one value per ",
        per_sample ? "sample" : "channel", "), got shape ", Shape{t.sizes()});
  const int64_t n = per_sample ? batch_of(img) : channels_of(img);
  check(t.numel() == 1 || t.numel() == n, "u8aug.", op, ": ", name, " must hold 1 or ", per_sample ? "B" : "C", " = ",
        n, " values, got ", t.numel());
  check(t.device() == img.device(), "u8aug.", op, ": ", name, " is on ", device_name(t), " but img is on ",
        device_name(img));
  check(t.numel() == 1 || t.stride(0) == 1, "u8aug.", op, ": ", name, " must be contiguous");
  return Values{static_cast<const float*>(t.data_ptr()), t.numel()};
}

// ColorJiggle's step order: int64, 1-D, at most 4 entries, on the image's device.
inline const int64_t* order_of(const char* op, const Tensor& order, const Tensor& img) {
  check(order.scalar_type() == ScalarType::Long && order.dim() == 1 && order.numel() <= 4, "u8aug.", op,
        ": expected order to be a 1-D int64 tensor of at most 4 step indices, got ",
        torch::headeronly::toString(order.scalar_type()), " of shape ", Shape{order.sizes()});
  check(order.device() == img.device(), "u8aug.", op, ": order is on ", device_name(order), " but img is on ",
        device_name(img));
  check(order.numel() <= 1 || order.stride(0) == 1, "u8aug.", op, ": order must be contiguous");
  return order.numel() ? static_cast<const int64_t*>(order.data_ptr()) : nullptr;
}

// Geometry arguments: interpolation and padding names as kornia and grid_sample spell them, and
// an output size of two positive ints.
// interpolate: the resizes, which also take F.interpolate's "nearest-exact" (grid_sample has none).
inline Interp interp_of(const char* op, std::string_view mode, bool interpolate = false) {
  if (mode == "bilinear") return Interp::kBilinear;
  if (mode == "nearest") return Interp::kNearest;
  if (mode == "bicubic") return Interp::kBicubic;
  if (interpolate && mode == "nearest-exact") return Interp::kNearestExact;
  if (interpolate)
    fail("u8aug.", op, ": mode must be 'bilinear', 'bicubic', 'nearest' or 'nearest-exact', got '", mode, "'");
  fail("u8aug.", op, ": mode must be 'bilinear', 'bicubic' or 'nearest', got '", mode, "'");
}
// The order torch sums a bicubic row's taps in for this padding (pixel/sample.h, cubic_across_order).
inline CubicSum cubic_across_of(Padding padding) {
  return cubic_across_order(padding, torch_rules().bicubic_reflection_chains.load());
}
inline Padding padding_of(const char* op, std::string_view mode) {
  if (mode == "zeros") return Padding::kZeros;
  if (mode == "border") return Padding::kBorder;
  if (mode == "reflection") return Padding::kReflection;
  if (mode == "fill") return Padding::kFill;
  fail("u8aug.", op, ": padding_mode must be 'zeros', 'border', 'reflection' or 'fill', got '", mode, "'");
}
inline PadMode pad_mode_of(const char* op, std::string_view mode) {
  if (mode == "constant") return PadMode::kConstant;
  if (mode == "reflect") return PadMode::kReflect;
  if (mode == "replicate") return PadMode::kReplicate;
  fail("u8aug.", op, ": mode must be 'constant', 'reflect' or 'replicate', got '", mode, "'");
}
inline Border border_of(const char* op, std::string_view border) {
  if (border == "constant") return Border::kConstant;
  if (border == "reflect") return Border::kReflect;
  if (border == "replicate") return Border::kReplicate;
  if (border == "circular") return Border::kCircular;
  fail("u8aug.", op, ": border_type must be 'constant', 'reflect', 'replicate' or 'circular', got '", border, "'");
}
// A separable filter's kernel: float32 (1, K) or (B, K), contiguous, on the image's device.
inline FilterKernel filter_kernel_of(const char* op, const char* name, const Tensor& k, const Tensor& img) {
  check(k.defined() && k.scalar_type() == ScalarType::Float && k.dim() == 2 &&
            (k.size(0) == 1 || k.size(0) == batch_of(img)),
        "u8aug.", op, ": expected ", name, " to be a float32 tensor of shape (1, K) or (B, K) with B = ", batch_of(img),
        ", got ", k.defined() ? torch::headeronly::toString(k.scalar_type()) : "undefined", " of shape ",
        Shape{k.sizes()});
  check(k.device() == img.device(), "u8aug.", op, ": ", name, " is on ", device_name(k), " but img is on ",
        device_name(img));
  check(k.size(1) == 1 || k.stride(1) == 1, "u8aug.", op, ": ", name, " must be contiguous");
  check(k.size(0) == 1 || k.stride(0) == k.size(1), "u8aug.", op, ": ", name, " must be contiguous");
  return FilterKernel{static_cast<const float*>(k.data_ptr()), k.size(0), k.size(1)};
}

// A 2-D filter's kernel: float32 (1, kh, kw) or (B, kh, kw), contiguous, on the image's device.
inline FilterKernel2d filter_kernel2d_of(const char* op, const Tensor& k, const Tensor& img) {
  check(k.defined() && k.scalar_type() == ScalarType::Float && k.dim() == 3 &&
            (k.size(0) == 1 || k.size(0) == batch_of(img)),
        "u8aug.", op,
        ": expected kernel to be a float32 tensor of shape (1, kh, kw) or (B, kh, kw) with B = ", batch_of(img),
        ", got ", k.defined() ? torch::headeronly::toString(k.scalar_type()) : "undefined", " of shape ",
        Shape{k.sizes()});
  check(k.device() == img.device(), "u8aug.", op, ": kernel is on ", device_name(k), " but img is on ",
        device_name(img));
  const std::vector<int64_t> sizes(k.sizes().begin(), k.sizes().end()), strides(k.strides().begin(), k.strides().end());
  check(has_strides(sizes, strides, {sizes[1] * sizes[2], sizes[2], 1}), "u8aug.", op, ": kernel must be contiguous");
  return FilterKernel2d{static_cast<const float*>(k.data_ptr()), k.size(0), k.size(1), k.size(2)};
}

// The fidelity tier of the ops that have a fast one (FIDELITY.md).
inline Fidelity fidelity_of(const char* op, std::string_view fidelity) {
  if (fidelity == "exact") return Fidelity::kExact;
  if (fidelity == "fast") return Fidelity::kFast;
  fail("u8aug.", op, ": fidelity must be 'exact' or 'fast', got '", fidelity, "'");
}
inline std::vector<int64_t> size_pair(const char* op, const char* name, IntList size) {
  check(size.size() == 2, "u8aug.", op, ": expected ", name, " = (height, width), got ", size.size(), " values");
  const int64_t h = size[0], w = size[1];
  check(h >= 1 && w >= 1, "u8aug.", op, ": ", name, " must be positive, got (", h, ", ", w, ")");
  return {h, w};
}

// Whether torch sees img (as kornia batches a 3-D image: unsqueeze(0)), or with one_sample one
// sample of it (img[i:i+1], as kornia slices crops), as channels_last-contiguous: the 4-D sizes
// and strides torch would test with is_contiguous(memory_format=torch.channels_last).
inline bool channels_last_sample(const Tensor& img, bool one_sample) {
  std::vector<int64_t> sizes(img.sizes().begin(), img.sizes().end());
  std::vector<int64_t> strides(img.strides().begin(), img.strides().end());
  if (img.dim() == 3) {
    sizes.insert(sizes.begin(), 1);
    strides.insert(strides.begin(), img.numel());
  } else if (one_sample) {
    sizes[0] = 1;
  }
  return has_strides(sizes, strides, dense_strides(sizes, true));
}

// Which arithmetic torch's CPU bilinear interpolate uses for this image and output size
// (pixel/resize.h): the oracle runs kornia eagerly on the CPU, so the CUDA kernels follow the same
// choice, the running torch's CPU thread count and version rules included.
inline BlendOrder blend_order_of(const Tensor& img, const std::vector<int64_t>& hw, bool channels_last_input) {
  return torch_blend_order(channels_of(img), hw[0], hw[1], channels_last_input,
                           static_cast<int>(torch::stable::get_num_threads()),
                           torch_rules().generic_bilinear_fuses_index.load());
}

}  // namespace bindings
}  // namespace u8aug
