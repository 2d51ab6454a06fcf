// Layout.h - how a tile's elements are spread over a program's threads. Version one has a single
// layout, cyclic over the flattened tile: element e lives in thread e % T, register slot e / T
// (T threads); every thread holds a scalar. Elementwise ops then need no data movement, and
// consecutive threads touch consecutive addresses (coalesced).
#pragma once

#include <cstdint>

#include "ir/Types.h"

namespace tilevm::codegen {

struct Layout {
  int64_t numel = 1;    ///< elements of the tile (1 for a scalar)
  unsigned threads = 128;
  bool scalar = true;

  static Layout of(const ir::Type& t, unsigned threads);
  /// Register slots each thread holds.
  unsigned slots() const { return scalar ? 1 : unsigned((numel + threads - 1) / threads); }
};

}  // namespace tilevm::codegen
