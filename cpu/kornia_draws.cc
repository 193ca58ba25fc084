// kornia's draws on torch's CPU generator (u8aug/kornia_draws.h). Each float32 step is the
// operation kornia's tensor op performs, in kornia's order; compiled with -ffp-contract=off.
#include "u8aug/kornia_draws.h"

#include <algorithm>
#include <cmath>
#include <vector>

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
  if (source_ != nullptr) return source_->uniform(out, n);
  for (int64_t i = 0; i < n; ++i) out[i] = uniform_float24(word());
}

void TorchRandom::randperm(int64_t n, int64_t* out) {
  if (source_ != nullptr) return source_->randperm(n, out);
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

void kornia_uniform(TorchRandom& random, float low, float high, bool same_on_batch, int64_t batch, float* out) {
  uniform_rows(random, same_on_batch, batch, 1, out);
  const float span = high - low;
  for (int64_t b = 0; b < batch; ++b) {
    const float scaled = out[b] * span;
    out[b] = low + scaled;
  }
}

void kornia_posterize(TorchRandom& random, float low, float high, bool same_on_batch, int64_t batch, int32_t* bits) {
  std::vector<float> factor(static_cast<size_t>(batch));
  kornia_uniform(random, low, high, same_on_batch, batch, factor.data());
  // torch.round: half to even, which nearbyint is in the default rounding mode; the bits lie in [0, 8]
  for (int64_t b = 0; b < batch; ++b) bits[b] = static_cast<int32_t>(std::nearbyint(factor[static_cast<size_t>(b)]));
}

void kornia_color_jitter(TorchRandom& random, const ColorJitterConfig& config, int64_t batch, float* factors,
                         int64_t* order) {
  for (int k = 0; k < 4; ++k)
    kornia_uniform(random, config.low[k], config.high[k], config.same_on_batch, batch, factors + k * batch);
  random.randperm(4, order);
}

void kornia_affine(TorchRandom& random, const AffineConfig& c, int64_t batch, int64_t height, int64_t width,
                   float* translations, float* center, float* scale, float* angle, float* shear_x, float* shear_y) {
  const bool same = c.same_on_batch;
  std::vector<float> row(static_cast<size_t>(batch));
  kornia_uniform(random, c.degrees_low, c.degrees_high, same, batch, angle);
  for (int64_t b = 0; b < 2 * batch; ++b) scale[b] = 1.0f;
  if (c.scales > 0) {
    kornia_uniform(random, c.scale_x_low, c.scale_x_high, same, batch, row.data());
    for (int64_t b = 0; b < batch; ++b) scale[2 * b] = scale[2 * b + 1] = row[b];
    if (c.scales == 4) {
      kornia_uniform(random, c.scale_y_low, c.scale_y_high, same, batch, row.data());
      for (int64_t b = 0; b < batch; ++b) scale[2 * b + 1] = row[b];
    }
  }
  for (int64_t b = 0; b < 2 * batch; ++b) translations[b] = 0.0f;
  if (c.translate) {
    kornia_uniform(random, c.translate_x_low, c.translate_x_high, same, batch, row.data());
    for (int64_t b = 0; b < batch; ++b) translations[2 * b] = row[b] * static_cast<float>(width);
    kornia_uniform(random, c.translate_y_low, c.translate_y_high, same, batch, row.data());
    for (int64_t b = 0; b < batch; ++b) translations[2 * b + 1] = row[b] * static_cast<float>(height);
  }
  // tensor([width, height]) / 2.0 - 0.5
  const float cx = static_cast<float>(width) / 2.0f - 0.5f, cy = static_cast<float>(height) / 2.0f - 0.5f;
  for (int64_t b = 0; b < batch; ++b) center[2 * b] = cx, center[2 * b + 1] = cy;
  if (c.shear) {
    kornia_uniform(random, c.shear_x_low, c.shear_x_high, same, batch, shear_x);
    kornia_uniform(random, c.shear_y_low, c.shear_y_high, same, batch, shear_y);
  } else {
    std::fill(shear_x, shear_x + batch, 0.0f);
    std::fill(shear_y, shear_y + batch, 0.0f);
  }
}

void kornia_perspective(TorchRandom& random, float distortion_scale, float low, float high, bool area_preserving,
                        bool same_on_batch, int64_t batch, int64_t height, int64_t width, float* start, float* end) {
  // _source_end_and_extent: a size-1 axis keeps its one row or column (end 1, extent 0)
  const float x_end = width == 1 ? 1.0f : static_cast<float>(width - 1);
  const float y_end = height == 1 ? 1.0f : static_cast<float>(height - 1);
  const float x_extent = width == 1 ? 0.0f : static_cast<float>(width);
  const float y_extent = height == 1 ? 0.0f : static_cast<float>(height);
  const float corners[8] = {0.0f, 0.0f, x_end, 0.0f, x_end, y_end, 0.0f, y_end};
  // distortion_scale * extent / 2, as 0-d float32 tensors
  const float factor[2] = {distortion_scale * x_extent / 2.0f, distortion_scale * y_extent / 2.0f};
  static constexpr float kSigns[8] = {1.0f, 1.0f, -1.0f, 1.0f, -1.0f, -1.0f, 1.0f, -1.0f};
  uniform_rows(random, same_on_batch, batch, 8, end);  // Uniform(low, high).rsample of (B, 4, 2)
  const float span = high - low;
  for (int64_t b = 0; b < batch; ++b) {
    for (int i = 0; i < 8; ++i) {
      const float scaled = end[8 * b + i] * span;
      const float u = low + scaled, f = factor[i % 2];
      const float offset = area_preserving ? (2.0f * f) * (u - 0.5f) : (f * u) * kSigns[i];
      start[8 * b + i] = corners[i];
      end[8 * b + i] = corners[i] + offset;
    }
  }
}

void torch_scalar_row_sum(const float* values, int64_t rows, int64_t size, float* sums, void*) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = values + r * size;
    float partial[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const int64_t whole = size / 4 * 4;
    for (int64_t i = 0; i < whole; i += 4)
      for (int k = 0; k < 4; ++k) partial[k] += row[i + k];
    for (int64_t i = whole; i < size; ++i) partial[0] += row[i];
    for (int k = 1; k < 4; ++k) partial[0] += partial[k];
    sums[r] = partial[0];
  }
}

void kornia_gaussian_kernel1d(const float* sigma, int64_t batch, int64_t size, ExpFunction exp, void* exp_context,
                              RowSumFunction row_sum, void* sum_context, float* scratch, float* kernel) {
  // x = arange(size) - size // 2 (+ 0.5 for an even size); its square less the row's least square
  std::vector<float> dist(static_cast<size_t>(size));
  const float mean = static_cast<float>(size / 2);
  float nearest = INFINITY;
  for (int64_t i = 0; i < size; ++i) {
    float x = static_cast<float>(i) - mean;
    if (size % 2 == 0) x = x + 0.5f;
    dist[static_cast<size_t>(i)] = x * x;
    nearest = std::min(nearest, x * x);
  }
  for (float& d : dist) d = d - nearest;
  // exp(-dist / (2 sigma^2)) over the whole (batch, size) tensor in one call, as kornia's; a zero
  // denominator divides by 1 instead, and its row is the unit impulse
  for (int64_t b = 0; b < batch; ++b) {
    const float denominator = 2.0f * (sigma[b] * sigma[b]);
    for (int64_t i = 0; i < size; ++i)
      kernel[b * size + i] = -dist[static_cast<size_t>(i)] / (denominator == 0.0f ? 1.0f : denominator);
  }
  exp(kernel, batch * size, exp_context);
  for (int64_t b = 0; b < batch; ++b) {
    if (2.0f * (sigma[b] * sigma[b]) != 0.0f) continue;
    for (int64_t i = 0; i < size; ++i) kernel[b * size + i] = dist[static_cast<size_t>(i)] == 0.0f ? 1.0f : 0.0f;
  }
  row_sum(kernel, batch, size, scratch, sum_context);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < size; ++i) kernel[b * size + i] = kernel[b * size + i] / scratch[b];
}

}  // namespace u8aug
