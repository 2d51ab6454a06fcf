// Affine.h - symbolic index tiles. Most ops of a Triton kernel build offsets and pointers
// (arange, splat, broadcast, +, -, * by a uniform value, pointer offsets) whose elements are
// affine in the element's multi-index. Those ops produce a symbolic tile (Tile::affine) in
// O(rank) instead of a pass over the tile; loads and stores read bounds, alignment and
// contiguity from the form; any other op gets the elements materialized first. Values are
// exact: a rule that could leave its type's range declines and the op runs densely, so results
// are bit-identical with and without symbolic tiles (LaunchOptions::symbolic). docs/interpreter.md.
#pragma once

#include "interpreter/Exec.h"

namespace tilevm::interp {

/// The smallest and largest element of a symbolic tile (exact).
struct AffineRange {
  __int128 lo, hi;
};
AffineRange affineRange(const Tile& t);

/// Kinds a symbolic tile may have (plus i1 for uniform masks, made by comparisons).
bool symbolicKind(ir::ScalarKind k);

/// Does `code` have a symbolic rule (so the dispatcher tries it before running densely)?
bool hasAffineRule(ir::Opcode code);

/// Runs `ins` symbolically when its rule applies to these operands (the result may still be
/// dense, as for a comparison); false: the caller runs it densely.
bool tryAffine(Program& p, const Instr& ins, const std::vector<const Tile*>& in, Tile& out);

/// The elements of symbolic `t` (or of view `t`), written into arena memory: an equivalent
/// dense tile.
Tile materialize(Arena& arena, const Tile& t);

/// The byte layout of a symbolic pointer tile with eb-byte elements.
struct AffineLayout {
  bool contiguous = false;      ///< lane i at base + i * eb
  bool rowsContiguous = false;  ///< each row (last dim) contiguous
  bool denseSet = false;        ///< the lanes cover one contiguous range, each element once
  uint64_t misaligned = 0;      ///< non-zero low bits: some lane is not eb-aligned
};
AffineLayout affineLayout(const Tile& ptrs, unsigned eb);

/// out[i] = the eb-byte element at lane i's address of symbolic `ptrs` (all lanes valid).
void gatherAffine(const Tile& ptrs, unsigned eb, uint8_t* out);

/// Address of the first lane of each row (last dim) of symbolic `ptrs`, into `rows`.
void affineRowStarts(const Tile& ptrs, uint64_t* rows);

}  // namespace tilevm::interp
