// bindings/output_cache.cpp on its own (no torch): reuse by size, alignment, the limit and its
// least-recently-freed eviction, and take/give from several threads at once. Here it also runs
// under ASan + UBSan (scripts/test.sh), which the torch module does not.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "bindings/output_cache.h"

namespace u8aug {
namespace {

using bindings::give_back_output_buffer;
using bindings::output_cache_info;
using bindings::set_output_cache_limit;
using bindings::take_output_buffer;

class OutputCache : public ::testing::Test {
 protected:
  void SetUp() override {
    set_output_cache_limit(0);  // empty
    set_output_cache_limit(bindings::kDefaultOutputCacheLimit);
  }
  void TearDown() override { SetUp(); }
};

TEST_F(OutputCache, AFreedBufferServesTheNextOfItsSize) {
  void* a = take_output_buffer(200000);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  std::memset(a, 7, 200000);
  give_back_output_buffer(a, nullptr);
  const bindings::OutputCacheInfo held = output_cache_info();
  EXPECT_EQ(held.cached_buffers, 1u);
  EXPECT_GE(held.cached_bytes, 200000u);
  void* b = take_output_buffer(200001);  // the same size to the page
  EXPECT_EQ(b, a);
  EXPECT_EQ(output_cache_info().reused, held.reused + 1);
  void* c = take_output_buffer(300000);  // another size: a new buffer
  EXPECT_NE(c, a);
  EXPECT_EQ(output_cache_info().allocated, held.allocated + 1);
  give_back_output_buffer(b, nullptr);
  give_back_output_buffer(c, nullptr);
  EXPECT_EQ(output_cache_info().cached_buffers, 2u);
}

TEST_F(OutputCache, TheLimitEvictsTheLeastRecentlyFreed) {
  std::vector<void*> buffers;
  for (int i = 0; i < 4; ++i) buffers.push_back(take_output_buffer(100000));
  for (void* p : buffers) give_back_output_buffer(p, nullptr);
  const size_t one = output_cache_info().cached_bytes / 4;
  set_output_cache_limit(2 * one);
  EXPECT_EQ(output_cache_info().cached_buffers, 2u);
  // the two kept are the last two freed
  void* x = take_output_buffer(100000);
  void* y = take_output_buffer(100000);
  EXPECT_TRUE((x == buffers[2] && y == buffers[3]) || (x == buffers[3] && y == buffers[2]));
  give_back_output_buffer(x, nullptr);
  give_back_output_buffer(y, nullptr);
  void* big = take_output_buffer(10 * one);  // over the limit alone: freed at once
  give_back_output_buffer(big, nullptr);
  EXPECT_LE(output_cache_info().cached_bytes, 2 * one);
}

TEST_F(OutputCache, LimitZeroTurnsItOff) {
  give_back_output_buffer(take_output_buffer(150000), nullptr);
  set_output_cache_limit(0);
  const bindings::OutputCacheInfo off = output_cache_info();
  EXPECT_EQ(off.cached_bytes, 0u);
  EXPECT_EQ(take_output_buffer(150000), nullptr);  // the caller asks torch's allocator
  EXPECT_EQ(output_cache_info().allocated, off.allocated);
}

TEST_F(OutputCache, ManyThreadsTakeAndGiveBack) {
  set_output_cache_limit(size_t{4} << 20);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      std::vector<void*> held;
      for (int i = 0; i < 400; ++i) {
        const size_t bytes = 131072 + static_cast<size_t>((i * 7 + t) % 5) * 4096;
        void* p = take_output_buffer(bytes);
        ASSERT_NE(p, nullptr);
        std::memset(p, t, bytes);
        held.push_back(p);
        if (held.size() > 3) {
          give_back_output_buffer(held.front(), nullptr);
          held.erase(held.begin());
        }
      }
      for (void* p : held) give_back_output_buffer(p, nullptr);
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_LE(output_cache_info().cached_bytes, size_t{4} << 20);
}

}  // namespace
}  // namespace u8aug
