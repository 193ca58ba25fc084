// Every function of the C++ API, called as a user of a build without CUDA would: the CPU ones run
// on a small image, and each u8aug::cuda one throws std::runtime_error naming its op.
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <u8aug/u8aug.h>

namespace {

int failures = 0;

void expect_unavailable(const char* op, const std::function<void()>& call) {
  try {
    call();
    std::printf("u8aug::cuda::%s did not throw\n", op);
    ++failures;
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).find(std::string("u8aug.") + op + ":") == std::string::npos) {
      std::printf("u8aug::cuda::%s threw without naming itself: %s\n", op, e.what());
      ++failures;
    }
  }
}

}  // namespace

int main() {
  constexpr int64_t B = 2, C = 3, H = 4, W = 5;
  std::vector<uint8_t> in(B * C * H * W), out(in.size()), gray(B * H * W), padded(B * C * (H + 2) * (W + 2));
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 37);
  std::vector<float> floats(in.size()), means(B);
  const auto src = u8aug::nchw<const uint8_t>(in.data(), B, C, H, W);
  const auto dst = u8aug::nchw(out.data(), B, C, H, W);
  const auto dst_float = u8aug::nchw(floats.data(), B, C, H, W);
  const auto dst_gray = u8aug::nchw(gray.data(), B, 1, H, W);
  const auto dst_padded = u8aug::nchw(padded.data(), B, C, H + 2, W + 2);
  const auto dst_rotated = u8aug::nchw(out.data(), B, C, W, H);

  const float half[] = {0.5f}, one[] = {1.0f}, zero[] = {0.0f}, four[] = {4.0f};
  const u8aug::Samples s_half{half, 1}, s_one{one, 1}, s_zero{zero, 1}, s_four{four, 1};
  const int64_t order[] = {0, 1, 2, 3};
  u8aug::JiggleParams jiggle;
  jiggle.brightness = s_one;
  jiggle.contrast = s_one;
  jiggle.saturation = s_one;
  jiggle.hue = s_zero;
  jiggle.order = order;
  jiggle.order_count = 4;
  const bool take[] = {true, false};
  const float affine[] = {1, 0, 0.5f, 0, 1, 0}, perspective[] = {1, 0, 0.5f, 0, 1, 0, 0, 0, 1};
  u8aug::WarpParams warp2, warp3;
  warp2.matrices = affine;
  warp2.count = 1;
  warp3.matrices = perspective;
  warp3.count = 1;
  const float boxes[] = {0, 0, 3, 0, 3, 2, 0, 2, 1, 1, 4, 1, 4, 3, 1, 3};
  u8aug::PadSpec pad;
  pad.left = pad.right = pad.top = pad.bottom = 1;
  const u8aug::CropBlendOrders crop_orders{};

  namespace cpu = u8aug::cpu;
  cpu::hflip(src, dst);
  cpu::vflip(src, dst);
  cpu::adjust_brightness(src, dst, s_half);
  cpu::adjust_brightness_accumulative(src, dst, s_half);
  cpu::adjust_contrast(src, dst, s_half);
  cpu::adjust_contrast_with_mean(src, dst, s_half, s_half);
  cpu::adjust_gamma(src, dst, s_half, s_one);
  cpu::solarize(src, dst, s_half, s_zero);
  cpu::posterize(src, dst, s_four);
  cpu::invert(src, dst);
  cpu::equalize(src, dst);
  cpu::image_mean(src, means.data());
  cpu::normalize(src, dst_float, s_half, s_half);
  cpu::to_float(src, dst_float);
  cpu::rgb_to_grayscale(src, dst_gray);
  cpu::grayscale(src, dst);
  cpu::adjust_saturation(src, dst, s_half);
  cpu::adjust_hue(src, dst, s_half);
  cpu::color_jiggle(src, dst, jiggle);
  cpu::color_jitter(src, dst, jiggle);
  cpu::select_samples(take, src, src, dst);
  cpu::warp_affine(src, dst, warp2);
  cpu::warp_perspective(src, dst, warp3);
  cpu::resize(src, dst, u8aug::Interp::kBilinear, false, u8aug::BlendOrder::kSeparable);
  cpu::crop_and_resize(src, dst, boxes, u8aug::Interp::kBilinear, true, crop_orders);
  cpu::pad(src, dst_padded, pad);
  cpu::rot90(src, dst_rotated, 1);
  const int64_t pairs[] = {1, 0};
  const float lambdas[] = {0.25f, 0.75f}, paste[] = {0, 0, 2, 2, 1, 1, 3, 3};
  const u8aug::MixUpParams mix{pairs, u8aug::Samples{lambdas, 2}};
  const u8aug::PasteParams pasting{pairs, paste, 1};
  cpu::mix_up(src, dst, mix);
  cpu::paste_boxes(src, dst, pasting);
  const std::vector<float> noise(2 * H * W, 0.25f);
  const float taps[] = {0.25f, 0.5f, 0.25f};
  u8aug::ElasticParams elastic;
  elastic.noise = noise.data();
  elastic.count = 1;
  elastic.kernel_x = elastic.kernel_y = taps;
  elastic.taps_x = elastic.taps_y = 3;
  const float alpha[] = {1.0f, 2.0f};
  elastic.alpha = alpha;
  cpu::elastic_transform(src, dst, elastic);
  const float clip[] = {40.0f};
  const u8aug::ClaheParams clahe{2, 2, u8aug::Samples{clip, 1}};
  cpu::clahe(src, dst, clahe);
  const std::vector<float> steps(128, 16.0f);
  u8aug::JpegParams jpeg;
  jpeg.tables = u8aug::JpegTables{steps.data(), 1};
  cpu::jpeg(src, dst, jpeg);
  const std::vector<float> grid(2 * 2 * 3, 0.5f), draws(2 * 3 * 5, 0.25f);
  std::vector<float> level_out(draws.size());
  const u8aug::PlasmaLevel level{grid.data(), half, draws.data(), level_out.data(), 1, 2, 3};
  cpu::plasma_level(level);

  namespace cuda = u8aug::cuda;
  cudaStream_t stream = nullptr;
  expect_unavailable("hflip", [&] { cuda::hflip(src, dst, stream); });
  expect_unavailable("vflip", [&] { cuda::vflip(src, dst, stream); });
  expect_unavailable("adjust_brightness", [&] { cuda::adjust_brightness(src, dst, s_half, stream); });
  expect_unavailable("adjust_brightness_accumulative",
                     [&] { cuda::adjust_brightness_accumulative(src, dst, s_half, stream); });
  expect_unavailable("adjust_contrast", [&] { cuda::adjust_contrast(src, dst, s_half, stream); });
  expect_unavailable("adjust_contrast_with_mean",
                     [&] { cuda::adjust_contrast_with_mean(src, dst, s_half, s_half, stream); });
  expect_unavailable("adjust_gamma", [&] { cuda::adjust_gamma(src, dst, s_half, s_one, stream); });
  expect_unavailable("solarize", [&] { cuda::solarize(src, dst, s_half, s_zero, stream); });
  expect_unavailable("posterize", [&] { cuda::posterize(src, dst, s_four, stream); });
  expect_unavailable("invert", [&] { cuda::invert(src, dst, stream); });
  expect_unavailable("equalize", [&] { cuda::equalize(src, dst, stream); });
  expect_unavailable("image_mean", [&] { cuda::image_mean(src, means.data(), stream); });
  expect_unavailable("normalize", [&] { cuda::normalize(src, dst_float, s_half, s_half, stream); });
  expect_unavailable("to_float", [&] { cuda::to_float(src, dst_float, stream); });
  expect_unavailable("rgb_to_grayscale", [&] { cuda::rgb_to_grayscale(src, dst_gray, stream); });
  expect_unavailable("grayscale", [&] { cuda::grayscale(src, dst, stream); });
  expect_unavailable("adjust_saturation", [&] { cuda::adjust_saturation(src, dst, s_half, stream); });
  expect_unavailable("adjust_hue", [&] { cuda::adjust_hue(src, dst, s_half, stream); });
  expect_unavailable("color_jiggle", [&] { cuda::color_jiggle(src, dst, jiggle, stream); });
  expect_unavailable("color_jitter", [&] { cuda::color_jitter(src, dst, jiggle, stream); });
  expect_unavailable("select_samples", [&] { cuda::select_samples(take, src, src, dst, stream); });
  expect_unavailable("warp_affine", [&] { cuda::warp_affine(src, dst, warp2, stream); });
  expect_unavailable("warp_perspective", [&] { cuda::warp_perspective(src, dst, warp3, stream); });
  expect_unavailable("resize", [&] {
    cuda::resize(src, dst, u8aug::Interp::kBilinear, false, u8aug::BlendOrder::kSeparable, stream);
  });
  expect_unavailable("crop_and_resize", [&] {
    cuda::crop_and_resize(src, dst, boxes, u8aug::Interp::kBilinear, true, crop_orders, stream);
  });
  expect_unavailable("pad", [&] { cuda::pad(src, dst_padded, pad, stream); });
  expect_unavailable("rot90", [&] { cuda::rot90(src, dst_rotated, 1, stream); });
  expect_unavailable("mix_up", [&] { cuda::mix_up(src, dst, mix, stream); });
  expect_unavailable("paste_boxes", [&] { cuda::paste_boxes(src, dst, pasting, stream); });
  expect_unavailable("elastic_transform", [&] { cuda::elastic_transform(src, dst, elastic, stream); });
  expect_unavailable("clahe", [&] { cuda::clahe(src, dst, clahe, stream); });
  expect_unavailable("jpeg", [&] { cuda::jpeg(src, dst, jpeg, stream); });
  expect_unavailable("plasma_level", [&] { cuda::plasma_level(level, stream); });

  const u8aug::BuildInfo info = u8aug::build_info();
  if (info.cuda) {
    std::printf("build_info says CUDA is on in a CUDA-less build\n");
    ++failures;
  }
  std::printf("%s: every CPU function ran, every CUDA function said it is unavailable\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
