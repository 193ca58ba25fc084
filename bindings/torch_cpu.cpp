// CPU implementations of the torch ops: check, allocate the output by the layout rule, run the
// C++ core on torch's thread pool (so torch.set_num_threads and DataLoader workers apply).
#include <ATen/Parallel.h>
#include <torch/library.h>

#include "bindings/tensor_image.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace bindings {
namespace {

const ParallelFor& torch_parallel_for() {
  static const ParallelFor pf = [](int64_t n, int64_t grain, const RangeBody& body) {
    at::parallel_for(0, n, grain, [&](int64_t begin, int64_t end) { body(begin, end); });
  };
  return pf;
}

using UnaryKernel = void (*)(const ConstImage&, const Image&, const ParallelFor&);

at::Tensor run_unary(const char* op, UnaryKernel kernel, const at::Tensor& img) {
  check_image(op, img);
  at::Tensor out = empty_output(img, img.sizes());
  kernel(const_view(img), mutable_view(out), torch_parallel_for());
  return out;
}

at::Tensor hflip(const at::Tensor& img) { return run_unary("hflip", &cpu::hflip, img); }
at::Tensor vflip(const at::Tensor& img) { return run_unary("vflip", &cpu::vflip, img); }

}  // namespace
}  // namespace bindings
}  // namespace u8aug

TORCH_LIBRARY_IMPL(u8aug, CPU, m) {
  m.impl("hflip", &u8aug::bindings::hflip);
  m.impl("vflip", &u8aug::bindings::vflip);
}
