// Scratch buffers kept per thread between calls. A plane-sized buffer freed and allocated again on
// every call is mmapped afresh by glibc (anything over its mmap threshold, 128 KB and up), and the
// kernel zeroes each page again on first touch: a 5-tap blur of a 32x3x224x224 batch took about 1,000
// extra page faults a call that way. The loops keep theirs as thread_local vectors and hand back any
// that grew past kKeptScratchBytes when the call ends, so a one-off huge image holds no memory.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace u8aug {
namespace cpu {

// A scratch vector's allocator: resize() leaves new elements uninitialized. A buffer sized anew each
// call (a random crop's window) grows on about half the calls, and std::allocator zeroed the grown
// part each time: a memset of up to the whole window (RandomResizedCrop(128) at batch 1: 14% of the
// call's instructions) of memory the loop then writes over. Only for buffers written before read.
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor)
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... A>
  void construct(U* p, A&&... a) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
};

template <class T>
using ScratchVector = std::vector<T, UninitializedAllocator<T>>;

constexpr size_t kKeptScratchBytes = size_t{16} << 20;

template <class... V>
void release_large_scratch(V&... buffers) {
  const auto release = [](auto& v) {
    if (v.capacity() * sizeof(v[0]) > kKeptScratchBytes) std::decay_t<decltype(v)>().swap(v);
  };
  (release(buffers), ...);
}

}  // namespace cpu
}  // namespace u8aug
