// Errors.h - how a launch fails, as data: the kind of failure (which exit code, which Python
// exception) travels as an enum beside the diagnostic, never inferred from its text.
#pragma once

#include "ir/Diagnostics.h"

namespace tilevm::rt {

/// Why a launch could not run (kernel faults are findings, not errors).
enum class ErrorKind {
  Input,        ///< the kernel, its arguments or an option (exit 1; ValueError)
  Environment,  ///< no driver or GPU, the driver refused (exit 2; RuntimeError)
};

/// A failed launch: its kind and what to tell the user.
struct LaunchError {
  ErrorKind kind = ErrorKind::Input;
  Diagnostic diag;
};

/// A bad input's error (a located diagnostic: the kernel, an argument, an option).
inline LaunchError inputError(Diagnostic d) { return LaunchError{ErrorKind::Input, std::move(d)}; }
/// An environment's error (the driver, the GPU), at `<device>`.
inline LaunchError environmentError(std::string message) {
  return LaunchError{ErrorKind::Environment, Diagnostic{"<device>", 0, 0, std::move(message)}};
}

/// A value or a LaunchError (Result with the error's kind).
template <typename T>
using Outcome = Result<T, LaunchError>;

}  // namespace tilevm::rt
