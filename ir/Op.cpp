// Op.cpp - the op table generated from ops.def, and its lookups.
#include "ir/Op.h"

#include <array>

namespace tilevm::ir {

namespace {
constexpr OpInfo kOpInfos[] = {
#define TILE_OP(E, M, C, MINO, MAXO, R, RG, T) {M, C, MINO, MAXO, R, RG, static_cast<uint8_t>(T)},
#include "ir/ops.def"
};
static_assert(sizeof(kOpInfos) / sizeof(kOpInfos[0]) == kNumOpcodes);

// Frozen numbers must be unique and outside the test-only range 0xF0-0xFF.
constexpr bool bytecodeNumbersValid() {
  for (unsigned i = 0; i < kNumOpcodes; ++i) {
    if (kOpInfos[i].bytecode == 0 || kOpInfos[i].bytecode >= 0xF0) return false;
    for (unsigned j = i + 1; j < kNumOpcodes; ++j)
      if (kOpInfos[i].bytecode == kOpInfos[j].bytecode) return false;
  }
  return true;
}
static_assert(bytecodeNumbersValid(), "ops.def: duplicate or reserved bytecode opcode number");

constexpr bool mnemonicsUnique() {
  for (unsigned i = 0; i < kNumOpcodes; ++i)
    for (unsigned j = i + 1; j < kNumOpcodes; ++j)
      if (kOpInfos[i].mnemonic == kOpInfos[j].mnemonic) return false;
  return true;
}
static_assert(mnemonicsUnique(), "ops.def: duplicate mnemonic");

// Bytecode number -> opcode, built once at compile time.
constexpr std::array<int16_t, 256> makeByteTable() {
  std::array<int16_t, 256> t{};
  for (auto& e : t) e = -1;
  for (unsigned i = 0; i < kNumOpcodes; ++i) t[kOpInfos[i].bytecode] = static_cast<int16_t>(i);
  return t;
}
constexpr auto kByteTable = makeByteTable();
}  // namespace

const OpInfo& opInfo(Opcode op) { return kOpInfos[static_cast<unsigned>(op)]; }

std::optional<Opcode> opcodeFromMnemonic(std::string_view m) {
  for (unsigned i = 0; i < kNumOpcodes; ++i)
    if (kOpInfos[i].mnemonic == m) return static_cast<Opcode>(i);
  return std::nullopt;
}

std::optional<Opcode> opcodeFromBytecode(unsigned number) {
  if (number >= kByteTable.size() || kByteTable[number] < 0) return std::nullopt;
  return static_cast<Opcode>(kByteTable[number]);
}

}  // namespace tilevm::ir
