#include "bindings/output_cache.h"

#include <pthread.h>

#include <cstdlib>
#include <list>
#include <map>
#include <mutex>
#include <vector>

namespace u8aug {
namespace bindings {
namespace {

// Each block starts with a header that holds its size; the data follows at 64 bytes, so it keeps
// the block's 64-byte alignment.
constexpr size_t kHeader = 64;
constexpr size_t kPage = 4096;

struct Cache {
  std::mutex mutex;
  size_t limit = kDefaultOutputCacheLimit;
  size_t bytes = 0;
  uint64_t reused = 0, allocated = 0;
  std::list<char*> freed;  // least recently freed first
  std::multimap<size_t, std::list<char*>::iterator> by_size;
};

// Never destroyed: a tensor may outlive static destruction at exit and still give its buffer back.
// A fork (DataLoader workers) waits for the lock, so that the child's copy is never held by a
// thread the child does not have.
Cache& cache() {
  static Cache* c = [] {
    Cache* made = new Cache;
    pthread_atfork([] { cache().mutex.lock(); }, [] { cache().mutex.unlock(); }, [] { cache().mutex.unlock(); });
    return made;
  }();
  return *c;
}

size_t& block_size(char* block) { return *reinterpret_cast<size_t*>(block); }

// Takes the least recently freed block out of the cache (the caller holds the lock).
char* evict_oldest(Cache& c) {
  char* block = c.freed.front();
  const auto range = c.by_size.equal_range(block_size(block));
  for (auto it = range.first; it != range.second; ++it) {
    if (*it->second == block) {
      c.by_size.erase(it);
      break;
    }
  }
  c.freed.pop_front();
  c.bytes -= block_size(block);
  return block;
}

}  // namespace

void* take_output_buffer(size_t bytes) {
  if (bytes > SIZE_MAX - kHeader - kPage) return nullptr;
  const size_t size = (bytes + kHeader + kPage - 1) / kPage * kPage;
  Cache& c = cache();
  {
    const std::lock_guard<std::mutex> lock(c.mutex);
    if (c.limit == 0) return nullptr;
    // the most recently freed buffer of this size (its pages are the likeliest still in cache)
    auto it = c.by_size.upper_bound(size);
    if (it != c.by_size.begin() && (--it)->first == size) {
      char* block = *it->second;
      c.freed.erase(it->second);
      c.by_size.erase(it);
      c.bytes -= size;
      ++c.reused;
      return block + kHeader;
    }
    ++c.allocated;
  }
  void* block = nullptr;
  if (posix_memalign(&block, 64, size) != 0) return nullptr;
  block_size(static_cast<char*>(block)) = size;
  return static_cast<char*>(block) + kHeader;
}

void give_back_output_buffer(void* data, void*) {
  char* block = static_cast<char*>(data) - kHeader;
  const size_t size = block_size(block);
  std::vector<char*> to_free;
  {
    Cache& c = cache();
    const std::lock_guard<std::mutex> lock(c.mutex);
    if (size > c.limit) {
      to_free.push_back(block);
    } else {
      while (c.bytes + size > c.limit) to_free.push_back(evict_oldest(c));
      c.freed.push_back(block);
      c.by_size.emplace(size, std::prev(c.freed.end()));
      c.bytes += size;
    }
  }
  for (char* b : to_free) std::free(b);  // outside the lock: munmap can take a while
}

OutputCacheInfo output_cache_info() {
  Cache& c = cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  return {c.limit, c.bytes, c.freed.size(), c.reused, c.allocated};
}

void set_output_cache_limit(size_t bytes) {
  std::vector<char*> to_free;
  {
    Cache& c = cache();
    const std::lock_guard<std::mutex> lock(c.mutex);
    c.limit = bytes;
    while (c.bytes > c.limit) to_free.push_back(evict_oldest(c));
  }
  for (char* b : to_free) std::free(b);
}

}  // namespace bindings
}  // namespace u8aug
