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

// An image -> image op: check img, allocate the output, then call(src, dst, stream).
template <class Call>
at::Tensor run_image(const char* op, const at::Tensor& img, Call&& call) {
#ifdef U8AUG_WITH_CUDA
  check_image(op, img);
  TORCH_CHECK(img.is_cuda(), "u8aug.", op, ": expected a CUDA tensor, got one on ", img.device());
  const c10::cuda::CUDAGuard guard(img.device());
  at::Tensor out = empty_output(img, img.sizes());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  call_core([&] { call(const_view(img), mutable_view(out), stream); });
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

at::Tensor hflip(const at::Tensor& img) {
  return run_image("hflip", img, [&](auto s, auto d, auto st) { cuda::hflip(s, d, st); });
}
at::Tensor vflip(const at::Tensor& img) {
  return run_image("vflip", img, [&](auto s, auto d, auto st) { cuda::vflip(s, d, st); });
}
at::Tensor adjust_brightness(const at::Tensor& img, const at::Tensor& factor) {
  const char* op = "adjust_brightness";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    cuda::adjust_brightness(s, d, samples_of(op, "factor", factor, img), st);
  });
}
at::Tensor adjust_brightness_accumulative(const at::Tensor& img, const at::Tensor& factor) {
  const char* op = "adjust_brightness_accumulative";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    cuda::adjust_brightness_accumulative(s, d, samples_of(op, "factor", factor, img), st);
  });
}
at::Tensor adjust_contrast(const at::Tensor& img, const at::Tensor& factor) {
  const char* op = "adjust_contrast";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    cuda::adjust_contrast(s, d, samples_of(op, "factor", factor, img), st);
  });
}
at::Tensor adjust_gamma(const at::Tensor& img, const at::Tensor& gamma, const at::Tensor& gain) {
  const char* op = "adjust_gamma";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    cuda::adjust_gamma(s, d, samples_of(op, "gamma", gamma, img),
                       samples_of(op, "gain", gain, img), st);
  });
}
at::Tensor solarize(const at::Tensor& img, const at::Tensor& thresholds,
                    const at::Tensor& additions) {
  const char* op = "solarize";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    cuda::solarize(s, d, samples_of(op, "thresholds", thresholds, img),
                   samples_of(op, "additions", additions, img), st);
  });
}
at::Tensor posterize(const at::Tensor& img, const at::Tensor& bits) {
  const char* op = "posterize";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    cuda::posterize(s, d, samples_of(op, "bits", bits, img), st);
  });
}
at::Tensor invert(const at::Tensor& img) {
  return run_image("invert", img, [&](auto s, auto d, auto st) { cuda::invert(s, d, st); });
}

}  // namespace
}  // namespace bindings
}  // namespace u8aug

TORCH_LIBRARY_IMPL(u8aug, CUDA, m) {
  using namespace u8aug::bindings;
  m.impl("hflip", &hflip);
  m.impl("vflip", &vflip);
  m.impl("adjust_brightness", &adjust_brightness);
  m.impl("adjust_brightness_accumulative", &adjust_brightness_accumulative);
  m.impl("adjust_contrast", &adjust_contrast);
  m.impl("adjust_gamma", &adjust_gamma);
  m.impl("solarize", &solarize);
  m.impl("posterize", &posterize);
  m.impl("invert", &invert);
}
