// Fused pipelines on the CPU: samples are spread over threads, and each sample goes through every
// step between two scratch images of the thread's own (a 224x224 RGB sample is 150 KB: the chain
// stays in L2), the last step that runs writing straight into dst. No step is re-implemented here:
// each is one of the public ops on a one-sample view, so the bytes are the step-by-step chain's.
#include <algorithm>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include "cpu/parallel.h"
#include "cpu/scratch.h"
#include "u8aug/detail/check.h"

namespace u8aug {
namespace cpu {
namespace {

template <class T>
ImageView<T> sample_of(const ImageView<T>& v, int64_t b) {
  ImageView<T> s = v;
  s.data = v.data + b * v.stride_b;
  s.batch = 1;
  return s;
}

Image scratch_view(std::vector<uint8_t>& buffer, const PipelineStep& step, bool interleaved) {
  uint8_t* data = buffer.data();
  return interleaved ? nhwc(data, int64_t{1}, step.channels, step.height, step.width)
                     : nchw(data, int64_t{1}, step.channels, step.height, step.width);
}

bool runs(const PipelineStep& step, int64_t b) { return step.take == nullptr || step.take[b]; }

// The checks every form shares: the chain's shapes are consistent and end at `out`.
template <class Out>
void check_pipeline(const char* op, const ConstImage& src, const ImageView<Out>& dst,
                    const std::vector<PipelineStep>& steps) {
  detail::check_view(op, "src", src);
  detail::check_output_view(op, dst);
  detail::check_disjoint(op, src, dst);
  int64_t c = src.channels, h = src.height, w = src.width;
  for (size_t i = 0; i < steps.size(); ++i) {
    const PipelineStep& s = steps[i];
    const std::string which = "step " + std::to_string(i);
    if (!s.run) detail::fail(op, which + " has no run function");
    if (s.channels < 1 || s.height < 1 || s.width < 1) detail::fail(op, which + " has an empty output shape");
    if (s.take != nullptr && (s.channels != c || s.height != h || s.width != w)) {
      detail::fail(op, which + " changes the shape, so it cannot skip samples (take must be null)");
    }
    c = s.channels, h = s.height, w = s.width;
  }
  if (dst.batch != src.batch || dst.channels != c || dst.height != h || dst.width != w) {
    detail::fail(op, "dst must have src's batch and the last step's (C, H, W) = (" + std::to_string(c) + ", " +
                         std::to_string(h) + ", " + std::to_string(w) + ")");
  }
}

// Runs every sample's chain; finish(cur, b, last) gets the sample's result, `last` the index of
// the last step that runs on it (-1: none), whose output was written to last_dst(b) when given.
template <class LastDst, class Finish>
void run_samples(const ConstImage& src, const std::vector<PipelineStep>& steps, bool interleaved,
                 const ParallelFor& parallel, LastDst&& last_dst, Finish&& finish) {
  int64_t scratch = 0;
  for (const PipelineStep& s : steps) scratch = std::max(scratch, s.channels * s.height * s.width);
  std::exception_ptr error;
  std::mutex error_mutex;
  run_parallel(parallel, src.batch, 1, [&](int64_t begin, int64_t end) {
    try {
      // kept between calls (cpu/scratch.h): one image a call, fresh ones cost a tenth of the call
      thread_local std::vector<uint8_t> kept_a, kept_b;
      std::vector<uint8_t>* buffers[2] = {&kept_a, &kept_b};
      for (std::vector<uint8_t>* b : buffers) b->resize(static_cast<size_t>(scratch));
      for (int64_t b = begin; b < end; ++b) {
        int64_t last = -1;
        for (int64_t i = 0; i < static_cast<int64_t>(steps.size()); ++i) last = runs(steps[i], b) ? i : last;
        ConstImage cur = sample_of(src, b);
        int next = 0;
        for (int64_t i = 0; i <= last; ++i) {
          const PipelineStep& step = steps[i];
          if (!runs(step, b)) continue;  // a skipped sample keeps its bytes, as kornia's blend does
          Image out;
          if (!(i == last && last_dst(b, &out))) out = scratch_view(*buffers[next], step, interleaved);
          step.run(cur, out, b);
          cur = out;
          next ^= 1;
        }
        finish(cur, b, last);
      }
      release_large_scratch(kept_a, kept_b);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  });
  if (error) std::rethrow_exception(error);
}

}  // namespace

void run_pipeline(const ConstImage& src, const Image& dst, const std::vector<PipelineStep>& steps, bool interleaved,
                  const ParallelFor& parallel) {
  check_pipeline("run_pipeline", src, dst, steps);
  const bool one = true;
  run_samples(
      src, steps, interleaved, parallel,
      [&](int64_t b, Image* out) {
        *out = sample_of(dst, b);
        return true;
      },
      [&](const ConstImage& cur, int64_t b, int64_t last) {
        if (last < 0) select_samples(&one, cur, cur, sample_of(dst, b), serial_for());  // no step ran: a copy
      });
}

void run_pipeline(const ConstImage& src, const FloatImage& dst, const std::vector<PipelineStep>& steps, PerChannel mean,
                  PerChannel std, bool interleaved, const ParallelFor& parallel) {
  check_pipeline("run_pipeline", src, dst, steps);
  run_samples(
      src, steps, interleaved, parallel, [](int64_t, Image*) { return false; },
      [&](const ConstImage& cur, int64_t b, int64_t) { normalize(cur, sample_of(dst, b), mean, std, serial_for()); });
}

}  // namespace cpu
}  // namespace u8aug
