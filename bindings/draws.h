// kornia's forward_parameters for a chain of modules, natively (bindings/draws.cpp; on torch's own
// generator: bindings/torch_numbers.cpp), for the ops that draw: u8aug::kornia_draws,
// u8aug::kornia_forward_parameters and the CPU's kept_call (bindings/kept_call.inc).
#pragma once

#include <array>
#include <atomic>
#include <memory>
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

// One of a draw's outputs in its DrawBlock: its bytes, sizes and dtype, a tensor only when asked.
struct DrawnArray {
  uint8_t* data = nullptr;
  std::array<int64_t, 4> sizes{};
  int64_t dims = 0;
  ScalarType dtype = ScalarType::Float;
  void* data_ptr() const { return data; }
};

// The draw's outputs in one block of memory (bindings/draw_block.cpp); a tensor made of one is a view
// that keeps the block alive.
class DrawBlock {
 public:
  DrawBlock(const char* op, size_t bytes);
  ~DrawBlock();
  DrawBlock(const DrawBlock&) = delete;
  DrawBlock& operator=(const DrawBlock&) = delete;
  DrawnArray make(IntList sizes, ScalarType dtype);
  Tensor view(const DrawnArray& a);
  // every array made so far, as one uint8 tensor of their bytes (the record: kept_call)
  Tensor record();
  // the room `count` arrays of `bytes` in all take, aligned
  static size_t bytes_for(int64_t bytes, int64_t count) { return static_cast<size_t>(bytes + count * kDrawAlign); }

 private:
  static constexpr size_t kAlign = kDrawAlign;
  struct Header {
    std::atomic<int64_t> references{1};
    size_t bytes = 0;  // the allocation's, this header's included
  };
  static void release(Header* h);
  // the last block freed, for the next draw (draw_block.cpp)
  static std::atomic<Header*> spare_;
  static void deleter(void*, void* ctx);
  Tensor view(uint8_t* data, IntList sizes, IntList strides, ScalarType dtype);

  const char* op_;
  Header* block_ = nullptr;
  uint8_t* start_ = nullptr;
  uint8_t* free_ = nullptr;
  uint8_t* end_ = nullptr;
};

// A chain's draw: its outputs in order (each module's gate as float32 and bool, the shape it saw,
// then its draw's arrays), tensors only when asked: a kept call views the few its steps read.
struct ChainDraw {
  std::shared_ptr<DrawBlock> block;
  std::vector<DrawnArray> arrays;
  size_t size() const { return arrays.size(); }
  Tensor tensor(size_t i) const { return block->view(arrays[i]); }
  std::vector<Tensor> tensors() const;
};

// The chain's draw on `random`: kornia_draws's body (exp: torch.exp, `like` a CPU tensor for its
// context).
ChainDraw draw_chain(TorchRandom& random, ExpFunction exp, const Tensor& like, const std::vector<std::string>& program,
                     const Tensor& number_tensor, const Tensor& bound_tensor, IntList shape);

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
ChainDraw kornia_draws_from_torch(const ChainAsks& asks, const Tensor& like, const std::vector<std::string>& program,
                                  const Tensor& number_tensor, const Tensor& bound_tensor, IntList shape);

}  // namespace bindings
}  // namespace u8aug
