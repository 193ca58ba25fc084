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

at::Tensor hflip(const at::Tensor& img) {
  return run_image("hflip", img, [&](auto s, auto d, auto st) { cuda::hflip(s, d, st); });
}
at::Tensor vflip(const at::Tensor& img) {
  return run_image("vflip", img, [&](auto s, auto d, auto st) { cuda::vflip(s, d, st); });
}
at::Tensor adjust_brightness(const at::Tensor& img, const at::Tensor& factor) {
  const char* op = "adjust_brightness";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    cuda::adjust_brightness(s, d, values_of(op, "factor", factor, img), st);
  });
}
at::Tensor adjust_brightness_accumulative(const at::Tensor& img, const at::Tensor& factor) {
  const char* op = "adjust_brightness_accumulative";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    cuda::adjust_brightness_accumulative(s, d, values_of(op, "factor", factor, img), st);
  });
}
at::Tensor adjust_contrast(const at::Tensor& img, const at::Tensor& factor) {
  const char* op = "adjust_contrast";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    cuda::adjust_contrast(s, d, values_of(op, "factor", factor, img), st);
  });
}
at::Tensor adjust_gamma(const at::Tensor& img, const at::Tensor& gamma, const at::Tensor& gain) {
  const char* op = "adjust_gamma";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    cuda::adjust_gamma(s, d, values_of(op, "gamma", gamma, img),
                       values_of(op, "gain", gain, img), st);
  });
}
at::Tensor solarize(const at::Tensor& img, const at::Tensor& thresholds,
                    const at::Tensor& additions) {
  const char* op = "solarize";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    cuda::solarize(s, d, values_of(op, "thresholds", thresholds, img),
                   values_of(op, "additions", additions, img), st);
  });
}
at::Tensor posterize(const at::Tensor& img, const at::Tensor& bits) {
  const char* op = "posterize";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    cuda::posterize(s, d, values_of(op, "bits", bits, img), st);
  });
}
at::Tensor normalize(const at::Tensor& img, const at::Tensor& mean, const at::Tensor& std) {
  const char* op = "normalize";
  return run_image<float>(op, img, [&](auto s, auto d, auto st) {
    cuda::normalize(s, d, values_of(op, "mean", mean, img, Per::kChannel),
                    values_of(op, "std", std, img, Per::kChannel), st);
  });
}
at::Tensor to_float(const at::Tensor& img) {
  return run_image<float>("to_float", img, [&](auto s, auto d, auto st) {
    cuda::to_float(s, d, st);
  });
}
at::Tensor rgb_to_grayscale(const at::Tensor& img) {
  return run_image(
      "rgb_to_grayscale", img, [&](auto s, auto d, auto st) { cuda::rgb_to_grayscale(s, d, st); }, 1);
}
at::Tensor grayscale(const at::Tensor& img) {
  return run_image("grayscale", img, [&](auto s, auto d, auto st) { cuda::grayscale(s, d, st); });
}
at::Tensor adjust_saturation(const at::Tensor& img, const at::Tensor& factor) {
  const char* op = "adjust_saturation";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    cuda::adjust_saturation(s, d, values_of(op, "factor", factor, img), st);
  });
}
at::Tensor adjust_hue(const at::Tensor& img, const at::Tensor& factor) {
  const char* op = "adjust_hue";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    cuda::adjust_hue(s, d, values_of(op, "factor", factor, img), st);
  });
}
at::Tensor color_jiggle(const at::Tensor& img, const at::Tensor& brightness, const at::Tensor& contrast,
                        const at::Tensor& saturation, const at::Tensor& hue, const at::Tensor& order) {
  const char* op = "color_jiggle";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    JiggleParams params;
    params.brightness = values_of(op, "brightness", brightness, img);
    params.contrast = values_of(op, "contrast", contrast, img);
    params.saturation = values_of(op, "saturation", saturation, img);
    params.hue = values_of(op, "hue", hue, img);
    params.order = order_of(op, order, img);
    params.order_count = order.numel();
    cuda::color_jiggle(s, d, params, st);
  });
}
at::Tensor color_jitter(const at::Tensor& img, const at::Tensor& brightness, const at::Tensor& contrast,
                        const at::Tensor& saturation, const at::Tensor& hue, const at::Tensor& order) {
  const char* op = "color_jitter";
  return run_image(op, img, [&](auto s, auto d, auto st) {
    JiggleParams params;
    params.brightness = values_of(op, "brightness", brightness, img);
    params.contrast = values_of(op, "contrast", contrast, img);
    params.saturation = values_of(op, "saturation", saturation, img);
    params.hue = values_of(op, "hue", hue, img);
    params.order = order_of(op, order, img);
    params.order_count = order.numel();
    cuda::color_jitter(s, d, params, st);
  });
}
at::Tensor equalize(const at::Tensor& img) {
  return run_image("equalize", img, [&](auto s, auto d, auto st) { cuda::equalize(s, d, st); });
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
  m.impl("equalize", &equalize);
  m.impl("normalize", &normalize);
  m.impl("to_float", &to_float);
  m.impl("rgb_to_grayscale", &rgb_to_grayscale);
  m.impl("grayscale", &grayscale);
  m.impl("adjust_saturation", &adjust_saturation);
  m.impl("adjust_hue", &adjust_hue);
  m.impl("color_jiggle", &color_jiggle);
  m.impl("color_jitter", &color_jitter);
}
