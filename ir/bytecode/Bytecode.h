// Bytecode.h - the compact versioned bytecode (`.tbc`): write and read. Spec: docs/bytecode.md.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "ir/Op.h"

namespace tilevm::ir {

/// Magic: a non-ASCII first byte, "TILE", and "\r\n\x1a" to catch text-mode damage.
inline constexpr uint8_t kBytecodeMagic[8] = {0x89, 'T', 'I', 'L', 'E', '\r', '\n', 0x1a};
/// The newest version: the reader accepts this major and minors up to this one. The writer
/// stamps the lowest minor that has every op (the `since` column of ops.def) and element kind
/// (bc::kindSince) of the module.
inline constexpr uint8_t kBytecodeMajor = 1;
inline constexpr uint8_t kBytecodeMinor = 5;  // 1.1: flip; 1.2: the fp8 element kinds; 1.3: map_elementwise; 1.4: histogram;
                                               // 1.5: libdevice math (trunc .. copysign) and clz, popc, brev
static_assert(kNewestOpSince <= kBytecodeMinor, "ops.def has an op newer than kBytecodeMinor");

/// Section ids, in the order they must appear.
enum class SectionId : uint8_t { Strings = 1, Types = 2, Constants = 3, Kernels = 4, Locations = 5 };

struct WriteOptions {
  bool locations = true;  ///< emit the Locations section (source file:line:col of every op)
};

/// Encodes a module (which should be verified).
std::vector<uint8_t> write(const Module& m, const WriteOptions& opts = {});

/// Decodes bytecode. Never trusts the input: every error is a Diagnostic whose message starts
/// with "offset N:". The result is structurally sound but not verified: run verify() next.
Result<std::unique_ptr<Module>> read(std::span<const uint8_t> bytes, const std::string& fileName);

}  // namespace tilevm::ir
