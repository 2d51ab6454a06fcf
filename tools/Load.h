// Load.h - what the subcommands share: reading a module from a file in either form (.tile text or
// .tbc bytecode) and verifying it, reporting diagnostics, the run options of run/diff/viz.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "runtime/Files.h"
#include "runtime/RunOptions.h"

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

/// Adds the options a launch on the interpreter takes (--grid, --check, --threads, --schedule,
/// --timeout, --fuel, --seed, --strict) to `c`, as texts into `t`; rt::parseRunOptions checks them.
void addRunOptions(CLI::App* c, rt::RunOptionTexts& t);

/// Adds --num-warps, --num-stages and --maxnreg (the GPU engine's) to `c`; `what` says where they apply.
void addGpuOptions(CLI::App* c, rt::RunOptionTexts& t, const std::string& what);

/// Adds --fp-fusion and --debug (frontend::LaunchFlags::fpFusion and ::debug, for .py kernels) to `c`.
void addFrontendFlags(CLI::App* c, bool& fpFusion, bool& debug);

/// Prints diagnostics to stderr.
void report(const std::vector<Diagnostic>& diags, const SourceManager& sources);

}  // namespace tilevm::tools
