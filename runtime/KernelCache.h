// KernelCache.h - compiled kernels (PTX) on disk, keyed by everything the code depends on: the
// kernel's bytecode, its specialization, the arch, the warp count and tilevm's version. Safe
// under concurrent processes: an entry is written to a private temporary file and renamed into
// place, so a reader sees a whole entry or none.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tilevm::rt {

class KernelCache {
 public:
  /// The cache in `dir`; empty: $TILEVM_CACHE_DIR, else $XDG_CACHE_HOME/tilevm, else
  /// $HOME/.cache/tilevm. A directory that cannot be created leaves the cache off.
  explicit KernelCache(std::string dir = "");
  /// Where entries live ("" when the cache is off).
  const std::string& dir() const { return dir_; }
  /// A key from the parts the compiled code depends on (128 bits, hex).
  static std::string key(const std::vector<std::string>& parts);
  /// The entry for `key`, if present and whole.
  std::optional<std::string> load(const std::string& key) const;
  /// Stores an entry; false when it cannot be written (the cache stays usable).
  bool store(const std::string& key, const std::string& text) const;

 private:
  std::string dir_;
};

}  // namespace tilevm::rt
