// CUDA implementations of the torch ops, on the current stream of the image's device. A build
// without CUDA registers the same names with an error that says so, instead of torch's
// "could not run ... with arguments from the 'CUDA' backend".
#include <torch/library.h>

#include "bindings/tensor_image.h"
#include "u8aug/u8aug.h"

#ifdef U8AUG_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#endif

namespace u8aug {
namespace bindings {
namespace {

// An image -> image op: check img, allocate the output (of element type Out: uint8, or float for
// normalize and to_float; out_channels replaces C for rgb_to_grayscale), then call(src, dst, stream).
template <class Out = uint8_t, class Call>
at::Tensor run_image(const char* op, const at::Tensor& img, Call&& call,
                     c10::optional<int64_t> out_channels = c10::nullopt) {
#ifdef U8AUG_WITH_CUDA
  check_image(op, img);
  TORCH_CHECK(img.is_cuda(), "u8aug.", op, ": expected a CUDA tensor, got one on ", img.device());
  const c10::cuda::CUDAGuard guard(img.device());
  std::vector<int64_t> sizes = img.sizes().vec();
  if (out_channels) sizes[sizes.size() - 3] = *out_channels;
  at::Tensor out = empty_output(img, sizes, c10::CppTypeToScalarType<Out>::value);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  call_core([&] { call(const_view(img), view_of<Out>(out), stream); });
  return out;
#else
  (void)call;
  (void)img;
  TORCH_CHECK(false, "u8aug.", op,
              ": got a CUDA tensor, but this build of u8aug has no CUDA kernels (nvcc was not "
              "found when it was built); move the image to the CPU or rebuild with CUDA");
  return at::Tensor();
#endif
}

// A per-sample statistic: float32 (B,), or () for a 3-D image; call(src, out, stream).
template <class Call>
at::Tensor run_per_sample(const char* op, const at::Tensor& img, Call&& call) {
#ifdef U8AUG_WITH_CUDA
  check_image(op, img);
  TORCH_CHECK(img.is_cuda(), "u8aug.", op, ": expected a CUDA tensor, got one on ", img.device());
  const c10::cuda::CUDAGuard guard(img.device());
  const std::vector<int64_t> sizes = img.dim() == 4 ? std::vector<int64_t>{img.size(0)} : std::vector<int64_t>{};
  at::Tensor out = img.new_empty(sizes, img.options().dtype(at::kFloat));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  call_core([&] { call(const_view(img), out.data_ptr<float>(), stream); });
  return out;
#else
  (void)call;
  return run_image(op, img, [](auto, auto, auto&&) {});
#endif
}

// Geometry: the output has img's batch and channels and spatial size `hw` (same layout rule).
template <class Call>
at::Tensor run_resampled(const char* op, const at::Tensor& img, const std::vector<int64_t>& hw, Call&& call) {
#ifdef U8AUG_WITH_CUDA
  check_image(op, img);
  TORCH_CHECK(img.is_cuda(), "u8aug.", op, ": expected a CUDA tensor, got one on ", img.device());
  const c10::cuda::CUDAGuard guard(img.device());
  std::vector<int64_t> sizes = img.sizes().vec();
  sizes[sizes.size() - 2] = hw[0];
  sizes[sizes.size() - 1] = hw[1];
  at::Tensor out = empty_output(img, sizes);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  call_core([&] { call(const_view(img), mutable_view(out), stream); });
  return out;
#else
  (void)call;
  (void)hw;
  return run_image(op, img, [](auto, auto, auto&&) {});
#endif
}

}  // namespace
}  // namespace bindings
}  // namespace u8aug

#define U8AUG_BACKEND cuda
#define U8AUG_DISPATCH_KEY CUDA
#include "bindings/op_impls.inc"
