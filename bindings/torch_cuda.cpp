// CUDA implementations of the torch ops, on the current stream of the image's device. A build
// without CUDA registers the same names with an error that says so, instead of torch's
// "could not run ... with arguments from the 'CUDA' backend".
#ifdef U8AUG_WITH_CUDA
#define USE_CUDA  // declares the C shim's CUDA calls (aoti_torch_get_current_cuda_stream)
#endif
#include <torch/csrc/stable/accelerator.h>
#include <torch/csrc/stable/library.h>

#include "bindings/arguments.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace bindings {
namespace {

#ifdef U8AUG_WITH_CUDA
inline torch::stable::accelerator::DeviceIndex cuda_device_of(const char* op, const Tensor& img) {
  check(img.is_cuda(), "u8aug.", op, ": expected a CUDA tensor, got one on ", device_name(img));
  return img.get_device_index();
}

// What op_impls.inc's wrappers run the core in: the image's device made current, and its
// current stream.
struct Backend {
  Backend(const char* op, const Tensor& img) : guard(cuda_device_of(op, img)) {
    void* current = nullptr;
    shim(aoti_torch_get_current_cuda_stream(img.get_device_index(), &current), "get the current CUDA stream");
    stream = static_cast<cudaStream_t>(current);
  }
  cudaStream_t context() const { return stream; }
  torch::stable::accelerator::DeviceGuard guard;
  cudaStream_t stream = nullptr;
};
#else
struct Backend {
  Backend(const char* op, const Tensor&) {
    fail("u8aug.", op,
         ": got a CUDA tensor, but this build of u8aug has no CUDA kernels (nvcc was not found when it was "
         "built); move the image to the CPU or rebuild with CUDA");
  }
  cudaStream_t context() const { return nullptr; }
};
#endif

}  // namespace
}  // namespace bindings
}  // namespace u8aug

#define U8AUG_BACKEND cuda
#define U8AUG_DISPATCH_KEY CUDA
#define U8AUG_PIPELINE_SAMPLE_BY_SAMPLE 0  // bindings/pipeline.inc
#include "bindings/op_impls.inc"
