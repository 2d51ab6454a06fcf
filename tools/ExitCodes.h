// ExitCodes.h - the documented exit codes of the tilevm CLI.
#pragma once

#include "runtime/Errors.h"

namespace tilevm::tools {

/// Process exit codes (README: "Exit codes").
enum ExitCode : int {
  kExitOk = 0,           ///< success
  kExitBadInput = 1,     ///< malformed kernel, bytecode, argument or file
  kExitEnvironment = 2,  ///< missing device, driver or tool
  kExitFindings = 3,     ///< checks found problems in the kernel
  kExitDisagree = 4,     ///< engines disagree
  kExitInterrupted = 130,  ///< Ctrl-C cancelled a launch (128 + SIGINT, as shells report)
};

/// The exit code of a launch that failed with `kind`.
inline int exitCodeFor(rt::ErrorKind kind) { return kind == rt::ErrorKind::Environment ? kExitEnvironment : kExitBadInput; }

}  // namespace tilevm::tools
