// u8aug: uint8 image augmentation kernels. The standalone C++ API (no torch, no Python).
//
//   #include <u8aug/u8aug.h>
//   std::vector<uint8_t> in(3 * 224 * 224), out(in.size());
//   u8aug::cpu::hflip(u8aug::nchw(in.data(), 1, 3, 224, 224),
//                     u8aug::nchw(out.data(), 1, 3, 224, 224));
//
// Images are views (image.h): any (B, C, H, W) with element strides, so planar NCHW, interleaved
// NHWC and padded rows are all accepted. Outputs are written through `dst` only; src is never
// modified and must not overlap dst. Bad arguments throw std::invalid_argument naming the op.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "u8aug/image.h"

// The CUDA runtime's own declaration, repeated so that this header needs no CUDA headers.
typedef struct CUstream_st* cudaStream_t;

namespace u8aug {

// body(begin, end) processes work items [begin, end).
using RangeBody = std::function<void(int64_t begin, int64_t end)>;
// Runs body over [0, n) in chunks of at least `grain` items, possibly concurrently. Callers with a
// thread pool pass their own (the torch bindings pass at::parallel_for); empty means default_parallel_for.
using ParallelFor = std::function<void(int64_t n, int64_t grain, const RangeBody& body)>;

// Splits the range over std::thread::hardware_concurrency() threads.
ParallelFor default_parallel_for();
// Runs the whole range on the calling thread.
ParallelFor serial_for();

struct BuildInfo {
  std::string version;
  std::vector<std::string> cpu_targets_compiled;   // Highway targets compiled in
  std::vector<std::string> cpu_targets_supported;  // ... of which this CPU can run
  std::string cpu_target_chosen;                   // what dynamic dispatch picks now
  bool cuda = false;                               // CUDA kernels compiled in
  std::string cuda_architectures;                  // e.g. "90-real;90-virtual"
};
BuildInfo build_info();

namespace cpu {
void hflip(const ConstImage& src, const Image& dst, const ParallelFor& parallel = {});
void vflip(const ConstImage& src, const Image& dst, const ParallelFor& parallel = {});
}  // namespace cpu

// Device pointers; work is queued on `stream` and not waited for. In a build without CUDA these
// throw std::runtime_error.
namespace cuda {
void hflip(const ConstImage& src, const Image& dst, cudaStream_t stream);
void vflip(const ConstImage& src, const Image& dst, cudaStream_t stream);
}  // namespace cuda

}  // namespace u8aug
