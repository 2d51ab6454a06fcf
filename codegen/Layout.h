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

  /// The longest run any kernel uses (16 bytes of a 2-byte type).
  static constexpr unsigned kMaxVec = 8;

  /// The layout of a value of type t with runs of at most maxVec elements.
  static Layout of(const ir::Type& t, unsigned threads, unsigned maxVec);
  /// Register slots each thread holds.
  unsigned slots() const { return scalar ? 1 : unsigned((numel + int64_t(vec) * threads - 1) / (int64_t(vec) * threads)) * vec; }
  /// Whether every slot of every thread holds an element of the tile.
  bool full() const { return scalar || numel % (int64_t(vec) * threads) == 0; }
};

/// The run length for kernel k: 16 bytes of the narrowest element type its tile loads and
/// stores move (at least 4, at most Layout::kMaxVec).
unsigned kernelRunLength(const ir::Kernel& k);

}  // namespace tilevm::codegen
