// Large CPU outputs come from a cache of freed ones, the way torch's CUDA allocator keeps device
// memory. torch's CPU allocator gets a 19 MB float batch (32x3x224x224) from glibc as fresh pages
// on every call, and the kernel zeroes each page again on first touch: writing such a batch into a
// fresh tensor took 0.6-1.0 ms against 0.3 ms into a reused one (Zen 4), a sixth of the fast
// standard pipeline. A tensor made here gives its buffer back when torch frees its storage; the
// next output of the same size (to the page) takes it. Freed buffers over the limit are handed back
// to the system, least recently freed first. No torch header: plain memory only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace u8aug {
namespace bindings {

// Smaller outputs come from torch's allocator: glibc serves them from its heap without faults.
constexpr size_t kCachedOutputMinBytes = size_t{128} << 10;
constexpr size_t kDefaultOutputCacheLimit = size_t{256} << 20;

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
