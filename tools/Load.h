// Load.h - reads a module from a file in either form (.tile text or .tbc bytecode) and verifies it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "runtime/Files.h"

namespace tilevm::tools {

// Reading and writing files is the runtime's (runtime/Files.h); the commands use it directly.
using rt::readFile;
using rt::writeFile;
using rt::writeStdout;

/// Bytecode or text? By extension (.tbc, .tile), else by the magic's non-ASCII first byte.
bool looksLikeBytecode(const std::string& path, const std::string& bytes);

/// Parses or reads `path`, then verifies. On failure the diagnostics are printed to stderr
/// (with source lines from `sources`) and null is returned.
std::unique_ptr<ir::Module> loadVerified(const std::string& path, SourceManager& sources);

/// Prints diagnostics to stderr.
void report(const std::vector<Diagnostic>& diags, const SourceManager& sources);

}  // namespace tilevm::tools
