// Layout.h - how a tile's elements are spread over a program's threads: blocked over the
// flattened tile, or one of the tensor-core accumulator layouts (LayoutKind). Each thread holds runs of `vec` consecutive elements: element e lives in
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

/// Which of the layouts a tile value lives in (chosen before lowering, LowerLayouts.cpp).
enum class LayoutKind {
  Blocked,  ///< runs of `vec` consecutive elements, run after run across the threads
  Mma,      ///< mma.sync m16n8k16's C fragment: each warp a rectangle of 16x8 blocks
  Wgmma,    ///< wgmma.mma_async's accumulator: each warpgroup 64-row slabs, each warp 16 rows of them
  Rows,     ///< one value per row of an accumulator (`parent`), held by the threads holding that row
            ///< there: a reduction along its rows and what is computed from it (Triton's slice layout)
};

/// How a tile is laid out in shared memory for the tensor cores to read it (LowerDot.cpp):
/// row-major in slabs of `swizzleBytes`-wide columns, each slab's rows `swizzleBytes` apart and
/// their 16-byte chunks permuted by the row (XOR of address bits 4.. with bits 7..): the
/// layout wgmma's matrix descriptors name (swizzle mode 32, 64 or 128 bytes).
struct SharedLayout {
  int64_t rows = 0, cols = 0;  ///< the tile, cols contiguous
  unsigned elemBytes = 2;
  unsigned swizzleBytes = 128;  ///< 32, 64 or 128
  /// The swizzle for a tile whose contiguous dimension is `cols` elements of `elemBytes` bytes
  /// (0 when none fits: fewer than 32 bytes, or not a whole number of 128-byte slabs).
  static unsigned swizzleFor(int64_t cols, unsigned elemBytes);
  int64_t bytes() const { return rows * cols * elemBytes; }
};

struct Layout {
  int64_t numel = 1;    ///< elements of the tile (1 for a scalar)
  unsigned threads = 128;
  unsigned vec = 1;     ///< consecutive elements per thread and run (a power of two; numel % (vec T) == 0 when > 1)
  bool scalar = true;
  /// A tensor-core accumulator layout instead (dot results and what carries them): the rows x
  /// cols tile in 16x8 blocks, 4 elements per thread in each (PTX ISA, "Matrix Fragments for
  /// mma.m16n8k16"; wgmma's accumulator repeats that fragment along N). Mma: warps arranged
  /// warpsM x warpsN, each holding (rows / 16 / warpsM) x (cols / 8 / warpsN) blocks. Wgmma:
  /// warpsM = all warps, warpsN = 1; warpgroup g (warps 4g..4g+3) holds rows [g R, (g+1) R)
  /// (R = rows / warpgroups) as blocksM slabs of 64 rows, warp w's 16 rows at 16 (w % 4) in each.
  /// An Mma tile with fewer 16x8 blocks than warps uses warpsM x warpsN < warps: warp w holds what
  /// warp w % (warpsM warpsN) holds (replicas(), as Triton replicates a small dot's tile).
  LayoutKind kind = LayoutKind::Blocked;
  unsigned warpsM = 1, warpsN = 1;
  int64_t rows = 0, cols = 0;
  /// Rows: the accumulator kind whose rows it follows (warpsM, warpsN and rows as there; warpsN
  /// is 1, so each row lies in one warp: its 4 threads of a quad hold copies). A [rows] or
  /// [rows, 1] tile; thread slot 2 bm + h holds row (16-row block bm's first) + lane / 4 + 8 h.
  LayoutKind parent = LayoutKind::Blocked;

  /// The longest run any kernel uses (16 bytes of a 1-byte type).
  static constexpr unsigned kMaxVec = 16;

  /// The layout of a value of type t with runs of at most maxVec elements.
  static Layout of(const ir::Type& t, unsigned threads, unsigned maxVec);
  /// Whether a 2-D tile of type t can live in accumulator layout `kind` with `threads` threads
  /// (Mma: whole 16x8 blocks, copies in the warps the blocks leave over; Wgmma: whole warpgroups,
  /// 64-row slabs of at most 256 columns).
  static bool accumulatorFits(const ir::Type& t, unsigned threads, LayoutKind kind);
  /// The accumulator layout of t (accumulatorFits must hold); Mma: the warp arrangement that
  /// loads the fewest operand fragments.
  static Layout accumulatorOf(const ir::Type& t, unsigned threads, LayoutKind kind);
  /// The Rows layout of accumulator layout `acc` (whose warpsN is 1).
  static Layout rowsOf(const Layout& acc);
  bool accumulator() const { return kind == LayoutKind::Mma || kind == LayoutKind::Wgmma; }
  unsigned blocksM() const { return unsigned(rows / 16 / warpsM); }  ///< mma: 16-row blocks per warp
  unsigned blocksN() const { return unsigned(cols / 8 / warpsN); }   ///< mma: 8-column blocks per warp
  /// Warps holding each element of an accumulator (1 unless the tile has fewer blocks than warps).
  unsigned replicas() const { return accumulator() || kind == LayoutKind::Rows ? threads / 32 / (warpsM * warpsN) : 1; }
  /// Register slots each thread holds.
  unsigned slots() const {
    if (accumulator()) return blocksM() * blocksN() * 4;
    if (kind == LayoutKind::Rows) return blocksM() * 2;
    return scalar ? 1 : unsigned((numel + int64_t(vec) * threads - 1) / (int64_t(vec) * threads)) * vec;
  }
  /// Whether every slot of every thread holds an element of the tile.
  bool full() const { return scalar || kind != LayoutKind::Blocked || numel % (int64_t(vec) * threads) == 0; }
  bool operator==(const Layout& o) const {
    return numel == o.numel && threads == o.threads && vec == o.vec && scalar == o.scalar && kind == o.kind &&
           warpsM == o.warpsM && warpsN == o.warpsN && parent == o.parent;
  }
};

/// The run length for kernel k: 16 bytes of the narrowest element type its tile loads and
/// stores move (at least 4, at most Layout::kMaxVec).
unsigned kernelRunLength(const ir::Kernel& k);

}  // namespace tilevm::codegen
