// Npy.cpp - .npy reading and writing.
#include "runtime/Npy.h"

#include <fstream>

#include "interpreter/Numeric.h"
#include "runtime/Files.h"

namespace tilevm::rt {

namespace {

struct NpyType { const char* descr; ir::ScalarKind kind; bool isUnsigned; };
const NpyType kTypes[] = {
    {"<f4", ir::ScalarKind::F32, false}, {"<f8", ir::ScalarKind::F64, false}, {"<f2", ir::ScalarKind::F16, false},
    {"|i1", ir::ScalarKind::I8, false},  {"<i2", ir::ScalarKind::I16, false}, {"<i4", ir::ScalarKind::I32, false},
    {"<i8", ir::ScalarKind::I64, false}, {"|u1", ir::ScalarKind::I8, true},   {"<u2", ir::ScalarKind::I16, true},
    {"<u4", ir::ScalarKind::I32, true},  {"<u8", ir::ScalarKind::I64, true},  {"|b1", ir::ScalarKind::I1, false},
};

// The value of 'key': in the header dict, as raw text up to the next top-level comma.
bool headerField(const std::string& h, const std::string& key, std::string& out) {
  size_t k = h.find("'" + key + "'");
  if (k == std::string::npos) return false;
  size_t colon = h.find(':', k);
  if (colon == std::string::npos) return false;
  size_t i = colon + 1;
  while (i < h.size() && h[i] == ' ') ++i;
  int depth = 0;
  size_t j = i;
  for (; j < h.size(); ++j) {
    if (h[j] == '(') ++depth;
    else if (h[j] == ')') --depth;
    else if ((h[j] == ',' || h[j] == '}') && depth == 0) break;
  }
  out = h.substr(i, j - i);
  return true;
}

}  // namespace

Result<interp::Buffer> readNpy(const std::string& path, bool* unsignedOut) {
  auto data = readFile(path);
  if (!data) return data.error();
  return parseNpy(*data, path, unsignedOut);
}

Result<interp::Buffer> parseNpy(std::string_view d, const std::string& path, bool* unsignedOut) {
  auto fail = [&](const std::string& m) { return Diagnostic{path, 0, 0, m}; };
  if (d.size() < 10 || d.compare(0, 6, "\x93NUMPY") != 0) return fail("not a .npy file (bad magic)");
  unsigned major = uint8_t(d[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = uint8_t(d[8]) | (size_t(uint8_t(d[9])) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (d.size() < 12) return fail("truncated .npy header");
    headerLen = uint8_t(d[8]) | (size_t(uint8_t(d[9])) << 8) | (size_t(uint8_t(d[10])) << 16) | (size_t(uint8_t(d[11])) << 24);
    headerStart = 12;
  } else {
    return fail("unsupported .npy version " + std::to_string(major));
  }
  if (headerLen > d.size() - headerStart) return fail("truncated .npy header");
  std::string h(d.substr(headerStart, headerLen));
  std::string descr, fortran, shape;
  if (!headerField(h, "descr", descr) || !headerField(h, "fortran_order", fortran) || !headerField(h, "shape", shape))
    return fail(".npy header lacks descr, fortran_order or shape");
  if (fortran.rfind("True", 0) == 0) return fail("Fortran-order arrays are not supported (save with np.ascontiguousarray)");
  const NpyType* type = nullptr;
  for (const NpyType& t : kTypes)
    if (descr == std::string("'") + t.descr + "'" || (descr.size() == 5 && descr[1] == '=' && descr.substr(2, 2) == std::string(t.descr).substr(1)))
      type = &t;
  if (!type) return fail("unsupported dtype " + descr + " (supported: f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1, little-endian)");
  interp::Buffer b;
  b.elem = type->kind;
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')') return fail("bad shape " + shape);
  std::string inner = shape.substr(1, shape.size() - 2);
  size_t pos = 0;
  while (pos < inner.size()) {
    while (pos < inner.size() && (inner[pos] == ' ' || inner[pos] == ',')) ++pos;
    if (pos >= inner.size()) break;
    size_t end = pos;
    while (end < inner.size() && std::isdigit(static_cast<unsigned char>(inner[end]))) ++end;
    if (end == pos || end - pos > 12) return fail("bad shape " + shape);
    b.shape.push_back(std::stoll(inner.substr(pos, end - pos)));
    pos = end;
  }
  if (b.shape.size() > 8) return fail("too many dimensions");
  uint64_t numel = 1;
  for (int64_t dim : b.shape) {
    if (dim != 0 && numel > (uint64_t(1) << 34) / uint64_t(dim)) return fail("array too large (shape " + shape + ")");
    numel *= uint64_t(dim);
  }
  size_t bytes = size_t(numel) * interp::storageBytes(b.elem);
  size_t dataStart = headerStart + headerLen;
  if (d.size() - dataStart != bytes)
    return fail("data size " + std::to_string(d.size() - dataStart) + " does not match shape " + shape + " (" +
                std::to_string(bytes) + " bytes)");
  b.bytes.assign(d.begin() + std::ptrdiff_t(dataStart), d.end());
  if (unsignedOut) *unsignedOut = type->isUnsigned;
  return b;
}

bool writeNpy(const std::string& path, const interp::Buffer& b, bool isUnsigned, std::string& error) {
  const char* descr = nullptr;
  for (const NpyType& t : kTypes)
    if (t.kind == b.elem && t.isUnsigned == isUnsigned) descr = t.descr;
  if (b.elem == ir::ScalarKind::BF16) descr = "<u2";
  if (ir::isFp8(b.elem)) descr = "|u1";  // fp8: the bytes (NumPy has no fp8 dtype)
  if (!descr) {
    error = "no .npy dtype for " + std::string(ir::scalarName(b.elem));
    return false;
  }
  std::string shape = "(";
  for (size_t i = 0; i < b.shape.size(); ++i) shape += std::to_string(b.shape[i]) + (b.shape.size() == 1 || i + 1 < b.shape.size() ? "," : "");
  shape += ")";
  std::string header = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header += std::string((64 - total % 64) % 64, ' ') + "\n";
  std::ofstream f(path, std::ios::binary);
  f.write("\x93NUMPY\x01\x00", 8);
  char len[2] = {char(header.size() & 0xff), char(header.size() >> 8)};
  f.write(len, 2);
  f.write(header.data(), std::streamsize(header.size()));
  f.write(reinterpret_cast<const char*>(b.bytes.data()), std::streamsize(b.bytes.size()));
  f.close();  // a full disk shows only when the buffer is flushed
  if (f.fail()) {
    error = "cannot write file (disk full or I/O error)";
    return false;
  }
  return true;
}

}  // namespace tilevm::rt
