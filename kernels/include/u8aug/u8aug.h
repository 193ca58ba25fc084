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
#include "u8aug/kornia_draws.h"
#include "u8aug/kornia_matrix.h"
#include "u8aug/mersenne.h"
#include "u8aug/pixel/color.h"
#include "u8aug/pixel/elastic.h"
#include "u8aug/pixel/erase.h"
#include "u8aug/pixel/filter.h"
#include "u8aug/pixel/index_maps.h"
#include "u8aug/pixel/mix.h"
#include "u8aug/pixel/offset.h"
#include "u8aug/pixel/clahe.h"
#include "u8aug/pixel/jpeg.h"
#include "u8aug/pixel/plasma_level.h"
#include "u8aug/pixel/rain.h"
#include "u8aug/pixel/snow.h"
#include "u8aug/pixel/resize.h"
#include "u8aug/pixel/warp.h"

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
  std::string cpu_target_requested = "auto";       // set_cpu_target's last name, or "auto"
  bool cuda = false;                               // CUDA kernels compiled in
  std::string cuda_architectures;                  // e.g. "75-real,80-real,...,120-virtual"
  std::string highway_runtime;                     // "static" (linked in) or "shared" (needs libhwy.so at run time)
};
BuildInfo build_info();

// Restricts the CPU kernels to one Highway target among those this CPU supports and u8aug compiled
// ("AVX3_DL", "AVX2", "SSE4", ..., as build_info names them; case does not matter), or returns to
// the best one with "auto" or "". Returns the target now chosen; throws std::invalid_argument,
// naming the possible ones, for any other name. Process-wide; Python reads U8AUG_CPU_TARGET at import.
std::string set_cpu_target(const std::string& name);

namespace cpu {
void hflip(const ConstImage& src, const Image& dst, const ParallelFor& parallel = {});
void vflip(const ConstImage& src, const Image& dst, const ParallelFor& parallel = {});

// Pointwise ops, each byte-exact with the kornia.enhance function of the same name on x / 255.
// Parameter ranges follow kornia's checks: contrast factor, gamma and gain >= 0, solarize
// additions in [-0.5, 0.5], posterize bits an integer in [0, 8]; every parameter finite.
void adjust_brightness(const ConstImage& src, const Image& dst, Samples factor, const ParallelFor& parallel = {});
void adjust_brightness_accumulative(const ConstImage& src, const Image& dst, Samples factor,
                                    const ParallelFor& parallel = {});
void adjust_contrast(const ConstImage& src, const Image& dst, Samples factor, const ParallelFor& parallel = {});
// adjust_contrast_with_mean_subtraction's blend with a given per-sample mean (in [0, 1] units):
// x * factor + mean * (1 - factor), clipped. For RGB images color_jitter computes the mean itself.
void adjust_contrast_with_mean(const ConstImage& src, const Image& dst, Samples factor, Samples mean,
                               const ParallelFor& parallel = {});
void adjust_gamma(const ConstImage& src, const Image& dst, Samples gamma, Samples gain,
                  const ParallelFor& parallel = {});
void solarize(const ConstImage& src, const Image& dst, Samples thresholds, Samples additions,
              const ParallelFor& parallel = {});
void posterize(const ConstImage& src, const Image& dst, Samples bits, const ParallelFor& parallel = {});
void invert(const ConstImage& src, const Image& dst, const ParallelFor& parallel = {});
// kornia.enhance.equalize: per (sample, channel) histogram equalisation (planes of at most 2^24 pixels).
void equalize(const ConstImage& src, const Image& dst, const ParallelFor& parallel = {});
// kornia.enhance.normalize_min_max per (sample, channel) plane (RandomAutoContrast): each plane
// stretched from its own min and max to [0, 1] (pixel/equalize.h's auto_contrast_table).
void auto_contrast(const ConstImage& src, const Image& dst, const ParallelFor& parallel = {});
// Each sample's mean of x / 255 over channels and pixels (mean[b], b < B): what
// adjust_contrast_with_mean_subtraction blends with on images of C != 3 channels.
void image_mean(const ConstImage& src, float* mean, const ParallelFor& parallel = {});

// uint8 in, float32 out: (x / 255 - mean[c]) / std[c], equal as float32 to kornia.enhance.normalize
// on x / 255; mean and std hold 1 or C values, finite, std nonzero. to_float: x / 255.
void normalize(const ConstImage& src, const FloatImage& dst, PerChannel mean, PerChannel std,
               const ParallelFor& parallel = {});
void to_float(const ConstImage& src, const FloatImage& dst, const ParallelFor& parallel = {});

// kornia.color.rgb_to_grayscale (3 channels in, 1 out), and RandomGrayscale's semantics (any C:
// kornia's weights on 3 channels, the channel mean otherwise; the grey repeated to all C).
void rgb_to_grayscale(const ConstImage& src, const Image& dst, const ParallelFor& parallel = {});
void grayscale(const ConstImage& src, const Image& dst, const ParallelFor& parallel = {});

// Cross-channel colour ops on RGB images, byte-exact with kornia's float32 functions:
// adjust_saturation (factor >= 0), adjust_hue (radians in [-pi, pi]), and color_jiggle, kornia's
// ColorJiggle given its generated parameters (JiggleParams, pixel/color.h). Fidelity::kFast (here,
// in JiggleParams, WarpParams and BlendOrder::kFast) opts into the fast class (image.h).
void adjust_saturation(const ConstImage& src, const Image& dst, Samples factor, const ParallelFor& parallel = {},
                       Fidelity fidelity = Fidelity::kExact);
void adjust_hue(const ConstImage& src, const Image& dst, Samples radians, const ParallelFor& parallel = {},
                Fidelity fidelity = Fidelity::kExact);
void color_jiggle(const ConstImage& src, const Image& dst, const JiggleParams& params,
                  const ParallelFor& parallel = {});
// kornia's ColorJitter given its generated parameters: multiplicative brightness, contrast blended
// with each sample's mean grey ("near": torch's float32 mean may differ by an ulp), saturation
// blended with the pixel's grey, hue.
void color_jitter(const ConstImage& src, const Image& dst, const JiggleParams& params,
                  const ParallelFor& parallel = {});

// dst sample s = take[s] ? a's sample s : b's: how kornia's augmentations blend applied and skipped
// samples, as one copy per sample.
void select_samples(const bool* take, const ConstImage& a, const ConstImage& b, const Image& dst,
                    const ParallelFor& parallel = {});
// Geometry (pixel/warp.h, pixel/resize.h, pixel/index_maps.h). dst's size is the output size.
// warp_affine / warp_perspective: kornia.geometry.transform's functions on x / 255 then to_u8,
// with kornia's pixel matrices (2x3 or 3x3, one or one per sample, finite or not: a NaN or singular
// matrix gives a defined image, never a read outside src).
void warp_affine(const ConstImage& src, const Image& dst, const WarpParams& params, const ParallelFor& parallel = {});
void warp_perspective(const ConstImage& src, const Image& dst, const WarpParams& params,
                      const ParallelFor& parallel = {});
// kornia.geometry.transform.resize (F.interpolate; nearest, nearest-exact, bilinear or bicubic, no
// antialias). `order`: which of torch's bilinear summation orders to reproduce (pixel/resize.h,
// torch_blend_order; bicubic has one order); BlendOrder::kFast runs the fast tier's fixed point
// for bilinear and bicubic (nearest modes are copies in both tiers).
void resize(const ConstImage& src, const Image& dst, Interp mode, bool align_corners, BlendOrder order,
            const ParallelFor& parallel = {});
// kornia's crop_by_indices: per-sample boxes (B x 4 corners x (x, y) float32, inside src), each
// sliced then resized to dst's size (a copy when the box already has that size).
void crop_and_resize(const ConstImage& src, const Image& dst, const float* boxes, Interp mode, bool align_corners,
                     CropBlendOrders orders, const ParallelFor& parallel = {});
// kornia's resize(antialias=True) when it shrinks: kornia.filters.gaussian_blur2d's two passes with
// the given (1, K) kernels over the reflect border, kept in float32, then resized to dst's size
// (any mode, `order` as resize's) and quantized once.
void resize_antialias(const ConstImage& src, const Image& dst, FilterKernel kernel_x, FilterKernel kernel_y,
                      Interp mode, bool align_corners, BlendOrder order, const ParallelFor& parallel = {});
void pad(const ConstImage& src, const Image& dst, const PadSpec& spec, const ParallelFor& parallel = {});
// torch's grid_sample (CPU, float32) on x / 255 with a given grid (pixel/warp.h's SampleGrid: kornia's
// elastic, thin-plate and fisheye grids), then to_u8: dst is (B, C, H', W') for a (B or 1, H', W', 2) grid.
// cubic_across: bicubic's row order (pixel/warp.h, cubic_across_order; the default is torch 2.15's).
void grid_sample(const ConstImage& src, const Image& dst, const SampleGrid& grid, Interp mode, Padding padding,
                 bool align_corners, const ParallelFor& parallel = {}, CubicSum cubic_across = CubicSum::kPairThenAdds);
// kornia.geometry.transform.elastic_transform2d on x / 255 then to_u8 (pixel/elastic.h): the grid
// its float32 steps make from the noise, kernels and alpha, then grid_sample; dst has src's size.
void elastic_transform(const ConstImage& src, const Image& dst, const ElasticParams& params,
                       const ParallelFor& parallel = {});
void rot90(const ConstImage& src, const Image& dst, int k, const ParallelFor& parallel = {});
// kornia.filters.filter2d_separable on x / 255 then to_u8 (pixel/filter.h): a horizontal then a
// vertical pass of per-sample kernels (kornia's gaussian_blur2d and box_blur kernels), kornia's border.
void filter2d_separable(const ConstImage& src, const Image& dst, FilterKernel kernel_x, FilterKernel kernel_y,
                        Border border, const ParallelFor& parallel = {});
// kornia.filters.filter2d (correlation, "same" size) on x / 255 then to_u8: per-sample 2-D kernels
// (RandomMotionBlur's), kornia's border.
void filter2d(const ConstImage& src, const Image& dst, FilterKernel2d kernel, Border border,
              const ParallelFor& parallel = {});
// kornia.filters.median_blur: the median of each ky x kx window (odd sizes), kornia's border.
void median_blur(const ConstImage& src, const Image& dst, int64_t ky, int64_t kx, Border border,
                 const ParallelFor& parallel = {});
// kornia's RandomErasing (pixel/erase.h): each sample's box (x_min, y_min, x_max, y_max, inclusive;
// one for the batch when boxes.count is 1) set to to_u8(value * 255), the rest copied.
void erase_boxes(const ConstImage& src, const Image& dst, Boxes boxes, Samples values,
                 const ParallelFor& parallel = {});
// Batch mixes (pixel/mix.h): kornia's RandomMixUpV2 blend of each sample with its pair, and
// RandomCutMixV2's rounds of boxes pasted from source samples. dst must not overlap src.
void mix_up(const ConstImage& src, const Image& dst, const MixUpParams& params, const ParallelFor& parallel = {});
void paste_boxes(const ConstImage& src, const Image& dst, const PasteParams& params, const ParallelFor& parallel = {});
// x / 255 + offset, clamped, quantized (pixel/offset.h): kornia's Gaussian noise and illumination
// gradients, a float32 offset per element (stride_b 0: one for the batch).
void add_offset(const ConstImage& src, const OffsetImage& offset, const Image& dst, const ParallelFor& parallel = {});
// kornia's RandomSnow (pixel/snow.h): RGB through HLS, each sample's lightness below its coefficient
// multiplied by its brightness and clamped, back to RGB.
void snow(const ConstImage& src, const Image& dst, const SnowParams& params, const ParallelFor& parallel = {});
// kornia's RandomRain given its draws (pixel/rain.h): every pixel a drop covers set to 200 in every
// channel, the rest copied. Heights must be in [1, H) and |widths| < W (kornia's checks).
void rain(const ConstImage& src, const Image& dst, const RainDrops& drops, const ParallelFor& parallel = {});
// kornia.enhance.equalize_clahe on x / 255 (pixel/clahe.h): each plane's tiles_h x tiles_w tiles'
// clipped histograms made tables and blended per pixel; the grid must be smaller than the image
// (kornia's rule), clip one value per sample or one for all (<= 0 or NaN: no clipping).
void clahe(const ConstImage& src, const Image& dst, const ClaheParams& params, const ParallelFor& parallel = {});
// kornia.enhance.jpeg_codec_differentiable on x / 255 (pixel/jpeg.h): RGB images coded and decoded
// with each sample's quantization tables (already scaled by its quality, as kornia scales them).
void jpeg(const ConstImage& src, const Image& dst, const JpegParams& params, const ParallelFor& parallel = {});
// One level of the plasma classes' fractal (pixel/plasma_level.h): each map's (h, w) grid grown to
// (2h - 1, 2w - 1) with its draws, in kornia's float32 order. A helper for u8aug.kornia's draw, not an
// image op: grids of at least 2 x 2.
void plasma_level(const PlasmaLevel& level, const ParallelFor& parallel = {});
// torch.rand's float32 numbers on the CPU from its engine's state (mersenne.h): `count` of them into
// out, in torch's order, the state left where torch.rand leaves it. A helper for u8aug.kornia's
// large draws, not an image op; one thread (the engine is one sequence).
void torch_uniform(MersenneState& state, float* out, int64_t count);
// kornia's RandomPlasmaBrightness, RandomPlasmaContrast and RandomPlasmaShadow given their fractal map
// (pixel/offset.h): plasma has img's shape (stride_b 0: one map for the batch; stride_c 0: one for every
// channel), params the kind and its per-sample values.
void plasma(const ConstImage& src, const OffsetImage& plasma, const PlasmaParams& params, const Image& dst,
            const ParallelFor& parallel = {});
// kornia.enhance.sharpness (pixel/sharpness.h): the 3x3 smoothing kernel blended by a per-sample factor
// (0: smoothed, 1: the input, above 1: sharpened), the one-pixel border kept; images of 3 x 3 and up.
void sharpness(const ConstImage& src, const Image& dst, Samples factor, const ParallelFor& parallel = {});
// kornia.filters.box_blur's pooled path (torch's avg_pool2d): each ky x kx window's sum of x / 255
// divided by its size, separable (a horizontal then a vertical pass) or one 2-D pass, then to_u8.
void box_blur_pooled(const ConstImage& src, const Image& dst, int64_t ky, int64_t kx, Border border, bool separable,
                     const ParallelFor& parallel = {});

// Fused pipelines: a chain of steps run sample by sample, each sample's intermediates in two
// cache-resident scratch images, so the batch is read once and written once. Each step is one of
// the ops above run on one sample (its `run` gets one-sample views and the sample's index, to pick
// that sample's parameters), so a pipeline's bytes are the step-by-step chain's by construction.
struct PipelineStep {
  int64_t channels = 0, height = 0, width = 0;  // one sample's shape after the step
  const bool* take = nullptr;                   // per sample: run the step (else pass the bytes on); null: all
  std::function<void(const ConstImage& src, const Image& dst, int64_t sample)> run;
};
// dst's shape is the last step's; a step with `take` must keep the shape. `interleaved` picks the
// scratch layout (the bytes do not depend on it; a step's own choices, like resize's BlendOrder,
// are made by whoever builds the step). The float32 form ends with normalize (mean, std per channel).
void run_pipeline(const ConstImage& src, const Image& dst, const std::vector<PipelineStep>& steps, bool interleaved,
                  const ParallelFor& parallel = {});
void run_pipeline(const ConstImage& src, const FloatImage& dst, const std::vector<PipelineStep>& steps, PerChannel mean,
                  PerChannel std, bool interleaved, const ParallelFor& parallel = {});
}  // namespace cpu

// Device pointers; work is queued on `stream` and not waited for. In a build without CUDA these
// throw std::runtime_error. Parameters live on the device and are not read by the host: their
// count is checked, their values are not (a value outside the documented range gives whatever
// kornia's arithmetic gives for it).
namespace cuda {
void hflip(const ConstImage& src, const Image& dst, cudaStream_t stream);
void vflip(const ConstImage& src, const Image& dst, cudaStream_t stream);
void adjust_brightness(const ConstImage& src, const Image& dst, Samples factor, cudaStream_t stream);
void adjust_brightness_accumulative(const ConstImage& src, const Image& dst, Samples factor, cudaStream_t stream);
void adjust_contrast(const ConstImage& src, const Image& dst, Samples factor, cudaStream_t stream);
void adjust_contrast_with_mean(const ConstImage& src, const Image& dst, Samples factor, Samples mean,
                               cudaStream_t stream);
void adjust_gamma(const ConstImage& src, const Image& dst, Samples gamma, Samples gain, cudaStream_t stream);
void solarize(const ConstImage& src, const Image& dst, Samples thresholds, Samples additions, cudaStream_t stream);
void posterize(const ConstImage& src, const Image& dst, Samples bits, cudaStream_t stream);
void invert(const ConstImage& src, const Image& dst, cudaStream_t stream);
void equalize(const ConstImage& src, const Image& dst, cudaStream_t stream);
void auto_contrast(const ConstImage& src, const Image& dst, cudaStream_t stream);
void image_mean(const ConstImage& src, float* mean, cudaStream_t stream);  // mean: device memory
void normalize(const ConstImage& src, const FloatImage& dst, PerChannel mean, PerChannel std, cudaStream_t stream);
void to_float(const ConstImage& src, const FloatImage& dst, cudaStream_t stream);
void rgb_to_grayscale(const ConstImage& src, const Image& dst, cudaStream_t stream);
void grayscale(const ConstImage& src, const Image& dst, cudaStream_t stream);
void adjust_saturation(const ConstImage& src, const Image& dst, Samples factor, cudaStream_t stream,
                       Fidelity fidelity = Fidelity::kExact);
void adjust_hue(const ConstImage& src, const Image& dst, Samples radians, cudaStream_t stream,
                Fidelity fidelity = Fidelity::kExact);
void color_jiggle(const ConstImage& src, const Image& dst, const JiggleParams& params, cudaStream_t stream);
void color_jitter(const ConstImage& src, const Image& dst, const JiggleParams& params, cudaStream_t stream);
void select_samples(const bool* take, const ConstImage& a, const ConstImage& b, const Image& dst, cudaStream_t stream);
void warp_affine(const ConstImage& src, const Image& dst, const WarpParams& params, cudaStream_t stream);
void warp_perspective(const ConstImage& src, const Image& dst, const WarpParams& params, cudaStream_t stream);
void resize(const ConstImage& src, const Image& dst, Interp mode, bool align_corners, BlendOrder order,
            cudaStream_t stream);
// Boxes on the device are clamped into src rather than checked.
void crop_and_resize(const ConstImage& src, const Image& dst, const float* boxes, Interp mode, bool align_corners,
                     CropBlendOrders orders, cudaStream_t stream);
void resize_antialias(const ConstImage& src, const Image& dst, FilterKernel kernel_x, FilterKernel kernel_y,
                      Interp mode, bool align_corners, BlendOrder order, cudaStream_t stream);
void pad(const ConstImage& src, const Image& dst, const PadSpec& spec, cudaStream_t stream);
void grid_sample(const ConstImage& src, const Image& dst, const SampleGrid& grid, Interp mode, Padding padding,
                 bool align_corners, cudaStream_t stream, CubicSum cubic_across = CubicSum::kPairThenAdds);
void elastic_transform(const ConstImage& src, const Image& dst, const ElasticParams& params, cudaStream_t stream);
void rot90(const ConstImage& src, const Image& dst, int k, cudaStream_t stream);
void filter2d_separable(const ConstImage& src, const Image& dst, FilterKernel kernel_x, FilterKernel kernel_y,
                        Border border, cudaStream_t stream);
void filter2d(const ConstImage& src, const Image& dst, FilterKernel2d kernel, Border border, cudaStream_t stream);
void median_blur(const ConstImage& src, const Image& dst, int64_t ky, int64_t kx, Border border, cudaStream_t stream);
void box_blur_pooled(const ConstImage& src, const Image& dst, int64_t ky, int64_t kx, Border border, bool separable,
                     cudaStream_t stream);
void sharpness(const ConstImage& src, const Image& dst, Samples factor, cudaStream_t stream);
void add_offset(const ConstImage& src, const OffsetImage& offset, const Image& dst, cudaStream_t stream);
void snow(const ConstImage& src, const Image& dst, const SnowParams& params, cudaStream_t stream);
void rain(const ConstImage& src, const Image& dst, const RainDrops& drops, cudaStream_t stream);
void clahe(const ConstImage& src, const Image& dst, const ClaheParams& params, cudaStream_t stream);
void jpeg(const ConstImage& src, const Image& dst, const JpegParams& params, cudaStream_t stream);
void plasma_level(const PlasmaLevel& level, cudaStream_t stream);
void plasma(const ConstImage& src, const OffsetImage& plasma, const PlasmaParams& params, const Image& dst,
            cudaStream_t stream);
void erase_boxes(const ConstImage& src, const Image& dst, Boxes boxes, Samples values, cudaStream_t stream);
void mix_up(const ConstImage& src, const Image& dst, const MixUpParams& params, cudaStream_t stream);
void paste_boxes(const ConstImage& src, const Image& dst, const PasteParams& params, cudaStream_t stream);
}  // namespace cuda

}  // namespace u8aug
