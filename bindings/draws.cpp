// Helper ops outside the image-op catalogue for u8aug.kornia's draws: kornia's uniform draws turned
// into its parameters (u8aug/draws.h, for python/u8aug/kornia/_draws.py), and torch.rand's numbers
// from the CPU generator's state (u8aug/mersenne.h, for python/u8aug/_rng.py). kornia draws its
// parameters on the CPU, so these have a CPU kernel only.
#include <torch/csrc/stable/library.h>

#include <array>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bindings/draws.h"
#include "bindings/kornia_math.h"
#include "bindings/tensor_image.h"
#include "u8aug/draws.h"
#include "u8aug/kornia_draws.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace bindings {

// float32, contiguous, on the CPU, of the given shape
const float* draws_of(const char* op, const char* name, const Tensor& t, IntList shape) {
  bool ok = t.defined() && t.is_cpu() && t.scalar_type() == ScalarType::Float &&
            t.dim() == static_cast<int64_t>(shape.size());
  for (size_t i = 0; ok && i < shape.size(); ++i) ok = t.size(static_cast<int64_t>(i)) == shape[i];
  if (!ok && !t.defined()) fail("u8aug.", op, ": expected ", name, " to be a float32 CPU tensor, got an undefined one");
  check(ok, "u8aug.", op, ": expected ", name, " to be a float32 CPU tensor of shape ", Shape{shape}, ", got ",
        torch::headeronly::toString(t.scalar_type()), " of shape ", Shape{t.sizes()}, " on ", device_name(t));
  check(t.is_contiguous(), "u8aug.", op, ": ", name, " must be contiguous");
  return static_cast<const float*>(t.data_ptr());
}

namespace {

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

// The CPU generator's state bytes (torch.get_rng_state()): checked, and read into an engine.
uint8_t* state_bytes(const char* op, const Tensor& state) {
  check(state.defined() && state.is_cpu() && state.scalar_type() == ScalarType::Byte && state.dim() == 1 &&
            state.size(0) == kRngStateBytes && state.is_contiguous(),
        "u8aug.", op, ": expected the CPU generator's state as torch.get_rng_state() gives it (a contiguous uint8 CPU ",
        "tensor of ", kRngStateBytes, " bytes), got ",
        state.defined() ? torch::headeronly::toString(state.scalar_type()) : "undefined", " of shape ",
        state.defined() ? Shape{state.sizes()} : Shape{});
  return static_cast<uint8_t*>(state.data_ptr());
}

MersenneState read_engine(const uint8_t* bytes) {
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
  return engine;
}

void write_engine(const MersenneState& engine, uint8_t* bytes) {
  const int32_t left = static_cast<int32_t>(engine.left);
  const uint64_t next = static_cast<uint64_t>(engine.next);
  std::memcpy(bytes + kRngLeft, &left, sizeof left);
  std::memcpy(bytes + kRngNext, &next, sizeof next);
  for (int i = 0; i < kMersenneWords; ++i) {
    const uint64_t word = engine.words[i];
    std::memcpy(bytes + kRngWords + 8 * i, &word, sizeof word);
  }
}

// count of torch.rand's float32 numbers from the CPU generator's state bytes (torch.get_rng_state()),
// which are advanced in place as torch.rand would advance them.
Tensor torch_uniform(const Tensor& state, int64_t count) {
  const char* op = "torch_uniform";
  uint8_t* bytes = state_bytes(op, state);
  check(count >= 0, "u8aug.", op, ": expected count >= 0, got ", count);
  MersenneState engine = read_engine(bytes);
  const Tensor out = empty_float(op, state, {count});
  call_core([&] { cpu::torch_uniform(engine, static_cast<float*>(out.data_ptr()), count); });
  write_engine(engine, bytes);
  return out;
}

// One module's draw of a program (python/u8aug/kornia/_native_draws.py writes them): the line "KIND
// SAME INTS...", SAME same_on_batch (0 or 1); its numbers (p, the per-sample gate's probability with
// p_batch 1, then the kind's) come from the program's list of numbers, in order.
struct ModuleDraw {
  std::string_view kind;  // a view into the program's line
  bool same_on_batch = false;
  std::vector<int64_t> ints;
  double p = 1.0;
  std::vector<double> numbers;
};

ModuleDraw parse_draw(const std::string& text, const std::vector<double>& numbers, size_t& next_number) {
  const std::vector<std::string_view> words = split_words(text);
  ModuleDraw d;
  const std::optional<int64_t> same = words.size() >= 2 ? whole_number(words[1]) : std::nullopt;
  check(same.has_value(), "u8aug.kornia_draws: expected \"KIND SAME INTS...\", got \"", text, "\"");
  d.kind = words[0];
  d.same_on_batch = *same != 0;
  for (size_t i = 2; i < words.size(); ++i) {
    const std::optional<int64_t> a = whole_number(words[i]);
    check(a.has_value(), "u8aug.kornia_draws: a word that is not a whole number in \"", text, "\"");
    d.ints.push_back(*a);
  }
  struct Kind {
    const char* name;
    size_t ints, numbers;
  };
  // resized_crop: the output (H, W); scale's and ratio's ends
  // uniform: how many factors (each a sampler's bounds)
  static constexpr Kind kinds[] = {{"none", 0, 0},   {"resized_crop", 2, 4}, {"color_jitter", 0, 0}, {"uniform", 1, 0},
                                   {"affine", 3, 0}, {"perspective", 1, 0},  {"posterize", 0, 0}};
  const Kind* kind = nullptr;
  for (const Kind& k : kinds) kind = d.kind == k.name ? &k : kind;
  check(kind != nullptr, "u8aug.kornia_draws: no draw \"", d.kind,
        "\" (none, resized_crop, color_jitter, uniform, affine, perspective, posterize)");
  check(d.ints.size() == kind->ints, "u8aug.kornia_draws: ", d.kind, " takes ", kind->ints, " whole numbers, got \"",
        text, "\"");
  check(next_number + 1 + kind->numbers <= numbers.size(),
        "u8aug.kornia_draws: the program needs more numbers than the ", numbers.size(), " given");
  d.p = numbers[next_number++];
  check(d.p >= 0.0 && d.p <= 1.0, "u8aug.kornia_draws: p must be in [0, 1], got ", d.p, " for \"", text, "\"");
  d.numbers.assign(numbers.begin() + static_cast<std::ptrdiff_t>(next_number),
                   numbers.begin() + static_cast<std::ptrdiff_t>(next_number + kind->numbers));
  next_number += kind->numbers;
  return d;
}

}  // namespace

ChainDraw draw_chain(TorchRandom& random, ExpFunction exp, const Tensor& like, const std::vector<std::string>& program,
                     const Tensor& number_tensor, const Tensor& bound_tensor, IntList shape) {
  const char* op = "kornia_draws";
  // the numbers as one float64 tensor: a list of floats would be a graph input each under torch.compile
  check(number_tensor.defined() && number_tensor.is_cpu() && number_tensor.scalar_type() == ScalarType::Double &&
            number_tensor.dim() == 1 && number_tensor.is_contiguous(),
        "u8aug.", op, ": expected numbers to be a contiguous 1-D float64 CPU tensor");
  const double* number_data = static_cast<const double*>(number_tensor.data_ptr());
  const std::vector<double> numbers(number_data, number_data + number_tensor.numel());
  // the samplers' bounds (float32, as kornia holds them), one tensor for the chain
  check(bound_tensor.defined() && bound_tensor.is_cpu() && bound_tensor.scalar_type() == ScalarType::Float &&
            bound_tensor.dim() == 1 && bound_tensor.is_contiguous(),
        "u8aug.", op, ": expected bounds to be a contiguous 1-D float32 CPU tensor");
  const float* bounds = static_cast<const float*>(bound_tensor.data_ptr());
  const size_t bound_count = static_cast<size_t>(bound_tensor.numel());
  check(shape.size() >= 3 && shape[0] >= 1, "u8aug.", op, ": expected a batch shape (B, ..., H, W) with B >= 1, got ",
        Shape{shape});
  for (int64_t s : shape) check(s >= 1 && s <= (int64_t{1} << 24), "u8aug.", op, ": bad batch shape ", Shape{shape});
  std::vector<int64_t> input(shape.begin(), shape.end());
  const int64_t b = input[0];
  // each module's outputs: its gate (float32 and bool) and the shape, then at most a crop's boxes
  // (2 x 8 B float32) and sizes (2 x 2 B int64), ColorJitter's factors (4 B float32) and order, or
  // at most 8 uniform factors (8 B float32), or RandomAffine's (10 B float32)
  const int64_t modules = static_cast<int64_t>(program.size());
  const int64_t most = 5 * b + 8 * static_cast<int64_t>(input.size()) + std::max<int64_t>(96 * b, 16 * b + 32);
  ChainDraw drawn;
  drawn.block = std::make_shared<DrawBlock>(op, DrawBlock::bytes_for(modules * most, modules * 8));
  DrawBlock& block = *drawn.block;
  std::vector<DrawnArray>& out = drawn.arrays;
  size_t next_bound = 0, next_number = 0;
  auto take_bound = [&]() {
    check(next_bound < bound_count, "u8aug.", op, ": the program needs more bounds than the ", bound_count, " given");
    return bounds[next_bound++];
  };
  auto new_tensor = [&](IntList sizes, ScalarType dtype) { return block.make(sizes, dtype); };
  out.reserve(static_cast<size_t>(modules) * 9);  // a module's outputs: 3, then at most 6 (RandomAffine's)
  for (const std::string& text : program) {
    const ModuleDraw d = parse_draw(text, numbers, next_number);
    const DrawnArray gate = new_tensor({b}, ScalarType::Float), take = new_tensor({b}, ScalarType::Bool);
    float* g = static_cast<float*>(gate.data_ptr());
    kornia_gate(random, d.p, d.same_on_batch, b, g);
    bool* t = static_cast<bool*>(take.data_ptr());
    for (int64_t i = 0; i < b; ++i) t[i] = g[i] > 0.5f;
    const DrawnArray seen = new_tensor({static_cast<int64_t>(input.size())}, ScalarType::Long);
    std::copy(input.begin(), input.end(), static_cast<int64_t*>(seen.data_ptr()));
    out.insert(out.end(), {gate, take, seen});
    const int64_t h = input[input.size() - 2], w = input[input.size() - 1];
    if (d.kind == "resized_crop") {
      ResizedCropConfig c;
      c.scale_low = static_cast<float>(d.numbers[0]), c.scale_high = static_cast<float>(d.numbers[1]);
      c.ratio_min = d.numbers[2], c.ratio_max = d.numbers[3];
      c.out_height = d.ints[0], c.out_width = d.ints[1];
      check(c.out_height >= 1 && c.out_width >= 1 && c.ratio_min > 0 && c.ratio_min <= c.ratio_max, "u8aug.", op,
            ": bad resized_crop \"", text, "\"");
      c.log_ratio_low = take_bound(), c.log_ratio_high = take_bound();
      c.same_on_batch = d.same_on_batch;
      const DrawnArray src = new_tensor({b, 4, 2}, ScalarType::Float), dst = new_tensor({b, 4, 2}, ScalarType::Float);
      const DrawnArray in_size = new_tensor({b, 2}, ScalarType::Long), out_size = new_tensor({b, 2}, ScalarType::Long);
      thread_local std::vector<float> scratch;  // kept: a kept call draws every call
      scratch.resize(static_cast<size_t>(b * (2 * kResizedCropCandidates + 2)));
      kornia_resized_crop(random, c, b, h, w, exp, const_cast<Tensor*>(&like), scratch.data(),
                          static_cast<float*>(src.data_ptr()), static_cast<float*>(dst.data_ptr()));
      int64_t* sizes_in = static_cast<int64_t*>(in_size.data_ptr());
      int64_t* sizes_out = static_cast<int64_t*>(out_size.data_ptr());
      for (int64_t i = 0; i < b; ++i) {
        sizes_in[2 * i] = h, sizes_in[2 * i + 1] = w;
        sizes_out[2 * i] = c.out_height, sizes_out[2 * i + 1] = c.out_width;
      }
      out.insert(out.end(), {src, dst, in_size, out_size});
      // the crop always applies (a gated shape change does not fuse): the next module sees its size
      input[input.size() - 2] = c.out_height, input[input.size() - 1] = c.out_width;
    } else if (d.kind == "color_jitter") {
      ColorJitterConfig c;
      for (int k = 0; k < 4; ++k) c.low[k] = take_bound(), c.high[k] = take_bound();
      c.same_on_batch = d.same_on_batch;
      thread_local std::vector<float> factors;
      factors.resize(static_cast<size_t>(4 * b));
      for (int k = 0; k < 4; ++k) out.push_back(new_tensor({b}, ScalarType::Float));
      const DrawnArray order = new_tensor({4}, ScalarType::Long);
      kornia_color_jitter(random, c, b, factors.data(), static_cast<int64_t*>(order.data_ptr()));
      for (int k = 0; k < 4; ++k) {
        float* f = static_cast<float*>(out[out.size() - 4 + k].data_ptr());
        std::copy(factors.begin() + k * b, factors.begin() + (k + 1) * b, f);
      }
      out.push_back(order);
    } else if (d.kind == "affine") {
      // which samplers the generator has: translate (0 or 1), scale (0, 2 or 4 bounds), shear (0 or 1)
      AffineConfig c;
      check((d.ints[0] == 0 || d.ints[0] == 1) && (d.ints[1] == 0 || d.ints[1] == 2 || d.ints[1] == 4) &&
                (d.ints[2] == 0 || d.ints[2] == 1),
            "u8aug.", op, ": bad affine \"", text, "\" (TRANSLATE 0|1, SCALES 0|2|4, SHEAR 0|1)");
      c.same_on_batch = d.same_on_batch;
      c.degrees_low = take_bound(), c.degrees_high = take_bound();
      c.translate = d.ints[0] == 1, c.scales = static_cast<int>(d.ints[1]), c.shear = d.ints[2] == 1;
      if (c.scales > 0) c.scale_x_low = take_bound(), c.scale_x_high = take_bound();
      if (c.scales == 4) c.scale_y_low = take_bound(), c.scale_y_high = take_bound();
      if (c.translate) {
        c.translate_x_low = take_bound(), c.translate_x_high = take_bound();
        c.translate_y_low = take_bound(), c.translate_y_high = take_bound();
      }
      if (c.shear) {
        c.shear_x_low = take_bound(), c.shear_x_high = take_bound();
        c.shear_y_low = take_bound(), c.shear_y_high = take_bound();
      }
      const DrawnArray translations = new_tensor({b, 2}, ScalarType::Float),
                       center = new_tensor({b, 2}, ScalarType::Float);
      const DrawnArray scale = new_tensor({b, 2}, ScalarType::Float), angle = new_tensor({b}, ScalarType::Float);
      const DrawnArray shear_x = new_tensor({b}, ScalarType::Float), shear_y = new_tensor({b}, ScalarType::Float);
      kornia_affine(random, c, b, h, w, static_cast<float*>(translations.data_ptr()),
                    static_cast<float*>(center.data_ptr()), static_cast<float*>(scale.data_ptr()),
                    static_cast<float*>(angle.data_ptr()), static_cast<float*>(shear_x.data_ptr()),
                    static_cast<float*>(shear_y.data_ptr()));
      out.insert(out.end(), {translations, center, scale, angle, shear_x, shear_y});
    } else if (d.kind == "perspective") {
      // the sampling method (0 basic, 1 area_preserving); its bounds: distortion_scale, then the
      // offsets' sampler's low and high
      check(d.ints[0] == 0 || d.ints[0] == 1, "u8aug.", op, ": bad perspective \"", text, "\" (METHOD 0|1)");
      const float scale = take_bound(), low = take_bound(), high = take_bound();
      check(scale >= 0.0f && scale <= 1.0f, "u8aug.", op, ": distortion_scale must be in [0, 1], got ", scale);
      const DrawnArray start = new_tensor({b, 4, 2}, ScalarType::Float), end = new_tensor({b, 4, 2}, ScalarType::Float);
      kornia_perspective(random, scale, low, high, d.ints[0] == 1, d.same_on_batch, b, h, w,
                         static_cast<float*>(start.data_ptr()), static_cast<float*>(end.data_ptr()));
      out.insert(out.end(), {start, end});
    } else if (d.kind == "posterize") {
      const float low = take_bound(), high = take_bound();
      check(low >= 0.0f && high <= 8.0f && low <= high, "u8aug.", op, ": posterize bits must lie in [0, 8], got [", low,
            ", ", high, "]");
      const DrawnArray bits = new_tensor({b}, ScalarType::Int);
      kornia_posterize(random, low, high, d.same_on_batch, b, static_cast<int32_t*>(bits.data_ptr()));
      out.push_back(bits);
    } else if (d.kind == "uniform") {
      check(d.ints[0] >= 1 && d.ints[0] <= 8, "u8aug.", op, ": a uniform draw takes 1 to 8 factors, got \"", text,
            "\"");
      for (int64_t k = 0; k < d.ints[0]; ++k) {
        const float low = take_bound(), high = take_bound();
        const DrawnArray f = new_tensor({b}, ScalarType::Float);
        kornia_uniform(random, low, high, d.same_on_batch, b, static_cast<float*>(f.data_ptr()));
        out.push_back(f);
      }
    }
  }
  check(next_bound == bound_count && next_number == numbers.size(), "u8aug.", op, ": the program used ", next_bound,
        " of the ", bound_count, " bounds and ", next_number, " of the ", numbers.size(), " numbers given");
  return drawn;  // the record's layout is the outputs' order: DrawBlock::make places each after the last
}

std::vector<Tensor> kornia_draws(const Tensor& state, const std::vector<std::string>& program,
                                 const Tensor& number_tensor, const Tensor& bound_tensor, IntList shape,
                                 Tensor* record) {
  uint8_t* bytes = state_bytes("kornia_draws", state);
  TorchRandom random(read_engine(bytes));
  const ChainDraw drawn = draw_chain(random, torch_exp, state, program, number_tensor, bound_tensor, shape);
  write_engine(random.state(), bytes);
  if (record != nullptr) *record = drawn.block->record();
  return drawn.tensors();
}

namespace {

std::vector<Tensor> kornia_draws_op(const Tensor& state, const std::vector<std::string>& program,
                                    const Tensor& number_tensor, const Tensor& bound_tensor, IntList shape) {
  return kornia_draws(state, program, number_tensor, bound_tensor, shape, nullptr);
}

}  // namespace
}  // namespace bindings
}  // namespace u8aug

STABLE_TORCH_LIBRARY_IMPL(u8aug, CPU, m) {
  m.impl("resized_crop_boxes", TORCH_BOX(&u8aug::bindings::resized_crop_boxes));
  m.impl("torch_uniform", TORCH_BOX(&u8aug::bindings::torch_uniform));
  m.impl("kornia_draws", TORCH_BOX(&u8aug::bindings::kornia_draws_op));
}
