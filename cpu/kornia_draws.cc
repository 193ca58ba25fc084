// kornia's draws on torch's CPU generator (u8aug/kornia_draws.h). Each float32 step is the
// operation kornia's tensor op performs, in kornia's order; compiled with -ffp-contract=off.
#include "u8aug/kornia_draws.h"

#include <algorithm>
#include <cmath>

namespace u8aug {

TorchRandom::TorchRandom(uint64_t seed) {
  // at::mt19937's init_with_uint32: the standard Mersenne Twister seeding of the seed's low word
  state_.words[0] = static_cast<uint32_t>(seed & 0xffffffffu);
  for (int i = 1; i < kMersenneWords; ++i) {
    const uint32_t prev = state_.words[i - 1];
    state_.words[i] = 1812433253u * (prev ^ (prev >> 30)) + static_cast<uint32_t>(i);
  }
  state_.left = 1;
  state_.next = 0;
}

uint32_t TorchRandom::word() {
  if (--state_.left == 0) {
    mersenne_regenerate_words(state_.words, 0, kMersenneWords);
    state_.left = kMersenneWords;
    state_.next = 0;
  }
  return mersenne_temper(state_.words[state_.next++]);
}

void TorchRandom::uniform(float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = uniform_float24(word());
}

void TorchRandom::randperm(int64_t n, int64_t* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = i;
  for (int64_t i = 0; i + 1 < n; ++i) {
    const int64_t z = static_cast<int64_t>(word() % static_cast<uint64_t>(n - i));
    std::swap(out[i], out[i + z]);
  }
}

namespace {

// kornia's _adapted_rsampling of Uniform(0, 1) (rand itself): `rows` draws of n, repeated over the
// batch where same_on_batch made one row
void uniform_rows(TorchRandom& random, bool same_on_batch, int64_t batch, int64_t n, float* out) {
  random.uniform(out, same_on_batch ? n : batch * n);
  if (same_on_batch) {
    for (int64_t b = 1; b < batch; ++b) std::copy(out, out + n, out + b * n);
  }
}

}  // namespace

void kornia_gate(TorchRandom& random, double p, bool same_on_batch, int64_t batch, float* gate) {
  if (p == 1.0 || p == 0.0) {
    std::fill(gate, gate + batch, static_cast<float>(p));
    return;
  }
  const float threshold = static_cast<float>(p);  // a comparison with a Python float runs in float32
  if (same_on_batch) {
    float u = 0.0f;
    random.uniform(&u, 1);
    std::fill(gate, gate + batch, u < threshold ? 1.0f : 0.0f);
    return;
  }
  random.uniform(gate, batch);
  for (int64_t b = 0; b < batch; ++b) gate[b] = gate[b] < threshold ? 1.0f : 0.0f;
}

void c_library_exp(float* values, int64_t n, void*) {
  for (int64_t i = 0; i < n; ++i) values[i] = std::exp(values[i]);
}

void kornia_resized_crop(TorchRandom& random, const ResizedCropConfig& config, int64_t batch, int64_t height,
                         int64_t width, ExpFunction exp, void* exp_context, float* scratch, float* src, float* dst) {
  const int64_t n = kResizedCropCandidates;
  float* area = scratch;
  float* aspect = area + batch * n;
  float* x = aspect + batch * n;
  float* y = x + batch;
  uniform_rows(random, config.same_on_batch, batch, n, area);
  uniform_rows(random, config.same_on_batch, batch, n, aspect);
  // Uniform(log_ratio_low, log_ratio_high).rsample: low + rand * (high - low), then torch.exp
  const float span = config.log_ratio_high - config.log_ratio_low;
  for (int64_t i = 0; i < batch * n; ++i) {
    const float scaled = aspect[i] * span;
    aspect[i] = config.log_ratio_low + scaled;
  }
  exp(aspect, batch * n, exp_context);
  uniform_rows(random, config.same_on_batch, batch, 1, x);
  uniform_rows(random, config.same_on_batch, batch, 1, y);
  const int64_t size[2] = {height, width};
  ResizedCropDraws d;
  d.area = area, d.aspect = aspect, d.x = x, d.y = y;
  d.batch = batch;
  d.sizes = size;
  d.scale_low = config.scale_low;
  d.scale_span = config.scale_high - config.scale_low;
  d.ratio_min = config.ratio_min, d.ratio_max = config.ratio_max;
  d.out_height = config.out_height, d.out_width = config.out_width;
  resized_crop_boxes(d, src, dst);
}

void kornia_color_jitter(TorchRandom& random, const ColorJitterConfig& config, int64_t batch, float* factors,
                         int64_t* order) {
  for (int k = 0; k < 4; ++k) {
    float* row = factors + k * batch;
    uniform_rows(random, config.same_on_batch, batch, 1, row);
    const float span = config.high[k] - config.low[k];
    for (int64_t b = 0; b < batch; ++b) {
      const float scaled = row[b] * span;
      row[b] = config.low[k] + scaled;
    }
  }
  random.randperm(4, order);
}

}  // namespace u8aug
