// ArgSpec.cpp - argument specs: numbers (`98432`, `1e-5`, `7:i64`, `0.5:f64`), generated
// arrays `KIND:DTYPE:SHAPE` with KIND randn | rand | randint | arange | zeros | ones | empty |
// full=V, and `@file.npy`.
#include "runtime/ArgSpec.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <random>
#include <vector>

#include <unistd.h>

#include "interpreter/Elements.h"
#include "runtime/Npy.h"

namespace tilevm::rt {

namespace {

std::vector<std::string> splitColons(const std::string& s) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t c = s.find(':', start);
    parts.push_back(s.substr(start, c == std::string::npos ? std::string::npos : c - start));
    if (c == std::string::npos) return parts;
    start = c + 1;
  }
}

// An integer (int64, or an unsigned 64-bit value above it: `isUnsigned`), else a float.
// Integers too large for 64 bits are rejected, not turned into floats.
bool parseNumber(const std::string& s, int64_t& i, double& f, bool& isFloat, bool* isUnsigned = nullptr) {
  if (s.empty()) return false;
  if (isUnsigned) *isUnsigned = false;
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end == '\0' && errno == 0) {
    i = v;
    f = double(v);
    isFloat = false;
    return true;
  }
  if (*end == '\0' && errno == ERANGE) {
    errno = 0;
    unsigned long long u = std::strtoull(s.c_str(), &end, 10);
    if (s[0] != '-' && *end == '\0' && errno == 0 && isUnsigned) {
      i = int64_t(u);
      f = double(u);
      isFloat = false;
      *isUnsigned = true;
      return true;
    }
    return false;
  }
  double d = std::strtod(s.c_str(), &end);
  if (*end == '\0' && s != "." && !std::isnan(d)) {
    f = d;
    isFloat = true;
    return true;
  }
  if (s == "inf" || s == "-inf" || s == "nan") {
    f = std::strtod(s.c_str(), nullptr);
    isFloat = true;
    return true;
  }
  return false;
}

// Writes generated values into the buffer in its storage format.
void fillBuffer(interp::Buffer& b, const frontend::DType& dt, const std::string& kind, double fullValue, std::mt19937_64& rng) {
  int64_t n = b.numel();
  interp::Tile t = interp::tileAt(ir::Type(ir::ElemType{b.elem, ir::ScalarKind::I32}, std::vector<int64_t>{n}), b.bytes.data());
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  int64_t lo = dt.isBool() ? 0 : dt.isUnsigned ? 0 : -100, hi = dt.isBool() ? 1 : 100;
  std::uniform_int_distribution<int64_t> ints(lo, hi);
  auto each = [&](auto&& gen) {
    for (int64_t i = 0; i < n; ++i) gen(i);
  };
  if (kind == "randn") each([&](int64_t i) { interp::storeDouble(t, i, dt.isFloat() ? normal(rng) : std::round(normal(rng) * 10)); });
  else if (kind == "rand") each([&](int64_t i) { interp::storeDouble(t, i, dt.isFloat() ? uniform(rng) : double(ints(rng) & 1)); });
  else if (kind == "randint") each([&](int64_t i) { interp::storeInt(t, i, ints(rng)); });
  else if (kind == "arange") each([&](int64_t i) { interp::storeDouble(t, i, double(i)); });
  else if (kind == "ones") each([&](int64_t i) { interp::storeDouble(t, i, 1.0); });
  else if (kind == "full") each([&](int64_t i) { interp::storeDouble(t, i, fullValue); });
  // zeros and empty: already zero-filled (empty is marked uninitialized instead)
}

}  // namespace

std::string signatureType(const ArgValue& a) {
  std::string t = a.dtype.name();
  if (t == "int1") t = "i1";
  if (a.isDescriptor) {
    std::string shape;
    for (int64_t d : a.block) shape += (shape.empty() ? "" : "x") + std::to_string(d);
    return "tensordesc<*" + t + ":" + shape + ">";
  }
  return a.isBuffer ? "*" + t : t;
}

namespace {

// "64x32" -> {64, 32}; false if malformed.
bool parseShape(const std::string& text, std::vector<int64_t>& shape, uint64_t& numel) {
  size_t start = 0;
  numel = 1;
  for (;;) {
    size_t x = text.find('x', start);
    std::string dim = text.substr(start, x == std::string::npos ? std::string::npos : x - start);
    char* end = nullptr;
    errno = 0;
    long long d = std::strtoll(dim.c_str(), &end, 10);
    if (dim.empty() || *end != '\0' || d <= 0 || errno) return false;
    if (uint64_t(d) > (uint64_t(1) << 33) / numel) return false;  // checked before multiplying: no wrap
    shape.push_back(d);
    numel *= uint64_t(d);
    if (x == std::string::npos) return true;
    start = x + 1;
  }
}

std::vector<std::string> splitCommas(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t c = s.find(',', start);
    out.push_back(s.substr(start, c == std::string::npos ? std::string::npos : c - start));
    if (c == std::string::npos) return out;
    start = c + 1;
  }
}

}  // namespace

Result<ArgValue> parseArg(const std::string& text, uint64_t seed, unsigned index) {
  size_t eq = text.find('=');
  auto fail = [&](const std::string& msg) { return Diagnostic{"<command line>", 0, 0, "--arg " + text + ": " + msg}; };
  if (eq == std::string::npos || eq == 0) return fail("expected NAME=SPEC");
  ArgValue a;
  a.name = text.substr(0, eq);
  a.spec = text.substr(eq + 1);
  const std::string& spec = a.spec;
  if (!spec.empty() && spec[0] == '@') {
    bool isUnsigned = false;
    auto b = readNpy(spec.substr(1), &isUnsigned);
    if (!b) return fail(b.error().message);
    a.isBuffer = true;
    a.buffer = std::move(*b);
    a.buffer.name = a.name;
    a.dtype = frontend::DType::of(a.buffer.elem, isUnsigned);
    return a;
  }
  std::vector<std::string> parts = splitColons(spec);
  if (parts[0] == "ptrs") {
    if (parts.size() != 2 || parts[1].empty()) return fail("expected ptrs:NAME,NAME,... (the arguments whose addresses it holds)");
    a.refs = splitCommas(parts[1]);
    for (const auto& r : a.refs)
      if (r.empty()) return fail("empty argument name in the pointer table");
    a.isBuffer = true;
    a.dtype = frontend::DType::of(ir::ScalarKind::I64);
    a.buffer.name = a.name;
    a.buffer.elem = ir::ScalarKind::I64;
    a.buffer.shape = {int64_t(a.refs.size())};
    a.buffer.bytes.assign(a.refs.size() * 8, 0);
    return a;
  }
  if (parts[0] == "desc") {
    uint64_t numel;
    if (parts.size() != 3 || parts[1].empty() || !parseShape(parts[2], a.block, numel))
      return fail("expected desc:NAME:BLOCK (a tensor descriptor over argument NAME, e.g. desc:a:64x32)");
    a.refs = {parts[1]};
    a.isDescriptor = true;
    return a;
  }
  // A number, optionally typed: 98432, 1e-5, 7:i64, 0.5:f64.
  if (parts.size() <= 2 && parseNumber(parts[0], a.i, a.f, a.isFloat, &a.isUnsignedLiteral)) {
    if (parts.size() == 2) {
      if (!frontend::parseDTypeName(parts[1], a.dtype) || a.dtype.isPtr())
        return fail("unknown scalar type '" + parts[1] + "' (use i32, i64, u32, f32, f64, ...)");
      if (a.dtype.isFloat() && !a.isFloat) a.isFloat = true, a.f = double(a.i);
      if ((a.dtype.isInt() || a.dtype.isBool()) && a.isFloat) return fail("an integer type needs an integer value");
      std::string err = a.dtype.isFloat() ? "" : checkIntFits(a.i, a.isUnsignedLiteral, a.dtype);
      if (!err.empty()) return fail(err);
    } else {
      // As Triton types Python ints: int32 if it fits, else int64, else uint64.
      a.dtype = a.isFloat ? frontend::DType::of(ir::ScalarKind::F32)
                : a.isUnsignedLiteral ? frontend::DType::of(ir::ScalarKind::I64, true)
                : (a.i >= INT32_MIN && a.i <= INT32_MAX ? frontend::DType::of(ir::ScalarKind::I32)
                                                        : frontend::DType::of(ir::ScalarKind::I64));
    }
    return a;
  }
  if (parts.size() != 3)
    return fail("expected a number, @file.npy, or KIND:DTYPE:SHAPE (KIND: randn rand randint arange zeros ones empty full=V)");
  std::string kind = parts[0];
  double fullValue = 0;
  if (kind.rfind("full=", 0) == 0) {
    int64_t iv;
    bool isF;
    if (!parseNumber(kind.substr(5), iv, fullValue, isF)) return fail("full= needs a number (at most 64 bits)");
    kind = "full";
  }
  static const char* kinds[] = {"randn", "rand", "randint", "arange", "zeros", "ones", "empty", "full"};
  if (std::find(std::begin(kinds), std::end(kinds), kind) == std::end(kinds))
    return fail("unknown kind '" + kind + "' (use randn, rand, randint, arange, zeros, ones, empty or full=V)");
  if (!frontend::parseDTypeName(parts[1], a.dtype) || a.dtype.isPtr())
    return fail("unknown dtype '" + parts[1] + "' (use f32, f16, bf16, f64, i8, i16, i32, i64, u8, ..., i1)");
  std::vector<int64_t> shape;
  uint64_t numel = 1;
  if (!parseShape(parts[2], shape, numel)) return fail("bad shape '" + parts[2] + "' (use e.g. 1024 or 1823x781; at most 2^33 elements)");
  if (kind == "full") {
    std::string err = checkValueFits(fullValue, a.dtype);
    if (!err.empty()) return fail("full=" + parts[0].substr(5) + ": " + err);
  }
  // Memory is allocated only when the array joins a launch (materialize), after the kernel's
  // parameters have been checked: a spec for a scalar parameter never allocates.
  a.isBuffer = true;
  a.buffer.name = a.name;
  a.buffer.elem = a.dtype.kind;
  a.buffer.shape = shape;
  a.buffer.initialized = kind != "empty";
  a.generate = kind;
  a.fullValue = fullValue;
  a.genSeed = seed * 1000003ULL + index;
  return a;
}

std::string checkValueFits(double v, const frontend::DType& dt) {
  if (dt.isFloat()) return "";
  if (std::isnan(v) || std::isinf(v)) return "a non-finite value for integer type " + dt.name();
  if (v != std::trunc(v)) return "a fractional value for integer type " + dt.name();
  double lo, hi;
  if (dt.isBool()) lo = 0, hi = 1;
  else if (dt.isUnsigned) lo = 0, hi = std::ldexp(1.0, int(dt.bits())) - 1;
  else lo = -std::ldexp(1.0, int(dt.bits()) - 1), hi = std::ldexp(1.0, int(dt.bits()) - 1) - 1;
  if (v < lo || v > hi) return "value out of range for " + dt.name();
  return "";
}

std::string descriptorField(const ArgValue& d, const std::string& field, const ir::Type& t,
                            const interp::Buffer& array, bool& isBase, int64_t& value) {
  const std::vector<int64_t>& shape = array.shape;
  const std::string param = "'" + d.name + "." + field + "'";
  if (shape.size() != d.block.size())
    return "a " + std::to_string(d.block.size()) + "-d descriptor needs a " + std::to_string(d.block.size()) +
           "-d array, '" + d.refs[0] + "' has " + std::to_string(shape.size()) + " dimensions";
  isBase = field == "base";
  if (isBase) {
    if (!t.isScalar() || !t.isPtr())
      return "parameter " + param + " is " + t.str() + ": a descriptor's base must be a pointer parameter";
    if (t.elem().pointee != array.elem)
      return "parameter " + param + " is " + t.str() + ", but '" + d.refs[0] + "' is an array of " +
             std::string(ir::scalarName(array.elem));
    return "";
  }
  bool isShape = field.rfind("shape", 0) == 0, isStride = field.rfind("stride", 0) == 0;
  std::string digits = isShape ? field.substr(5) : isStride ? field.substr(6) : "";
  bool numeric = !digits.empty() && digits.size() <= 2 && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!numeric)
    return "parameter " + param + " is not a descriptor field (base, shapeK or strideK, K a dimension)";
  size_t k = size_t(std::stoul(digits));
  if (k >= shape.size())
    return "parameter " + param + " names dimension " + std::to_string(k) + " of a " + std::to_string(shape.size()) +
           "-d descriptor";
  if (!t.isScalar() || !t.isInt())
    return "parameter " + param + " is " + t.str() + ": a descriptor's " + (isShape ? "shape" : "stride") +
           " must be an integer scalar parameter";
  value = 1;
  if (isShape) value = shape[k];
  else
    for (size_t j = k + 1; j < shape.size(); ++j) value *= shape[j];
  std::string err = checkIntFits(value, false, frontend::DType::of(t.elem().kind));
  if (!err.empty()) return "parameter " + param + " is " + t.str() + ": " + err;
  return "";
}

std::string checkIntFits(int64_t v, bool isUnsignedLiteral, const frontend::DType& dt) {
  if (dt.isBool()) return v == 0 || v == 1 ? "" : std::to_string(v) + " is not 0 or 1 (int1)";
  if (!dt.isInt() || dt.bits() >= 64) {
    if (dt.isInt() && !dt.isUnsigned && isUnsignedLiteral) return std::to_string(uint64_t(v)) + " does not fit " + dt.name();
    return "";
  }
  int64_t lo = dt.isUnsigned ? 0 : -(int64_t(1) << (dt.bits() - 1));
  int64_t hi = dt.isUnsigned ? (int64_t(1) << dt.bits()) - 1 : (int64_t(1) << (dt.bits() - 1)) - 1;
  if (isUnsignedLiteral || v < lo || v > hi)
    return (isUnsignedLiteral ? std::to_string(uint64_t(v)) : std::to_string(v)) + " does not fit " + dt.name() + " [" +
           std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return "";
}

std::string materialize(ArgValue& a, uint64_t& budgetBytes) {
  if (a.generate.empty()) return "";
  uint64_t numel = 1;
  for (int64_t d : a.buffer.shape) numel *= uint64_t(d);
  uint64_t bytes = numel * interp::storageBytes(a.buffer.elem);
  if (bytes > budgetBytes)
    return "--arg " + a.name + "=" + a.spec + ": needs " + std::to_string(bytes >> 20) + " MiB, but only " +
           std::to_string(budgetBytes >> 20) + " MiB of this machine's memory are left for arrays (see docs/limits.md)";
  budgetBytes -= bytes;
  try {
    a.buffer.bytes.assign(size_t(bytes), 0);
  } catch (const std::bad_alloc&) {
    return "--arg " + a.name + "=" + a.spec + ": out of memory allocating " + std::to_string(bytes >> 20) + " MiB";
  }
  std::mt19937_64 rng(a.genSeed);
  fillBuffer(a.buffer, a.dtype, a.generate, a.fullValue, rng);
  a.generate.clear();
  return "";
}

uint64_t arrayMemoryBudget() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return uint64_t(1) << 34;
  return uint64_t(pages) * uint64_t(page) / 4 * 3;  // three quarters of physical memory
}

}  // namespace tilevm::rt
