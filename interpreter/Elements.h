// Elements.h - reading and writing single elements of a tile in storage format (used by slow
// paths, printing, and tools that fill buffers).
#pragma once

#include "interpreter/Tile.h"

namespace tilevm::interp {

/// Element i of a tile as double / int64.
double elementAsDouble(const Tile& t, int64_t i);
int64_t elementAsInt(const Tile& t, int64_t i);
/// Writes a double / int64 into element i, converting (and rounding) to the tile's kind.
void storeDouble(Tile& t, int64_t i, double v);
void storeInt(Tile& t, int64_t i, int64_t v);

}  // namespace tilevm::interp
