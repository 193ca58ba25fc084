// adjust_saturation, adjust_hue, color_jiggle and color_jitter on CUDA: pixel/color.h's ColorBody
// and pixel/color_fixed.h's ColorChainBody, one thread per pixel. ColorJiggle's skip flags and
// order are read from device memory once per block into shared memory: no host synchronisation.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/color.h"
#include "u8aug/pixel/color_fixed.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {
namespace {

__device__ void load_factors(JiggleFactors& k, const JiggleParams& params, const int64_t* gray_sums, long long pixels) {
  if (threadIdx.x == 0) {
    k = jiggle_factors(params);
    k.jitter = gray_sums != nullptr;
    k.gray_sums = gray_sums;
    k.pixels = pixels;
  }
  __syncthreads();
}

// ColorJitter's first pass: per-sample fixed-point sums of the grey its contrast step sees (in the
// fast tier, pixel/color_fixed.h's). Integer atomics: the total does not depend on the order (the
// CPU sums the same integers).
__global__ void gray_sum_kernel(ConstImage src, JiggleParams params, int64_t* sums) {
  // raw storage: JiggleFactors' default member initialisers are not run for shared memory
  __shared__ alignas(JiggleFactors) unsigned char storage[sizeof(JiggleFactors)];
  JiggleFactors& k = *reinterpret_cast<JiggleFactors*>(storage);
  load_factors(k, params, sums, src.height * src.width);
  const JitterGrayBody body{src, &k};
  for_each_index(body.count(), [body, sums](long long i) {
    const SampleGray g = body(i);
    atomicAdd(reinterpret_cast<unsigned long long*>(sums + g.b), static_cast<unsigned long long>(g.fixed));
  });
}

// adjust_saturation and adjust_hue: ColorBody, whose jiggle factors they do not read.
__global__ void color_kernel(ColorOp op, ConstImage src, Image dst, Samples factor) {
  const JiggleFactors unused{};
  const ColorBody body{op, src, dst, factor, &unused};
  for_each_index(body.count(), body);
}

// color_jiggle and color_jitter (gray_sums given) in either tier: pixel/color_fixed.h's ColorChainBody.
__global__ void chain_kernel(ConstImage src, Image dst, JiggleParams params, const int64_t* gray_sums) {
  __shared__ alignas(JiggleFactors) unsigned char storage[sizeof(JiggleFactors)];
  JiggleFactors& jiggle = *reinterpret_cast<JiggleFactors*>(storage);
  load_factors(jiggle, params, gray_sums, src.height * src.width);
  const ColorChainBody body{src, dst, &jiggle};
  for_each_index(body.count(), body);
}

void run_color(const char* name, ColorOp op, const ConstImage& src, const Image& dst, Samples factor,
               cudaStream_t stream) {
  color_kernel<<<blocks_for(dst.pixels()), kThreads, 0, stream>>>(op, src, dst, factor);
  check_launch(name);
}

}  // namespace

void adjust_saturation(const ConstImage& src, const Image& dst, Samples factor, cudaStream_t s, Fidelity fidelity) {
  detail::check_rgb("adjust_saturation", src, dst);
  detail::check_samples("adjust_saturation", "factor", factor, src.batch);
  detail::check_fidelity("adjust_saturation", fidelity);  // both tiers run kornia's formula
  run_color("adjust_saturation", ColorOp::kSaturation, src, dst, factor, s);
}

void adjust_hue(const ConstImage& src, const Image& dst, Samples radians, cudaStream_t s, Fidelity fidelity) {
  detail::check_rgb("adjust_hue", src, dst);
  detail::check_samples("adjust_hue", "factor", radians, src.batch);
  detail::check_fidelity("adjust_hue", fidelity);
  if (fidelity == Fidelity::kFast) {
    launch_each_index("adjust_hue", FixedHueBody{src, dst, radians}, s);
  } else {
    run_color("adjust_hue", ColorOp::kHue, src, dst, radians, s);
  }
}

void color_jiggle(const ConstImage& src, const Image& dst, const JiggleParams& params, cudaStream_t s) {
  detail::check_jiggle("color_jiggle", src, dst, params);
  if (params.steps_run != nullptr)
    detail::fail("color_jiggle",
                 "steps_run is host memory; the CUDA functions decide the steps on the device (leave it null)");
  chain_kernel<<<blocks_for(dst.pixels()), kThreads, 0, s>>>(src, dst, params, nullptr);
  check_launch("color_jiggle");
}

void color_jitter(const ConstImage& src, const Image& dst, const JiggleParams& params, cudaStream_t s) {
  detail::check_jiggle("color_jitter", src, dst, params);
  if (params.steps_run != nullptr)
    detail::fail("color_jitter",
                 "steps_run is host memory; the CUDA functions decide the steps on the device (leave it null)");
  StreamBuffer<int64_t> sums("color_jitter", static_cast<size_t>(src.batch), s);
  gray_sum_kernel<<<blocks_for(src.pixels()), kThreads, 0, s>>>(src, params, sums.get());
  check_launch("color_jitter");
  chain_kernel<<<blocks_for(dst.pixels()), kThreads, 0, s>>>(src, dst, params, sums.get());
  check_launch("color_jitter");
  sums.release();
}

}  // namespace cuda
}  // namespace u8aug
