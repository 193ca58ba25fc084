// hflip and vflip on the CPU with Highway (every target compiled in, chosen at run time): hflip
// reverses each row, vflip copies each row from its mirror.
// The scalar path and the vector tails are pixel/flip.h, the same code the CUDA kernel runs.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/flip.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <type_traits>

#include "cpu/parallel.h"
#include "cpu/rows.h"
#include "u8aug/check.h"
#include "u8aug/pixel/flip.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Highway 1.0.3 has no 8-bit Reverse on x86: reverse the bytes inside each 128-bit block with a
// byte shuffle, then reverse the order of the blocks.
template <class D>
HWY_INLINE hn::Vec<D> ReverseInBlockIndices(D d) {
  return hn::Xor(hn::And(hn::Iota(d, 0), hn::Set(d, 15)), hn::Set(d, 15));
}

template <class D>
HWY_INLINE hn::Vec<D> ReverseBytes(D d, hn::Vec<D> v, hn::Vec<D> in_block_indices) {
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128
  (void)in_block_indices;
  return hn::Reverse(d, v);
#else
  return hn::ReverseBlocks(d, hn::TableLookupBytes(v, in_block_indices));
#endif
}

// dst pixel i = src pixel n-1-i for pixels of kBytes bytes, with vectors of tag d. The last step
// is moved back to end exactly at n, overlapping the one before it (it writes the same bytes
// again), so a row of at least one vector has no scalar tail. Returns the pixels written: n, or 0
// when the row is shorter than one vector.
template <int kBytes, class D>
HWY_INLINE int64_t ReversePixelsWith(D d8, const uint8_t* HWY_RESTRICT src,
                                     uint8_t* HWY_RESTRICT dst, int64_t n) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d8));
  const int64_t step = (kBytes == 2 || kBytes == 4) ? lanes / kBytes : lanes;  // pixels per step
  if (step < 1 || n < step) return 0;
  const auto idx = ReverseInBlockIndices(d8);
  for (int64_t i = 0;; i += step) {
    if (i + step > n) i = n - step;
    const uint8_t* from = src + kBytes * (n - i - step);
    uint8_t* to = dst + kBytes * i;
    if constexpr (kBytes == 1) {
      hn::StoreU(ReverseBytes(d8, hn::LoadU(d8, from), idx), d8, to);
    } else if constexpr (kBytes == 3) {
      hn::Vec<D> r, g, b;
      hn::LoadInterleaved3(d8, from, r, g, b);
      hn::StoreInterleaved3(ReverseBytes(d8, r, idx), ReverseBytes(d8, g, idx),
                            ReverseBytes(d8, b, idx), d8, to);
    } else {
#if HWY_TARGET != HWY_SCALAR  // (a single 8-bit lane holds no whole pixel: step is 0 there)
      using Pixel = std::conditional_t<kBytes == 2, uint16_t, uint32_t>;
      const hn::Repartition<Pixel, D> dp;
      const auto v = hn::BitCast(dp, hn::LoadU(d8, from));
      hn::StoreU(hn::BitCast(d8, hn::Reverse(dp, v)), d8, to);
#endif
    }
    if (i + step == n) return n;
  }
}

// Full vectors first; rows narrower than one full vector try 16-byte vectors; rows narrower still
// are left to the caller's scalar loop.
template <int kBytes>
int64_t ReversePixels(const uint8_t* HWY_RESTRICT src, uint8_t* HWY_RESTRICT dst, int64_t n) {
  const int64_t done = ReversePixelsWith<kBytes>(hn::ScalableTag<uint8_t>(), src, dst, n);
  if (done != 0) return done;
  return ReversePixelsWith<kBytes>(hn::CappedTag<uint8_t, 16>(), src, dst, n);
}

void HFlipRows(const ConstImage& src, const Image& dst, int layout_code, int64_t row_begin,
               int64_t row_end) {
  const RowLayout layout = static_cast<RowLayout>(layout_code);
  const FlipAxes axes{true, false};
  const int64_t w = src.width;
  RowIndex r = row_index(layout, src, row_begin);
  for (int64_t row = row_begin; row < row_end; ++row, next_row(layout, src, r)) {
    const uint8_t* s = &src.at(r.b, r.c, r.y, 0);
    uint8_t* o = &dst.at(r.b, r.c, r.y, 0);
    int64_t done = 0;
    if (layout == RowLayout::kPlanar) {
      done = ReversePixels<1>(s, o, w);
      for (int64_t x = done; x < w; ++x) flip_element(src, dst, axes, r.b, r.c, r.y, x);
      continue;
    }
    if (layout == RowLayout::kInterleaved) {
      switch (src.channels) {
        case 2: done = ReversePixels<2>(s, o, w); break;
        case 3: done = ReversePixels<3>(s, o, w); break;
        case 4: done = ReversePixels<4>(s, o, w); break;
        default: break;  // other pixel sizes: the scalar loop below
      }
    }
    for (int64_t x = done; x < w; ++x) flip_pixel(src, dst, axes, r.b, r.y, x);
  }
}

// dst[0, n) = src[0, n), vectors with an overlapping last step. Rows of a 224-wide image are a
// few vectors: a call to memcpy per row costs more than the copy.
template <class D>
HWY_INLINE int64_t CopyBytesWith(D d8, const uint8_t* HWY_RESTRICT src, uint8_t* HWY_RESTRICT dst,
                                 int64_t n) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d8));
  if (n < lanes) return 0;
  for (int64_t i = 0;; i += lanes) {
    if (i + lanes > n) i = n - lanes;
    hn::StoreU(hn::LoadU(d8, src + i), d8, dst + i);
    if (i + lanes == n) return n;
  }
}

void VFlipRows(const ConstImage& src, const Image& dst, int layout_code, int64_t row_begin,
               int64_t row_end) {
  const RowLayout layout = static_cast<RowLayout>(layout_code);
  const FlipAxes axes{false, true};
  const int64_t bytes = row_bytes(layout, src);
  RowIndex r = row_index(layout, dst, row_begin);
  for (int64_t row = row_begin; row < row_end; ++row, next_row(layout, dst, r)) {
    int64_t done = 0;
    if (layout != RowLayout::kStrided) {  // the row is `bytes` contiguous bytes in src and dst
      const uint8_t* s = &src.at(r.b, r.c, src.height - 1 - r.y, 0);
      uint8_t* o = &dst.at(r.b, r.c, r.y, 0);
      done = CopyBytesWith(hn::ScalableTag<uint8_t>(), s, o, bytes);
      if (done == 0) done = CopyBytesWith(hn::CappedTag<uint8_t, 16>(), s, o, bytes);
      if (done != 0) continue;
    }
    if (layout == RowLayout::kPlanar) {
      for (int64_t x = 0; x < dst.width; ++x) flip_element(src, dst, axes, r.b, r.c, r.y, x);
    } else {
      for (int64_t x = 0; x < dst.width; ++x) flip_pixel(src, dst, axes, r.b, r.y, x);
    }
  }
}

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(HFlipRows);
HWY_EXPORT(VFlipRows);
HWY_EXPORT(TargetName);

// The target dynamic dispatch picks for this file's kernels now (build_info, tests).
const char* flip_target_name() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }

void hflip(const ConstImage& src, const Image& dst, const ParallelFor& parallel) {
  detail::check_unary("hflip", src, dst);
  const RowLayout layout = row_layout(src, dst);
  run_parallel(parallel, row_count(layout, src), grain_for(row_bytes(layout, src)),
               [&](int64_t begin, int64_t end) {
                 HWY_DYNAMIC_DISPATCH(HFlipRows)(src, dst, static_cast<int>(layout), begin, end);
               });
}

void vflip(const ConstImage& src, const Image& dst, const ParallelFor& parallel) {
  detail::check_unary("vflip", src, dst);
  const RowLayout layout = row_layout(src, dst);
  run_parallel(parallel, row_count(layout, src), grain_for(row_bytes(layout, src)),
               [&](int64_t begin, int64_t end) {
                 HWY_DYNAMIC_DISPATCH(VFlipRows)(src, dst, static_cast<int>(layout), begin, end);
               });
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
