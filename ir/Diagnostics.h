// Diagnostics.h - user-facing errors with a location, rendered as `file:line:col: error: ...`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace tilevm {

/// A user error: bad kernel text, bytecode, argument or file. `line == 0` means no line/col;
/// bytecode errors carry their byte offset in the message instead.
struct Diagnostic {
  std::string file;
  uint32_t line = 0;
  uint32_t col = 0;
  std::string message;
};

/// Thrown inside parsers and readers; caught at their public entry points and returned.
class DiagnosticError : public std::runtime_error {
 public:
  explicit DiagnosticError(Diagnostic d) : std::runtime_error(d.message), diag(std::move(d)) {}
  Diagnostic diag;
};

/// Texts of the source files seen so far, to show the offending line with a caret.
class SourceManager {
 public:
  void add(const std::string& file, std::string text) { texts_[file] = std::move(text); }
  /// The 1-based line `line` of `file`, if known.
  std::optional<std::string> line(const std::string& file, uint32_t line) const;

 private:
  std::map<std::string, std::string> texts_;
};

/// `file:line:col: error: message` plus, where the source is known, the line and a caret
/// (`severity` "warning" for diagnostics that do not stop the command).
std::string render(const Diagnostic& d, const SourceManager* sources = nullptr, const char* severity = "error");

/// Either a value or an error (a diagnostic): what every parser, reader and loader returns.
template <typename T, typename E = Diagnostic>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(E e) : v_(std::move(e)) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  T& operator*() { return value(); }
  T* operator->() { return &value(); }
  const E& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, E> v_;
};

}  // namespace tilevm
