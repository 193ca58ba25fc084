// RandomJPEG on CUDA: pixel/jpeg.h's bodies in order, a thread a padded pixel (the YCbCr planes,
// the blur across), a halved chroma value, an 8x8 block (coded in place) and an output pixel. Every
// sample's float work area lives in stream-ordered scratch memory.
#include <vector>

#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/jpeg.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void jpeg(const ConstImage& src, const Image& dst, const JpegParams& params, cudaStream_t stream) {
  detail::check_jpeg("jpeg", src, dst, params);
  if (src.batch == 0 || src.height == 0 || src.width == 0) return;
  const JpegGeometry g = jpeg_geometry(src.height, src.width);
  StreamBuffer<float> work("jpeg", static_cast<size_t>(src.batch * g.work_floats()), stream);
  float* w = work.get();
  // pageable host memory: the copy has taken it when cudaMemcpyAsync returns (and it is static)
  static const std::vector<float> host_bases = [] {
    std::vector<float> b(kJpegBasesFloats);
    jpeg_fill_bases(b.data());
    return b;
  }();
  StreamBuffer<float> bases("jpeg", host_bases.size(), stream);
  check_cuda("jpeg",
             cudaMemcpyAsync(bases.get(), host_bases.data(), host_bases.size() * sizeof(float), cudaMemcpyHostToDevice,
                             stream),
             "copying the DCT bases");
  launch_each_index("jpeg", JpegYcbcrBody{src, g, w}, stream);
  launch_each_index("jpeg", JpegBlurAcrossBody{g, src.batch, w}, stream);
  launch_each_index("jpeg", JpegHalveBody{g, src.batch, params.down, w}, stream);
  launch_each_index("jpeg", JpegBlockBody{g, src.batch, params.tables, jpeg_bases(bases.get()), w}, stream);
  launch_each_index("jpeg", JpegRgbBody{g, params.up, w, dst}, stream);
  bases.release();
  work.release();
}

}  // namespace cuda
}  // namespace u8aug
