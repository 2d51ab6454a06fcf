// ByteReader.h - the one reader that owns the offset: bounds-checked reads of hostile bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace tilevm::ir::bc {

/// A malformed input: the absolute byte offset where reading failed and why.
struct BytecodeError {
  size_t offset;
  std::string message;
};

/// Reads bytes, varints and counts from a window of the input. Every read is bounds-checked
/// and throws BytecodeError naming the absolute offset; no read allocates.
class ByteReader {
 public:
  ByteReader(std::span<const uint8_t> data, size_t base = 0) : data_(data), base_(base) {}

  size_t offset() const { return base_ + pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  bool atEnd() const { return pos_ == data_.size(); }

  uint8_t u8(const char* what);
  uint64_t varU(const char* what);
  int64_t varS(const char* what);
  /// A varint that must be <= max.
  uint64_t varUpTo(uint64_t max, const char* what);
  /// A count of items each taking at least `minBytes`: rejected if the rest cannot hold them,
  /// so callers may reserve() safely.
  uint64_t count(const char* what, size_t minBytes = 1);
  double f64(const char* what);
  std::span<const uint8_t> bytes(uint64_t n, const char* what);
  /// A reader over the next n bytes (a section), advancing past them.
  ByteReader sub(uint64_t n, const char* what);

  [[noreturn]] void fail(const std::string& msg) const { failAt(offset(), msg); }
  [[noreturn]] static void failAt(size_t offset, const std::string& msg) { throw BytecodeError{offset, msg}; }

 private:
  std::span<const uint8_t> data_;
  size_t base_;
  size_t pos_ = 0;
};

}  // namespace tilevm::ir::bc
