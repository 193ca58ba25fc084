// Tensor <-> image view, the image checks and the output-layout rule of every op, and the errors
// every check raises. The other arguments are parsed in bindings/arguments.h.
//
// Only LibTorch's stable ABI is used here (torch/csrc/stable and its C shim, built for
// TORCH_TARGET_VERSION, see cmake/torch_module.cmake): the module built against the oldest
// supported torch loads and runs unchanged on every newer one.
#pragma once

#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>
#include <torch/headeronly/core/ScalarType.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bindings/output_cache.h"
#include "u8aug/image.h"

namespace u8aug {
namespace bindings {

using torch::headeronly::ScalarType;
using torch::stable::Tensor;
using IntList = torch::headeronly::HeaderOnlyArrayRef<int64_t>;

// A few sizes or strides without the heap (an image is (C, H, W) or (B, C, H, W), a parameter at
// most 3-D): the pipeline's plan makes a dozen a call, each a vector's malloc and free before.
class Dims {
 public:
  static constexpr size_t kMost = 6;
  Dims() = default;
  Dims(IntList values) : n_(values.size()) {  // NOLINT(google-explicit-constructor): an IntList's copy
    if (n_ > kMost) throw std::runtime_error("u8aug: internal error: more than 6 dimensions");
    std::copy(values.begin(), values.end(), v_.begin());
  }
  Dims(std::initializer_list<int64_t> values) : Dims(IntList(values.begin(), values.size())) {}
  size_t size() const { return n_; }
  int64_t& operator[](size_t i) { return v_[i]; }
  int64_t operator[](size_t i) const { return v_[i]; }
  int64_t back() const { return v_[n_ - 1]; }
  const int64_t* data() const { return v_.data(); }
  const int64_t* begin() const { return v_.data(); }
  const int64_t* end() const { return v_.data() + n_; }
  operator IntList() const { return IntList(v_.data(), n_); }  // NOLINT(google-explicit-constructor)
  // these dims with `first` put in front
  Dims prepended(int64_t first) const {
    if (n_ == kMost) throw std::runtime_error("u8aug: internal error: more than 6 dimensions");
    Dims out;
    out.n_ = n_ + 1;
    out.v_[0] = first;
    std::copy(begin(), end(), out.v_.begin() + 1);
    return out;
  }

 private:
  std::array<int64_t, kMost> v_{};
  size_t n_ = 0;
};

// Torch's printing of sizes and devices, so messages read as they did with ATen: [2, 3], cuda:0.
struct Shape {
  IntList sizes;
};
inline std::ostream& operator<<(std::ostream& os, Shape s) {
  os << '[';
  for (size_t i = 0; i < s.sizes.size(); ++i) os << (i ? ", " : "") << s.sizes[i];
  return os << ']';
}
// A tensor's device as torch prints it, put in words only when a failed check prints it: a
// check's arguments are made on every call, passed or not.
struct DeviceName {
  int kind;  // 0 the CPU, 1 CUDA, 2 another
  int index;
};
inline std::ostream& operator<<(std::ostream& os, const DeviceName& d) {
  if (d.kind == 1) return os << "cuda:" << d.index;
  return os << (d.kind == 0 ? "cpu" : "a device other than the CPU and CUDA");
}
inline DeviceName device_name(const Tensor& t) {
  if (t.is_cuda()) return DeviceName{1, static_cast<int>(t.get_device_index())};
  return DeviceName{t.is_cpu() ? 0 : 2, 0};
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

// An image argument (`name`): uint8, (C, H, W) or (B, C, H, W), every dimension >= 1.
inline void check_image(const char* op, const Tensor& img, const char* name = "img") {
  check(img.defined(), "u8aug.", op, ": ", name, " is an undefined tensor");
  check(img.scalar_type() == ScalarType::Byte, "u8aug.", op, ": expected ", name, " of dtype torch.uint8, got ",
        torch::headeronly::toString(img.scalar_type()));
  check(img.dim() == 3 || img.dim() == 4, "u8aug.", op, ": expected ", name,
        " of shape (C, H, W) or (B, C, H, W), got a ", img.dim(), "-D tensor of shape ", Shape{img.sizes()});
  for (int64_t s : img.sizes()) {
    check(s >= 1, "u8aug.", op, ": every dimension of ", name, " must be >= 1, got shape ", Shape{img.sizes()});
  }
}

// Whether a tensor of these sizes (3-D or 4-D) has exactly these dense strides, dims of size 1
// being free (torch's own convention for contiguity, channels_last included).
inline bool has_strides(IntList sizes, IntList strides, IntList dense) {
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] != 1 && strides[i] != dense[i]) return false;
  }
  return true;
}

// Dense strides for (.., C, H, W) sizes, planar or interleaved (channels_last).
inline Dims dense_strides(IntList sizes, bool interleaved) {
  const size_t n = sizes.size();
  const int64_t c = sizes[n - 3], h = sizes[n - 2], w = sizes[n - 1];
  const Dims s = interleaved ? Dims{1, w * c, c} : Dims{h * w, w, 1};
  return n == 4 ? s.prepended(c * h * w) : s;
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
    case ScalarType::Long: return aoti_torch_dtype_int64();
    case ScalarType::Int: return aoti_torch_dtype_int32();
    case ScalarType::Bool: return aoti_torch_dtype_bool();
    default: fail("u8aug: no output of dtype ", torch::headeronly::toString(dtype));
  }
}

inline int64_t element_bytes(ScalarType dtype) {
  return dtype == ScalarType::Float || dtype == ScalarType::Int ? 4 : dtype == ScalarType::Long ? 8 : 1;
}

// The bytes a tensor of these sizes and (non-negative) strides spans.
inline size_t storage_bytes(IntList sizes, IntList strides, ScalarType dtype) {
  int64_t last = 0;
  for (size_t i = 0; i < sizes.size(); ++i) last += (sizes[i] - 1) * strides[i];
  return static_cast<size_t>(last + 1) * element_bytes(dtype);
}

// A new tensor of op's on t's device with these sizes and strides; a large CPU one reuses a freed
// output's memory (bindings/output_cache.h). An output too large to address
// (more than 2^62 bytes: a huge dsize or padding) is refused before torch is asked; one torch
// cannot allocate fails naming the op, the shape and the size.
inline Tensor empty_strided_like(const char* op, const Tensor& t, IntList sizes, IntList strides, ScalarType dtype) {
  int64_t bytes = element_bytes(dtype);
  for (int64_t s : sizes) {
    check(!__builtin_mul_overflow(bytes, s, &bytes) && bytes <= (int64_t{1} << 62), "u8aug.", op,
          ": the output of shape ", Shape{sizes}, " is too large to address");
  }
  AtenTensorHandle handle = nullptr;
  if (!t.is_cuda() && static_cast<size_t>(bytes) >= kCachedOutputMinBytes) {
    if (void* data = take_output_buffer(storage_bytes(sizes, strides, dtype))) {
      const AOTITorchError code =
          torch_from_blob(data, static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), 0, shim_dtype(dtype),
                          aoti_torch_device_type_cpu(), -1, &handle, aoti_torch_layout_strided(), nullptr, 0,
                          give_back_output_buffer, nullptr);
      if (code == AOTI_TORCH_SUCCESS) return Tensor(handle);
      give_back_output_buffer(data, nullptr);
    }
  }
  const int32_t device_type = t.is_cuda() ? aoti_torch_device_type_cuda() : aoti_torch_device_type_cpu();
  const int32_t device_index = t.is_cuda() ? t.get_device_index() : 0;
  const AOTITorchError code = aoti_torch_empty_strided(static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(),
                                                       shim_dtype(dtype), device_type, device_index, &handle);
  check(code == AOTI_TORCH_SUCCESS, "u8aug.", op, ": could not allocate the output of shape ", Shape{sizes}, " (",
        bytes, " bytes) on ", device_name(t));
  return Tensor(handle);
}

inline Tensor empty_output(const char* op, const Tensor& img, IntList sizes, ScalarType dtype = ScalarType::Byte) {
  return empty_strided_like(op, img, sizes, dense_strides(sizes, output_interleaved(img)), dtype);
}

// t itself where it is contiguous: torch::stable::contiguous asks torch's dispatcher even then
// (about 1k instructions a tensor, several a pipeline call).
inline Tensor as_contiguous(const Tensor& t) { return t.is_contiguous() ? t : torch::stable::contiguous(t); }

// A contiguous tensor of these sizes on t's device.
inline Tensor empty_contiguous(const char* op, const Tensor& t, IntList sizes, ScalarType dtype) {
  Dims strides = sizes;
  int64_t step = 1;
  for (size_t i = sizes.size(); i-- > 0;) strides[i] = step, step *= sizes[i];
  return empty_strided_like(op, t, sizes, strides, dtype);
}
inline Tensor empty_float(const char* op, const Tensor& t, IntList sizes) {
  return empty_contiguous(op, t, sizes, ScalarType::Float);
}

// The words of an op's text argument (a pipeline step, a draw's line), split at whitespace as
// `std::istringstream >> word` splits them, without a stream: a call parses its steps every time.
inline std::vector<std::string_view> split_words(std::string_view text) {  // views into text
  std::vector<std::string_view> words;
  const char* p = text.data();
  const char* end = p + text.size();
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  while (p != end) {
    while (p != end && space(*p)) ++p;
    const char* start = p;
    while (p != end && !space(*p)) ++p;
    if (p != start) words.emplace_back(start, static_cast<size_t>(p - start));
  }
  return words;
}

// A whole word as an int64 (digits with an optional '-'), or nullopt.
inline std::optional<int64_t> whole_number(std::string_view word) {
  int64_t v = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (error != std::errc() || end != word.data() + word.size() || word.empty()) return std::nullopt;
  return v;
}

// A contiguous 1-D CPU tensor over n elements the caller owns and keeps alive while it is used
// (no allocation, no deleter): what the draws hand torch's dispatcher to fill.
inline Tensor cpu_view(void* data, int64_t n, ScalarType dtype) {
  const int64_t stride = 1;
  AtenTensorHandle handle = nullptr;
  const AOTITorchError code = torch_from_blob(data, 1, &n, &stride, 0, shim_dtype(dtype), aoti_torch_device_type_cpu(),
                                              -1, &handle, aoti_torch_layout_strided(), nullptr, 0, nullptr, nullptr);
  check(code == AOTI_TORCH_SUCCESS, "u8aug: torch could not view ", n, " elements as a tensor");
  return Tensor(handle);
}

// Per-thread scratch, 64-byte aligned as torch's CPU allocator aligns a tensor (torch's vectorized
// math sees the same alignment as on its own tensors), grown as needed, kept.
class Scratch {
 public:
  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() { std::free(data_); }
  template <class T>
  T* get(int64_t n) {
    const size_t bytes = (static_cast<size_t>(std::max<int64_t>(n, 16)) * sizeof(T) + 63) / 64 * 64;
    if (bytes > capacity_) {
      std::free(data_);
      data_ = std::aligned_alloc(64, bytes);
      capacity_ = data_ != nullptr ? bytes : 0;
      check(data_ != nullptr, "u8aug: could not allocate ", bytes, " bytes of scratch");
    }
    return static_cast<T*>(data_);
  }

 private:
  void* data_ = nullptr;
  size_t capacity_ = 0;
};

inline int64_t batch_of(const Tensor& img) { return img.dim() == 4 ? img.size(0) : 1; }
inline int64_t channels_of(const Tensor& img) { return img.size(img.dim() - 3); }

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
