// The draw's block of outputs (bindings/draws.h's DrawBlock and ChainDraw): small arrays in one
// allocation, made tensors only when asked.
#include <torch/csrc/stable/library.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "bindings/draws.h"

namespace u8aug {
namespace bindings {

// The draw's outputs, a dozen small arrays, in one block of memory: each a tensor only when asked,
// a view made with torch_from_blob (no dispatcher call, unlike an empty tensor's allocation: about
// 1 us each), and the block is freed when the last of them is. Each starts at the next multiple of
// kDrawAlign from the first, the layout python/u8aug/kornia/_native_draws.py's unpack reads the
// record by.
//
// A kept call draws a block of about a kilobyte every call, past malloc's per-thread cache: calloc
// then cost more than the rest of the block's life (8k instructions a call). The last block freed is
// kept for the next draw that fits in it, zeroed again.
std::atomic<DrawBlock::Header*> DrawBlock::spare_{nullptr};

DrawBlock::DrawBlock(const char* op, size_t bytes) : op_(op) {
  const size_t size = sizeof(Header) + bytes + 2 * kAlign;
  Header* spare = spare_.exchange(nullptr, std::memory_order_acquire);
  if (spare != nullptr && spare->bytes < size) {
    std::free(spare);
    spare = nullptr;
  }
  void* memory = spare != nullptr ? static_cast<void*>(spare) : std::malloc(size);
  check(memory != nullptr, "u8aug.", op, ": could not allocate ", bytes, " bytes");
  const size_t allocated = spare != nullptr ? spare->bytes : size;
  std::memset(memory, 0, size);  // the record's gaps zero
  block_ = new (memory) Header();
  block_->bytes = allocated;
  start_ = reinterpret_cast<uint8_t*>(block_ + 1);
  start_ += (kAlign - reinterpret_cast<uintptr_t>(start_) % kAlign) % kAlign;
  free_ = start_;
  end_ = free_ + bytes + kAlign;
}

DrawBlock::~DrawBlock() { release(block_); }  // the block's own reference; the tensors hold theirs

DrawnArray DrawBlock::make(IntList sizes, ScalarType dtype) {
  check(sizes.size() <= 4, "u8aug.", op_, ": internal error: a drawn array of ", sizes.size(), " dimensions");
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  const size_t bytes = static_cast<size_t>(n * element_bytes(dtype));
  free_ += (kAlign - reinterpret_cast<uintptr_t>(free_) % kAlign) % kAlign;
  check(free_ + bytes <= end_, "u8aug.", op_, ": internal error: the output block is too small");
  DrawnArray a;
  a.data = free_;
  a.dims = static_cast<int64_t>(sizes.size());
  std::copy(sizes.begin(), sizes.end(), a.sizes.begin());
  a.dtype = dtype;
  free_ += bytes;
  return a;
}

Tensor DrawBlock::view(const DrawnArray& a) {
  std::array<int64_t, 4> strides{1, 1, 1, 1};
  for (int64_t i = a.dims - 1; i-- > 0;) strides[i] = strides[i + 1] * a.sizes[i + 1];
  return view(a.data, {a.sizes.data(), static_cast<size_t>(a.dims)}, {strides.data(), static_cast<size_t>(a.dims)},
              a.dtype);
}

Tensor DrawBlock::record() { return view(start_, {static_cast<int64_t>(free_ - start_)}, {1}, ScalarType::Byte); }

void DrawBlock::release(Header* h) {
  if (h->references.fetch_sub(1) == 1) {
    Header* empty = nullptr;
    if (!spare_.compare_exchange_strong(empty, h, std::memory_order_release)) std::free(h);
  }
}

void DrawBlock::deleter(void*, void* ctx) { release(static_cast<Header*>(ctx)); }

Tensor DrawBlock::view(uint8_t* data, IntList sizes, IntList strides, ScalarType dtype) {
  AtenTensorHandle handle = nullptr;
  block_->references.fetch_add(1);
  const AOTITorchError code = torch_from_blob(data, static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), 0,
                                              shim_dtype(dtype), aoti_torch_device_type_cpu(), -1, &handle,
                                              aoti_torch_layout_strided(), nullptr, 0, &DrawBlock::deleter, block_);
  if (code != AOTI_TORCH_SUCCESS) release(block_);
  check(code == AOTI_TORCH_SUCCESS, "u8aug.", op_, ": torch could not make an output tensor");
  return Tensor(handle);
}

std::vector<Tensor> ChainDraw::tensors() const {
  std::vector<Tensor> out;
  out.reserve(arrays.size());
  for (const DrawnArray& a : arrays) out.push_back(block->view(a));
  return out;
}

}  // namespace bindings
}  // namespace u8aug
