// Scratch buffers kept per thread between calls. A plane-sized buffer freed and allocated again on
// every call is mmapped afresh by glibc (anything over its mmap threshold, 128 KB and up), and the
// kernel zeroes each page again on first touch: a 5-tap blur of a 32x3x224x224 batch took about 1,000
// extra page faults a call that way. The loops keep theirs as thread_local vectors and hand back any
// that grew past kKeptScratchBytes when the call ends, so a one-off huge image holds no memory.
#pragma once

#include <cstddef>
#include <vector>

namespace u8aug {
namespace cpu {

constexpr size_t kKeptScratchBytes = size_t{16} << 20;

template <class... T>
void release_large_scratch(std::vector<T>&... buffers) {
  const auto release = [](auto& v) {
    if (v.capacity() * sizeof(v[0]) > kKeptScratchBytes) std::vector<std::decay_t<decltype(v[0])>>().swap(v);
  };
  (release(buffers), ...);
}

}  // namespace cpu
}  // namespace u8aug
