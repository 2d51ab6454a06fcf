// Layout.h - how a tile's elements are spread over a program's threads: blocked over the
// flattened tile. Each thread holds runs of `vec` consecutive elements: element e lives in
// thread (e / vec) % T, register slot (e / (vec T)) vec + e % vec (T threads). With vec 4 a warp's
// f32 run is 16 bytes per thread, the width of one vector access; tiles too small for that get
// vec 1 (cyclic). The layout depends on the shape only (not the dtype), so casts and every
// elementwise op need no data movement. Scalars are held by every thread.
#pragma once

#include <cstdint>

#include "ir/Types.h"

namespace tilevm::codegen {

struct Layout {
  int64_t numel = 1;    ///< elements of the tile (1 for a scalar)
  unsigned threads = 128;
  unsigned vec = 1;     ///< consecutive elements per thread and run (a power of two; numel % (vec T) == 0 when > 1)
  bool scalar = true;

  /// The most consecutive elements a thread holds in one run.
  static constexpr unsigned kMaxVec = 4;

  static Layout of(const ir::Type& t, unsigned threads);
  /// Register slots each thread holds.
  unsigned slots() const { return scalar ? 1 : unsigned((numel + int64_t(vec) * threads - 1) / (int64_t(vec) * threads)) * vec; }
  /// Whether every slot of every thread holds an element of the tile.
  bool full() const { return scalar || numel % (int64_t(vec) * threads) == 0; }
};

}  // namespace tilevm::codegen
