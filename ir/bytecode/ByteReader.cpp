// ByteReader.cpp - bounds-checked reads.
#include "ir/bytecode/ByteReader.h"

#include <cstring>

#include "ir/bytecode/Varint.h"

namespace tilevm::ir::bc {

uint8_t ByteReader::u8(const char* what) {
  if (pos_ >= data_.size()) fail(std::string("unexpected end of data reading ") + what);
  return data_[pos_++];
}

uint64_t ByteReader::varU(const char* what) {
  size_t start = offset();
  uint64_t v = 0;
  for (unsigned i = 0; i < kMaxVarintBytes; ++i) {
    if (pos_ >= data_.size()) fail(std::string("unexpected end of data in varint ") + what);
    uint8_t b = data_[pos_++];
    uint64_t bits = b & 0x7f;
    if (i == 9 && bits > 1) failAt(start, std::string("varint ") + what + " overflows 64 bits");
    v |= bits << (7 * i);
    if (!(b & 0x80)) return v;
  }
  failAt(start, std::string("varint ") + what + " is longer than 10 bytes");
}

int64_t ByteReader::varS(const char* what) { return zigzagDecode(varU(what)); }

uint64_t ByteReader::varUpTo(uint64_t max, const char* what) {
  size_t start = offset();
  uint64_t v = varU(what);
  if (v > max) failAt(start, std::string(what) + " " + std::to_string(v) + " exceeds the limit " + std::to_string(max));
  return v;
}

uint64_t ByteReader::count(const char* what, size_t minBytes) {
  size_t start = offset();
  uint64_t n = varU(what);
  if (minBytes && n > remaining() / minBytes)
    failAt(start, std::string(what) + " " + std::to_string(n) + " exceeds what the remaining " +
                      std::to_string(remaining()) + " bytes can hold");
  return n;
}

double ByteReader::f64(const char* what) {
  auto b = bytes(8, what);
  uint64_t bits = 0;
  for (int i = 0; i < 8; ++i) bits |= uint64_t(b[i]) << (8 * i);
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

std::span<const uint8_t> ByteReader::bytes(uint64_t n, const char* what) {
  if (n > remaining())
    fail(std::string(what) + " needs " + std::to_string(n) + " bytes, " + std::to_string(remaining()) + " remain");
  auto s = data_.subspan(pos_, n);
  pos_ += n;
  return s;
}

ByteReader ByteReader::sub(uint64_t n, const char* what) {
  size_t start = offset();
  auto s = bytes(n, what);
  return ByteReader(s, start);
}

}  // namespace tilevm::ir::bc
