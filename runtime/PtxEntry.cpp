// PtxEntry.cpp - the kernel cache's entry format for compiled kernels (see PtxEntry.h): one
// header line "tilevm-launch v1 kernel=K arch=A threads=T dynamic_shared_bytes=N", then the PTX.
#include "runtime/PtxEntry.h"

#include <cstdint>

namespace tilevm::rt {

namespace {

constexpr const char* kHeader = "tilevm-launch v1";

// Whole decimal digits (at most 19: no overflow).
bool number(const std::string& s, uint64_t& out) {
  if (s.empty() || s.size() > 19) return false;
  out = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + uint64_t(c - '0');
  }
  return true;
}

// A name of the header: no spaces, no line breaks, not empty.
bool plain(const std::string& s) { return !s.empty() && s.find_first_of(" \n\r\t") == std::string::npos; }

}  // namespace

std::string encodePtxEntry(const codegen::CompiledPtx& c) {
  return std::string(kHeader) + " kernel=" + c.launch.kernel + " arch=" + c.launch.arch + " threads=" +
         std::to_string(c.launch.threads) + " dynamic_shared_bytes=" + std::to_string(c.launch.dynamicSharedBytes) + "\n" + c.ptx;
}

std::optional<codegen::CompiledPtx> decodePtxEntry(const std::string& entry) {
  size_t eol = entry.find('\n');
  if (eol == std::string::npos) return std::nullopt;
  std::string line = entry.substr(0, eol);
  codegen::CompiledPtx c;
  const char* fields[] = {"kernel=", "arch=", "threads=", "dynamic_shared_bytes="};
  std::string values[4];
  std::string rest = line;
  if (rest.rfind(std::string(kHeader) + " ", 0) != 0) return std::nullopt;
  rest = rest.substr(std::string(kHeader).size() + 1);
  for (int i = 0; i < 4; ++i) {
    size_t space = rest.find(' ');
    std::string field = rest.substr(0, space);
    if (field.rfind(fields[i], 0) != 0) return std::nullopt;
    values[i] = field.substr(std::string(fields[i]).size());
    if (!plain(values[i])) return std::nullopt;
    if ((space == std::string::npos) != (i == 3)) return std::nullopt;
    if (space != std::string::npos) rest = rest.substr(space + 1);
  }
  uint64_t threads = 0, dynamic = 0;
  if (!number(values[2], threads) || threads == 0 || threads > codegen::kMaxThreadsPerBlock || !number(values[3], dynamic) ||
      !codegen::findTarget(values[1]))
    return std::nullopt;
  c.launch.kernel = values[0];
  c.launch.arch = values[1];
  c.launch.threads = unsigned(threads);
  c.launch.dynamicSharedBytes = dynamic;
  c.ptx = entry.substr(eol + 1);
  return c;
}

}  // namespace tilevm::rt
