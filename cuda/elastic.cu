// elastic_transform on CUDA: pixel/elastic.h's bodies, one thread per value: the row pass and the
// column pass over the noise fields (into stream-ordered scratch), then one per output pixel.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/elastic.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void elastic_transform(const ConstImage& src, const Image& dst, const ElasticParams& p, cudaStream_t stream) {
  const char* op = "elastic_transform";
  detail::check_elastic(op, src, dst, p);
  const int64_t h = dst.height, w = dst.width;
  const size_t values = static_cast<size_t>(p.count * 2 * h * w);
  if (dst.batch == 0 || values == 0) return;
  StreamBuffer<float> scratch(op, 2 * values, stream);
  float* rows = scratch.get();
  float* displacement = rows + values;
  launch_each_index(op, ElasticRowsBody{p, h, w, rows}, stream);
  launch_each_index(op, ElasticColumnsBody{p, h, w, rows, displacement}, stream);
  launch_each_index(op, ElasticSampleBody{src, dst, p, displacement}, stream);
  scratch.release();
}

}  // namespace cuda
}  // namespace u8aug
