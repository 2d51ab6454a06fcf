// Modules.h - the Python files one compile reads: the kernel's file and the project modules it
// imports, found as Python's import system finds them (relative imports from the file's
// package; absolute ones through -I directories, the file's directory and its project root).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/Ast.h"
#include "ir/Diagnostics.h"

namespace tilevm::frontend {

/// Finds, reads and parses modules once each; owns them for the compile's lifetime.
class ModuleLoader {
 public:
  /// `includeDirs` come first on the search path, like PYTHONPATH entries.
  explicit ModuleLoader(std::vector<std::string> includeDirs = {});

  /// Parses the main file from `text` (its path need not exist: then only -I directories and
  /// modules given with addSource are found); asked again, returns the module parsed first.
  Result<const PyModule*> loadMain(std::string_view text, const std::string& fileName);

  /// The module `level` dots up from `from` (0: absolute) named `dotted` (may be empty for
  /// `from . import x`). Null when no file is found; a Diagnostic when it does not parse.
  Result<const PyModule*> import(const PyModule& from, int level, const std::string& dotted);

  /// Submodule `name` of package `pkg` (a file or directory inside it), or null.
  Result<const PyModule*> submodule(const PyModule& pkg, const std::string& name);

  /// Where absolute imports are looked for, in order (for error messages).
  const std::vector<std::string>& searchPath() const { return searchPath_; }

  /// The text of every file read (to show source lines in diagnostics).
  const std::map<std::string, std::string>& texts() const { return texts_; }

 private:
  Result<const PyModule*> loadPath(const std::string& path, bool isDirectory);
  Result<const PyModule*> findIn(const std::string& dir, const std::string& dotted);

  std::vector<std::string> includeDirs_, searchPath_;
  std::map<std::string, std::unique_ptr<PyModule>> byPath_;
  std::map<std::string, std::string> texts_;
  bool mainLoaded_ = false;
};

}  // namespace tilevm::frontend
