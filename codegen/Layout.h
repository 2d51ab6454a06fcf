// Layout.h - how a tile's elements are spread over a program's threads: blocked over the
// flattened tile. Each thread holds runs of `vec` consecutive elements: element e lives in
// thread (e / vec) % T, register slot (e / (vec T)) vec + e % vec (T threads). The run length is
// chosen per kernel so that a run of its narrowest loaded or stored type is 16 bytes, the width
// of one vector access (4 for f32 kernels, 8 for f16 ones); tiles too small for that get shorter
// runs, down to 1 (cyclic). Within a kernel the layout depends on the shape only (not the
// dtype), so casts and every elementwise op need no data movement. Scalars are held by every
// thread.
#pragma once

#include <cstdint>

#include "ir/IR.h"
#include "ir/Types.h"

namespace tilevm::codegen {

struct Layout {
  int64_t numel = 1;    ///< elements of the tile (1 for a scalar)
  unsigned threads = 128;
  unsigned vec = 1;     ///< consecutive elements per thread and run (a power of two; numel % (vec T) == 0 when > 1)
  bool scalar = true;
  /// The tensor-core accumulator layout instead (dot results and what carries them): the
  /// rows x cols tile in 16x8 blocks of mma.sync m16n8k16, warps arranged warpsM x warpsN, each
  /// warp holding (rows / 16 / warpsM) x (cols / 8 / warpsN) blocks, 4 elements per thread in
  /// each (PTX ISA, "Matrix Fragments for mma.m16n8k16").
  bool mma = false;
  unsigned warpsM = 1, warpsN = 1;
  int64_t rows = 0, cols = 0;

  /// The longest run any kernel uses (16 bytes of a 2-byte type).
  static constexpr unsigned kMaxVec = 8;

  /// The layout of a value of type t with runs of at most maxVec elements.
  static Layout of(const ir::Type& t, unsigned threads, unsigned maxVec);
  /// Whether a 2-D tile of type t can live in the mma layout with `threads` threads (every warp
  /// holds at least one 16x8 block).
  static bool mmaFits(const ir::Type& t, unsigned threads);
  /// The mma layout of t (mmaFits(t) must hold): the warp arrangement that loads the fewest
  /// operand fragments.
  static Layout mmaOf(const ir::Type& t, unsigned threads);
  unsigned blocksM() const { return unsigned(rows / 16 / warpsM); }  ///< mma: 16-row blocks per warp
  unsigned blocksN() const { return unsigned(cols / 8 / warpsN); }   ///< mma: 8-column blocks per warp
  /// Register slots each thread holds.
  unsigned slots() const {
    if (mma) return blocksM() * blocksN() * 4;
    return scalar ? 1 : unsigned((numel + int64_t(vec) * threads - 1) / (int64_t(vec) * threads)) * vec;
  }
  /// Whether every slot of every thread holds an element of the tile.
  bool full() const { return scalar || mma || numel % (int64_t(vec) * threads) == 0; }
  bool operator==(const Layout& o) const {
    return numel == o.numel && threads == o.threads && vec == o.vec && scalar == o.scalar && mma == o.mma &&
           warpsM == o.warpsM && warpsN == o.warpsN;
  }
};

/// The run length for kernel k: 16 bytes of the narrowest element type its tile loads and
/// stores move (at least 4, at most Layout::kMaxVec).
unsigned kernelRunLength(const ir::Kernel& k);

}  // namespace tilevm::codegen
