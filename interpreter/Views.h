// Views.h - broadcast without copies: splat, broadcast and expand_dims of float tiles give a
// view (Tile::view) of their operand's elements with stride 0 along the repeated dims, and
// elementwise float ops read views directly. Any other op gets the view materialized.
// (The index-tile counterpart, symbolic tiles, is Affine.h.)
#pragma once

#include "interpreter/Exec.h"

namespace tilevm::interp {

/// Ops that can make a view of their operand (when the result is a float tile).
bool hasViewRule(ir::Opcode code);

/// Makes `ins`'s result a view when its rule applies to these operands; false: the caller runs
/// it as usual.
bool tryView(const Instr& ins, const std::vector<const Tile*>& in, Tile& out);

/// Element strides of `t`: a view's own, or the row-major ones of a dense tile.
std::array<int64_t, ir::kMaxRank> elementStrides(const Tile& t);

/// Writes the elements of view `t` densely (row-major) into `dst`.
void copyViewElements(const Tile& t, uint8_t* dst);

}  // namespace tilevm::interp
