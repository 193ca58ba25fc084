// Large CPU outputs come from a cache of freed ones, the way torch's CUDA allocator keeps device
// memory. torch's CPU allocator gets each output from glibc, which, depending on what the process
// did before, hands out fresh pages that the kernel faults in and zeroes a page at a time: in a
// fresh process a one-image call of the standard recipe took 0.82-0.99 ms that way and 0.74-0.75
// with the cache (Zen 4). A tensor made here gives its buffer back when torch frees its storage;
// the next output of the same size (to the page) takes it. Freed buffers over the limit are handed
// back to the system, least recently freed first. No torch header: plain memory only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace u8aug {
namespace bindings {

// Smaller outputs come from torch's allocator: glibc serves them from its heap without faults.
constexpr size_t kCachedOutputMinBytes = size_t{128} << 10;
// Per process: each DataLoader worker keeps its own. Enough for three 32x3x224x224 float batches.
constexpr size_t kDefaultOutputCacheLimit = size_t{64} << 20;

// A 64-byte-aligned buffer of at least `bytes` (torch's own alignment), or nullptr when the cache
// is off or the system has no memory for it (the caller then asks torch's allocator). It goes back through
// give_back_output_buffer, the tensor's deleter.
void* take_output_buffer(size_t bytes);
void give_back_output_buffer(void* data, void* /*ctx*/);

struct OutputCacheInfo {
  size_t limit_bytes;     // the most the freed buffers may hold
  size_t cached_bytes;    // what they hold now
  size_t cached_buffers;  // how many there are
  uint64_t reused;        // outputs served from a freed buffer
  uint64_t allocated;     // outputs that needed a new one
};
OutputCacheInfo output_cache_info();
// 0 turns the cache off (every output from torch's allocator) and frees what it holds.
void set_output_cache_limit(size_t bytes);

}  // namespace bindings
}  // namespace u8aug
