// hflip and vflip on the CPU. hflip reverses each row with Highway (every target compiled in,
// chosen at run time); vflip is a row copy, which memcpy already does at the memory's speed.
// The scalar path and the vector tails are pixel/flip.h, the same code the CUDA kernel runs.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/flip.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstring>
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

// dst pixel i = src pixel n-1-i for pixels of kBytes bytes. Returns how many leading dst pixels
// were written; the caller finishes the rest with the scalar code.
template <int kBytes>
int64_t ReversePixels(const uint8_t* HWY_RESTRICT src, uint8_t* HWY_RESTRICT dst, int64_t n) {
  const hn::ScalableTag<uint8_t> d8;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d8));
  int64_t i = 0;
  if constexpr (kBytes == 1 || kBytes == 3) {
    const auto idx = ReverseInBlockIndices(d8);
    for (; i + lanes <= n; i += lanes) {
      const uint8_t* from = src + kBytes * (n - i - lanes);
      if constexpr (kBytes == 1) {
        hn::StoreU(ReverseBytes(d8, hn::LoadU(d8, from), idx), d8, dst + i);
      } else {
        hn::Vec<decltype(d8)> r, g, b;
        hn::LoadInterleaved3(d8, from, r, g, b);
        hn::StoreInterleaved3(ReverseBytes(d8, r, idx), ReverseBytes(d8, g, idx),
                              ReverseBytes(d8, b, idx), d8, dst + 3 * i);
      }
    }
  } else {  // 2 or 4 bytes: one pixel is one 16- or 32-bit lane
#if HWY_TARGET != HWY_SCALAR  // (a single 8-bit lane holds no whole pixel: the scalar loop does it)
    using Pixel = std::conditional_t<kBytes == 2, uint16_t, uint32_t>;
    const hn::Repartition<Pixel, decltype(d8)> dp;
    const int64_t pixels = static_cast<int64_t>(hn::Lanes(dp));
    for (; i + pixels <= n; i += pixels) {
      const auto v = hn::BitCast(dp, hn::LoadU(d8, src + kBytes * (n - i - pixels)));
      hn::StoreU(hn::BitCast(d8, hn::Reverse(dp, v)), d8, dst + kBytes * i);
    }
#endif
  }
  return i;
}

void HFlipRows(const ConstImage& src, const Image& dst, int layout_code, int64_t row_begin,
               int64_t row_end) {
  const RowLayout layout = static_cast<RowLayout>(layout_code);
  const FlipAxes axes{true, false};
  const int64_t w = src.width;
  for (int64_t row = row_begin; row < row_end; ++row) {
    const RowIndex r = row_index(layout, src, row);
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
  const FlipAxes axes{false, true};
  const int64_t bytes = row_bytes(layout, src);
  run_parallel(parallel, row_count(layout, src), grain_for(bytes), [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const RowIndex r = row_index(layout, dst, row);
      if (layout == RowLayout::kStrided) {
        for (int64_t x = 0; x < dst.width; ++x) flip_pixel(src, dst, axes, r.b, r.y, x);
      } else {
        std::memcpy(&dst.at(r.b, r.c, r.y, 0), &src.at(r.b, r.c, src.height - 1 - r.y, 0),
                    static_cast<size_t>(bytes));
      }
    }
  });
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
