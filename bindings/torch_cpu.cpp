// CPU implementations of the torch ops: the core runs on torch's own thread pool (through the
// stable ABI's parallel_for), so torch.set_num_threads and DataLoader workers apply.
#include <torch/csrc/stable/library.h>

#include "bindings/arguments.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace bindings {
namespace {

const ParallelFor& torch_parallel_for() {
  // Work torch would run inline as one range anyway (no more than a grain), and whatever such a
  // range starts (torch marks it a parallel region, which runs nested calls inline too): run here,
  // without the shim's round trip (2 us of a small image's call).
  static thread_local bool in_inline_range = false;
  static const ParallelFor pf = [](int64_t n, int64_t grain, const RangeBody& body) {
    if (n <= grain || in_inline_range) {
      const bool outer = in_inline_range;
      in_inline_range = true;
      try {
        body(0, n);
      } catch (...) {
        in_inline_range = outer;
        throw;
      }
      in_inline_range = outer;
      return;
    }
    torch::stable::parallel_for(0, n, grain, [&](int64_t begin, int64_t end) { body(begin, end); });
  };
  return pf;
}

// What op_impls.inc's wrappers run the core in: for the CPU, torch's thread pool.
struct Backend {
  Backend(const char*, const Tensor&) {}
  const ParallelFor& context() const { return torch_parallel_for(); }
};

}  // namespace
}  // namespace bindings
}  // namespace u8aug

#define U8AUG_BACKEND cpu
#define U8AUG_DISPATCH_KEY CPU
#define U8AUG_PIPELINE_SAMPLE_BY_SAMPLE 1  // bindings/pipeline.inc
#include "bindings/op_impls.inc"

#include "bindings/draws.h"
#include "bindings/kornia_math.h"
#include "bindings/kept_call.inc"
