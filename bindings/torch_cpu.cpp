// CPU implementations of the torch ops: check, allocate the output by the layout rule, run the
// C++ core on torch's thread pool (so torch.set_num_threads and DataLoader workers apply).
#include <ATen/Parallel.h>
#include <torch/library.h>

#include "bindings/tensor_image.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace bindings {
namespace {

const ParallelFor& torch_parallel_for() {
  static const ParallelFor pf = [](int64_t n, int64_t grain, const RangeBody& body) {
    at::parallel_for(0, n, grain, [&](int64_t begin, int64_t end) { body(begin, end); });
  };
  return pf;
}

// An image -> image op: check img, allocate the output (of element type Out: uint8, or float for
// normalize and to_float; out_channels replaces C for rgb_to_grayscale), then call(src, dst, ctx).
template <class Out = uint8_t, class Call>
at::Tensor run_image(const char* op, const at::Tensor& img, Call&& call,
                     c10::optional<int64_t> out_channels = c10::nullopt) {
  check_image(op, img);
  std::vector<int64_t> sizes = img.sizes().vec();
  if (out_channels) sizes[sizes.size() - 3] = *out_channels;
  at::Tensor out = empty_output(img, sizes, c10::CppTypeToScalarType<Out>::value);
  call_core([&] { call(const_view(img), view_of<Out>(out), torch_parallel_for()); });
  return out;
}

// A per-sample statistic: float32 (B,), or () for a 3-D image; call(src, out, ctx).
template <class Call>
at::Tensor run_per_sample(const char* op, const at::Tensor& img, Call&& call) {
  check_image(op, img);
  const std::vector<int64_t> sizes = img.dim() == 4 ? std::vector<int64_t>{img.size(0)} : std::vector<int64_t>{};
  at::Tensor out = img.new_empty(sizes, img.options().dtype(at::kFloat));
  call_core([&] { call(const_view(img), out.data_ptr<float>(), torch_parallel_for()); });
  return out;
}

// Geometry: the output has img's batch and channels and spatial size `hw` (same layout rule).
template <class Call>
at::Tensor run_resampled(const char* op, const at::Tensor& img, const std::vector<int64_t>& hw, Call&& call) {
  check_image(op, img);
  std::vector<int64_t> sizes = img.sizes().vec();
  sizes[sizes.size() - 2] = hw[0];
  sizes[sizes.size() - 1] = hw[1];
  at::Tensor out = empty_output(img, sizes);
  call_core([&] { call(const_view(img), mutable_view(out), torch_parallel_for()); });
  return out;
}

}  // namespace
}  // namespace bindings
}  // namespace u8aug

#define U8AUG_BACKEND cpu
#define U8AUG_DISPATCH_KEY CPU
#include "bindings/op_impls.inc"
