// Text.h - the readable text form of the tile IR (`.tile`): print and parse.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "ir/Diagnostics.h"
#include "ir/IR.h"

namespace tilevm::ir {

/// Printer options.
struct PrintOptions {
  bool locations = true;  ///< append `loc("file":line:col)` to ops that have one
};

/// The text form of a module. parse(print(m)) reproduces m (values are renumbered).
std::string print(const Module& m, const PrintOptions& opts = {});

/// Parses `.tile` text. `fileName` names the source in locations and diagnostics; ops without
/// an explicit `loc(...)` get their position in this text. Does not verify.
Result<std::unique_ptr<Module>> parse(std::string_view text, const std::string& fileName);

/// Text of one attribute value, as printed inside `{...}`.
std::string printAttrValue(const AttrValue& v);

}  // namespace tilevm::ir
