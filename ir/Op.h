// Op.h - the opcode enum and the static per-op table, both generated from ops.def.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tilevm::ir {

/// Every tile IR operation. Order is irrelevant: bytecode uses the frozen `opcode` column.
enum class Opcode : uint16_t {
#define TILE_OP(E, M, C, MINO, MAXO, R, RG, F, SINCE, ULPS, T) E,
#include "ir/ops.def"
};

/// Per-op properties (bit flags in the traits column of ops.def).
enum OpTraits : uint8_t {
  Pure = 1,          ///< no side effects, no traps
  Elementwise = 2,   ///< applies per element over operands of one shape
  Terminator = 4,    ///< ends a region
  Commutative = 8,   ///< operands may be swapped
  Reusable = 16,     ///< elementwise, result of an operand's type: may be computed in a dead operand's memory
};

/// The dispatch groups of ops.def's family column: each engine has one handler per family
/// (docs/ops.md lists where). A switch over OpFamily lists every family; a switch over Opcode
/// inside a family's handler lists its family's ops and ends with the others from
/// ir/FamilyCases.inc, so a new op is a compile error (-Werror=switch) until every engine has it.
enum class OpFamily : uint8_t {
  Grid,          ///< program_id, num_programs
  Shape,         ///< make or rearrange a tile: constant, splat, arange, broadcast, reshape, cat, ...
  Pointer,       ///< pointer arithmetic (addptr)
  Cast,          ///< one value to another type, elementwise
  Memory,        ///< load, store
  Atomic,        ///< atomic read-modify-write, compare-and-swap
  IntBinary,     ///< integer (a, b) -> r, wrapping
  IntUnary,      ///< integer a -> r
  Compare,       ///< cmpi, cmpf: (a, b) -> i1 by {pred}
  FloatBinary,   ///< float (a, b) -> r
  FloatUnary,    ///< float a -> r
  FloatTernary,  ///< float (a, b, c) -> r
  Select,        ///< c ? a : b
  Reduce,        ///< reduce, scan, map_elementwise (a scalar region run over elements: a combiner along {axis}), histogram
  Dot,           ///< matrix product
  Control,       ///< for, if, while: ops with regions that run them
  Terminator,    ///< yield, condition, return: end a region
  Debug,         ///< print, assert, barrier
  Target,        ///< inline_asm: target assembly, which only the GPU engine runs
};

/// Static description of one op: one row of ops.def.
struct OpInfo {
  std::string_view mnemonic;
  uint8_t bytecode;   ///< frozen opcode number
  int8_t minOperands;
  int8_t maxOperands; ///< -1: variadic
  int8_t numResults;  ///< -1: variadic
  uint8_t numRegions;
  uint8_t traits;
  OpFamily family;
  uint8_t since;      ///< bytecode minor version (major 1) that first has the op
  uint8_t ulps;       ///< 0: exact or correctly rounded; N: approximate on the GPU, diff grants N ulps
};

/// Number of opcodes.
inline constexpr unsigned kNumOpcodes = 0
#define TILE_OP(E, M, C, MINO, MAXO, R, RG, F, SINCE, ULPS, T) +1
#include "ir/ops.def"
    ;

/// The highest `since` column of ops.def: the bytecode minor version a writer must be able to stamp.
inline constexpr uint8_t kNewestOpSince = std::max({uint8_t(0)
#define TILE_OP(E, M, C, MINO, MAXO, R, RG, F, SINCE, ULPS, T) , uint8_t(SINCE)
#include "ir/ops.def"
});

/// The row of ops.def for `op`.
const OpInfo& opInfo(Opcode op);
/// Opcode by mnemonic, for the text parser.
std::optional<Opcode> opcodeFromMnemonic(std::string_view m);
/// Opcode by frozen bytecode number, for the bytecode reader.
std::optional<Opcode> opcodeFromBytecode(unsigned number);
inline bool hasTrait(Opcode op, OpTraits t) { return (opInfo(op).traits & t) != 0; }
/// The op's dispatch group (ops.def family column).
inline OpFamily opFamily(Opcode op) { return opInfo(op).family; }
/// The family's name as docs/ops.md writes it ("int-binary").
std::string_view familyName(OpFamily f);
/// A family's handler was given an op of another family: a broken dispatcher, not user input.
/// Prints the handler and op and aborts (the generated FamilyCases.inc labels end here).
[[noreturn]] void opNotInFamily(const char* handler, Opcode op);
/// Whether `tilevm diff` must allow the GPU's approximation of the op (ulps column > 0).
inline bool isApproximate(Opcode op) { return opInfo(op).ulps != 0; }

}  // namespace tilevm::ir
