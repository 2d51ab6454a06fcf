// Format.h - frozen encodings shared by the bytecode writer and reader (see docs/bytecode.md).
#pragma once

#include <cstdint>
#include <optional>

#include "ir/Types.h"

namespace tilevm::ir::bc {

/// Frozen element kind numbers (independent of the ScalarKind enum order).
inline uint8_t kindCode(ScalarKind k) {
  switch (k) {
    case ScalarKind::I1: return 1;
    case ScalarKind::I8: return 2;
    case ScalarKind::I16: return 3;
    case ScalarKind::I32: return 4;
    case ScalarKind::I64: return 5;
    case ScalarKind::F16: return 6;
    case ScalarKind::BF16: return 7;
    case ScalarKind::F32: return 8;
    case ScalarKind::F64: return 9;
    case ScalarKind::Ptr: return 16;
  }
  return 0;
}

inline std::optional<ScalarKind> kindFromCode(uint8_t c) {
  for (ScalarKind k : {ScalarKind::I1, ScalarKind::I8, ScalarKind::I16, ScalarKind::I32, ScalarKind::I64,
                       ScalarKind::F16, ScalarKind::BF16, ScalarKind::F32, ScalarKind::F64, ScalarKind::Ptr})
    if (kindCode(k) == c) return k;
  return std::nullopt;
}

/// Tags of constants-section entries.
enum class ConstTag : uint8_t { Int = 0, Float = 1, String = 2, IntList = 3 };

/// Nesting limit of regions (guards the reader's recursion).
inline constexpr unsigned kMaxRegionDepth = 64;

}  // namespace tilevm::ir::bc
