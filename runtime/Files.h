// Files.h - reading input files (regular files only, with a bound on their size), and writes
// checked to the end (close and flush included): every file tilevm reads or writes goes here.
#pragma once

#include <cstdint>
#include <string>

#include "ir/Diagnostics.h"

namespace tilevm::rt {

/// The largest input file read (IR, bytecode, .npy arrays): 4 GiB, checked from the file's
/// size before reading (docs/limits.md).
inline constexpr uint64_t kMaxInputBytes = uint64_t(4) << 30;
/// The largest Python source read (a name ending in .py): 16 MiB, the frontend's bound on
/// imported modules, so the kernel's own file has the same one.
inline constexpr uint64_t kMaxPythonSourceBytes = uint64_t(16) << 20;

/// Whole file contents, or a diagnostic naming the file. Only a regular file (or a link to
/// one) is read: a FIFO, device, socket or directory is `file is not a regular file (...)`,
/// opened without blocking; a file over `maxBytes` (kMaxPythonSourceBytes for .py) is an error
/// before anything is read.
Result<std::string> readFile(const std::string& path, uint64_t maxBytes = kMaxInputBytes);

/// Writes `bytes` to `path`; on failure prints "PATH: error: cannot write file" and returns false.
bool writeFile(const std::string& path, const void* bytes, size_t size);

/// Writes to stdout and checks it (a closed pipe or a full device is an error, printed).
bool writeStdout(const std::string& text);

}  // namespace tilevm::rt
