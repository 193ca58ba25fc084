// Shared pieces of the CUDA backend: error checks and grid sizing. No torch, no Highway.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace u8aug {
namespace cuda {

inline void check_launch(const char* op) {
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    throw std::runtime_error(std::string("u8aug.") + op + ": CUDA kernel launch failed: " +
                             cudaGetErrorString(err));
  }
}

constexpr int kThreads = 256;

// Blocks for a grid-stride loop over n items: enough to fill the GPU, capped so the grid size
// stays a valid int for any n.
inline unsigned int blocks_for(long long n) {
  const long long blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned int>(blocks < 65535LL * 8 ? blocks : 65535LL * 8);
}

}  // namespace cuda
}  // namespace u8aug
