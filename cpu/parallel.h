// How the CPU loops split their rows over threads: through the caller's ParallelFor.
#pragma once

#include <algorithm>
#include <cstdint>

#include "u8aug/u8aug.h"

namespace u8aug {
namespace cpu {

// Work items per chunk so that a chunk moves at least ~64 KiB: small enough to balance over
// threads, large enough that scheduling costs nothing next to the copy.
inline int64_t grain_for(int64_t bytes_per_item) {
  return std::max<int64_t>(1, (int64_t{1} << 16) / std::max<int64_t>(1, bytes_per_item));
}

inline void run_parallel(const ParallelFor& parallel, int64_t n, int64_t grain, const RangeBody& body) {
  if (n <= 0) return;
  if (parallel) {
    parallel(n, grain, body);
  } else {
    default_parallel_for()(n, grain, body);
  }
}

}  // namespace cpu
}  // namespace u8aug
