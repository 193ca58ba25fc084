// The CUDA entry points of a build made without nvcc: each says so instead of failing to link.
#include <stdexcept>
#include <string>

#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {
namespace {
[[noreturn]] void unavailable(const char* op) {
  throw std::runtime_error(std::string("u8aug.") + op +
                           ": this build of u8aug has no CUDA kernels (nvcc was not found when it "
                           "was built); rebuild with CUDA or pass CPU images");
}
}  // namespace

void hflip(const ConstImage&, const Image&, cudaStream_t) { unavailable("hflip"); }
void vflip(const ConstImage&, const Image&, cudaStream_t) { unavailable("vflip"); }
void adjust_brightness(const ConstImage&, const Image&, Samples, cudaStream_t) { unavailable("adjust_brightness"); }
void adjust_brightness_accumulative(const ConstImage&, const Image&, Samples, cudaStream_t) {
  unavailable("adjust_brightness_accumulative");
}
void adjust_contrast(const ConstImage&, const Image&, Samples, cudaStream_t) { unavailable("adjust_contrast"); }
void image_mean(const ConstImage&, float*, cudaStream_t) { unavailable("image_mean"); }
void adjust_contrast_with_mean(const ConstImage&, const Image&, Samples, Samples, cudaStream_t) {
  unavailable("adjust_contrast_with_mean");
}
void adjust_gamma(const ConstImage&, const Image&, Samples, Samples, cudaStream_t) { unavailable("adjust_gamma"); }
void solarize(const ConstImage&, const Image&, Samples, Samples, cudaStream_t) { unavailable("solarize"); }
void posterize(const ConstImage&, const Image&, Samples, cudaStream_t) { unavailable("posterize"); }
void invert(const ConstImage&, const Image&, cudaStream_t) { unavailable("invert"); }
void equalize(const ConstImage&, const Image&, cudaStream_t) { unavailable("equalize"); }
void auto_contrast(const ConstImage&, const Image&, cudaStream_t) { unavailable("auto_contrast"); }
void normalize(const ConstImage&, const FloatImage&, PerChannel, PerChannel, cudaStream_t) { unavailable("normalize"); }
void to_float(const ConstImage&, const FloatImage&, cudaStream_t) { unavailable("to_float"); }
void rgb_to_grayscale(const ConstImage&, const Image&, cudaStream_t) { unavailable("rgb_to_grayscale"); }
void grayscale(const ConstImage&, const Image&, cudaStream_t) { unavailable("grayscale"); }
void adjust_saturation(const ConstImage&, const Image&, Samples, cudaStream_t, Fidelity) {
  unavailable("adjust_saturation");
}
void adjust_hue(const ConstImage&, const Image&, Samples, cudaStream_t, Fidelity) { unavailable("adjust_hue"); }
void color_jiggle(const ConstImage&, const Image&, const JiggleParams&, cudaStream_t) { unavailable("color_jiggle"); }
void color_jitter(const ConstImage&, const Image&, const JiggleParams&, cudaStream_t) { unavailable("color_jitter"); }
void select_samples(const bool*, const ConstImage&, const ConstImage&, const Image&, cudaStream_t) {
  unavailable("select_samples");
}

void warp_affine(const ConstImage&, const Image&, const WarpParams&, cudaStream_t) { unavailable("warp_affine"); }
void warp_perspective(const ConstImage&, const Image&, const WarpParams&, cudaStream_t) {
  unavailable("warp_perspective");
}
void resize(const ConstImage&, const Image&, Interp, bool, BlendOrder, cudaStream_t) { unavailable("resize"); }
void crop_and_resize(const ConstImage&, const Image&, const float*, Interp, bool, CropBlendOrders, cudaStream_t) {
  unavailable("crop_and_resize");
}
void resize_antialias(const ConstImage&, const Image&, FilterKernel, FilterKernel, Interp, bool, BlendOrder,
                      cudaStream_t) {
  unavailable("resize_antialias");
}
void pad(const ConstImage&, const Image&, const PadSpec&, cudaStream_t) { unavailable("pad"); }
void rot90(const ConstImage&, const Image&, int, cudaStream_t) { unavailable("rot90"); }
void filter2d_separable(const ConstImage&, const Image&, FilterKernel, FilterKernel, Border, cudaStream_t) {
  unavailable("filter2d_separable");
}
void filter2d(const ConstImage&, const Image&, FilterKernel2d, Border, cudaStream_t) { unavailable("filter2d"); }
void median_blur(const ConstImage&, const Image&, int64_t, int64_t, Border, cudaStream_t) {
  unavailable("median_blur");
}
void erase_boxes(const ConstImage&, const Image&, Boxes, Samples, cudaStream_t) { unavailable("erase_boxes"); }
void mix_up(const ConstImage&, const Image&, const MixUpParams&, cudaStream_t) { unavailable("mix_up"); }
void paste_boxes(const ConstImage&, const Image&, const PasteParams&, cudaStream_t) { unavailable("paste_boxes"); }
void add_offset(const ConstImage&, const OffsetImage&, const Image&, cudaStream_t) { unavailable("add_offset"); }
void rain(const ConstImage&, const Image&, const RainDrops&, cudaStream_t) { unavailable("rain"); }
void snow(const ConstImage&, const Image&, const SnowParams&, cudaStream_t) { unavailable("snow"); }
void clahe(const ConstImage&, const Image&, const ClaheParams&, cudaStream_t) { unavailable("clahe"); }
void jpeg(const ConstImage&, const Image&, const JpegParams&, cudaStream_t) { unavailable("jpeg"); }
void plasma_level(const PlasmaLevel&, cudaStream_t) { unavailable("plasma_level"); }
void plasma(const ConstImage&, const OffsetImage&, const PlasmaParams&, const Image&, cudaStream_t) {
  unavailable("plasma");
}
void sharpness(const ConstImage&, const Image&, Samples, cudaStream_t) { unavailable("sharpness"); }
void grid_sample(const ConstImage&, const Image&, const SampleGrid&, Interp, Padding, bool, cudaStream_t, CubicSum) {
  unavailable("grid_sample");
}
void elastic_transform(const ConstImage&, const Image&, const ElasticParams&, cudaStream_t) {
  unavailable("elastic_transform");
}
void box_blur_pooled(const ConstImage&, const Image&, int64_t, int64_t, Border, bool, cudaStream_t) {
  unavailable("box_blur_pooled");
}

}  // namespace cuda
}  // namespace u8aug
