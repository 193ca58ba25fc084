// The standalone C++ API, no torch: the standard recipe (RandomResizedCrop 24x20, a horizontal flip
// at p = 0.5, ColorJitter(0.4, 0.4, 0.4, 0.1), Normalize) on one interleaved RGB image, its random
// parameters drawn with kornia's distributions from a generator seeded as torch.manual_seed seeds
// torch's. The draws are kornia's word for word (u8aug/kornia_draws.h); only RandomResizedCrop's
// aspect-ratio exp is the C library's here, where the torch extension calls torch's own.
#include <u8aug/u8aug.h>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  const int64_t h = 30, w = 40, c = 3, out_h = 24, out_w = 20;
  std::vector<uint8_t> image(h * w * c);
  for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<uint8_t>((i * 37) % 251);

  u8aug::TorchRandom random(2024);  // torch.manual_seed(2024)
  // kornia draws module by module: each module's gate, then its parameters
  u8aug::ResizedCropConfig crop;
  crop.log_ratio_low = std::log(3.0f / 4.0f), crop.log_ratio_high = std::log(4.0f / 3.0f);
  crop.out_height = out_h, crop.out_width = out_w;
  std::vector<float> scratch(2 * u8aug::kResizedCropCandidates + 2), src_box(8), dst_box(8);
  float crop_gate = 0.0f, flip_gate = 0.0f, jitter_gate = 0.0f;
  u8aug::kornia_gate(random, 1.0, false, 1, &crop_gate);
  u8aug::kornia_resized_crop(random, crop, 1, h, w, u8aug::c_library_exp, nullptr, scratch.data(), src_box.data(),
                             dst_box.data());
  u8aug::kornia_gate(random, 0.5, false, 1, &flip_gate);
  u8aug::ColorJitterConfig jitter;
  const float low[4] = {0.6f, 0.6f, -0.1f, 0.6f}, high[4] = {1.4f, 1.4f, 0.1f, 1.4f};  // b, c, h, s
  for (int k = 0; k < 4; ++k) jitter.low[k] = low[k], jitter.high[k] = high[k];
  u8aug::kornia_gate(random, 1.0, false, 1, &jitter_gate);
  float factors[4];
  int64_t order[4];
  u8aug::kornia_color_jitter(random, jitter, 1, factors, order);

  std::vector<uint8_t> cropped(out_h * out_w * c), flipped(cropped.size()), jittered(cropped.size());
  std::vector<float> normalized(cropped.size());
  u8aug::cpu::crop_and_resize(u8aug::nhwc(image.data(), 1, c, h, w), u8aug::nhwc(cropped.data(), 1, c, out_h, out_w),
                              src_box.data(), u8aug::Interp::kBilinear, true, u8aug::CropBlendOrders{});
  if (flip_gate > 0.5f) {
    u8aug::cpu::hflip(u8aug::nhwc(cropped.data(), 1, c, out_h, out_w), u8aug::nhwc(flipped.data(), 1, c, out_h, out_w));
  } else {
    flipped = cropped;
  }
  u8aug::JiggleParams params;
  params.brightness = {&factors[0], 1}, params.contrast = {&factors[1], 1};
  params.hue = {&factors[2], 1}, params.saturation = {&factors[3], 1};
  params.order = order, params.order_count = 4;
  u8aug::cpu::color_jitter(u8aug::nhwc(flipped.data(), 1, c, out_h, out_w),
                           u8aug::nhwc(jittered.data(), 1, c, out_h, out_w), params);
  const float mean[3] = {0.485f, 0.456f, 0.406f}, std_dev[3] = {0.229f, 0.224f, 0.225f};
  u8aug::cpu::normalize(u8aug::nhwc(jittered.data(), 1, c, out_h, out_w),
                        u8aug::nhwc(normalized.data(), 1, c, out_h, out_w), {mean, 3}, {std_dev, 3});

  std::printf("crop box (%g, %g)-(%g, %g), flip %s, jitter b %.4f c %.4f h %.4f s %.4f order %lld%lld%lld%lld\n",
              src_box[0], src_box[1], src_box[4], src_box[5], flip_gate > 0.5f ? "yes" : "no", factors[0], factors[1],
              factors[2], factors[3], (long long)order[0], (long long)order[1], (long long)order[2],
              (long long)order[3]);
  // what kornia draws after torch.manual_seed(2024) for this recipe on a 1x3x30x40 batch
  // (AugmentationSequential(...).forward_parameters, kornia 0.9.0, torch 2.11)
  const bool kornias = src_box[0] == 15 && src_box[1] == 1 && src_box[4] == 38 && src_box[5] == 29 &&
                       flip_gate == 0.0f && order[0] == 0 && order[1] == 1 && order[2] == 3 && order[3] == 2 &&
                       std::fabs(factors[0] - 1.1429f) < 1e-4f && std::fabs(factors[3] - 0.7720f) < 1e-4f;
  for (float v : normalized) {
    if (!std::isfinite(v) || !kornias) {
      std::printf("the recipe gave an unexpected result\n");
      return 1;
    }
  }
  std::printf("seeded recipe ok: %lldx%lld float32 out\n", (long long)out_h, (long long)out_w);
  return 0;
}
