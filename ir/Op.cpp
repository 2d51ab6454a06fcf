// Op.cpp - the op table generated from ops.def, and its lookups.
#include "ir/Op.h"

#include <array>
#include <cstdio>
#include <cstdlib>

namespace tilevm::ir {

namespace {
constexpr OpInfo kOpInfos[] = {
#define TILE_OP(E, M, C, MINO, MAXO, R, RG, F, SINCE, ULPS, T) {M, C, MINO, MAXO, R, RG, static_cast<uint8_t>(T), OpFamily::F, SINCE, ULPS},
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

std::string_view familyName(OpFamily f) {
  switch (f) {
    case OpFamily::Grid: return "grid";
    case OpFamily::Shape: return "shape";
    case OpFamily::Pointer: return "pointer";
    case OpFamily::Cast: return "cast";
    case OpFamily::Memory: return "memory";
    case OpFamily::Atomic: return "atomic";
    case OpFamily::IntBinary: return "int-binary";
    case OpFamily::IntUnary: return "int-unary";
    case OpFamily::Compare: return "compare";
    case OpFamily::FloatBinary: return "float-binary";
    case OpFamily::FloatUnary: return "float-unary";
    case OpFamily::FloatTernary: return "float-ternary";
    case OpFamily::Select: return "select";
    case OpFamily::Reduce: return "reduce";
    case OpFamily::Dot: return "dot";
    case OpFamily::Control: return "control";
    case OpFamily::Terminator: return "terminator";
    case OpFamily::Debug: return "debug";
    case OpFamily::Target: return "target";
  }
  return "?";
}

void opNotInFamily(const char* handler, Opcode op) {
  std::fprintf(stderr, "tilevm internal error: %s got '%.*s' of family %.*s\n", handler, int(opInfo(op).mnemonic.size()),
               opInfo(op).mnemonic.data(), int(familyName(opFamily(op)).size()), familyName(opFamily(op)).data());
  std::abort();
}

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
