// kornia's RandomResizedCrop boxes from its uniform draws: ResizedCropGenerator's float32 steps
// after its torch.rand calls, one sample at a time. The draws stay torch's (the caller makes the
// same torch.rand calls kornia makes, and the log-ratio's exp with torch's own exp); each step here
// is the IEEE float32 operation kornia's tensor op performs, in kornia's order, so the boxes equal
// kornia's bit for bit (python/u8aug/kornia/_draws.py; tests/python/test_draws.py checks them).
// Built with -ffp-contract=off: a fused multiply-add would round once where kornia rounds twice.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace u8aug {

struct ResizedCropDraws {
  const float* area;    // (B, kCandidates) uniforms in [0, 1): the candidates' areas
  const float* aspect;  // (B, kCandidates) exp(log-ratio draws): the candidates' width / height
  const float* x;       // (B,) uniforms: the crop's left edge
  const float* y;       // (B,) uniforms: its top edge
  int64_t batch = 0;
  const int64_t* sizes = nullptr;  // the input's (H, W): one pair, or one a sample (a ragged batch)
  bool size_per_sample = false;
  float scale_low = 0.0f;                   // scale[0], as float32
  float scale_span = 0.0f;                  // scale[1] - scale[0], subtracted in float32
  double ratio_min = 0.0, ratio_max = 0.0;  // the ratio range's ends, as Python floats
  int64_t out_height = 0, out_width = 0;    // resize_to
};

inline constexpr int64_t kResizedCropCandidates = 10;

// src and dst: (B, 4, 2) float32 each, corners from the top left, clockwise, as (x, y).
inline void resized_crop_boxes(const ResizedCropDraws& d, float* src, float* dst) {
  for (int64_t b = 0; b < d.batch; ++b) {
    const int64_t* hw = d.sizes + (d.size_per_sample ? 2 * b : 0);
    const float h_in = static_cast<float>(hw[0]), w_in = static_cast<float>(hw[1]);
    // where no candidate fits: torchvision's crop at the nearest ratio (a Python branch in kornia;
    // tensor / Python float divides in float32)
    float w = w_in, h = h_in;
    const double in_ratio = static_cast<double>(hw[1]) / static_cast<double>(hw[0]);
    if (in_ratio < d.ratio_min) {
      h = std::nearbyint(w_in / static_cast<float>(d.ratio_min));
    } else if (in_ratio > d.ratio_max) {
      w = std::nearbyint(h_in * static_cast<float>(d.ratio_max));
    }
    for (int64_t i = 0; i < kResizedCropCandidates; ++i) {
      const int64_t k = b * kResizedCropCandidates + i;
      float area = d.area[k] * d.scale_span;
      area = area + d.scale_low;
      area = area * h_in;
      area = area * w_in;
      const float cw = std::nearbyint(std::sqrt(area * d.aspect[k]));  // torch.round: half to even
      const float ch = std::nearbyint(std::sqrt(area / d.aspect[k]));
      if (cw > 0.0f && cw <= w_in && ch > 0.0f && ch <= h_in) {
        w = cw, h = ch;
        break;
      }
    }
    h = std::min(std::max(h, 1.0f), h_in);
    w = std::min(std::max(w, 1.0f), w_in);
    const float x0 = std::floor(d.x[b] * ((w_in - w) + 1.0f)), y0 = std::floor(d.y[b] * ((h_in - h) + 1.0f));
    const float x1 = (x0 + w) - 1.0f, y1 = (y0 + h) - 1.0f;
    const float ow = static_cast<float>(d.out_width - 1), oh = static_cast<float>(d.out_height - 1);
    const float box[8] = {x0, y0, x1, y0, x1, y1, x0, y1}, out[8] = {0.0f, 0.0f, ow, 0.0f, ow, oh, 0.0f, oh};
    std::copy(box, box + 8, src + 8 * b);
    std::copy(out, out + 8, dst + 8 * b);
  }
}

}  // namespace u8aug
