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
    case ScalarKind::F8E5: return 10;  // the fp8 kinds: version 1.2
    case ScalarKind::F8E4NV: return 11;
    case ScalarKind::F8E4B15: return 12;
    case ScalarKind::F8E5B16: return 13;
    case ScalarKind::F8E4B8: return 14;
  }
  return 0;
}

inline std::optional<ScalarKind> kindFromCode(uint8_t c) {
  for (ScalarKind k : {ScalarKind::I1, ScalarKind::I8, ScalarKind::I16, ScalarKind::I32, ScalarKind::I64,
                       ScalarKind::F16, ScalarKind::BF16, ScalarKind::F32, ScalarKind::F64, ScalarKind::Ptr,
                       ScalarKind::F8E5, ScalarKind::F8E4NV, ScalarKind::F8E4B15, ScalarKind::F8E5B16, ScalarKind::F8E4B8})
    if (kindCode(k) == c) return k;
  return std::nullopt;
}

/// The bytecode minor version that first has element kind k (1.2: the fp8 kinds).
inline uint8_t kindSince(ScalarKind k) { return isFp8(k) ? 2 : 0; }

/// Tags of constants-section entries.
enum class ConstTag : uint8_t { Int = 0, Float = 1, String = 2, IntList = 3 };

/// Nesting limit of regions (guards the reader's recursion).
inline constexpr unsigned kMaxRegionDepth = 64;

}  // namespace tilevm::ir::bc
