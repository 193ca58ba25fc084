// resize and crop_and_resize on the CPU. Per sample: its window as planar float32 x / 255, the
// column taps once, then output rows in parallel. Bilinear rows on targets with a native fused
// multiply-add are separable in lanes, exactly pixel/resize.h's order: each needed source row is
// interpolated across (fma(v0, wx0, v1 * wx1), gathered from the float row, kept while the next
// output rows still use it), then two such rows are blended down (fma(r0, wy0, r1 * wy1)).
// Bicubic rows are separable the same way: four gathered column taps summed across, four such rows
// summed down (pixel/cubic.h's kPairFirst). Other targets, nearest modes and boxes of the output
// size (copies) run pixel/resize.h per byte. The source rows and their column taps are read as
// resize_rows-inl.h reads them. The fast tier (BlendOrder::kFast) reads the bytes
// themselves, in fixed point: resize_fixed-inl.h.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/resize.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/aligned_allocator.h>
#include <hwy/highway.h>

#include "cpu/unit_lanes-inl.h"
#include "cpu/resize_cubic-inl.h"
#include "cpu/resize_rows-inl.h"
#include "cpu/resize_fixed-inl.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "cpu/parallel.h"
#include "cpu/resize_sample.h"
#include "cpu/scratch.h"
#include "u8aug/detail/check.h"
#include "u8aug/pixel/resize.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void FillWindow(const ConstImage& src, int64_t b, ResizeSample& s, int64_t row_begin, int64_t row_end) {
  UnitWindowRows(src, b, s.win.y0, s.win.x0, s.win.height, s.win.width, s.planes.data(), row_begin, row_end);
}

// Output rows [y_begin, y_end) of sample b, bilinear, in torch's `order`.
void BilinearRows(const ResizeSample& s, const Image& dst, int64_t b, bool align_corners, BlendOrder order,
                  int64_t y_begin, int64_t y_end) {
  const int64_t width = dst.width, channels = dst.channels;
  // kSeparable: the across-interpolated source rows, two slots per channel, tagged with their row
  std::vector<float> across(blends_rows_first(order) ? static_cast<size_t>(2 * channels * width) : 0);
  // kCorners: an output row's floats, quantized a row at a time
  std::vector<float> staged(blends_rows_first(order) ? 0 : static_cast<size_t>(channels * width));
  int64_t tag[2] = {-1, -1};
  OutputRows out_rows(dst);
#if HWY_NATIVE_FMA
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const bool vector = width >= lanes;
#else
  const bool vector = false;
#endif
  UnitRows source(s, b);
  std::vector<const float*> top_rows(static_cast<size_t>(channels)), bottom_rows(top_rows);  // kCorners
#if HWY_NATIVE_FMA
  // Each block of columns' reader, made once: the column taps are every row's. In aligned memory
  // (the readers hold vectors; std::vector's allocator does not align them).
  using Reader = ColumnReader<decltype(d)>;
  const size_t blocks = vector ? static_cast<size_t>((width + lanes - 1) / lanes) : 0;
  const hwy::AlignedFreeUniquePtr<uint8_t[]> reader_bytes =
      hwy::AllocateAligned<uint8_t>(blocks * sizeof(Reader) + 1);  // + 1: never empty
  Reader* readers = reinterpret_cast<Reader*>(reader_bytes.get());
  static_assert(std::is_trivially_destructible<Reader>::value, "readers are never destroyed");
  for (size_t k = 0; k < blocks; ++k) {
    new (readers + k) Reader(d, s, std::min(static_cast<int64_t>(k) * lanes, width - lanes));
  }
#endif
  auto slot_for = [&](int64_t sy) -> int {
    if (tag[0] == sy) return 0;
    if (tag[1] == sy) return 1;
    const int k = tag[0] == -1 || (tag[1] != -1 && tag[0] < tag[1]) ? 0 : 1;  // replace the older row
    tag[k] = sy;
    for (int64_t c = 0; c < channels; ++c) {
      source.need(c, sy, sy);
      const float* row = source.row(c, sy);
      float* out = across.data() + (k * channels + c) * width;
      int64_t x = 0;
#if HWY_NATIVE_FMA
      if (vector) {
        for (size_t k = 0;; x += lanes, ++k) {
          if (x + lanes > width) x = width - lanes;
          hn::Vec<decltype(d)> v0, v1;
          readers[k].Read(d, row, v0, v1);
          hn::StoreU(hn::MulAdd(v0, hn::LoadU(d, s.wx0.data() + x), hn::Mul(v1, hn::LoadU(d, s.wx1.data() + x))), d,
                     out + x);
          if (x + lanes == width) break;
        }
        continue;
      }
#endif
      for (; x < width; ++x)
        out[x] = blend_across(row[s.x0[x]], row[s.x1[x]], AxisTap{s.x0[x], s.x1[x], s.wx0[x], s.wx1[x]});
    }
    return k;
  };
  for (int64_t y = y_begin; y < y_end; ++y) {
    const AxisTap ty = linear_tap(y, s.win.height, dst.height, align_corners, fuses_source_index(order));
    const int k0 = blends_rows_first(order) ? slot_for(ty.i0) : 0;
    const int k1 = blends_rows_first(order) ? slot_for(ty.i1) : 0;
    if (!blends_rows_first(order)) {
      // Corner weights wy * wx, then fma(v11, w11, fma(v10, w10, fma(v00, w00, v01 * w01))).
      // Column blocks outside, channels inside: the weights and tap indices serve every channel.
      auto out_row = [&](int64_t c) { return out_rows.row(b, c, y); };
      for (int64_t c = 0; c < channels; ++c) {
        source.need(c, ty.i0, ty.i1);
        top_rows[c] = source.row(c, ty.i0);
        bottom_rows[c] = source.row(c, ty.i1);
      }
      int64_t x = 0;
#if HWY_NATIVE_FMA
      if (vector) {
        const auto wy0 = hn::Set(d, ty.l0), wy1 = hn::Set(d, ty.l1);
        for (size_t k = 0;; x += lanes, ++k) {
          if (x + lanes > width) x = width - lanes;
          const auto wx0 = hn::LoadU(d, s.wx0.data() + x), wx1 = hn::LoadU(d, s.wx1.data() + x);
          const auto w00 = hn::Mul(wy0, wx0), w01 = hn::Mul(wy0, wx1), w10 = hn::Mul(wy1, wx0), w11 = hn::Mul(wy1, wx1);
          const ColumnReader<decltype(d)>& columns = readers[k];
          for (int64_t c = 0; c < channels; ++c) {
            hn::Vec<decltype(d)> v00, v01, v10, v11;
            columns.Read(d, top_rows[c], v00, v01);
            columns.Read(d, bottom_rows[c], v10, v11);
            const auto v = hn::MulAdd(v11, w11, hn::MulAdd(v10, w10, hn::MulAdd(v00, w00, hn::Mul(v01, w01))));
            hn::StoreU(v, d, staged.data() + c * width + x);
          }
          if (x + lanes == width) break;
        }
        // each channel's row quantized four vectors a store (unit_lanes-inl.h), from the staged floats
        for (int64_t c = 0; c < channels; ++c) {
          const float* row = staged.data() + c * width;
          StoreU8Row(
              d, width, [&](int64_t i) { return hn::LoadU(d, row + i); }, out_row(c));
        }
      }
#endif
      if (!vector) {
        for (int64_t c = 0; c < channels; ++c) {
          const float* top = top_rows[c];
          const float* bottom = bottom_rows[c];
          uint8_t* out = out_row(c);
          for (x = 0; x < width; ++x) {
            const AxisTap tx{s.x0[x], s.x1[x], s.wx0[x], s.wx1[x]};
            out[x] = to_u8(blend_taps(top[tx.i0], top[tx.i1], bottom[tx.i0], bottom[tx.i1], ty, tx, order) * 255.0f);
          }
        }
      }
    }
    for (int64_t c = 0; c < channels && blends_rows_first(order); ++c) {
      uint8_t* out = out_rows.row(b, c, y);
      int64_t x = 0;
      const float* r0 = across.data() + (k0 * channels + c) * width;
      const float* r1 = across.data() + (k1 * channels + c) * width;
#if HWY_NATIVE_FMA
      if (vector) {
        const auto wy0 = hn::Set(d, ty.l0), wy1 = hn::Set(d, ty.l1);
        const auto down = [&](int64_t at) {
          return hn::MulAdd(hn::LoadU(d, r0 + at), wy0, hn::Mul(hn::LoadU(d, r1 + at), wy1));
        };
        StoreU8Row(d, width, down, out);  // four vectors a store (unit_lanes-inl.h)
        continue;
      }
#endif
      for (; x < width; ++x) out[x] = to_u8(blend_down(r0[x], r1[x], ty) * 255.0f);
    }
    out_rows.flush(b, y);
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {
HWY_EXPORT(FillWindow);
HWY_EXPORT(BilinearRows);
HWY_EXPORT(BicubicRows);
HWY_EXPORT(FixedRows);

namespace {

// Nearest modes, and windows already of the output size (a copy), per byte.
void CopyRows(const ConstImage& src, const Image& dst, int64_t b, const Window& win, bool exact, int64_t y_begin,
              int64_t y_end) {
  const bool copy = win.height == dst.height && win.width == dst.width;
  const int64_t channels = dst.channels, width = dst.width;
  const bool planar = src.stride_w == 1 && dst.stride_w == 1;
  const bool interleaved =
      src.stride_c == 1 && dst.stride_c == 1 && src.stride_w == channels && dst.stride_w == channels;
  if (copy && (planar || interleaved)) {  // runs of bytes: a row a channel, or a row of pixels
    for (int64_t y = y_begin; y < y_end; ++y)
      for (int64_t c = 0; c < (planar ? channels : 1); ++c)
        std::memcpy(&dst.at(b, c, y, 0), &src.at(b, c, win.y0 + y, win.x0),
                    static_cast<size_t>(planar ? width : width * channels));
    return;
  }
  for (int64_t y = y_begin; y < y_end; ++y) {
    const int64_t sy = copy ? y : nearest_index(y, win.height, dst.height, exact);
    for (int64_t x = 0; x < dst.width; ++x) {
      const int64_t sx = copy ? x : nearest_index(x, win.width, dst.width, exact);
      for (int64_t c = 0; c < dst.channels; ++c) dst.at(b, c, y, x) = src.at(b, c, win.y0 + sy, win.x0 + sx);
    }
  }
}

// Nearest modes from float planes (resize_antialias's blur): s.x0 holds each output column's source.
void NearestPlaneRows(const ResizeSample& s, const Image& dst, int64_t b, bool exact, int64_t y_begin, int64_t y_end) {
  OutputRows out_rows(dst);
  for (int64_t y = y_begin; y < y_end; ++y) {
    const int64_t sy = nearest_index(y, s.win.height, dst.height, exact);
    for (int64_t c = 0; c < dst.channels; ++c) {
      const float* row = s.row(c, sy);
      uint8_t* out = out_rows.row(b, c, y);
      for (int64_t x = 0; x < dst.width; ++x) out[x] = to_u8(row[s.x0[static_cast<size_t>(x)]] * 255.0f);
    }
    out_rows.flush(b, y);
  }
}

// The fast tier's column taps of a window `width` wide resized to `out` columns (resize_sample.h).
void fixed_columns(FixedColumns& cols, Interp mode, int64_t width, int64_t out, bool align_corners) {
  cols.pairs = mode == Interp::kBicubic ? 2 : 1;
  cols.first.resize(static_cast<size_t>(out));
  for (int k = 0; k < cols.pairs; ++k) cols.weight[k].resize(static_cast<size_t>(out));
  for (int64_t x = 0; x < out; ++x) {
    const size_t i = static_cast<size_t>(x);
    if (mode == Interp::kBicubic) {
      const FixedCubicTap t = fixed_cubic_tap(x, width, out, align_corners, kAcrossWeightBits);
      cols.first[i] = static_cast<int32_t>(t.first + 2);
      cols.weight[0][i] = packed_weights(t.w[0], t.w[1]);
      cols.weight[1][i] = packed_weights(t.w[2], t.w[3]);
    } else {
      const FixedLinearTap t = fixed_linear_tap(x, width, out, align_corners);
      cols.first[i] = static_cast<int32_t>(t.i0 + 2);
      cols.weight[0][i] = packed_weights(t.across0, t.across1);
    }
  }
}

void resize_windows(const ConstImage& src, const Image& dst, const std::vector<Window>& windows, Interp mode,
                    bool align_corners, CropBlendOrders orders, const ParallelFor& parallel) {
  // kept between calls (cpu/scratch.h): a fresh window of planes cost a page fault and a zeroing a
  // page each call (one image a call, or a pipeline's step)
  thread_local ResizeSample kept;
  ResizeSample& s = kept;
  s.channels = dst.channels;
  for (int64_t b = 0; b < dst.batch; ++b) {
    const Window& win = windows[static_cast<size_t>(b)];
    const bool exact = mode == Interp::kNearestExact;
    if (mode == Interp::kNearest || exact || (win.height == dst.height && win.width == dst.width)) {
      run_parallel(parallel, dst.height, grain_for(dst.width * dst.channels * 4),
                   [&](int64_t y0, int64_t y1) { CopyRows(src, dst, b, win, exact, y0, y1); });
      continue;
    }
    BlendOrder order = crop_blend_order(orders, win, src.width);
    if (order == BlendOrder::kFast) order = fast_order(mode, win, dst.height, dst.width, align_corners);
    if (order == BlendOrder::kFast) {
      FixedColumns cols;
      fixed_columns(cols, mode, win.width, dst.width, align_corners);
      run_parallel(parallel, dst.height, grain_for(dst.width * dst.channels * 2), [&](int64_t y0, int64_t y1) {
        HWY_DYNAMIC_DISPATCH(FixedRows)(src, dst, b, win, cols, align_corners, y0, y1);
      });
      continue;
    }
    s.win = win;
    const int64_t window_bytes = 4 * dst.channels * win.height * win.width;
    s.source = mode == Interp::kBilinear && window_bytes > kRowsWindowBytes ? &src : nullptr;
    if (!s.source) {
      s.size_planes(dst.channels * win.height * win.width);
      run_parallel(parallel, dst.channels * win.height, grain_for(win.width * 4), [&](int64_t r0, int64_t r1) {
        HWY_DYNAMIC_DISPATCH(FillWindow)(src, b, s, r0, r1);
      });
    }
    resize_planes(s, dst, b, mode, align_corners, order, parallel);
    s.source = nullptr;
  }
  release_large_scratch(s.planes);
}

}  // namespace

void resize_planes(ResizeSample& s, const Image& dst, int64_t b, Interp mode, bool align_corners, BlendOrder order,
                   const ParallelFor& parallel) {
  const Window& win = s.win;
  const int64_t row_grain = grain_for(dst.width * dst.channels * 4);
  s.x0.resize(static_cast<size_t>(dst.width));
  if (nearest_mode(mode)) {
    const bool exact = mode == Interp::kNearestExact;
    for (int64_t x = 0; x < dst.width; ++x)
      s.x0[static_cast<size_t>(x)] = static_cast<int32_t>(nearest_index(x, win.width, dst.width, exact));
    run_parallel(parallel, dst.height, row_grain,
                 [&](int64_t y0, int64_t y1) { NearestPlaneRows(s, dst, b, exact, y0, y1); });
    return;
  }
  s.x1.resize(s.x0.size());
  s.wx0.resize(s.x0.size());
  s.wx1.resize(s.x0.size());
  for (int k = 0; k < 4 && mode == Interp::kBicubic; ++k) {
    s.cubic_x[k].resize(s.x0.size());
    s.cubic_w[k].resize(s.x0.size());
  }
  for (int64_t x = 0; x < dst.width && mode == Interp::kBicubic; ++x) {
    const CubicAxisTap t = cubic_tap(x, win.width, dst.width, align_corners);
    for (int k = 0; k < 4; ++k) {
      s.cubic_x[k][x] = static_cast<int32_t>(t.i[k]);
      s.cubic_w[k][x] = t.c.w[k];
    }
  }
  for (int64_t x = 0; x < dst.width; ++x) {
    const AxisTap t = linear_tap(x, win.width, dst.width, align_corners, fuses_source_index(order));
    s.x0[x] = static_cast<int32_t>(t.i0);
    s.x1[x] = static_cast<int32_t>(t.i1);
    s.wx0[x] = t.l0;
    s.wx1[x] = t.l1;
  }
  run_parallel(parallel, dst.height, row_grain, [&](int64_t y0, int64_t y1) {
    if (mode == Interp::kBicubic) {
      HWY_DYNAMIC_DISPATCH(BicubicRows)(s, dst, b, align_corners, y0, y1);
    } else {
      HWY_DYNAMIC_DISPATCH(BilinearRows)(s, dst, b, align_corners, order, y0, y1);
    }
  });
}

void resize(const ConstImage& src, const Image& dst, Interp mode, bool align_corners, BlendOrder order,
            const ParallelFor& parallel) {
  detail::check_resampled("resize", src, dst);
  detail::check_interp("resize", mode, align_corners);
  detail::check_blend_orders("resize", {order, order});
  if (src.width >= (int64_t{1} << 31)) detail::fail("resize", "images wider than 2^31 - 1 pixels are not supported");
  std::vector<Window> windows(static_cast<size_t>(dst.batch), Window{0, 0, src.height, src.width});
  resize_windows(src, dst, windows, mode, align_corners, {order, order}, parallel);
}

void crop_and_resize(const ConstImage& src, const Image& dst, const float* boxes, Interp mode, bool align_corners,
                     CropBlendOrders orders, const ParallelFor& parallel) {
  const char* op = "crop_and_resize";
  detail::check_resampled(op, src, dst);
  detail::check_interp(op, mode, align_corners);
  detail::check_blend_orders(op, orders);
  if (boxes == nullptr) detail::fail(op, "boxes has a null pointer");
  if (src.width >= (int64_t{1} << 31)) detail::fail(op, "images wider than 2^31 - 1 pixels are not supported");
  std::vector<Window> windows;
  for (int64_t b = 0; b < dst.batch; ++b) {
    const float* box = boxes + 8 * b;
    for (int k = 0; k < 8; ++k) {
      if (!std::isfinite(box[k])) detail::fail(op, "boxes must be finite (sample " + std::to_string(b) + ")");
    }
    const auto [x1, x2, y1, y2] = box_bounds(box);
    if (x1 < 0 || y1 < 0 || x2 > src.width || y2 > src.height || x2 <= x1 || y2 <= y1) {
      detail::fail(op, "box " + std::to_string(b) + " covers columns [" + std::to_string(x1) + ", " +
                           std::to_string(x2) + ") and rows [" + std::to_string(y1) + ", " + std::to_string(y2) +
                           "), which must be non-empty and inside the " + std::to_string(src.height) + "x" +
                           std::to_string(src.width) + " image");
    }
    windows.push_back(box_window(box, src.height, src.width));
  }
  resize_windows(src, dst, windows, mode, align_corners, orders, parallel);
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
