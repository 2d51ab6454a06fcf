// Demo.h - pieces of `tilevm demo`.
#pragma once

#include <string>

namespace tilevm::tools {

/// Runs the anchor kernels and a planted bug on the interpreter, printing tables; true when
/// the anchors are clean and the bug is reported. `root` is the source tree.
bool demoInterpreter(const std::string& root);

}  // namespace tilevm::tools
