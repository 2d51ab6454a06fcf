// Load.h - what the subcommands share: reading a module from a file in either form (.tile text or
// .tbc bytecode) and verifying it, reporting diagnostics, parsing X[,Y[,Z]] options.
#pragma once

#include <array>
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

/// Parses "X[,Y[,Z]]" (grids, program ids) into out, missing parts set to `fill`; false unless
/// each part is a whole decimal int64.
bool parseTriple(const std::string& s, std::array<int64_t, 3>& out, int64_t fill);

/// Prints diagnostics to stderr.
void report(const std::vector<Diagnostic>& diags, const SourceManager& sources);

}  // namespace tilevm::tools
