// The CUDA backend's one launcher and one error check. Every kernel body is an each-index functor
// from pixel/ (u8aug/image.h explains them): launch_each_index runs one for every index over a
// grid; kernels that first fill shared memory (a sample's table, warp setup or ColorJiggle
// factors) walk their range with for_each_index. No torch, no Highway.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace u8aug {
namespace cuda {

// Every CUDA call and launch is checked by this, with what was being done.
inline void check_cuda(const char* op, cudaError_t err, const char* what) {
  if (err != cudaSuccess) {
    throw std::runtime_error(std::string("u8aug.") + op + ": " + what + " failed: " + cudaGetErrorString(err));
  }
}

inline void check_launch(const char* op) { check_cuda(op, cudaGetLastError(), "CUDA kernel launch"); }

constexpr int kThreads = 256;

// Blocks for a grid-stride loop over n items: enough to fill the GPU, capped so the grid size
// stays a valid int for any n.
inline unsigned int blocks_for(long long n) {
  const long long blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned int>(blocks < 65535LL * 8 ? blocks : 65535LL * 8);
}

// f(i) for every i in [0, n), spread over the grid's x dimension (a grid-stride loop, the role of
// torchvision's CUDA_1D_KERNEL_LOOP); neighbouring threads take neighbouring indices.
template <class F>
__device__ __forceinline__ void for_each_index(long long n, const F& f) {
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < n; i += 1LL * blockDim.x * gridDim.x) f(i);
}

template <class Body>
__global__ void each_index_kernel(Body body) {
  for_each_index(body.count(), body);
}

// body(i) for every i in [0, body.count()) on `stream`.
template <class Body>
void launch_each_index(const char* op, const Body& body, cudaStream_t stream) {
  const long long n = body.count();
  if (n <= 0) return;
  each_index_kernel<<<blocks_for(n), kThreads, 0, stream>>>(body);
  check_launch(op);
}

// Device memory for the length of one call on `stream`, freed (and the free checked) when the call
// ends, on its way out too.
template <class T>
class StreamBuffer {
 public:
  StreamBuffer(const char* op, size_t count, cudaStream_t stream) : op_(op), stream_(stream) {
    check_cuda(op, cudaMallocAsync(reinterpret_cast<void**>(&data_), count * sizeof(T), stream),
               "allocating device memory");
    check_cuda(op, cudaMemsetAsync(data_, 0, count * sizeof(T), stream), "clearing device memory");
  }
  StreamBuffer(const StreamBuffer&) = delete;
  StreamBuffer& operator=(const StreamBuffer&) = delete;
  // Frees and checks; a failure raises here rather than in the destructor.
  void release() {
    T* p = data_;
    data_ = nullptr;
    if (p) check_cuda(op_, cudaFreeAsync(p, stream_), "freeing device memory");
  }
  ~StreamBuffer() {
    if (data_) cudaFreeAsync(data_, stream_);  // only when unwinding from an error already raised
  }
  T* get() const { return data_; }

 private:
  const char* op_;
  cudaStream_t stream_;
  T* data_ = nullptr;
};

}  // namespace cuda
}  // namespace u8aug
