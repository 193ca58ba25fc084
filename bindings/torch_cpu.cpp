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
// normalize and to_float; out_channels replaces C for rgb_to_grayscale), then call(src, dst, parallel).
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

at::Tensor hflip(const at::Tensor& img) {
  return run_image("hflip", img, [&](auto s, auto d, auto& p) { cpu::hflip(s, d, p); });
}
at::Tensor vflip(const at::Tensor& img) {
  return run_image("vflip", img, [&](auto s, auto d, auto& p) { cpu::vflip(s, d, p); });
}
at::Tensor adjust_brightness(const at::Tensor& img, const at::Tensor& factor) {
  const char* op = "adjust_brightness";
  return run_image(op, img, [&](auto s, auto d, auto& p) {
    cpu::adjust_brightness(s, d, values_of(op, "factor", factor, img), p);
  });
}
at::Tensor adjust_brightness_accumulative(const at::Tensor& img, const at::Tensor& factor) {
  const char* op = "adjust_brightness_accumulative";
  return run_image(op, img, [&](auto s, auto d, auto& p) {
    cpu::adjust_brightness_accumulative(s, d, values_of(op, "factor", factor, img), p);
  });
}
at::Tensor adjust_contrast(const at::Tensor& img, const at::Tensor& factor) {
  const char* op = "adjust_contrast";
  return run_image(op, img, [&](auto s, auto d, auto& p) {
    cpu::adjust_contrast(s, d, values_of(op, "factor", factor, img), p);
  });
}
at::Tensor adjust_gamma(const at::Tensor& img, const at::Tensor& gamma, const at::Tensor& gain) {
  const char* op = "adjust_gamma";
  return run_image(op, img, [&](auto s, auto d, auto& p) {
    cpu::adjust_gamma(s, d, values_of(op, "gamma", gamma, img), values_of(op, "gain", gain, img),
                      p);
  });
}
at::Tensor solarize(const at::Tensor& img, const at::Tensor& thresholds,
                    const at::Tensor& additions) {
  const char* op = "solarize";
  return run_image(op, img, [&](auto s, auto d, auto& p) {
    cpu::solarize(s, d, values_of(op, "thresholds", thresholds, img),
                  values_of(op, "additions", additions, img), p);
  });
}
at::Tensor posterize(const at::Tensor& img, const at::Tensor& bits) {
  const char* op = "posterize";
  return run_image(op, img, [&](auto s, auto d, auto& p) {
    cpu::posterize(s, d, values_of(op, "bits", bits, img), p);
  });
}
at::Tensor normalize(const at::Tensor& img, const at::Tensor& mean, const at::Tensor& std) {
  const char* op = "normalize";
  return run_image<float>(op, img, [&](auto s, auto d, auto& p) {
    cpu::normalize(s, d, values_of(op, "mean", mean, img, Per::kChannel),
                   values_of(op, "std", std, img, Per::kChannel), p);
  });
}
at::Tensor to_float(const at::Tensor& img) {
  return run_image<float>("to_float", img, [&](auto s, auto d, auto& p) {
    cpu::to_float(s, d, p);
  });
}
at::Tensor rgb_to_grayscale(const at::Tensor& img) {
  return run_image(
      "rgb_to_grayscale", img, [&](auto s, auto d, auto& p) { cpu::rgb_to_grayscale(s, d, p); }, 1);
}
at::Tensor grayscale(const at::Tensor& img) {
  return run_image("grayscale", img, [&](auto s, auto d, auto& p) { cpu::grayscale(s, d, p); });
}
at::Tensor adjust_saturation(const at::Tensor& img, const at::Tensor& factor) {
  const char* op = "adjust_saturation";
  return run_image(op, img, [&](auto s, auto d, auto& p) {
    cpu::adjust_saturation(s, d, values_of(op, "factor", factor, img), p);
  });
}
at::Tensor adjust_hue(const at::Tensor& img, const at::Tensor& factor) {
  const char* op = "adjust_hue";
  return run_image(op, img, [&](auto s, auto d, auto& p) {
    cpu::adjust_hue(s, d, values_of(op, "factor", factor, img), p);
  });
}
at::Tensor color_jiggle(const at::Tensor& img, const at::Tensor& brightness, const at::Tensor& contrast,
                        const at::Tensor& saturation, const at::Tensor& hue, const at::Tensor& order) {
  const char* op = "color_jiggle";
  return run_image(op, img, [&](auto s, auto d, auto& p) {
    JiggleParams params;
    params.brightness = values_of(op, "brightness", brightness, img);
    params.contrast = values_of(op, "contrast", contrast, img);
    params.saturation = values_of(op, "saturation", saturation, img);
    params.hue = values_of(op, "hue", hue, img);
    params.order = order_of(op, order, img);
    params.order_count = order.numel();
    cpu::color_jiggle(s, d, params, p);
  });
}
at::Tensor color_jitter(const at::Tensor& img, const at::Tensor& brightness, const at::Tensor& contrast,
                        const at::Tensor& saturation, const at::Tensor& hue, const at::Tensor& order) {
  const char* op = "color_jitter";
  return run_image(op, img, [&](auto s, auto d, auto& p) {
    JiggleParams params;
    params.brightness = values_of(op, "brightness", brightness, img);
    params.contrast = values_of(op, "contrast", contrast, img);
    params.saturation = values_of(op, "saturation", saturation, img);
    params.hue = values_of(op, "hue", hue, img);
    params.order = order_of(op, order, img);
    params.order_count = order.numel();
    cpu::color_jitter(s, d, params, p);
  });
}
at::Tensor equalize(const at::Tensor& img) {
  return run_image("equalize", img, [&](auto s, auto d, auto& p) { cpu::equalize(s, d, p); });
}
at::Tensor invert(const at::Tensor& img) {
  return run_image("invert", img, [&](auto s, auto d, auto& p) { cpu::invert(s, d, p); });
}

}  // namespace
}  // namespace bindings
}  // namespace u8aug

TORCH_LIBRARY_IMPL(u8aug, CPU, m) {
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
