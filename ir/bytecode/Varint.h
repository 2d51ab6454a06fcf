// Varint.h - LEB128 varints (unsigned, and zigzag for signed) and the byte sink that writes them.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace tilevm::ir::bc {

/// Longest encoding of a 64-bit varint.
inline constexpr unsigned kMaxVarintBytes = 10;

inline uint64_t zigzagEncode(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
inline int64_t zigzagDecode(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

/// Appends bytes in the bytecode encodings.
class ByteWriter {
 public:
  void u8(uint8_t b) { bytes.push_back(b); }
  void varU(uint64_t v) {
    do {
      uint8_t b = v & 0x7f;
      v >>= 7;
      bytes.push_back(v ? (b | 0x80) : b);
    } while (v);
  }
  void varS(int64_t v) { varU(zigzagEncode(v)); }
  void raw(const void* p, size_t n) {
    const auto* c = static_cast<const uint8_t*>(p);
    bytes.insert(bytes.end(), c, c + n);
  }
  void f64(double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    for (int i = 0; i < 8; ++i) u8(static_cast<uint8_t>(bits >> (8 * i)));
  }
  void str(std::string_view s) {
    varU(s.size());
    raw(s.data(), s.size());
  }
  std::vector<uint8_t> bytes;
};

}  // namespace tilevm::ir::bc
