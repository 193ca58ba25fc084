// The standalone C++ API, no torch: mirror an interleaved RGB image left-right and top-bottom.
#include <u8aug/u8aug.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

int main() {
  const int64_t h = 4, w = 5, c = 3;
  std::vector<uint8_t> rgb(h * w * c), mirrored(rgb.size()), upside_down(rgb.size());
  for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<uint8_t>(i);

  const auto in = u8aug::nhwc(rgb.data(), 1, c, h, w);
  u8aug::cpu::hflip(in, u8aug::nhwc(mirrored.data(), 1, c, h, w));
  u8aug::cpu::vflip(in, u8aug::nhwc(upside_down.data(), 1, c, h, w));

  for (int64_t y = 0; y < h; ++y)
    for (int64_t x = 0; x < w; ++x)
      for (int64_t k = 0; k < c; ++k) {
        if (mirrored[(y * w + x) * c + k] != rgb[(y * w + (w - 1 - x)) * c + k] ||
            upside_down[(y * w + x) * c + k] != rgb[((h - 1 - y) * w + x) * c + k]) {
          std::printf("mismatch at y=%lld x=%lld c=%lld\n", (long long)y, (long long)x, (long long)k);
          return 1;
        }
      }

  try {
    u8aug::cpu::hflip(in, u8aug::nhwc(rgb.data(), 1, c, h, w));  // in place: rejected
    std::printf("in-place call was not rejected\n");
    return 1;
  } catch (const std::invalid_argument& e) {
    std::printf("rejected as expected: %s\n", e.what());
  }
#ifdef EXPECT_NO_CUDA
  try {
    u8aug::cuda::hflip(in, u8aug::nhwc(mirrored.data(), 1, c, h, w), nullptr);
    std::printf("the CUDA entry point of a CUDA-less build did not throw\n");
    return 1;
  } catch (const std::runtime_error& e) {
    std::printf("CUDA-less build says: %s\n", e.what());
  }
#endif
  const u8aug::BuildInfo info = u8aug::build_info();
  std::printf("u8aug %s, CPU target %s, CUDA %s: flips ok\n", info.version.c_str(), info.cpu_target_chosen.c_str(),
              info.cuda ? "on" : "off");
  return 0;
}
