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

using UnaryKernel = void (*)(const ConstImage&, const Image&, cudaStream_t);

at::Tensor run_unary(const char* op, UnaryKernel kernel, const at::Tensor& img) {
#ifdef U8AUG_WITH_CUDA
  check_image(op, img);
  TORCH_CHECK(img.is_cuda(), "u8aug.", op, ": expected a CUDA tensor, got one on ", img.device());
  const c10::cuda::CUDAGuard guard(img.device());
  at::Tensor out = empty_output(img, img.sizes());
  kernel(const_view(img), mutable_view(out), at::cuda::getCurrentCUDAStream());
  return out;
#else
  (void)kernel;
  (void)img;
  TORCH_CHECK(false, "u8aug.", op,
              ": got a CUDA tensor, but this build of u8aug has no CUDA kernels (nvcc was not "
              "found when it was built); move the image to the CPU or rebuild with CUDA");
  return at::Tensor();
#endif
}

at::Tensor hflip(const at::Tensor& img) { return run_unary("hflip", &cuda::hflip, img); }
at::Tensor vflip(const at::Tensor& img) { return run_unary("vflip", &cuda::vflip, img); }

}  // namespace
}  // namespace bindings
}  // namespace u8aug

TORCH_LIBRARY_IMPL(u8aug, CUDA, m) {
  m.impl("hflip", &u8aug::bindings::hflip);
  m.impl("vflip", &u8aug::bindings::vflip);
}
