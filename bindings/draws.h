// kornia's forward_parameters for a chain of modules, natively (bindings/draws.cpp; on torch's own
// generator: bindings/torch_numbers.cpp), for the ops that draw: u8aug::kornia_draws,
// u8aug::kornia_forward_parameters and the CPU's kept_call (bindings/kept_call.inc).
#pragma once

#include <string>
#include <vector>

#include "bindings/tensor_image.h"
#include "u8aug/kornia_draws.h"

namespace u8aug {
namespace bindings {

// Where each of the draw's tensors starts in the record: at the next multiple of this from the
// first (python/u8aug/kornia/_native_draws.py's unpack reads it by the same rule).
constexpr size_t kDrawAlign = 16;

// kornia's forward_parameters for a chain of modules (each a line of `program`: KIND SAME INTS...,
// python/u8aug/kornia/_native_draws.py), from the CPU generator's state bytes (torch.get_rng_state(),
// advanced in place): for each module its gate (float32, and as bool), the input shape it saw
// (int64), then its draw's tensors (u8aug/kornia_draws.h). `record`, where given, gets all of
// them as one uint8 tensor, each at its aligned place in order.
std::vector<Tensor> kornia_draws(const Tensor& state, const std::vector<std::string>& program,
                                 const Tensor& number_tensor, const Tensor& bound_tensor, IntList shape,
                                 Tensor* record);

// The chain's draw on `random`: kornia_draws's body (exp: torch.exp, `like` a CPU tensor for its
// context and for the tensors made).
std::vector<Tensor> draw_chain(TorchRandom& random, ExpFunction exp, const Tensor& like,
                               const std::vector<std::string>& program, const Tensor& number_tensor,
                               const Tensor& bound_tensor, IntList shape, Tensor* record);

// One ask of a draw for torch's numbers: n uniform float32s (torch.rand), or a permutation of n
// (torch.randperm).
struct Ask {
  bool permutation;
  int64_t n;
};

// What a chain's draw asks torch for, in order (its uniform asks in a row merged), and how many
// tensors it gives, for a program, its numbers, bounds and the input's shape (bindings/torch_numbers.cpp).
struct ChainAsks {
  std::vector<Ask> asks;
  size_t tensors = 0;
};
// Worked out once (the draw run on zeros, every check with it), then kept; nothing is drawn.
ChainAsks chain_asks(const std::vector<std::string>& program, const Tensor& number_tensor, const Tensor& bound_tensor,
                     IntList shape, const Tensor& like);

// The draw on torch's CPU generator itself: the numbers `asks` names asked of torch through its
// dispatcher (torch.rand for each run of uniform numbers, torch.randperm), so that an op drawing
// this way needs no Python to read and write the generator's state. `like`: a CPU tensor.
std::vector<Tensor> kornia_draws_from_torch(const ChainAsks& asks, const Tensor& like,
                                            const std::vector<std::string>& program, const Tensor& number_tensor,
                                            const Tensor& bound_tensor, IntList shape, Tensor* record);

}  // namespace bindings
}  // namespace u8aug
