// Helper ops outside the image-op catalogue for u8aug.kornia's draws: kornia's uniform draws turned
// into its parameters (u8aug/draws.h, for python/u8aug/kornia/_draws.py), and torch.rand's numbers
// from the CPU generator's state (u8aug/mersenne.h, for python/u8aug/_rng.py). kornia draws its
// parameters on the CPU, so these have a CPU kernel only.
#include <torch/csrc/stable/library.h>

#include <cstring>

#include "bindings/tensor_image.h"
#include "u8aug/draws.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace bindings {
namespace {

// float32, contiguous, on the CPU, of the given shape
const float* draws_of(const char* op, const char* name, const Tensor& t, IntList shape) {
  bool ok = t.defined() && t.is_cpu() && t.scalar_type() == ScalarType::Float &&
            t.dim() == static_cast<int64_t>(shape.size());
  for (size_t i = 0; ok && i < shape.size(); ++i) ok = t.size(static_cast<int64_t>(i)) == shape[i];
  check(ok, "u8aug.", op, ": expected ", name, " to be a float32 CPU tensor of shape ", Shape{shape}, ", got ",
        t.defined() ? torch::headeronly::toString(t.scalar_type()) : "undefined", " of shape ",
        t.defined() ? Shape{t.sizes()} : Shape{}, t.defined() ? " on " + device_name(t) : "");
  check(t.is_contiguous(), "u8aug.", op, ": ", name, " must be contiguous");
  return static_cast<const float*>(t.data_ptr());
}

// RandomResizedCrop's src and dst boxes, stacked: (2, B, 4, 2) float32. area and aspect (B, 10),
// x and y (B,); size: int64, the input's (H, W) as (2,), or (B, 2) for images of several sizes.
Tensor resized_crop_boxes(const Tensor& area, const Tensor& aspect, const Tensor& x, const Tensor& y,
                          const Tensor& size, double scale_low, double scale_span, double ratio_min, double ratio_max,
                          int64_t out_height, int64_t out_width) {
  const char* op = "resized_crop_boxes";
  check(area.defined() && area.dim() == 2, "u8aug.", op, ": expected area of shape (B, ", kResizedCropCandidates, ")");
  const int64_t b = area.size(0), n = kResizedCropCandidates;
  ResizedCropDraws d;
  d.area = draws_of(op, "area", area, {b, n});
  d.aspect = draws_of(op, "aspect", aspect, {b, n});
  d.x = draws_of(op, "x", x, {b});
  d.y = draws_of(op, "y", y, {b});
  const bool per_sample = size.defined() && size.dim() == 2;
  check(size.defined() && size.is_cpu() && size.scalar_type() == ScalarType::Long && size.is_contiguous() &&
            (per_sample ? size.size(0) == b && size.size(1) == 2 : size.dim() == 1 && size.size(0) == 2),
        "u8aug.", op, ": expected size to be a contiguous int64 CPU tensor of shape [2] or [", b,
        ", 2] (the input's H, W), got ", size.defined() ? Shape{size.sizes()} : Shape{});
  const int64_t* hw = static_cast<const int64_t*>(size.data_ptr());
  for (int64_t i = 0; i < (per_sample ? b : 1); ++i) {
    const int64_t h = hw[2 * i], w = hw[2 * i + 1];
    check(h >= 1 && w >= 1 && h <= (int64_t{1} << 24) && w <= (int64_t{1} << 24), "u8aug.", op,
          ": the input size must be whole numbers in [1, 2^24], got (", h, ", ", w, ")");
  }
  check(out_height >= 1 && out_width >= 1, "u8aug.", op, ": the output size must be positive, got (", out_height, ", ",
        out_width, ")");
  check(ratio_min > 0 && ratio_min <= ratio_max, "u8aug.", op, ": expected 0 < ratio_min <= ratio_max, got ", ratio_min,
        " and ", ratio_max);
  d.batch = b;
  d.sizes = hw, d.size_per_sample = per_sample;
  d.scale_low = static_cast<float>(scale_low), d.scale_span = static_cast<float>(scale_span);
  d.ratio_min = ratio_min, d.ratio_max = ratio_max;
  d.out_height = out_height, d.out_width = out_width;
  const Tensor out = empty_float(op, area, {2, b, 4, 2});
  float* boxes = static_cast<float*>(out.data_ptr());
  u8aug::resized_crop_boxes(d, boxes, boxes + 8 * b);
  return out;
}

// The bytes torch.get_rng_state() gives for the CPU generator (CPUGeneratorImplState: the legacy
// THGeneratorState, then the cached float normal sample), at the offsets that layout has had since
// torch 1.6: the engine's left (int32), next (uint64) and its 624 words, each in a uint64.
constexpr int64_t kRngStateBytes = 5056;
constexpr size_t kRngLeft = 8, kRngNext = 16, kRngWords = 24;

// count of torch.rand's float32 numbers from the CPU generator's state bytes (torch.get_rng_state()),
// which are advanced in place as torch.rand would advance them.
Tensor torch_uniform(const Tensor& state, int64_t count) {
  const char* op = "torch_uniform";
  check(state.defined() && state.is_cpu() && state.scalar_type() == ScalarType::Byte && state.dim() == 1 &&
            state.size(0) == kRngStateBytes && state.is_contiguous(),
        "u8aug.", op, ": expected the CPU generator's state as torch.get_rng_state() gives it (a contiguous uint8 CPU ",
        "tensor of ", kRngStateBytes, " bytes), got ",
        state.defined() ? torch::headeronly::toString(state.scalar_type()) : "undefined", " of shape ",
        state.defined() ? Shape{state.sizes()} : Shape{});
  check(count >= 0, "u8aug.", op, ": expected count >= 0, got ", count);
  uint8_t* bytes = static_cast<uint8_t*>(state.data_ptr());
  MersenneState engine;
  int32_t left = 0;
  uint64_t next = 0;
  std::memcpy(&left, bytes + kRngLeft, sizeof left);
  std::memcpy(&next, bytes + kRngNext, sizeof next);
  for (int i = 0; i < kMersenneWords; ++i) {
    uint64_t word = 0;
    std::memcpy(&word, bytes + kRngWords + 8 * i, sizeof word);
    engine.words[i] = static_cast<uint32_t>(word);
  }
  engine.left = left;
  engine.next = next > static_cast<uint64_t>(kMersenneWords) ? -1 : static_cast<int64_t>(next);
  const Tensor out = empty_float(op, state, {count});
  call_core([&] { cpu::torch_uniform(engine, static_cast<float*>(out.data_ptr()), count); });
  left = static_cast<int32_t>(engine.left);
  next = static_cast<uint64_t>(engine.next);
  std::memcpy(bytes + kRngLeft, &left, sizeof left);
  std::memcpy(bytes + kRngNext, &next, sizeof next);
  for (int i = 0; i < kMersenneWords; ++i) {
    const uint64_t word = engine.words[i];
    std::memcpy(bytes + kRngWords + 8 * i, &word, sizeof word);
  }
  return out;
}

}  // namespace
}  // namespace bindings
}  // namespace u8aug

STABLE_TORCH_LIBRARY_IMPL(u8aug, CPU, m) {
  m.impl("resized_crop_boxes", TORCH_BOX(&u8aug::bindings::resized_crop_boxes));
  m.impl("torch_uniform", TORCH_BOX(&u8aug::bindings::torch_uniform));
}
