// Commands.h - registration of the tilevm subcommands (one function per file).
#pragma once

#include <CLI/CLI.hpp>

namespace tilevm::tools {

/// Each adds its subcommand(s) to `app`; when run, the subcommand stores its exit code in `rc`.
void addIrCommands(CLI::App& app, int& rc);  // asm, dis, verify
void addDemoCommand(CLI::App& app, int& rc);  // demo
void addCompileCommand(CLI::App& app, int& rc);  // compile
void addRunCommand(CLI::App& app, int& rc);  // run
void addDiffCommand(CLI::App& app, int& rc);  // diff: two engines (or --self) on one input set
void addCodegenCommands(CLI::App& app, int& rc);  // ptx, llvm-ir
void addVizCommand(CLI::App& app, int& rc);  // viz: dataflow graphs, run overlays, access maps

}  // namespace tilevm::tools
