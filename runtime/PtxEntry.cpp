// PtxEntry.cpp - the kernel cache's entry format for compiled kernels (see PtxEntry.h): one
// header line "tilevm-launch v3 kernel=K arch=A threads=T dynamic_shared_bytes=N tensor_maps=M
// device_maps=D", then the PTX. M is "-", or the tensor maps joined by ';', each
// "BASE/SHAPE0,SHAPE1/STRIDE0,STRIDE1/DTYPE/BOX0,BOX1/SWIZZLE/FILL" (parameter indices, the
// box, the swizzle in bytes, FILL z or n); D the tensor maps each program builds.
#include "runtime/PtxEntry.h"

#include <cstdint>
#include <vector>

namespace tilevm::rt {

namespace {

constexpr const char* kHeader = "tilevm-launch v3";
constexpr int kFields = 6;

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

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out{""};
  for (char c : s) {
    if (c == sep) out.emplace_back();
    else out.back().push_back(c);
  }
  return out;
}

template <class T>
std::string joined(const std::vector<T>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  return out;
}

template <class T>
bool numbers(const std::string& s, std::vector<T>& out) {
  for (const std::string& part : split(s, ',')) {
    uint64_t n = 0;
    if (!number(part, n) || n > uint64_t(UINT32_MAX)) return false;
    out.push_back(T(n));
  }
  return true;
}

std::string encodeMaps(const std::vector<codegen::TensorMap>& maps) {
  if (maps.empty()) return "-";
  std::string out;
  for (size_t i = 0; i < maps.size(); ++i) {
    const codegen::TensorMap& m = maps[i];
    out += (i ? ";" : "") + std::to_string(m.base) + "/" + joined(m.shape) + "/" + joined(m.stride) + "/" + m.dtype + "/" +
           joined(m.box) + "/" + std::to_string(m.swizzleBytes) + "/" + (m.nanFill ? "n" : "z");
  }
  return out;
}

bool decodeMaps(const std::string& s, std::vector<codegen::TensorMap>& maps) {
  if (s == "-") return true;
  for (const std::string& text : split(s, ';')) {
    std::vector<std::string> f = split(text, '/');
    codegen::TensorMap m;
    uint64_t base = 0, swizzle = 0;
    if (f.size() != 7 || !number(f[0], base) || base > UINT32_MAX || !numbers(f[1], m.shape) || !numbers(f[2], m.stride) ||
        !numbers(f[4], m.box) || !number(f[5], swizzle) || (f[6] != "z" && f[6] != "n") ||
        !codegen::isTensorMapDtype(f[3]) || m.stride.size() != m.shape.size() || m.box.size() != m.shape.size() ||
        (swizzle != 32 && swizzle != 64 && swizzle != 128))
      return false;
    m.base = unsigned(base);
    m.dtype = f[3];
    m.swizzleBytes = unsigned(swizzle);
    m.nanFill = f[6] == "n";
    maps.push_back(m);
  }
  return true;
}

}  // namespace

std::string encodePtxEntry(const codegen::CompiledPtx& c) {
  return std::string(kHeader) + " kernel=" + c.launch.kernel + " arch=" + c.launch.arch + " threads=" +
         std::to_string(c.launch.threads) + " dynamic_shared_bytes=" + std::to_string(c.launch.dynamicSharedBytes) +
         " tensor_maps=" + encodeMaps(c.launch.tensorMaps) + " device_maps=" + std::to_string(c.launch.deviceTensorMaps) + "\n" +
         c.ptx;
}

std::optional<codegen::CompiledPtx> decodePtxEntry(const std::string& entry) {
  size_t eol = entry.find('\n');
  if (eol == std::string::npos) return std::nullopt;
  std::string line = entry.substr(0, eol);
  codegen::CompiledPtx c;
  const char* fields[kFields] = {"kernel=", "arch=", "threads=", "dynamic_shared_bytes=", "tensor_maps=", "device_maps="};
  std::string values[kFields];
  std::string rest = line;
  if (rest.rfind(std::string(kHeader) + " ", 0) != 0) return std::nullopt;
  rest = rest.substr(std::string(kHeader).size() + 1);
  for (int i = 0; i < kFields; ++i) {
    size_t space = rest.find(' ');
    std::string field = rest.substr(0, space);
    if (field.rfind(fields[i], 0) != 0) return std::nullopt;
    values[i] = field.substr(std::string(fields[i]).size());
    if (!plain(values[i])) return std::nullopt;
    if ((space == std::string::npos) != (i == kFields - 1)) return std::nullopt;
    if (space != std::string::npos) rest = rest.substr(space + 1);
  }
  uint64_t threads = 0, dynamic = 0, deviceMaps = 0;
  if (!number(values[2], threads) || threads == 0 || threads > codegen::kMaxThreadsPerBlock || !number(values[3], dynamic) ||
      !codegen::findTarget(values[1]) || !decodeMaps(values[4], c.launch.tensorMaps) || !number(values[5], deviceMaps) ||
      deviceMaps > codegen::kMaxDeviceTensorMaps)
    return std::nullopt;
  c.launch.deviceTensorMaps = unsigned(deviceMaps);
  c.launch.kernel = values[0];
  c.launch.arch = values[1];
  c.launch.threads = unsigned(threads);
  c.launch.dynamicSharedBytes = dynamic;
  c.ptx = entry.substr(eol + 1);
  return c;
}

}  // namespace tilevm::rt
