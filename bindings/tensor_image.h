// Tensor <-> image view, the tensor-level checks, and the output-layout rule of every op.
#pragma once

#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty_strided.h>
#include <ATen/ops/zeros.h>
#include <c10/core/SymIntArrayRef.h>
#include <c10/util/Exception.h>
#include <c10/util/string_view.h>

#include <stdexcept>
#include <vector>

#include "u8aug/image.h"
#include "u8aug/pixel/layout.h"
#include "u8aug/pixel/resize.h"
#include "u8aug/pixel/warp.h"

namespace u8aug {
namespace bindings {

// img: uint8, (C, H, W) or (B, C, H, W), every dimension >= 1.
inline void check_image(const char* op, const at::Tensor& img) {
  TORCH_CHECK(img.defined(), "u8aug.", op, ": img is an undefined tensor");
  TORCH_CHECK(img.scalar_type() == at::kByte, "u8aug.", op,
              ": expected img of dtype torch.uint8, got ", img.scalar_type());
  TORCH_CHECK(img.dim() == 3 || img.dim() == 4, "u8aug.", op,
              ": expected img of shape (C, H, W) or (B, C, H, W), got a ", img.dim(),
              "-D tensor of shape ", img.sizes());
  for (int64_t s : img.sizes()) {
    TORCH_CHECK(s >= 1, "u8aug.", op, ": every dimension of img must be >= 1, got shape ",
                img.sizes());
  }
}

// Whether a tensor of these sizes (3-D or 4-D) has exactly these dense strides, dims of size 1
// being free (torch's own convention for contiguity).
inline bool has_strides(at::IntArrayRef sizes, at::IntArrayRef strides,
                        const std::vector<int64_t>& dense) {
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] != 1 && strides[i] != dense[i]) return false;
  }
  return true;
}

// Dense strides for (.., C, H, W) sizes, planar or interleaved (channels_last).
inline std::vector<int64_t> dense_strides(at::IntArrayRef sizes, bool interleaved) {
  const size_t n = sizes.size();
  const int64_t c = sizes[n - 3], h = sizes[n - 2], w = sizes[n - 1];
  std::vector<int64_t> s = interleaved ? std::vector<int64_t>{1, w * c, c}
                                       : std::vector<int64_t>{h * w, w, 1};
  if (n == 4) s.insert(s.begin(), c * h * w);
  return s;
}

// The output-layout rule (mirrored by python/u8aug/_fake.py): an output is channels_last
// (interleaved) when its input is densely channels_last and not also contiguous; otherwise it is
// contiguous. Arbitrary strides never leak into outputs.
inline bool output_interleaved(const at::Tensor& img) {
  return !has_strides(img.sizes(), img.strides(), dense_strides(img.sizes(), false)) &&
         has_strides(img.sizes(), img.strides(), dense_strides(img.sizes(), true));
}

inline at::Tensor empty_output(const at::Tensor& img, at::IntArrayRef sizes,
                               at::ScalarType dtype = at::kByte) {
  return at::empty_strided(sizes, dense_strides(sizes, output_interleaved(img)),
                           img.options().dtype(dtype));
}

inline int64_t batch_of(const at::Tensor& img) { return img.dim() == 4 ? img.size(0) : 1; }
inline int64_t channels_of(const at::Tensor& img) { return img.size(img.dim() - 3); }

enum class Per { kSample, kChannel };

// A parameter tensor: float32, 0-D or 1-D with 1 value or one per sample (B) or per channel (C),
// on the image's device. Its values are checked by the C++ core where the host can read them (CPU).
inline Values values_of(const char* op, const char* name, const at::Tensor& t,
                        const at::Tensor& img, Per per = Per::kSample) {
  TORCH_CHECK(t.defined(), "u8aug.", op, ": ", name, " is an undefined tensor");
  TORCH_CHECK(t.scalar_type() == at::kFloat, "u8aug.", op, ": expected ", name,
              " of dtype torch.float32, got ", t.scalar_type());
  const bool per_sample = per == Per::kSample;
  TORCH_CHECK(t.dim() <= 1, "u8aug.", op, ": expected ", name, " to be 0-D or 1-D (one value per ",
              per_sample ? "sample" : "channel", "), got shape ", t.sizes());
  const int64_t n = per_sample ? batch_of(img) : channels_of(img);
  TORCH_CHECK(t.numel() == 1 || t.numel() == n, "u8aug.", op, ": ", name, " must hold 1 or ",
              per_sample ? "B" : "C", " = ", n, " values, got ", t.numel());
  TORCH_CHECK(t.device() == img.device(), "u8aug.", op, ": ", name, " is on ", t.device(),
              " but img is on ", img.device());
  TORCH_CHECK(t.numel() == 1 || t.stride(0) == 1, "u8aug.", op, ": ", name,
              " must be contiguous");
  return Values{t.data_ptr<float>(), t.numel()};
}

// ColorJiggle's step order: int64, 1-D, at most 4 entries, on the image's device.
inline const int64_t* order_of(const char* op, const at::Tensor& order, const at::Tensor& img) {
  TORCH_CHECK(order.scalar_type() == at::kLong && order.dim() == 1 && order.numel() <= 4, "u8aug.", op,
              ": expected order to be a 1-D int64 tensor of at most 4 step indices, got ",
              order.scalar_type(), " of shape ", order.sizes());
  TORCH_CHECK(order.device() == img.device(), "u8aug.", op, ": order is on ", order.device(),
              " but img is on ", img.device());
  TORCH_CHECK(order.numel() <= 1 || order.stride(0) == 1, "u8aug.", op, ": order must be contiguous");
  return order.numel() ? order.data_ptr<int64_t>() : nullptr;
}

// Geometry arguments: interpolation and padding names as kornia and grid_sample spell them, and
// an output size of two positive ints.
inline Interp interp_of(const char* op, c10::string_view mode) {
  if (mode == "bilinear") return Interp::kBilinear;
  if (mode == "nearest") return Interp::kNearest;
  TORCH_CHECK(false, "u8aug.", op, ": mode must be 'bilinear' or 'nearest', got '", std::string(mode), "'");
}
inline Padding padding_of(const char* op, c10::string_view mode) {
  if (mode == "zeros") return Padding::kZeros;
  if (mode == "border") return Padding::kBorder;
  if (mode == "reflection") return Padding::kReflection;
  if (mode == "fill") return Padding::kFill;
  TORCH_CHECK(false, "u8aug.", op, ": padding_mode must be 'zeros', 'border', 'reflection' or 'fill', got '",
              std::string(mode), "'");
}
inline PadMode pad_mode_of(const char* op, c10::string_view mode) {
  if (mode == "constant") return PadMode::kConstant;
  if (mode == "reflect") return PadMode::kReflect;
  if (mode == "replicate") return PadMode::kReplicate;
  TORCH_CHECK(false, "u8aug.", op, ": mode must be 'constant', 'reflect' or 'replicate', got '",
              std::string(mode), "'");
}
inline std::vector<int64_t> size_pair(const char* op, const char* name, c10::SymIntArrayRef size) {
  TORCH_CHECK(size.size() == 2, "u8aug.", op, ": expected ", name, " = (height, width), got ", size.size(),
              " values");
  const int64_t h = size[0].guard_int(__FILE__, __LINE__), w = size[1].guard_int(__FILE__, __LINE__);
  TORCH_CHECK(h >= 1 && w >= 1, "u8aug.", op, ": ", name, " must be positive, got (", h, ", ", w, ")");
  return {h, w};
}

// Which summation order torch's CPU bilinear interpolate uses for this image and output size
// (pixel/resize.h): the oracle runs kornia eagerly on the CPU, so the CUDA kernels follow the same
// choice, torch's CPU thread count included.
// Whether torch sees img (as kornia batches a 3-D image: unsqueeze(0)), or with one_sample one
// sample of it (img[i:i+1], as kornia slices crops), as channels_last-contiguous.
inline bool channels_last_sample(const at::Tensor& img, bool one_sample) {
  if (img.dim() == 3) return img.unsqueeze(0).is_contiguous(at::MemoryFormat::ChannelsLast);
  if (one_sample && img.size(0) > 0) return img.narrow(0, 0, 1).is_contiguous(at::MemoryFormat::ChannelsLast);
  return img.is_contiguous(at::MemoryFormat::ChannelsLast);
}

inline BlendOrder blend_order_of(const at::Tensor& img, const std::vector<int64_t>& hw, bool channels_last_input) {
  return torch_blend_order(channels_of(img), hw[0], hw[1], channels_last_input, at::get_num_threads());
}

// Runs a call into the C++ core, turning its std::invalid_argument into torch's error type.
template <class F>
void call_core(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    TORCH_CHECK(false, e.what());
  }
}

// (C, H, W) is a batch of one.
template <class T>
ImageView<T> view_of(const at::Tensor& t) {
  const bool batched = t.dim() == 4;
  const int64_t k = batched ? 1 : 0;
  ImageView<T> v;
  v.data = static_cast<T*>(t.data_ptr());
  v.batch = batched ? t.size(0) : 1;
  v.channels = t.size(k);
  v.height = t.size(k + 1);
  v.width = t.size(k + 2);
  v.stride_b = batched ? t.stride(0) : t.numel();
  v.stride_c = t.stride(k);
  v.stride_h = t.stride(k + 1);
  v.stride_w = t.stride(k + 2);
  return v;
}

inline ConstImage const_view(const at::Tensor& t) { return view_of<const uint8_t>(t); }
inline Image mutable_view(at::Tensor& t) { return view_of<uint8_t>(t); }
inline FloatImage float_view(at::Tensor& t) { return view_of<float>(t); }

}  // namespace bindings
}  // namespace u8aug
