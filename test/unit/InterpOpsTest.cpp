// InterpOpsTest.cpp - every arithmetic op and dtype against references computed here (in
// int64/__int128 and float64, rounded by InterpHarness's independent rounding), on fresh
// random inputs plus edge cases.
#include <cmath>
#include <functional>
#include <limits>

#include "InterpHarness.h"

using namespace tilevm;
using namespace tilevm::test;
using ir::ScalarKind;

namespace {

constexpr int64_t N = 256;

// o[i] = OP(a[i], b[i]) over N lanes.
std::string binaryKernel(const std::string& op, const std::string& t, const std::string& r, const std::string& attrs = "") {
  std::string n = std::to_string(N);
  return "kernel @k(%a: ptr<" + t + ">, %b: ptr<" + t + ">, %o: ptr<" + r + ">) {\n"
         "  %i = arange {end = " + n + ", start = 0} : tile<" + n + "xi32>\n"
         "  %pa0 = splat %a : tile<" + n + "xptr<" + t + ">>\n  %pa = addptr %pa0, %i : tile<" + n + "xptr<" + t + ">>\n"
         "  %pb0 = splat %b : tile<" + n + "xptr<" + t + ">>\n  %pb = addptr %pb0, %i : tile<" + n + "xptr<" + t + ">>\n"
         "  %po0 = splat %o : tile<" + n + "xptr<" + r + ">>\n  %po = addptr %po0, %i : tile<" + n + "xptr<" + r + ">>\n"
         "  %x = load %pa : tile<" + n + "x" + t + ">\n  %y = load %pb : tile<" + n + "x" + t + ">\n"
         "  %z = " + op + " %x, %y" + (attrs.empty() ? "" : " {" + attrs + "}") + " : tile<" + n + "x" + r + ">\n"
         "  store %po, %z\n  return\n}\n";
}

std::string unaryKernel(const std::string& op, const std::string& t, const std::string& r, const std::string& attrs = "") {
  std::string n = std::to_string(N);
  return "kernel @k(%a: ptr<" + t + ">, %o: ptr<" + r + ">) {\n"
         "  %i = arange {end = " + n + ", start = 0} : tile<" + n + "xi32>\n"
         "  %pa0 = splat %a : tile<" + n + "xptr<" + t + ">>\n  %pa = addptr %pa0, %i : tile<" + n + "xptr<" + t + ">>\n"
         "  %po0 = splat %o : tile<" + n + "xptr<" + r + ">>\n  %po = addptr %po0, %i : tile<" + n + "xptr<" + r + ">>\n"
         "  %x = load %pa : tile<" + n + "x" + t + ">\n"
         "  %z = " + op + " %x" + (attrs.empty() ? "" : " {" + attrs + "}") + " : tile<" + n + "x" + r + ">\n"
         "  store %po, %z\n  return\n}\n";
}

template <typename T>
std::vector<T> randomInts(std::mt19937_64& rng) {
  std::vector<T> v(N);
  const T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  const T edges[] = {0, 1, T(-1), lo, hi, T(lo + 1), 2, 7, T(-7), T(sizeof(T) * 8), T(sizeof(T) * 8 - 1)};
  for (int64_t i = 0; i < N; ++i) {
    if (i < int64_t(std::size(edges))) v[size_t(i)] = edges[i];
    else if (i % 3 == 0) v[size_t(i)] = T(int64_t(rng() % 64) - 32);
    else v[size_t(i)] = T(rng());
  }
  std::shuffle(v.begin() + 20, v.end(), rng);
  return v;
}

using IntRef = std::function<__int128(__int128 a, __int128 b, int bits)>;

__int128 wrap(__int128 v, int bits, bool isSigned) {
  unsigned __int128 m = bits == 128 ? ~(unsigned __int128)0 : (((unsigned __int128)1 << bits) - 1);
  unsigned __int128 u = (unsigned __int128)v & m;
  if (isSigned && (u >> (bits - 1)) & 1) return (__int128)(u | ~m);
  return (__int128)u;
}

template <typename T>
void checkIntOp(const std::string& op, const IntRef& ref, const char* tname, uint64_t seed) {
  using U = std::make_unsigned_t<T>;
  const int bits = int(sizeof(T) * 8);
  std::mt19937_64 rng(seed);
  auto m = parseVerified(binaryKernel(op, tname, tname));
  std::vector<interp::Buffer> bufs{buffer("a", m->kernels[0]->params()[0]->type.elem().pointee, N),
                                   buffer("b", m->kernels[0]->params()[0]->type.elem().pointee, N),
                                   buffer("o", m->kernels[0]->params()[0]->type.elem().pointee, N)};
  auto a = randomInts<T>(rng), b = randomInts<T>(rng);
  std::memcpy(bufs[0].bytes.data(), a.data(), N * sizeof(T));
  std::memcpy(bufs[1].bytes.data(), b.data(), N * sizeof(T));
  runChecked(*m, bufs, {bufArg(0), bufArg(1), bufArg(2)});
  const T* o = as<T>(bufs[2]);
  for (int64_t i = 0; i < N; ++i) {
    bool sgn = op.find("si") != std::string::npos || op == "addi" || op == "subi" || op == "muli" || op == "andi" ||
               op == "ori" || op == "xori" || op == "shli";
    __int128 x = sgn ? __int128(a[size_t(i)]) : __int128(U(a[size_t(i)]));
    __int128 y = sgn ? __int128(b[size_t(i)]) : __int128(U(b[size_t(i)]));
    T want = T(wrap(ref(x, y, bits), bits, true));
    INFO(op << " " << tname << " seed " << seed << " lane " << i << ": " << int64_t(a[size_t(i)]) << ", " << int64_t(b[size_t(i)]));
    REQUIRE(int64_t(o[i]) == int64_t(want));
  }
}

template <typename T>
void allIntOps(const char* tname, uint64_t seed) {
  const int bits = int(sizeof(T) * 8);
  const __int128 smin = -((__int128)1 << (bits - 1));
  // Products in unsigned __int128: wrapping is the point, and signed overflow would be UB.
  checkIntOp<T>("addi", [](auto a, auto b, int) { return a + b; }, tname, seed);
  checkIntOp<T>("subi", [](auto a, auto b, int) { return a - b; }, tname, seed);
  checkIntOp<T>("muli", [](auto a, auto b, int) { return (__int128)((unsigned __int128)a * (unsigned __int128)b); }, tname, seed);
  checkIntOp<T>("divsi", [smin](auto a, auto b, int) -> __int128 { return b == 0 ? -1 : (a == smin && b == -1) ? a : a / b; }, tname, seed);
  checkIntOp<T>("divui", [](auto a, auto b, int) -> __int128 { return b == 0 ? -1 : a / b; }, tname, seed);
  checkIntOp<T>("remsi", [](auto a, auto b, int) -> __int128 { return b == 0 ? a : b == -1 ? 0 : a % b; }, tname, seed);
  checkIntOp<T>("remui", [](auto a, auto b, int) -> __int128 { return b == 0 ? a : a % b; }, tname, seed);
  checkIntOp<T>("andi", [](auto a, auto b, int) { return a & b; }, tname, seed);
  checkIntOp<T>("ori", [](auto a, auto b, int) { return a | b; }, tname, seed);
  checkIntOp<T>("xori", [](auto a, auto b, int) { return a ^ b; }, tname, seed);
  checkIntOp<T>("shli", [](auto a, auto b, int w) -> __int128 {
    unsigned __int128 s = (unsigned __int128)wrap(b, w, false);
    return s >= unsigned(w) ? 0 : a << int(s); }, tname, seed);
  checkIntOp<T>("shrsi", [](auto a, auto b, int w) -> __int128 {
    unsigned __int128 s = (unsigned __int128)wrap(b, w, false);
    return s >= unsigned(w) ? (a < 0 ? -1 : 0) : a >> int(s); }, tname, seed);
  checkIntOp<T>("shrui", [](auto a, auto b, int w) -> __int128 {
    unsigned __int128 s = (unsigned __int128)wrap(b, w, false);
    return s >= unsigned(w) ? 0 : a >> int(s); }, tname, seed);
  checkIntOp<T>("minsi", [](auto a, auto b, int) { return std::min(a, b); }, tname, seed);
  checkIntOp<T>("maxsi", [](auto a, auto b, int) { return std::max(a, b); }, tname, seed);
  checkIntOp<T>("minui", [](auto a, auto b, int) { return std::min(a, b); }, tname, seed);
  checkIntOp<T>("maxui", [](auto a, auto b, int) { return std::max(a, b); }, tname, seed);
  checkIntOp<T>("mulhisi", [](auto a, auto b, int w) { return (a * b) >> w; }, tname, seed);
  checkIntOp<T>("mulhiui", [](auto a, auto b, int w) {
    return (__int128)(((unsigned __int128)a * (unsigned __int128)b) >> w); }, tname, seed);
}

}  // namespace

TEST_CASE("integer ops wrap, divide like C and PTX, shift safely, for every width", "[interp][ops]") {
  uint64_t seed = freshSeed();
  allIntOps<int8_t>("i8", seed);
  allIntOps<int16_t>("i16", seed);
  allIntOps<int32_t>("i32", seed);
  allIntOps<int64_t>("i64", seed);
}

namespace {

struct FloatFormat {
  const char* name;
  ScalarKind kind;
  double (*round)(double);
};
double roundF64(double v) { return v; }
const FloatFormat kFloats[] = {{"f16", ScalarKind::F16, roundHalf}, {"bf16", ScalarKind::BF16, roundBf16},
                               {"f32", ScalarKind::F32, roundF32},  {"f64", ScalarKind::F64, roundF64}};

// Stores doubles (already representable) into a buffer of the format.
void putFloats(interp::Buffer& b, const FloatFormat& f, const std::vector<double>& v) {
  for (size_t i = 0; i < v.size(); ++i) {
    switch (f.kind) {
      case ScalarKind::F16: as<uint16_t>(b)[i] = halfBits(v[i]); break;
      case ScalarKind::BF16: as<uint16_t>(b)[i] = bf16Bits(v[i]); break;
      case ScalarKind::F32: as<float>(b)[i] = float(v[i]); break;
      default: as<double>(b)[i] = v[i]; break;
    }
  }
}
double getFloat(interp::Buffer& b, const FloatFormat& f, size_t i) {
  switch (f.kind) {
    case ScalarKind::F16: return halfValue(as<uint16_t>(b)[i]);
    case ScalarKind::BF16: return bf16Value(as<uint16_t>(b)[i]);
    case ScalarKind::F32: return as<float>(b)[i];
    default: return as<double>(b)[i];
  }
}

std::vector<double> randomFloats(const FloatFormat& f, std::mt19937_64& rng) {
  std::normal_distribution<double> nd(0, 3);
  std::vector<double> v(N);
  const double edges[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 65504.0, 1e-6, 3.0};
  for (int64_t i = 0; i < N; ++i) v[size_t(i)] = f.round(i < int64_t(std::size(edges)) ? edges[i] : nd(rng) * (i % 7 == 0 ? 1000 : 1));
  return v;
}

bool sameFloat(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

}  // namespace

TEST_CASE("float arithmetic is IEEE, f16/bf16 computed in f32 and rounded once", "[interp][ops]") {
  uint64_t seed = freshSeed();
  struct Op { const char* name; std::function<double(double, double)> ref; };
  const Op ops[] = {
      {"addf", [](double a, double b) { return a + b; }},
      {"subf", [](double a, double b) { return a - b; }},
      {"mulf", [](double a, double b) { return a * b; }},
      {"divf", [](double a, double b) { return a / b; }},
      {"remf", [](double a, double b) { return std::fmod(a, b); }},
      {"minnumf", [](double a, double b) { return std::fmin(a, b); }},
      {"maxnumf", [](double a, double b) { return std::fmax(a, b); }},
      {"minimumf", [](double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : (a == b ? (std::signbit(a) ? a : b) : std::min(a, b)); }},
      {"maximumf", [](double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : (a == b ? (std::signbit(a) ? b : a) : std::max(a, b)); }},
  };
  for (const FloatFormat& f : kFloats) {
    for (const Op& op : ops) {
      std::mt19937_64 rng(seed);
      auto m = parseVerified(binaryKernel(op.name, f.name, f.name));
      std::vector<interp::Buffer> bufs{buffer("a", f.kind, N), buffer("b", f.kind, N), buffer("o", f.kind, N)};
      auto a = randomFloats(f, rng), b = randomFloats(f, rng);
      std::shuffle(b.begin(), b.end(), rng);
      putFloats(bufs[0], f, a);
      putFloats(bufs[1], f, b);
      runChecked(*m, bufs, {bufArg(0), bufArg(1), bufArg(2)});
      for (size_t i = 0; i < size_t(N); ++i) {
        double want = f.round(op.ref(a[i], b[i]));
        if (std::string(op.name) == "remf" && f.kind != ScalarKind::F64) want = f.round(double(std::fmod(float(a[i]), float(b[i]))));
        INFO(op.name << " " << f.name << " seed " << seed << " lane " << i << ": " << a[i] << ", " << b[i]);
        REQUIRE(sameFloat(getFloat(bufs[2], f, i), want));
      }
    }
  }
}

TEST_CASE("math functions are within a few ulp of float64", "[interp][ops]") {
  uint64_t seed = freshSeed();
  struct Op { const char* name; double (*ref)(double); double lo, hi; };
  const Op ops[] = {{"exp", [](double x) { return std::exp(x); }, -20, 20},
                    {"exp2", [](double x) { return std::exp2(x); }, -20, 20},
                    {"log", [](double x) { return std::log(x); }, 1e-3, 1e4},
                    {"log2", [](double x) { return std::log2(x); }, 1e-3, 1e4},
                    {"sqrt", [](double x) { return std::sqrt(x); }, 0, 1e6},
                    {"precise_sqrt", [](double x) { return std::sqrt(x); }, 0, 1e6},
                    {"rsqrt", [](double x) { return 1 / std::sqrt(x); }, 1e-3, 1e6},
                    {"sin", [](double x) { return std::sin(x); }, -10, 10},
                    {"cos", [](double x) { return std::cos(x); }, -10, 10},
                    {"erf", [](double x) { return std::erf(x); }, -3, 3},
                    {"tanh", [](double x) { return std::tanh(x); }, -5, 5},
                    {"absf", [](double x) { return std::fabs(x); }, -5, 5},
                    {"floor", [](double x) { return std::floor(x); }, -50, 50},
                    {"ceil", [](double x) { return std::ceil(x); }, -50, 50},
                    {"negf", [](double x) { return -x; }, -5, 5}};
  std::mt19937_64 rng(seed);
  for (const Op& op : ops) {
    auto m = parseVerified(unaryKernel(op.name, "f32", "f32"));
    std::vector<interp::Buffer> bufs{buffer("a", ScalarKind::F32, N), buffer("o", ScalarKind::F32, N)};
    std::uniform_real_distribution<double> u(op.lo, op.hi);
    for (int64_t i = 0; i < N; ++i) as<float>(bufs[0])[i] = float(u(rng));
    runChecked(*m, bufs, {bufArg(0), bufArg(1)});
    for (int64_t i = 0; i < N; ++i) {
      double x = as<float>(bufs[0])[i], want = op.ref(x), got = as<float>(bufs[1])[i];
      INFO(op.name << " seed " << seed << " x = " << x);
      REQUIRE(std::fabs(got - want) <= 4 * std::fabs(std::nextafter(float(want), INFINITY) - float(want)) + 1e-30);
    }
  }
}

TEST_CASE("f32 exp and exp2 are within 1 ulp of float64 over the whole range, specials exact; exp2 flushes subnormals", "[interp][ops]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  for (const char* name : {"exp", "exp2"}) {
    bool two = std::string(name) == "exp2";
    auto m = parseVerified(unaryKernel(name, "f32", "f32"));
    std::vector<interp::Buffer> bufs{buffer("a", ScalarKind::F32, N), buffer("o", ScalarKind::F32, N)};
    // Up to overflow and deep into the subnormals, plus the special values.
    std::uniform_real_distribution<double> u(two ? -152 : -105, two ? 130 : 90);
    for (int64_t i = 0; i < N; ++i) as<float>(bufs[0])[i] = float(u(rng));
    const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 0.5f, 127.99f, -149.0f, -150.0f, 88.72f, 88.73f};
    for (size_t i = 0; i < std::size(specials); ++i) as<float>(bufs[0])[i] = specials[i];
    runChecked(*m, bufs, {bufArg(0), bufArg(1)});
    for (int64_t i = 0; i < N; ++i) {
      double x = as<float>(bufs[0])[i], want = two ? std::exp2(x) : std::exp(x);
      float got = as<float>(bufs[1])[i];
      INFO(name << " seed " << seed << " x = " << x << " got " << got << " want " << want);
      if (std::isnan(want)) {
        REQUIRE(std::isnan(got));
        continue;
      }
      // The two floats around the true value are the only acceptable results.
      float below = float(want), above = below;
      if (double(below) > want) below = std::nextafter(below, -INFINITY);
      if (double(above) < want) above = std::nextafter(above, INFINITY);
      if (want > double(std::numeric_limits<float>::max())) below = std::numeric_limits<float>::max(), above = INFINITY;
      // exp2 is the GPU's ex2.approx.ftz: a result below the smallest normal float is +0 (and
      // one that rounds up to it may be either); exp keeps its subnormals.
      if (two && want < double(std::numeric_limits<float>::min())) {
        bool flushed = got == 0.0f && !std::signbit(got);
        REQUIRE((flushed || (got == above && above == std::numeric_limits<float>::min())));
        continue;
      }
      REQUIRE((got == below || got == above));
    }
  }
}

TEST_CASE("comparisons: ordered and unordered float predicates, signed and unsigned integers", "[interp][ops]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  const char* fpreds[] = {"oeq", "one", "olt", "ole", "ogt", "oge", "ueq", "une", "ult", "ule", "ugt", "uge", "ord", "uno"};
  const FloatFormat& f = kFloats[2];
  auto a = randomFloats(f, rng), b = a;
  std::shuffle(b.begin(), b.end(), rng);
  for (const char* pred : fpreds) {
    auto m = parseVerified(binaryKernel("cmpf", "f32", "i1", std::string("pred = ") + pred));
    std::vector<interp::Buffer> bufs{buffer("a", ScalarKind::F32, N), buffer("b", ScalarKind::F32, N), buffer("o", ScalarKind::I1, N)};
    putFloats(bufs[0], f, a);
    putFloats(bufs[1], f, b);
    runChecked(*m, bufs, {bufArg(0), bufArg(1), bufArg(2)});
    for (size_t i = 0; i < size_t(N); ++i) {
      double x = a[i], y = b[i];
      bool u = std::isnan(x) || std::isnan(y);
      std::string p = pred;
      bool want = p == "ord" ? !u : p == "uno" ? u
                : (p[0] == 'u' && u) ? true : (p[0] == 'o' && u) ? false
                : p.substr(1) == "eq" ? x == y : p.substr(1) == "ne" ? x != y : p.substr(1) == "lt" ? x < y
                : p.substr(1) == "le" ? x <= y : p.substr(1) == "gt" ? x > y : x >= y;
      INFO(pred << " " << x << " " << y);
      REQUIRE(as<uint8_t>(bufs[2])[i] == want);
    }
  }
  const char* ipreds[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
  auto ia = randomInts<int32_t>(rng), ib = randomInts<int32_t>(rng);
  for (const char* pred : ipreds) {
    auto m = parseVerified(binaryKernel("cmpi", "i32", "i1", std::string("pred = ") + pred));
    std::vector<interp::Buffer> bufs{buffer("a", ScalarKind::I32, N), buffer("b", ScalarKind::I32, N), buffer("o", ScalarKind::I1, N)};
    std::memcpy(bufs[0].bytes.data(), ia.data(), N * 4);
    std::memcpy(bufs[1].bytes.data(), ib.data(), N * 4);
    runChecked(*m, bufs, {bufArg(0), bufArg(1), bufArg(2)});
    for (size_t i = 0; i < size_t(N); ++i) {
      std::string p = pred;
      int64_t x = p[0] == 'u' ? int64_t(uint32_t(ia[i])) : ia[i], y = p[0] == 'u' ? int64_t(uint32_t(ib[i])) : ib[i];
      std::string c = p.size() == 2 ? p : p.substr(1);
      bool want = c == "eq" ? x == y : c == "ne" ? x != y : c == "lt" ? x < y : c == "le" ? x <= y : c == "gt" ? x > y : x >= y;
      REQUIRE(as<uint8_t>(bufs[2])[i] == want);
    }
  }
}

TEST_CASE("casts round to nearest even, saturate float to int, and extend by signedness", "[interp][ops]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd(0, 1000);
  // f32 -> f16 / bf16 (truncf), f64 -> f16 (no double rounding), f16 -> f32 (extf)
  for (auto [from, to, fromKind, toKind] : {std::tuple{"f32", "f16", ScalarKind::F32, ScalarKind::F16},
                                            std::tuple{"f32", "bf16", ScalarKind::F32, ScalarKind::BF16},
                                            std::tuple{"f64", "f16", ScalarKind::F64, ScalarKind::F16},
                                            std::tuple{"f64", "f32", ScalarKind::F64, ScalarKind::F32}}) {
    auto m = parseVerified(unaryKernel("truncf", from, to));
    std::vector<interp::Buffer> bufs{buffer("a", fromKind, N), buffer("o", toKind, N)};
    std::vector<double> v(N);
    for (int64_t i = 0; i < N; ++i) {
      double x = nd(rng) * (i % 5 == 0 ? 1e-6 : 1);
      if (i == 0) x = 1 + std::ldexp(1.0, -11);                                   // a tie for f16: even
      if (i == 1) x = 1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);             // just above the tie (f64)
      if (i == 2) x = 70000;                                                       // f16 overflow
      v[size_t(i)] = fromKind == ScalarKind::F32 ? double(float(x)) : x;
      if (fromKind == ScalarKind::F32) as<float>(bufs[0])[i] = float(v[size_t(i)]);
      else as<double>(bufs[0])[i] = v[size_t(i)];
    }
    runChecked(*m, bufs, {bufArg(0), bufArg(1)});
    for (int64_t i = 0; i < N; ++i) {
      double want = toKind == ScalarKind::F16 ? roundHalf(v[size_t(i)]) : toKind == ScalarKind::BF16 ? roundBf16(v[size_t(i)]) : roundF32(v[size_t(i)]);
      double got = toKind == ScalarKind::F16 ? halfValue(as<uint16_t>(bufs[1])[i])
                 : toKind == ScalarKind::BF16 ? bf16Value(as<uint16_t>(bufs[1])[i]) : as<float>(bufs[1])[i];
      INFO(from << "->" << to << " " << v[size_t(i)]);
      REQUIRE(sameFloat(got, want));
    }
  }
  // fptosi saturates, NaN -> 0; sitofp rounds; extsi/extui/trunci.
  {
    auto m = parseVerified(unaryKernel("fptosi", "f32", "i8"));
    std::vector<interp::Buffer> bufs{buffer("a", ScalarKind::F32, N), buffer("o", ScalarKind::I8, N)};
    for (int64_t i = 0; i < N; ++i) as<float>(bufs[0])[i] = i == 0 ? NAN : i == 1 ? 1e9f : i == 2 ? -1e9f : float(nd(rng) / 10);
    runChecked(*m, bufs, {bufArg(0), bufArg(1)});
    for (int64_t i = 0; i < N; ++i) {
      double x = as<float>(bufs[0])[i];
      int64_t want = std::isnan(x) ? 0 : int64_t(std::clamp(std::trunc(x), -128.0, 127.0));
      REQUIRE(as<int8_t>(bufs[1])[i] == want);
    }
  }
  for (auto [op, from, to, isSigned] : {std::tuple{"extsi", "i8", "i32", true}, std::tuple{"extui", "i8", "i32", false}}) {
    auto m = parseVerified(unaryKernel(op, from, to));
    std::vector<interp::Buffer> bufs{buffer("a", ScalarKind::I8, N), buffer("o", ScalarKind::I32, N)};
    auto v = randomInts<int8_t>(rng);
    std::memcpy(bufs[0].bytes.data(), v.data(), N);
    runChecked(*m, bufs, {bufArg(0), bufArg(1)});
    for (int64_t i = 0; i < N; ++i) REQUIRE(as<int32_t>(bufs[1])[i] == (isSigned ? int32_t(v[size_t(i)]) : int32_t(uint8_t(v[size_t(i)]))));
  }
  {
    auto m = parseVerified(unaryKernel("sitofp", "i64", "f32"));
    std::vector<interp::Buffer> bufs{buffer("a", ScalarKind::I64, N), buffer("o", ScalarKind::F32, N)};
    auto v = randomInts<int64_t>(rng);
    std::memcpy(bufs[0].bytes.data(), v.data(), N * 8);
    runChecked(*m, bufs, {bufArg(0), bufArg(1)});
    for (int64_t i = 0; i < N; ++i) REQUIRE(as<float>(bufs[1])[i] == float(v[size_t(i)]));
  }
}
