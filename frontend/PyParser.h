// PyParser.h - reads a whole Python file: scans module-level statements, parses @triton.jit
// functions in full, and skips host code it does not need.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "frontend/Ast.h"
#include "ir/Diagnostics.h"

namespace tilevm::frontend {

/// Parses `text`. Syntax errors inside @triton.jit functions are diagnostics; host code outside
/// them is skipped by indentation and never rejected for using Python beyond the subset.
Result<PyModule> parsePython(std::string_view text, const std::string& fileName);

/// Parses the source of one function (`def name(...): ...`, decorators skipped) whose text was
/// dedented by `indent` columns and starts at line `firstLine` of `fileName`: positions are
/// those of the file. The module holds the one function (also as its kernel); syntax outside
/// the subset is the function's syntaxError. Counts as one parse.
Result<PyModule> parseFunctionSource(std::string_view text, const std::string& fileName, uint32_t firstLine, uint32_t indent);

/// How many times parsePython has run in this process (see frontend::filesParsed).
uint64_t pythonFilesParsed();

}  // namespace tilevm::frontend
