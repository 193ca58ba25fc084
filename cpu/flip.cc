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
#include "u8aug/detail/check.h"
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

// Row j of dst (at dst + j * dst_step) = row j of src mirrored, for `rows` rows of n pixels of
// kBytes bytes, with vectors of tag d8. Source rows are read forwards. The last step of a row is
// moved back to end exactly at n, overlapping the step before it (it writes the same bytes again),
// so there is no scalar tail. False, with nothing written, when a row is narrower than a vector.
template <int kBytes, class D>
HWY_INLINE bool ReverseRowsWith(D d8, const uint8_t* HWY_RESTRICT src, int64_t src_step, uint8_t* HWY_RESTRICT dst,
                                int64_t dst_step, int64_t rows, int64_t n) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d8));
  const int64_t step = (kBytes == 2 || kBytes == 4) ? lanes / kBytes : lanes;  // pixels per step
  if (step < 1 || n < step) return false;
  const auto idx = ReverseInBlockIndices(d8);
  // the steps from i pixels into src's row to dst's row mirrored
  const auto mirror = [&](const uint8_t* HWY_RESTRICT from_row, uint8_t* HWY_RESTRICT to_row, int64_t i) {
    const uint8_t* from = from_row + kBytes * i;
    uint8_t* to = to_row + kBytes * (n - i - step);
    if constexpr (kBytes == 1) {
      hn::StoreU(ReverseBytes(d8, hn::LoadU(d8, from), idx), d8, to);
    } else if constexpr (kBytes == 3) {
      hn::Vec<D> r, g, b;
      hn::LoadInterleaved3(d8, from, r, g, b);
      hn::StoreInterleaved3(ReverseBytes(d8, r, idx), ReverseBytes(d8, g, idx), ReverseBytes(d8, b, idx), d8, to);
    } else {
#if HWY_TARGET != HWY_SCALAR  // (a single 8-bit lane holds no whole pixel: step is 0 there)
      using Pixel = std::conditional_t<kBytes == 2, uint16_t, uint32_t>;
      const hn::Repartition<Pixel, D> dp;
      const auto v = hn::BitCast(dp, hn::LoadU(d8, from));
      hn::StoreU(hn::BitCast(d8, hn::Reverse(dp, v)), d8, to);
#endif
    }
  };
  // whole steps in a plain counted loop, then the last one ending at n (the overlap test inside the
  // loop, with its pointer arithmetic, was half of a planar row's instructions)
  const int64_t last = n - step;
  for (int64_t j = 0; j < rows; ++j, src += src_step, dst += dst_step) {
    for (int64_t i = 0; i < last; i += step) mirror(src, dst, i);
    mirror(src, dst, last);
  }
  return true;
}

#if HWY_TARGET != HWY_SCALAR
// Shuffle indices that mirror 16 RGB pixels (48 bytes in three 16-byte vectors): output vector k
// takes from input vector s the lanes kMirror3[k][s] (0x80: none, the lane comes from another s).
struct Mirror3Indices {
  uint8_t lanes[3][3][16];
  Mirror3Indices() {
    for (int k = 0; k < 3; ++k)
      for (int s = 0; s < 3; ++s)
        for (int l = 0; l < 16; ++l) {
          const int j = 16 * k + l, from = 3 * (15 - j / 3) + j % 3;
          lanes[k][s][l] = static_cast<uint8_t>(from / 16 == s ? from % 16 : 0x80);
        }
  }
};

// 3-byte pixels with 16-byte byte shuffles (pshufb-class, every x86 target): nine lookups and six
// ORs mirror 48 bytes, far fewer instructions than de- and re-interleaving whole vectors.
HWY_INLINE bool ReverseRgbRows(const uint8_t* HWY_RESTRICT src, int64_t src_step, uint8_t* HWY_RESTRICT dst,
                               int64_t dst_step, int64_t rows, int64_t n) {
  if (n < 16) return false;
  static const Mirror3Indices kMirror;
  const hn::Full128<uint8_t> d;
  hn::Vec<decltype(d)> idx[3][3];
  for (int k = 0; k < 3; ++k)
    for (int s = 0; s < 3; ++s) idx[k][s] = hn::LoadU(d, kMirror.lanes[k][s]);
  for (int64_t j = 0; j < rows; ++j, src += src_step, dst += dst_step) {
    for (int64_t i = 0;; i += 16) {
      if (i + 16 > n) i = n - 16;
      const uint8_t* from = src + 3 * i;
      uint8_t* to = dst + 3 * (n - i - 16);
      const auto in0 = hn::LoadU(d, from), in1 = hn::LoadU(d, from + 16), in2 = hn::LoadU(d, from + 32);
      for (int k = 0; k < 3; ++k) {
        const auto out =
            hn::Or(hn::Or(hn::TableLookupBytesOr0(in0, idx[k][0]), hn::TableLookupBytesOr0(in1, idx[k][1])),
                   hn::TableLookupBytesOr0(in2, idx[k][2]));
        hn::StoreU(out, d, to + 16 * k);
      }
      if (i + 16 == n) break;
    }
  }
  return true;
}
#endif

// Full vectors; rows narrower than that try 16-byte vectors; narrower still, the caller's scalar
// loop does them.
template <int kBytes>
HWY_INLINE bool ReverseRows(const uint8_t* src, int64_t src_step, uint8_t* dst, int64_t dst_step, int64_t rows,
                            int64_t n) {
#if HWY_TARGET != HWY_SCALAR
  if constexpr (kBytes == 3) {
    if (ReverseRgbRows(src, src_step, dst, dst_step, rows, n)) return true;
  }
#endif
  return ReverseRowsWith<kBytes>(hn::ScalableTag<uint8_t>(), src, src_step, dst, dst_step, rows, n) ||
         ReverseRowsWith<kBytes>(hn::CappedTag<uint8_t, 16>(), src, src_step, dst, dst_step, rows, n);
}

void HFlipRows(const ConstImage& src, const Image& dst, RowLayout layout, int64_t row_begin, int64_t row_end) {
  const FlipAxes axes{true, false};
  const int64_t w = src.width, sh = src.stride_h, dh = dst.stride_h;
  for_each_row_run(layout, src, row_begin, row_end, [&](RowIndex r, int64_t rows) {
    const uint8_t* s = &src.at(r.b, r.c, r.y, 0);
    uint8_t* o = &dst.at(r.b, r.c, r.y, 0);
    bool done = false;
    if (layout == RowLayout::kPlanar) {
      done = ReverseRows<1>(s, sh, o, dh, rows, w);
    } else if (layout == RowLayout::kInterleaved) {
      switch (src.channels) {
        case 2: done = ReverseRows<2>(s, sh, o, dh, rows, w); break;
        case 3: done = ReverseRows<3>(s, sh, o, dh, rows, w); break;
        case 4: done = ReverseRows<4>(s, sh, o, dh, rows, w); break;
        default: break;  // other pixel sizes: the scalar loop
      }
    }
    if (done) return;
    for (int64_t y = r.y; y < r.y + rows; ++y)
      for (int64_t x = 0; x < w; ++x) {
        if (layout == RowLayout::kPlanar) {
          flip_element(src, dst, axes, r.b, r.c, y, x);
        } else {
          flip_pixel(src, dst, axes, r.b, y, x);
        }
      }
  });
}

// Row j of dst = row j of src, `rows` rows of n contiguous bytes, vectors with an overlapping last
// step. Rows of a 224-wide image are a few vectors: a memcpy call per row costs more than the copy.
template <class D>
HWY_INLINE bool CopyRowsWith(D d8, const uint8_t* HWY_RESTRICT src, int64_t src_step, uint8_t* HWY_RESTRICT dst,
                             int64_t dst_step, int64_t rows, int64_t n) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d8));
  if (n < lanes) return false;
  const int64_t last = n - lanes;  // as ReverseRowsWith: a counted loop, then the step ending at n
  for (int64_t j = 0; j < rows; ++j, src += src_step, dst += dst_step) {
    for (int64_t i = 0; i < last; i += lanes) hn::StoreU(hn::LoadU(d8, src + i), d8, dst + i);
    hn::StoreU(hn::LoadU(d8, src + last), d8, dst + last);
  }
  return true;
}

void VFlipRows(const ConstImage& src, const Image& dst, RowLayout layout, int64_t row_begin, int64_t row_end) {
  const FlipAxes axes{false, true};
  const int64_t bytes = row_bytes(layout, src);
  for_each_row_run(layout, dst, row_begin, row_end, [&](RowIndex r, int64_t rows) {
    if (layout != RowLayout::kStrided) {  // each row is `bytes` contiguous bytes in src and dst
      const uint8_t* s = &src.at(r.b, r.c, src.height - 1 - r.y, 0);  // walked upwards
      uint8_t* o = &dst.at(r.b, r.c, r.y, 0);
      if (CopyRowsWith(hn::ScalableTag<uint8_t>(), s, -src.stride_h, o, dst.stride_h, rows, bytes) ||
          CopyRowsWith(hn::CappedTag<uint8_t, 16>(), s, -src.stride_h, o, dst.stride_h, rows, bytes)) {
        return;
      }
    }
    for (int64_t y = r.y; y < r.y + rows; ++y)
      for (int64_t x = 0; x < dst.width; ++x) {
        if (layout == RowLayout::kPlanar) {
          flip_element(src, dst, axes, r.b, r.c, y, x);
        } else {
          flip_pixel(src, dst, axes, r.b, y, x);
        }
      }
  });
}

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
void hflip(const ConstImage& src, const Image& dst, const ParallelFor& parallel) {
  detail::check_unary("hflip", src, dst);
  const RowLayout layout = row_layout(src, dst);
  run_parallel(parallel, row_count(layout, src), grain_for(row_bytes(layout, src)), [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(HFlipRows)(src, dst, layout, begin, end);
  });
}

void vflip(const ConstImage& src, const Image& dst, const ParallelFor& parallel) {
  detail::check_unary("vflip", src, dst);
  const RowLayout layout = row_layout(src, dst);
  run_parallel(parallel, row_count(layout, src), grain_for(row_bytes(layout, src)), [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(VFlipRows)(src, dst, layout, begin, end);
  });
}

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
