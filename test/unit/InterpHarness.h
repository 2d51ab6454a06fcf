// InterpHarness.h - helpers for interpreter tests: parse and verify kernels from text or
// Python, make buffers, run, and independent reference roundings (no code shared with the
// interpreter's Numeric.h).
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "frontend/Compile.h"
#include "interpreter/Interpreter.h"
#include "ir/Verifier.h"
#include "ir/text/Text.h"

namespace tilevm::test {

inline std::unique_ptr<ir::Module> parseVerified(const std::string& text) {
  auto m = ir::parse(text, "test.tile");
  if (!m) FAIL("parse: " << m.error().message << "\n" << text);
  auto d = ir::verify(**m);
  if (!d.empty()) FAIL("verify: " << d[0].message << "\n" << text);
  return std::move(*m);
}

inline std::unique_ptr<ir::Module> compilePython(const std::string& source, const std::string& kernel,
                                                 std::map<std::string, std::string> defines, const std::string& sig) {
  frontend::CompileOptions o;
  o.kernel = kernel;
  o.defines = std::move(defines);
  o.signature = sig;
  auto m = frontend::compileKernel(source, "test.py", o);
  if (!m) FAIL("compile: " << m.error().message);
  return std::move(*m);
}

inline interp::Buffer buffer(const std::string& name, ir::ScalarKind k, int64_t n) {
  interp::Buffer b;
  b.name = name;
  b.elem = k;
  b.shape = {n};
  unsigned eb = k == ir::ScalarKind::I1 || k == ir::ScalarKind::I8 ? 1
                : (k == ir::ScalarKind::I16 || k == ir::ScalarKind::F16 || k == ir::ScalarKind::BF16) ? 2
                : (k == ir::ScalarKind::I32 || k == ir::ScalarKind::F32) ? 4 : 8;
  b.bytes.assign(size_t(n) * eb, 0);
  return b;
}

template <typename T>
T* as(interp::Buffer& b) { return reinterpret_cast<T*>(b.bytes.data()); }

inline interp::Arg bufArg(size_t i) { interp::Arg a; a.isBuffer = true; a.buffer = i; return a; }
inline interp::Arg intArg(int64_t v) { interp::Arg a; a.i = v; a.f = double(v); return a; }
inline interp::Arg floatArg(double v) { interp::Arg a; a.f = v; return a; }

/// Runs with symbolic index tiles (the default) and again with every op dense, from copies of
/// the same inputs: buffers and report must agree bit for bit. (`racy`: a kernel with a race,
/// whose memory and named program pairs depend on the schedule: only the reports' identities
/// are compared, Report::identity.)
inline interp::Report runBothWays(const ir::Module& m, std::vector<interp::Buffer>& bufs, const std::vector<interp::Arg>& args,
                                  interp::LaunchOptions o, bool racy = false) {
  std::vector<interp::Buffer> dense = bufs;
  auto r = interp::run(m, *m.kernels[0], bufs, args, o);
  o.symbolic = false;
  auto d = interp::run(m, *m.kernels[0], dense, args, o);
  for (size_t i = 0; i < bufs.size() && !racy; ++i)
    if (bufs[i].bytes != dense[i].bytes) FAIL("buffer " << bufs[i].name << " differs between the symbolic and the dense run");
  if (racy ? r.identity() != d.identity() : r.text() != d.text()) FAIL("reports differ:\nsymbolic:\n" << r.text() << "dense:\n" << d.text());
  return r;
}

inline interp::Report runChecked(const ir::Module& m, std::vector<interp::Buffer>& bufs, const std::vector<interp::Arg>& args,
                                 std::array<int64_t, 3> grid = {1, 1, 1}, interp::LaunchOptions o = {}) {
  o.grid = grid;
  auto r = runBothWays(m, bufs, args, o);
  if (!r.findings.empty()) FAIL("unexpected findings:\n" << r.text());
  return r;
}

/// Reference rounding of a double to a binary format with `mant` explicit mantissa bits and
/// exponent range [emin, emax], round to nearest even, via frexp/ldexp and nearbyint.
inline double roundToFormat(double v, int mant, int emin, int emax) {
  if (std::isnan(v) || std::isinf(v) || v == 0) return v;
  int e;
  std::frexp(std::fabs(v), &e);  // |v| = f * 2^e, f in [0.5, 1)
  int exp = std::max(e - 1, emin);  // unbiased exponent of the leading bit, clamped for subnormals
  double scale = std::ldexp(1.0, exp - mant);
  double r = std::nearbyint(v / scale) * scale;
  if (std::fabs(r) >= std::ldexp(2.0, emax) * (1 - std::ldexp(1.0, -mant - 2))) return std::copysign(INFINITY, v);
  return r;
}
inline double roundHalf(double v) { return roundToFormat(v, 10, -14, 15); }
inline double roundBf16(double v) { return roundToFormat(v, 7, -126, 127); }
inline double roundF32(double v) { return double(float(v)); }

/// Bits of a value rounded to f16 / bf16, built independently of the interpreter.
inline uint16_t halfBits(double v) {
  double r = roundHalf(v);
  uint16_t sign = std::signbit(r) ? 0x8000 : 0;
  if (std::isnan(r)) return 0x7e00;
  if (std::isinf(r)) return sign | 0x7c00;
  double a = std::fabs(r);
  if (a == 0) return sign;
  int e;
  double f = std::frexp(a, &e);  // a = f * 2^e
  int exp = e - 1 + 15;
  if (exp <= 0) return uint16_t(sign | uint16_t(std::ldexp(a, 24)));  // subnormal: a / 2^-24
  return uint16_t(sign | (exp << 10) | uint16_t(std::ldexp(f * 2 - 1, 10)));
}
inline double halfValue(uint16_t h) {
  int exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  double s = (h & 0x8000) ? -1 : 1;
  if (exp == 0x1f) return man ? NAN : s * INFINITY;
  if (exp == 0) return s * std::ldexp(man, -24);
  return s * std::ldexp(1024 + man, exp - 25);
}
inline double bf16Value(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint16_t bf16Bits(double v) {
  float f = float(roundBf16(v));
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return uint16_t(u >> 16);
}

inline uint64_t freshSeed() { return std::random_device{}(); }

/// Fills an f32 or f16 buffer with normal random values (mean 0, standard deviation `scale`).
inline void fillNormal(interp::Buffer& b, std::mt19937_64& rng, double scale = 1) {
  std::normal_distribution<double> nd(0, scale);
  int64_t n = int64_t(b.bytes.size()) / (b.elem == ir::ScalarKind::F16 ? 2 : b.elem == ir::ScalarKind::F64 ? 8 : 4);
  for (int64_t i = 0; i < n; ++i) {
    if (b.elem == ir::ScalarKind::F16) as<uint16_t>(b)[i] = halfBits(nd(rng));
    else as<float>(b)[i] = float(nd(rng));
  }
}

}  // namespace tilevm::test
