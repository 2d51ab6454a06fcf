// Errors.h - how a launch fails, as data: the kind of failure (which exit code, which Python
// exception) travels as an enum beside the diagnostic, never inferred from its text.
#pragma once

#include <utility>
#include <variant>

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

/// A value or a LaunchError (Result<T> with the error's kind).
template <typename T>
class Outcome {
 public:
  Outcome(T value) : v_(std::move(value)) {}
  Outcome(LaunchError e) : v_(std::move(e)) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  T& operator*() { return value(); }
  T* operator->() { return &value(); }
  const LaunchError& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, LaunchError> v_;
};

}  // namespace tilevm::rt
