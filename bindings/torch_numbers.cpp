// kornia's draws on torch's CPU generator itself (bindings/draws.h): what a chain's draw asks for,
// worked out once and kept, and the numbers asked of torch through its dispatcher, so that an op
// drawing this way needs no Python to read and write the generator's state
// (u8aug::kornia_forward_parameters here, u8aug::kept_call in kept_call.inc).
#include <torch/csrc/stable/library.h>

#include <algorithm>
#include <array>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bindings/draws.h"
#include "bindings/kornia_math.h"
#include "bindings/tensor_image.h"
#include "u8aug/kornia_draws.h"

namespace u8aug {
namespace bindings {
namespace {

// What a chain's draw asks for, in order, with its uniform asks in a row merged: torch.rand takes
// one word of the engine a number (TorchRandom::uniform), so torch.rand(m + n) gives the numbers of
// torch.rand(m) and then torch.rand(n). It gives zeros and the identity, so it runs the draw's
// arithmetic on them; what a draw asks never depends on the numbers it gets.
class AskRecorder final : public RandomSource {
 public:
  void uniform(float* out, int64_t n) override {
    std::fill(out, out + n, 0.0f);
    if (!asks.empty() && !asks.back().permutation) {
      asks.back().n += n;
    } else {
      asks.push_back({false, n});
    }
  }
  void randperm(int64_t n, int64_t* out) override {
    for (int64_t i = 0; i < n; ++i) out[i] = i;
    asks.push_back({true, n});
  }
  std::vector<Ask> asks;
};

void no_exp(float*, int64_t, void*) {}

// The numbers of `asks`, asked of torch's CPU generator through torch's dispatcher when made, in
// their order: torch.rand's numbers (float32 whatever torch's default dtype) for each uniform ask,
// torch.randperm for each permutation. Then served to the draw as it asks.
class TorchNumbers final : public RandomSource {
 public:
  explicit TorchNumbers(const std::vector<Ask>& asks) {
    for (const Ask& a : asks) {
      if (a.permutation) {
        // torch.randperm(n) is its out= overload on a new tensor: here on per-thread scratch
        thread_local Scratch scratch;
        int64_t* values = scratch.get<int64_t>(a.n);
        const Tensor p = cpu_view(values, a.n, ScalarType::Long);
        std::array<StableIValue, 2> stack{torch::stable::detail::from(a.n), torch::stable::detail::from(p)};
        shim(torch_call_dispatcher("aten::randperm", "out", stack.data(), TORCH_ABI_VERSION), "run torch.randperm");
        check(torch::stable::detail::to<Tensor>(stack[0]).data_ptr() == values,
              "u8aug.kornia_draws: torch.randperm gave an unexpected tensor");
        permutations_.insert(permutations_.end(), values, values + a.n);
        continue;
      }
      // torch.rand(n) is torch.empty(n).uniform_(0, 1): uniform_ on per-thread scratch, the same
      // numbers without torch.rand's allocation and its second trip through the dispatcher
      thread_local Scratch scratch;
      float* values = scratch.get<float>(a.n);
      const Tensor u = cpu_view(values, a.n, ScalarType::Float);
      std::array<StableIValue, 4> stack{torch::stable::detail::from(u), torch::stable::detail::from(0.0),
                                        torch::stable::detail::from(1.0), torch::stable::detail::from(std::nullopt)};
      shim(torch_call_dispatcher("aten::uniform_", "", stack.data(), TORCH_ABI_VERSION), "run torch.Tensor.uniform_");
      check(torch::stable::detail::to<Tensor>(stack[0]).data_ptr() == values,
            "u8aug.kornia_draws: torch.Tensor.uniform_ gave an unexpected tensor");
      uniforms_.insert(uniforms_.end(), values, values + a.n);
    }
  }
  void uniform(float* out, int64_t n) override {
    check(next_uniform_ + static_cast<size_t>(n) <= uniforms_.size(),
          "u8aug.kornia_draws: internal error: the draw asked for more numbers than it did before");
    std::copy_n(uniforms_.begin() + static_cast<std::ptrdiff_t>(next_uniform_), n, out);
    next_uniform_ += static_cast<size_t>(n);
  }
  void randperm(int64_t n, int64_t* out) override {
    check(next_permutation_ + static_cast<size_t>(n) <= permutations_.size(),
          "u8aug.kornia_draws: internal error: the draw asked for more permutations than it did before");
    std::copy_n(permutations_.begin() + static_cast<std::ptrdiff_t>(next_permutation_), n, out);
    next_permutation_ += static_cast<size_t>(n);
  }
  bool all_served() const { return next_uniform_ == uniforms_.size() && next_permutation_ == permutations_.size(); }

 private:
  std::vector<float> uniforms_;
  std::vector<int64_t> permutations_;
  size_t next_uniform_ = 0, next_permutation_ = 0;
};

}  // namespace

// A chain's asks, worked out by running its draw on an AskRecorder once, then kept: a kept call
// asks the same of each call with one batch size (draw_chain's checks ran the first time). A copy,
// as another thread may drop what is kept.
ChainAsks chain_asks(const std::vector<std::string>& program, const Tensor& number_tensor, const Tensor& bound_tensor,
                     IntList shape, const Tensor& like) {
  static std::mutex mutex;
  static std::unordered_map<std::string, ChainAsks> kept;
  // the key's parts as raw bytes, each length before its part, into one buffer (a number written
  // in words was an allocation each)
  const bool numbers_keyed = number_tensor.defined() && number_tensor.is_cpu() &&
                             number_tensor.scalar_type() == ScalarType::Double && number_tensor.is_contiguous();
  const bool bounds_keyed = bound_tensor.defined() && bound_tensor.is_cpu() &&
                            bound_tensor.scalar_type() == ScalarType::Float && bound_tensor.is_contiguous();
  const size_t number_bytes = numbers_keyed ? static_cast<size_t>(8 * number_tensor.numel()) : 0;
  const size_t bound_bytes = bounds_keyed ? static_cast<size_t>(4 * bound_tensor.numel()) : 0;
  size_t size = number_bytes + bound_bytes + 8 * (program.size() + shape.size() + 4);
  for (const std::string& line : program) size += line.size();
  std::string key;
  key.reserve(size);
  const auto put = [&key](int64_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put(static_cast<int64_t>(program.size()));
  for (const std::string& line : program) {
    put(static_cast<int64_t>(line.size()));
    key += line;
  }
  put(numbers_keyed ? static_cast<int64_t>(number_bytes) : -1);
  if (numbers_keyed) key.append(static_cast<const char*>(number_tensor.data_ptr()), number_bytes);
  put(bounds_keyed ? static_cast<int64_t>(bound_bytes) : -1);
  if (bounds_keyed) key.append(static_cast<const char*>(bound_tensor.data_ptr()), bound_bytes);
  put(static_cast<int64_t>(shape.size()));
  for (int64_t s : shape) put(s);
  {
    std::lock_guard<std::mutex> lock(mutex);
    const auto found = kept.find(key);
    if (found != kept.end()) return found->second;
  }
  AskRecorder recorder;
  TorchRandom random(recorder);
  ChainAsks made;
  made.tensors = draw_chain(random, no_exp, like, program, number_tensor, bound_tensor, shape).size();
  made.asks = std::move(recorder.asks);
  std::lock_guard<std::mutex> lock(mutex);
  if (kept.size() >= 4096) kept.clear();  // a bound on what many configurations keep
  return kept.emplace(std::move(key), std::move(made)).first->second;
}

ChainDraw kornia_draws_from_torch(const ChainAsks& asks, const Tensor& like, const std::vector<std::string>& program,
                                  const Tensor& number_tensor, const Tensor& bound_tensor, IntList shape) {
  TorchNumbers numbers(asks.asks);
  TorchRandom random(numbers);
  ChainDraw drawn = draw_chain(random, torch_exp, like, program, number_tensor, bound_tensor, shape);
  check(numbers.all_served(), "u8aug.kornia_draws: internal error: the draw asked for fewer numbers than before");
  return drawn;
}

namespace {

// kornia's forward_parameters for a chain, on torch's CPU generator itself (the op's schema, with
// its tags, and its fake are python/u8aug/kornia/_native_draws.py's)
std::vector<Tensor> kornia_forward_parameters(const std::vector<std::string>& program, const Tensor& number_tensor,
                                              const Tensor& bound_tensor, IntList shape) {
  check(number_tensor.defined() && number_tensor.is_cpu(),
        "u8aug.kornia_forward_parameters: expected numbers on the CPU");
  const ChainAsks asks = chain_asks(program, number_tensor, bound_tensor, shape, number_tensor);
  return kornia_draws_from_torch(asks, number_tensor, program, number_tensor, bound_tensor, shape).tensors();
}

}  // namespace
}  // namespace bindings
}  // namespace u8aug

STABLE_TORCH_LIBRARY_IMPL(u8aug, CPU, m) {
  m.impl("kornia_forward_parameters", TORCH_BOX(&u8aug::bindings::kornia_forward_parameters));
}
