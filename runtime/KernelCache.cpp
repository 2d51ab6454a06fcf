// KernelCache.cpp - the on-disk kernel cache (see KernelCache.h). An entry is the text followed
// by a trailer line with its length and an FNV-1a checksum over the key and the text: a
// truncated file reads as absent, and a changed byte anywhere (text or trailer) as a miss.
#include "runtime/KernelCache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "tilevm/BuildId.h"  // generated: TILEVM_BUILD_ID

namespace tilevm::rt {

namespace {

constexpr const char* kTrailer = "\n// tilevm-cache-entry v2 bytes=";

uint64_t fnv1a(const std::string& s, uint64_t h = 14695981039346656037ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// The trailer of an entry holding `text` under `key`. FNV-1a changes with any one changed byte
// (each step is a bijection of the state), so a one-byte change of the text never matches; the
// trailer itself is compared as text, so a changed digit or letter case of it does not either.
std::string trailerFor(const std::string& key, const std::string& text) {
  char sum[17];
  std::snprintf(sum, sizeof sum, "%016llx", (unsigned long long)fnv1a(text, fnv1a(key + "\n")));
  return kTrailer + std::to_string(text.size()) + " fnv1a64=" + sum + "\n";
}

std::string defaultDir() {
  if (const char* d = std::getenv("TILEVM_CACHE_DIR")) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/tilevm";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/tilevm";
  return "";
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Removes `path` if it is still the file `seen` (not an entry another process renamed there
// since) and not a directory.
void removeIfSame(const std::string& path, const struct stat& seen) {
  struct stat now;
  if (::lstat(path.c_str(), &now) == 0 && now.st_dev == seen.st_dev && now.st_ino == seen.st_ino && !S_ISDIR(now.st_mode))
    ::unlink(path.c_str());
}

}  // namespace

const char* buildIdentity() { return TILEVM_BUILD_ID; }

KernelCache::KernelCache(std::string dir, std::string build)
    : dir_(dir.empty() ? defaultDir() : std::move(dir)), build_(std::move(build)) {
  if (dir_.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec || !std::filesystem::is_directory(dir_, ec)) dir_.clear();
}

std::string KernelCache::key(const std::vector<std::string>& parts) const {
  // Two independent 64-bit FNV-1a streams over the length-prefixed parts, the build first.
  uint64_t a = 14695981039346656037ull, b = 0x9e3779b97f4a7c15ull;
  auto mix = [&](const std::string& p) {
    std::string framed = std::to_string(p.size()) + ":" + p;
    a = fnv1a(framed, a);
    b = fnv1a(framed, b ^ 0x5bd1e995);
  };
  mix("build=" + build_);
  for (const std::string& p : parts) mix(p);
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
  return hex;
}

std::string KernelCache::path(const std::string& key) const { return dir_ + "/" + key + ".ptx"; }

std::optional<std::string> KernelCache::load(const std::string& key) const {
  if (dir_.empty()) return std::nullopt;
  const std::string p = path(key);
  // Never follow a link, never wait for a writer (a FIFO opens at once with O_NONBLOCK).
  Fd f{::open(p.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0) {
    struct stat st;
    if (errno == ELOOP && ::lstat(p.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) removeIfSame(p, st);
    return std::nullopt;
  }
  struct stat st;
  if (::fstat(f.fd, &st) != 0) return std::nullopt;
  if (!S_ISREG(st.st_mode) || uint64_t(st.st_size) > kMaxCacheEntryBytes) {
    removeIfSame(p, st);
    return std::nullopt;
  }
  std::string s(size_t(st.st_size) + 1, '\0');  // one byte more: a file that grew is not whole
  size_t got = 0;
  while (got < s.size()) {
    ssize_t n = ::read(f.fd, s.data() + got, s.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += size_t(n);
  }
  if (got != size_t(st.st_size)) return std::nullopt;  // changed while read: not ours to remove
  s.resize(got);
  size_t at = s.rfind(kTrailer);
  std::string text = at == std::string::npos ? std::string() : s.substr(0, at);
  if (at == std::string::npos || s.compare(at, std::string::npos, trailerFor(key, text)) != 0) {
    removeIfSame(p, st);
    return std::nullopt;
  }
  return text;
}

bool KernelCache::store(const std::string& key, const std::string& text) const {
  if (dir_.empty()) return false;
  static std::atomic<unsigned> counter{0};
  std::string tmp = dir_ + "/." + key + "." + std::to_string(::getpid()) + "." + std::to_string(counter++) + ".tmp";
  std::string bytes = text + trailerFor(key, text);
  {
    Fd f{::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)};
    if (f.fd < 0) return false;
    size_t put = 0;
    while (put < bytes.size()) {
      ssize_t n = ::write(f.fd, bytes.data() + put, bytes.size() - put);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      put += size_t(n);
    }
    int closed = ::close(f.fd);
    f.fd = -1;
    if (put != bytes.size() || closed != 0) {
      ::unlink(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path(key).c_str()) != 0) {
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

void KernelCache::drop(const std::string& key) const {
  if (!dir_.empty()) ::unlink(path(key).c_str());
}

}  // namespace tilevm::rt
