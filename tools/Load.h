// Load.h - reads a module from a file in either form (.tile text or .tbc bytecode) and verifies it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/Diagnostics.h"
#include "ir/IR.h"

namespace tilevm::tools {

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

/// Bytecode or text? By extension (.tbc, .tile), else by the magic's non-ASCII first byte.
bool looksLikeBytecode(const std::string& path, const std::string& bytes);

/// Parses or reads `path`, then verifies. On failure the diagnostics are printed to stderr
/// (with source lines from `sources`) and null is returned.
std::unique_ptr<ir::Module> loadVerified(const std::string& path, SourceManager& sources);

/// Prints diagnostics to stderr.
void report(const std::vector<Diagnostic>& diags, const SourceManager& sources);

}  // namespace tilevm::tools
