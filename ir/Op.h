// Op.h - the opcode enum and the static per-op table, both generated from ops.def.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tilevm::ir {

/// Every tile IR operation. Order is irrelevant: bytecode uses the frozen `opcode` column.
enum class Opcode : uint16_t {
#define TILE_OP(E, M, C, MINO, MAXO, R, RG, T) E,
#include "ir/ops.def"
};

/// Per-op properties (bit flags in the traits column of ops.def).
enum OpTraits : uint8_t {
  Pure = 1,          ///< no side effects, no traps
  Elementwise = 2,   ///< applies per element over operands of one shape
  Terminator = 4,    ///< ends a region
  Commutative = 8,   ///< operands may be swapped
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
};

/// Number of opcodes.
inline constexpr unsigned kNumOpcodes = 0
#define TILE_OP(E, M, C, MINO, MAXO, R, RG, T) +1
#include "ir/ops.def"
    ;

/// The row of ops.def for `op`.
const OpInfo& opInfo(Opcode op);
/// Opcode by mnemonic, for the text parser.
std::optional<Opcode> opcodeFromMnemonic(std::string_view m);
/// Opcode by frozen bytecode number, for the bytecode reader.
std::optional<Opcode> opcodeFromBytecode(unsigned number);
inline bool hasTrait(Opcode op, OpTraits t) { return (opInfo(op).traits & t) != 0; }

}  // namespace tilevm::ir
