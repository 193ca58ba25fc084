#include "cpu/parallel.h"

#include <thread>
#include <vector>

namespace u8aug {

ParallelFor serial_for() {
  return [](int64_t n, int64_t, const RangeBody& body) {
    if (n > 0) body(0, n);
  };
}

ParallelFor default_parallel_for() {
  return [](int64_t n, int64_t grain, const RangeBody& body) {
    if (n <= 0) return;
    const int64_t hw = std::max<int64_t>(1, std::thread::hardware_concurrency());
    const int64_t chunks = std::min<int64_t>(hw, (n + grain - 1) / std::max<int64_t>(1, grain));
    if (chunks <= 1) {
      body(0, n);
      return;
    }
    const int64_t per = (n + chunks - 1) / chunks;
    std::vector<std::thread> workers;
    for (int64_t begin = per; begin < n; begin += per) {
      workers.emplace_back(body, begin, std::min(n, begin + per));
    }
    body(0, std::min(n, per));  // the calling thread takes the first chunk
    for (auto& t : workers) t.join();
  };
}

}  // namespace u8aug
