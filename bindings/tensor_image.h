// Tensor <-> image view, the tensor-level checks, and the output-layout rule of every op.
//
// Only LibTorch's stable ABI is used here (torch/csrc/stable and its C shim, built for
// TORCH_TARGET_VERSION, see cmake/torch_module.cmake): the module built against the oldest
// supported torch loads and runs unchanged on every newer one.
#pragma once

#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>
#include <torch/headeronly/core/ScalarType.h>

#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bindings/torch_rules.h"
#include "u8aug/image.h"
#include "u8aug/pixel/index_maps.h"
#include "u8aug/pixel/resize.h"
#include "u8aug/pixel/warp.h"

namespace u8aug {
namespace bindings {

using torch::stable::Tensor;
using torch::headeronly::ScalarType;
using IntList = torch::headeronly::HeaderOnlyArrayRef<int64_t>;

// Torch's printing of sizes and devices, so messages read as they did with ATen: [2, 3], cuda:0.
struct Shape {
  IntList sizes;
};
inline std::ostream& operator<<(std::ostream& os, Shape s) {
  os << '[';
  for (size_t i = 0; i < s.sizes.size(); ++i) os << (i ? ", " : "") << s.sizes[i];
  return os << ']';
}
inline std::string device_name(const Tensor& t) {
  if (!t.is_cuda()) return "cpu";
  return "cuda:" + std::to_string(static_cast<int>(t.get_device_index()));
}

// The error every check raises: a std::runtime_error, which torch turns into a Python RuntimeError
// with this text (no file and line prefix, unlike STD_TORCH_CHECK).
template <class... Args>
[[noreturn]] void fail(const Args&... args) {
  std::ostringstream message;
  (message << ... << args);
  throw std::runtime_error(message.str());
}
template <class... Args>
void check(bool ok, const Args&... args) {
  if (!ok) fail(args...);
}

// A C-shim call that must succeed (its error code is torch's own failure).
inline void shim(AOTITorchError code, const char* what) {
  check(code == AOTI_TORCH_SUCCESS, "u8aug: torch failed to ", what);
}

// img: uint8, (C, H, W) or (B, C, H, W), every dimension >= 1.
inline void check_image(const char* op, const Tensor& img) {
  check(img.defined(), "u8aug.", op, ": img is an undefined tensor");
  check(img.scalar_type() == ScalarType::Byte, "u8aug.", op, ": expected img of dtype torch.uint8, got ",
        torch::headeronly::toString(img.scalar_type()));
  check(img.dim() == 3 || img.dim() == 4, "u8aug.", op,
        ": expected img of shape (C, H, W) or (B, C, H, W), got a ", img.dim(), "-D tensor of shape ",
        Shape{img.sizes()});
  for (int64_t s : img.sizes()) {
    check(s >= 1, "u8aug.", op, ": every dimension of img must be >= 1, got shape ", Shape{img.sizes()});
  }
}

// Whether a tensor of these sizes (3-D or 4-D) has exactly these dense strides, dims of size 1
// being free (torch's own convention for contiguity, channels_last included).
inline bool has_strides(IntList sizes, IntList strides, const std::vector<int64_t>& dense) {
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] != 1 && strides[i] != dense[i]) return false;
  }
  return true;
}

// Dense strides for (.., C, H, W) sizes, planar or interleaved (channels_last).
inline std::vector<int64_t> dense_strides(IntList sizes, bool interleaved) {
  const size_t n = sizes.size();
  const int64_t c = sizes[n - 3], h = sizes[n - 2], w = sizes[n - 1];
  std::vector<int64_t> s = interleaved ? std::vector<int64_t>{1, w * c, c} : std::vector<int64_t>{h * w, w, 1};
  if (n == 4) s.insert(s.begin(), c * h * w);
  return s;
}

// The output-layout rule (mirrored by python/u8aug/_fake.py): an output is channels_last
// (interleaved) when its input is densely channels_last and not also contiguous; otherwise it is
// contiguous. Arbitrary strides never leak into outputs.
inline bool output_interleaved(const Tensor& img) {
  return !has_strides(img.sizes(), img.strides(), dense_strides(img.sizes(), false)) &&
         has_strides(img.sizes(), img.strides(), dense_strides(img.sizes(), true));
}

inline int32_t shim_dtype(ScalarType dtype) {
  switch (dtype) {
    case ScalarType::Byte: return aoti_torch_dtype_uint8();
    case ScalarType::Float: return aoti_torch_dtype_float32();
    default: fail("u8aug: no output of dtype ", torch::headeronly::toString(dtype));
  }
}

// A new tensor on t's device with these sizes and strides.
inline Tensor empty_strided_like(const Tensor& t, IntList sizes, const std::vector<int64_t>& strides,
                                 ScalarType dtype) {
  AtenTensorHandle handle = nullptr;
  const int32_t device_type = t.is_cuda() ? aoti_torch_device_type_cuda() : aoti_torch_device_type_cpu();
  const int32_t device_index = t.is_cuda() ? t.get_device_index() : 0;
  shim(aoti_torch_empty_strided(static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), shim_dtype(dtype),
                                device_type, device_index, &handle),
       "allocate an output");
  return Tensor(handle);
}

inline Tensor empty_output(const Tensor& img, IntList sizes, ScalarType dtype = ScalarType::Byte) {
  return empty_strided_like(img, sizes, dense_strides(sizes, output_interleaved(img)), dtype);
}

// A contiguous float32 tensor of these sizes on t's device.
inline Tensor empty_float(const Tensor& t, IntList sizes) {
  std::vector<int64_t> strides(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;) strides[i - 1] = strides[i] * sizes[i];
  return empty_strided_like(t, sizes, strides, ScalarType::Float);
}

inline int64_t batch_of(const Tensor& img) { return img.dim() == 4 ? img.size(0) : 1; }
inline int64_t channels_of(const Tensor& img) { return img.size(img.dim() - 3); }

enum class Per { kSample, kChannel };

// A parameter tensor: float32, 0-D or 1-D with 1 value or one per sample (B) or per channel (C),
// on the image's device. Its values are checked by the C++ core where the host can read them (CPU).
inline Values values_of(const char* op, const char* name, const Tensor& t, const Tensor& img,
                        Per per = Per::kSample) {
  check(t.defined(), "u8aug.", op, ": ", name, " is an undefined tensor");
  check(t.scalar_type() == ScalarType::Float, "u8aug.", op, ": expected ", name, " of dtype torch.float32, got ",
        torch::headeronly::toString(t.scalar_type()));
  const bool per_sample = per == Per::kSample;
  check(t.dim() <= 1, "u8aug.", op, ": expected ", name, " to be 0-D or 1-D (one value per ",
        per_sample ? "sample" : "channel", "), got shape ", Shape{t.sizes()});
  const int64_t n = per_sample ? batch_of(img) : channels_of(img);
  check(t.numel() == 1 || t.numel() == n, "u8aug.", op, ": ", name, " must hold 1 or ", per_sample ? "B" : "C",
        " = ", n, " values, got ", t.numel());
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
inline Interp interp_of(const char* op, std::string_view mode) {
  if (mode == "bilinear") return Interp::kBilinear;
  if (mode == "nearest") return Interp::kNearest;
  fail("u8aug.", op, ": mode must be 'bilinear' or 'nearest', got '", mode, "'");
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

// Runs a call into the C++ core. Its std::invalid_argument already names the op; torch turns it
// into a RuntimeError like the checks above.
template <class F>
void call_core(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(e.what());
  }
}

// (C, H, W) is a batch of one.
template <class T>
ImageView<T> view_of(const Tensor& t) {
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

inline ConstImage const_view(const Tensor& t) { return view_of<const uint8_t>(t); }
inline Image mutable_view(const Tensor& t) { return view_of<uint8_t>(t); }

}  // namespace bindings
}  // namespace u8aug
