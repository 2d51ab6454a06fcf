// KernelCache.cpp - the on-disk kernel cache (see KernelCache.h). An entry is the text followed
// by a trailer line with its length, so a truncated file (a full disk, a crash mid-write that
// escaped the rename) reads as absent rather than as a shorter kernel.
#include "runtime/KernelCache.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tilevm::rt {

namespace {

constexpr const char* kTrailer = "\n// tilevm-cache-entry-bytes ";

uint64_t fnv1a(const std::string& s, uint64_t h) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string defaultDir() {
  if (const char* d = std::getenv("TILEVM_CACHE_DIR")) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/tilevm";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/tilevm";
  return "";
}

}  // namespace

KernelCache::KernelCache(std::string dir) : dir_(dir.empty() ? defaultDir() : std::move(dir)) {
  if (dir_.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec || !std::filesystem::is_directory(dir_, ec)) dir_.clear();
}

std::string KernelCache::key(const std::vector<std::string>& parts) {
  // Two independent 64-bit FNV-1a streams over the length-prefixed parts.
  uint64_t a = 14695981039346656037ull, b = 0x9e3779b97f4a7c15ull;
  for (const std::string& p : parts) {
    std::string framed = std::to_string(p.size()) + ":" + p;
    a = fnv1a(framed, a);
    b = fnv1a(framed, b ^ 0x5bd1e995);
  }
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
  return hex;
}

std::optional<std::string> KernelCache::load(const std::string& key) const {
  if (dir_.empty()) return std::nullopt;
  std::ifstream f(dir_ + "/" + key + ".ptx", std::ios::binary);
  if (!f) return std::nullopt;
  std::stringstream ss;
  ss << f.rdbuf();
  std::string s = ss.str();
  size_t at = s.rfind(kTrailer);
  if (at == std::string::npos) return std::nullopt;
  std::string count = s.substr(at + std::string(kTrailer).size());
  if (count.empty() || count.back() != '\n') return std::nullopt;
  char* end = nullptr;
  unsigned long long n = std::strtoull(count.c_str(), &end, 10);
  if (end != count.c_str() + count.size() - 1 || n != at) return std::nullopt;
  return s.substr(0, at);
}

bool KernelCache::store(const std::string& key, const std::string& text) const {
  if (dir_.empty()) return false;
  static std::atomic<unsigned> counter{0};
  std::string tmp = dir_ + "/." + key + "." + std::to_string(::getpid()) + "." + std::to_string(counter++) + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text << kTrailer << text.size() << "\n";
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), (dir_ + "/" + key + ".ptx").c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace tilevm::rt
