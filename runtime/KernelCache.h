// KernelCache.h - compiled kernels (PTX) on disk, keyed by everything the code depends on: the
// kernel's bytecode, its specialization, the arch, the warp count, tilevm's version and the
// build's identity (a hash of the code generator's and runtime's sources). Entries are checked
// before use: a checksum over key and text, regular files of bounded size only. Safe under
// concurrent processes: an entry is written to a private temporary file and renamed into place,
// so a reader sees a whole entry or none.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilevm::rt {

/// The largest cache entry read (PTX of the largest corpus kernel is under 1 MiB); a bigger
/// file is not an entry tilevm wrote, and is a miss.
inline constexpr uint64_t kMaxCacheEntryBytes = uint64_t(64) << 20;

/// This build's identity: a hash of the sources the compiled code depends on (codegen/, ir/,
/// runtime/), computed by the build (runtime/CMakeLists.txt) and regenerated when one changes.
const char* buildIdentity();

class KernelCache {
 public:
  /// The cache in `dir`; empty: $TILEVM_CACHE_DIR, else $XDG_CACHE_HOME/tilevm, else
  /// $HOME/.cache/tilevm. A directory that cannot be created leaves the cache off. `build` goes
  /// into every key (tests pass another to stand for a rebuilt tilevm).
  explicit KernelCache(std::string dir = "", std::string build = buildIdentity());
  /// Where entries live ("" when the cache is off).
  const std::string& dir() const { return dir_; }
  /// A key from the parts the compiled code depends on and the build's identity (128 bits, hex).
  std::string key(const std::vector<std::string>& parts) const;
  /// The entry for `key`, if present, whole and unchanged. Anything else at its path (a damaged
  /// or foreign file, a link, a FIFO, a device, a file over kMaxCacheEntryBytes) is a miss and
  /// is removed; nothing blocks or is read past the bound.
  std::optional<std::string> load(const std::string& key) const;
  /// Stores an entry; false when it cannot be written (the cache stays usable).
  bool store(const std::string& key, const std::string& text) const;
  /// Removes the entry for `key` (one the driver rejected, say); absent is fine.
  void drop(const std::string& key) const;

 private:
  std::string path(const std::string& key) const;
  std::string dir_, build_;
};

}  // namespace tilevm::rt
