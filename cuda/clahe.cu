// RandomClahe on CUDA: pixel/clahe.h's ClaheTablesBody, a thread a tile (its byte counts, its
// table by byte), then ClaheBlendBody a thread an output byte. The tables live in stream-ordered
// scratch memory, 256 bytes a tile.
#include "cuda/launch.cuh"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/clahe.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace cuda {

void clahe(const ConstImage& src, const Image& dst, const ClaheParams& params, cudaStream_t stream) {
  detail::check_clahe("clahe", src, dst, params);
  const ClaheGrid g = clahe_grid(src.height, src.width, params.tiles_h, params.tiles_w);
  const ClaheTablesBody tables_body{src, g, params.clip, nullptr};
  StreamBuffer<uint8_t> tables("clahe", static_cast<size_t>(tables_body.count()) * 256, stream);
  launch_each_index("clahe", ClaheTablesBody{src, g, params.clip, tables.get()}, stream);
  launch_each_index("clahe", ClaheBlendBody{src, dst, g, tables.get()}, stream);
  tables.release();
}

}  // namespace cuda
}  // namespace u8aug
