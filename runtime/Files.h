// Files.h - reading input files with a bound on their size, and writes checked to the end
// (close and flush included): every file tilevm reads or writes goes through here.
#pragma once

#include <cstdint>
#include <string>

#include "ir/Diagnostics.h"

namespace tilevm::rt {

/// The largest input file read (kernels, IR, bytecode, .npy arrays): 4 GiB, checked before
/// reading a regular file and while reading anything else (docs/limits.md).
inline constexpr uint64_t kMaxInputBytes = uint64_t(4) << 30;
/// The most read from a device or pipe (its size is not known before reading).
inline constexpr uint64_t kMaxStreamBytes = uint64_t(256) << 20;

/// Whole file contents, or a diagnostic naming the file (also when it exceeds `maxBytes`).
Result<std::string> readFile(const std::string& path, uint64_t maxBytes = kMaxInputBytes);

/// Writes `bytes` to `path`; on failure prints "PATH: error: cannot write file" and returns false.
bool writeFile(const std::string& path, const void* bytes, size_t size);

/// Writes to stdout and checks it (a closed pipe or a full device is an error, printed).
bool writeStdout(const std::string& text);

}  // namespace tilevm::rt
