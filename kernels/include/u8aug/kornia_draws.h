// kornia's random parameters for the uint8 pipeline, drawn natively: torch's default CPU generator
// (at::mt19937, its float32 torch.rand and its torch.randperm) and kornia's distributions on it
// (the per-sample gate, RandomResizedCrop, ColorJitter / ColorJiggle), word for word and float32
// operation for operation as kornia's forward_parameters makes them, so that a draw from the same
// generator state gives kornia's parameters bit for bit and leaves the state where kornia leaves it.
//
// The torch extension reads the generator's state once a call, draws a whole chain here and writes
// the state back (bindings/draws.cpp, python/u8aug/kornia/_native_draws.py); the C++ API seeds a
// TorchRandom as torch.manual_seed does and draws the same numbers with no torch at all
// (examples/cpp/main.cc). cpu/kornia_draws.cc is compiled with -ffp-contract=off: a fused
// multiply-add would round once where kornia's tensor ops round twice.
#pragma once

#include <cstdint>

#include "u8aug/draws.h"
#include "u8aug/mersenne.h"

namespace u8aug {

// torch.rand's and torch.randperm's results made elsewhere than in a TorchRandom's own engine: the
// torch extension asks torch's generator itself, through torch's dispatcher (bindings/torch_numbers.cpp).
class RandomSource {
 public:
  virtual ~RandomSource() = default;
  virtual void uniform(float* out, int64_t n) = 0;
  virtual void randperm(int64_t n, int64_t* out) = 0;
};

// torch's CPU generator: the words of its engine, and what torch.rand and torch.randperm make of them.
class TorchRandom {
 public:
  // torch.manual_seed(seed)'s engine (the seed's low 32 bits, as at::mt19937 takes it)
  explicit TorchRandom(uint64_t seed);
  // an engine state read from torch (torch.get_rng_state(): bindings/draws.cpp)
  explicit TorchRandom(const MersenneState& state) : state_(state) {}
  // the numbers of `source` instead of an engine's (word() is then not to be called)
  explicit TorchRandom(RandomSource& source) : source_(&source) {}

  uint32_t word();
  // torch.rand(n) on the CPU in float32: one word a number
  void uniform(float* out, int64_t n);
  // torch.randperm(n) on the CPU for small n: a Fisher-Yates shuffle, one word a step
  void randperm(int64_t n, int64_t* out);

  const MersenneState& state() const { return state_; }

 private:
  MersenneState state_{};
  RandomSource* source_ = nullptr;
};

// kornia's per-sample gate (`__batch_prob_generator__` with p_batch 1): ones for p 1, zeros for p 0,
// else torch.rand(batch) < p (float32 against p as float32), one draw for the batch with same_on_batch.
void kornia_gate(TorchRandom& random, double p, bool same_on_batch, int64_t batch, float* gate);

// torch.exp over n float32 values in place. torch's result for a value depends on the CPU and on
// how many values one call holds (its vector and scalar loops, MKL's paths), so the torch extension
// passes torch's own exp; the C++ API's default is the C library's expf.
using ExpFunction = void (*)(float* values, int64_t n, void* context);
void c_library_exp(float* values, int64_t n, void* context);

// RandomResizedCrop's configuration as its generator holds it
struct ResizedCropConfig {
  float scale_low = 0.08f, scale_high = 1.0f;           // scale, as float32
  double ratio_min = 3.0 / 4.0, ratio_max = 4.0 / 3.0;  // ratio, as Python floats
  float log_ratio_low = 0.0f, log_ratio_high = 0.0f;    // its log-ratio sampler's bounds (torch.log of ratio)
  int64_t out_height = 224, out_width = 224;            // size
  bool same_on_batch = false;
};

// ResizedCropGenerator.forward for `batch` images of (height, width): src and dst (batch, 4, 2)
// boxes. Scratch: 2 * batch * kResizedCropCandidates + 2 * batch floats.
void kornia_resized_crop(TorchRandom& random, const ResizedCropConfig& config, int64_t batch, int64_t height,
                         int64_t width, ExpFunction exp, void* exp_context, float* scratch, float* src, float* dst);

// ColorJitterGenerator's and ColorJiggleGenerator's draw: a factor a sample (or one for the batch)
// from each [low, high), in the order brightness, contrast, hue, saturation, then the steps' order.
struct ColorJitterConfig {
  float low[4] = {1.0f, 1.0f, 0.0f, 1.0f}, high[4] = {1.0f, 1.0f, 0.0f, 1.0f};  // as float32
  bool same_on_batch = false;
};
// factors: 4 rows of `batch` (brightness, contrast, hue, saturation); order: 4.
void kornia_color_jitter(TorchRandom& random, const ColorJitterConfig& config, int64_t batch, float* factors,
                         int64_t* order);

// kornia's uniform draw of one factor (a sampler of PlainUniformGenerator, RandomGaussianBlur's
// sigma, each of ColorJitter's): Uniform(low, high).rsample of `batch` values (one repeated with
// same_on_batch), low + rand * (high - low) in float32, low and high as the sampler holds them.
void kornia_uniform(TorchRandom& random, float low, float high, bool same_on_batch, int64_t batch, float* out);

// RandomPosterize's PosterizeGenerator: kornia_uniform's bits, rounded half to even (torch.round)
// and converted to int32.
void kornia_posterize(TorchRandom& random, float low, float high, bool same_on_batch, int64_t batch, int32_t* bits);

// RandomAffine's AffineGenerator: its samplers' bounds as it holds them (float32) and which it has.
struct AffineConfig {
  float degrees_low = 0.0f, degrees_high = 0.0f;
  bool translate = false;
  float translate_x_low = 0.0f, translate_x_high = 0.0f, translate_y_low = 0.0f, translate_y_high = 0.0f;
  int scales = 0;  // 0 (none), 2 (one factor for x and y) or 4 (x's, then y's)
  float scale_x_low = 1.0f, scale_x_high = 1.0f, scale_y_low = 1.0f, scale_y_high = 1.0f;
  bool shear = false;
  float shear_x_low = 0.0f, shear_x_high = 0.0f, shear_y_low = 0.0f, shear_y_high = 0.0f;
  bool same_on_batch = false;
};
// AffineGenerator.forward for `batch` images of (height, width), in its draws' order (angle, the
// scales, the translations, the shears): translations, center, scale (batch, 2); angle, shear_x,
// shear_y (batch,).
void kornia_affine(TorchRandom& random, const AffineConfig& config, int64_t batch, int64_t height, int64_t width,
                   float* translations, float* center, float* scale, float* angle, float* shear_x, float* shear_y);

// RandomPerspective's PerspectiveGenerator.forward for `batch` images of (height, width):
// start_points and end_points (batch, 4, 2). distortion_scale as its float32 tensor holds it; low,
// high: its offsets' sampler's bounds (0 and 1); area_preserving: its sampling_method
// "area_preserving", else "basic".
void kornia_perspective(TorchRandom& random, float distortion_scale, float low, float high, bool area_preserving,
                        bool same_on_batch, int64_t batch, int64_t height, int64_t width, float* start, float* end);

// The sums of `rows` rows of `size` float32 values, as torch's sum(-1) adds them: the torch extension
// passes torch's own (its order depends on the row's length and the CPU's vector width); the C++
// API's default is torch's order for rows shorter than a vector (four running sums, then the rest).
using RowSumFunction = void (*)(const float* values, int64_t rows, int64_t size, float* sums, void* context);
void torch_scalar_row_sum(const float* values, int64_t rows, int64_t size, float* sums, void* context);

// kornia.filters.get_gaussian_kernel1d(size, sigma) for a (batch, 1) float32 sigma: the (batch,
// size) kernel, float32 operation for operation as kornia.filters.gaussian computes it (the squared
// distance from the nearest tap, a zero 2 sigma^2 as the unit impulse). Scratch: batch floats.
void kornia_gaussian_kernel1d(const float* sigma, int64_t batch, int64_t size, ExpFunction exp, void* exp_context,
                              RowSumFunction row_sum, void* sum_context, float* scratch, float* kernel);

}  // namespace u8aug
