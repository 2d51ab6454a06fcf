// OpsArith.cpp - elementwise arithmetic, comparisons and math: one typed loop per op over the
// whole tile. Integers wrap; division by zero gives all ones (quotient) or the dividend
// (remainder), as PTX does; f16/bf16 are computed in f32 and rounded once.
#include <bit>
#include <cmath>

#include "interpreter/Exec.h"
#include "interpreter/Views.h"
#include "interpreter/FastMath.h"
#include "interpreter/SpecialMath.h"

namespace tilevm::interp {

using ir::Opcode;
using ir::ScalarKind;

namespace {

// Float storage formats and how they convert to the compute type.
struct F16T { using S = uint16_t; using C = float; static C ld(S x) { return halfToFloat(x); } static S st(C v) { return floatToHalf(v); } };
struct BF16T { using S = uint16_t; using C = float; static C ld(S x) { return bf16ToFloat(x); } static S st(C v) { return floatToBf16(v); } };
struct F32T { using S = float; using C = float; static C ld(S x) { return x; } static S st(C v) { return v; } };
struct F64T { using S = double; using C = double; static C ld(S x) { return x; } static S st(C v) { return v; } };

template <typename F>
void withFloat(ScalarKind k, F&& f) {
  switch (k) {
    case ScalarKind::F16: f(F16T{}); return;
    case ScalarKind::BF16: f(BF16T{}); return;
    case ScalarKind::F32: f(F32T{}); return;
    case ScalarKind::F64: f(F64T{}); return;
    case ScalarKind::I1:
    case ScalarKind::I8:
    case ScalarKind::I16:
    case ScalarKind::I32:
    case ScalarKind::I64:
    case ScalarKind::Ptr:
    case ScalarKind::F8E5:
    case ScalarKind::F8E4NV:
    case ScalarKind::F8E4B15:
    case ScalarKind::F8E5B16:
    case ScalarKind::F8E4B8: return;  // fp8: no arithmetic (the verifier's rule)
  }
}

template <typename F>
void withInt(ScalarKind k, F&& f) {
  switch (k) {
    case ScalarKind::I1: f(uint8_t{}); return;
    case ScalarKind::I8: f(int8_t{}); return;
    case ScalarKind::I16: f(int16_t{}); return;
    case ScalarKind::I32: f(int32_t{}); return;
    case ScalarKind::I64: f(int64_t{}); return;
    case ScalarKind::Ptr: f(int64_t{}); return;
    case ScalarKind::F16:
    case ScalarKind::BF16:
    case ScalarKind::F32:
    case ScalarKind::F64:
    case ScalarKind::F8E5:
    case ScalarKind::F8E4NV:
    case ScalarKind::F8E4B15:
    case ScalarKind::F8E5B16:
    case ScalarKind::F8E4B8: return;
  }
}

template <typename T>
int64_t widthOf() { return std::is_same_v<T, uint8_t> ? 1 : int64_t(sizeof(T) * 8); }

template <typename T, typename F>
void map2(const Tile& a, const Tile& b, Tile& out, F&& f) {
  const T* x = a.as<T>();
  const T* y = b.as<T>();
  T* o = out.as<T>();
  int64_t n = out.size();
  for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], y[i]);
}

template <typename T>
void intBinary(Opcode code, const Tile& a, const Tile& b, Tile& out) {
  using S = std::conditional_t<std::is_same_v<T, uint8_t>, int8_t, T>;
  using U = std::make_unsigned_t<S>;
  const int64_t bits = widthOf<T>();
  const S smin = std::numeric_limits<S>::min();
  switch (code) {
    case Opcode::AddI: map2<T>(a, b, out, [](T x, T y) { return T(U(x) + U(y)); }); break;
    case Opcode::SubI: map2<T>(a, b, out, [](T x, T y) { return T(U(x) - U(y)); }); break;
    case Opcode::MulI: map2<T>(a, b, out, [](T x, T y) { return T(uint64_t(U(x)) * U(y)); }); break;  // no promotion to int
    case Opcode::DivSI:
      map2<T>(a, b, out, [smin](T x, T y) { return y == 0 ? T(-1) : (S(x) == smin && S(y) == -1) ? x : T(S(x) / S(y)); });
      break;
    case Opcode::DivUI: map2<T>(a, b, out, [](T x, T y) { return y == 0 ? T(~U(0)) : T(U(x) / U(y)); }); break;
    case Opcode::RemSI: map2<T>(a, b, out, [](T x, T y) { return y == 0 ? x : S(y) == -1 ? T(0) : T(S(x) % S(y)); }); break;
    case Opcode::RemUI: map2<T>(a, b, out, [](T x, T y) { return y == 0 ? x : T(U(x) % U(y)); }); break;
    case Opcode::AndI: map2<T>(a, b, out, [](T x, T y) { return T(x & y); }); break;
    case Opcode::OrI: map2<T>(a, b, out, [](T x, T y) { return T(x | y); }); break;
    case Opcode::XorI: map2<T>(a, b, out, [](T x, T y) { return T(x ^ y); }); break;
    case Opcode::ShlI: map2<T>(a, b, out, [bits](T x, T y) { return U(y) >= U(bits) ? T(0) : T(U(x) << U(y)); }); break;
    case Opcode::ShrSI:
      map2<T>(a, b, out, [bits](T x, T y) { return U(y) >= U(bits) ? T(S(x) < 0 ? -1 : 0) : T(S(x) >> U(y)); });
      break;
    case Opcode::ShrUI: map2<T>(a, b, out, [bits](T x, T y) { return U(y) >= U(bits) ? T(0) : T(U(x) >> U(y)); }); break;
    case Opcode::MinSI: map2<T>(a, b, out, [](T x, T y) { return S(x) < S(y) ? x : y; }); break;
    case Opcode::MaxSI: map2<T>(a, b, out, [](T x, T y) { return S(x) > S(y) ? x : y; }); break;
    case Opcode::MinUI: map2<T>(a, b, out, [](T x, T y) { return U(x) < U(y) ? x : y; }); break;
    case Opcode::MaxUI: map2<T>(a, b, out, [](T x, T y) { return U(x) > U(y) ? x : y; }); break;
    // The high half, through the narrowest exact product type: GCC 12 -O3 miscompiles a
    // 16-bit unsigned multiply-high widened to 64 bits (found by InterpOpsTest).
    case Opcode::MulHiSI:
      map2<T>(a, b, out, [](T x, T y) {
        constexpr int kBits = std::is_same_v<T, uint8_t> ? 1 : int(sizeof(T) * 8);
        if constexpr (sizeof(S) == 8) return T((__int128(S(x)) * __int128(S(y))) >> 64);
        else if constexpr (sizeof(S) == 4) return T((int64_t(S(x)) * int64_t(S(y))) >> 32);
        else return T((int32_t(S(x)) * int32_t(S(y))) >> kBits);
      });
      break;
    case Opcode::MulHiUI:
      map2<T>(a, b, out, [](T x, T y) {
        constexpr int kBits = std::is_same_v<T, uint8_t> ? 1 : int(sizeof(T) * 8);
        if constexpr (sizeof(S) == 8) return T((unsigned __int128)(U(x)) * U(y) >> 64);
        else if constexpr (sizeof(S) == 4) return T((uint64_t(U(x)) * uint64_t(U(y))) >> 32);
        else return T((uint32_t(U(x)) * uint32_t(U(y))) >> kBits);
      });
      break;
#define TILEVM_CASES_NOT_OF IntBinary
#include "ir/FamilyCases.inc"
      ir::opNotInFamily("interp::intBinary", code);
  }
  if constexpr (std::is_same_v<T, uint8_t>) {  // i1: keep the low bit
    uint8_t* o = out.as<uint8_t>();
    for (int64_t i = 0, n = out.size(); i < n; ++i) o[i] &= 1;
  }
}

template <typename T>
void intCompare(const std::string& pred, const Tile& a, const Tile& b, Tile& out) {
  using S = std::conditional_t<std::is_same_v<T, uint8_t>, int8_t, T>;
  using U = std::make_unsigned_t<S>;
  const T* x = a.as<T>();
  const T* y = b.as<T>();
  uint8_t* o = out.as<uint8_t>();
  int64_t n = out.size();
  auto run = [&](auto cmp) {
    for (int64_t i = 0; i < n; ++i) o[i] = cmp(x[i], y[i]);
  };
  if (pred == "eq") run([](T l, T r) { return l == r; });
  else if (pred == "ne") run([](T l, T r) { return l != r; });
  else if (pred == "slt") run([](T l, T r) { return S(l) < S(r); });
  else if (pred == "sle") run([](T l, T r) { return S(l) <= S(r); });
  else if (pred == "sgt") run([](T l, T r) { return S(l) > S(r); });
  else if (pred == "sge") run([](T l, T r) { return S(l) >= S(r); });
  else if (pred == "ult") run([](T l, T r) { return U(l) < U(r); });
  else if (pred == "ule") run([](T l, T r) { return U(l) <= U(r); });
  else if (pred == "ugt") run([](T l, T r) { return U(l) > U(r); });
  else run([](T l, T r) { return U(l) >= U(r); });
}

template <typename FT>
void floatCompare(const std::string& pred, const Tile& a, const Tile& b, Tile& out) {
  using S = typename FT::S;
  const S* x = a.as<S>();
  const S* y = b.as<S>();
  uint8_t* o = out.as<uint8_t>();
  int64_t n = out.size();
  auto run = [&](auto cmp) {
    for (int64_t i = 0; i < n; ++i) {
      auto l = FT::ld(x[i]), r = FT::ld(y[i]);
      bool unordered = std::isnan(l) || std::isnan(r);
      o[i] = cmp(l, r, unordered);
    }
  };
  if (pred == "oeq") run([](auto l, auto r, bool u) { return !u && l == r; });
  else if (pred == "one") run([](auto l, auto r, bool u) { return !u && l != r; });
  else if (pred == "olt") run([](auto l, auto r, bool u) { return !u && l < r; });
  else if (pred == "ole") run([](auto l, auto r, bool u) { return !u && l <= r; });
  else if (pred == "ogt") run([](auto l, auto r, bool u) { return !u && l > r; });
  else if (pred == "oge") run([](auto l, auto r, bool u) { return !u && l >= r; });
  else if (pred == "ueq") run([](auto l, auto r, bool u) { return u || l == r; });
  else if (pred == "une") run([](auto l, auto r, bool u) { return u || l != r; });
  else if (pred == "ult") run([](auto l, auto r, bool u) { return u || l < r; });
  else if (pred == "ule") run([](auto l, auto r, bool u) { return u || l <= r; });
  else if (pred == "ugt") run([](auto l, auto r, bool u) { return u || l > r; });
  else if (pred == "uge") run([](auto l, auto r, bool u) { return u || l >= r; });
  else if (pred == "ord") run([](auto, auto, bool u) { return !u; });
  else run([](auto, auto, bool u) { return u; });
}

template <typename C>
C minimumNan(C x, C y) {
  if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<C>::quiet_NaN();
  if (x == y) return std::signbit(x) ? x : y;  // -0 < +0
  return x < y ? x : y;
}
template <typename C>
C maximumNan(C x, C y) {
  if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<C>::quiet_NaN();
  if (x == y) return std::signbit(x) ? y : x;
  return x > y ? x : y;
}

// out = f(a, b) where a or b is a view (a splat or a broadcast): row by row, with the common
// steps (1: along the row, 0: one repeated element) as separate loops that vectorize.
template <typename FT, typename F>
void binaryOverViews(const Tile& a, const Tile& b, Tile& out, F f) {
  using S = typename FT::S;
  using C = typename FT::C;
  const unsigned rank = out.type.rank();
  const int64_t len = rank ? out.type.dim(rank - 1) : 1, rows = out.size() / len;
  const auto sa = elementStrides(a), sb = elementStrides(b);
  const int64_t stepA = rank ? sa[rank - 1] : 0, stepB = rank ? sb[rank - 1] : 0;
  const S* x = a.as<S>();
  const S* y = b.as<S>();
  S* o = out.as<S>();
  std::array<int64_t, ir::kMaxRank> idx{};  // the row's index over the outer dims
  for (int64_t r = 0; r < rows; ++r) {
    int64_t offA = 0, offB = 0;
    for (unsigned d = 0; d + 1 < rank; ++d) offA += idx[d] * sa[d], offB += idx[d] * sb[d];
    const S* xr = x + offA;
    const S* yr = y + offB;
    S* orow = o + r * len;
    if (stepA == 1 && stepB == 0) {
      const C yv = FT::ld(yr[0]);
      for (int64_t j = 0; j < len; ++j) orow[j] = FT::st(C(f(FT::ld(xr[j]), yv)));
    } else if (stepA == 0 && stepB == 1) {
      const C xv = FT::ld(xr[0]);
      for (int64_t j = 0; j < len; ++j) orow[j] = FT::st(C(f(xv, FT::ld(yr[j]))));
    } else if (stepA == 1 && stepB == 1) {
      for (int64_t j = 0; j < len; ++j) orow[j] = FT::st(C(f(FT::ld(xr[j]), FT::ld(yr[j]))));
    } else {
      for (int64_t j = 0; j < len; ++j) orow[j] = FT::st(C(f(FT::ld(xr[j * stepA]), FT::ld(yr[j * stepB]))));
    }
    for (unsigned d = rank - 1; rank && d-- > 0;) {  // the next row
      if (++idx[d] < out.type.dim(d)) break;
      idx[d] = 0;
    }
  }
}

// u's bits in reverse order.
template <typename U>
U reverseBits(U u) {
  U r = 0;
  for (unsigned b = 0; b < sizeof(U) * 8; ++b, u >>= 1) r = U(r << 1) | U(u & 1);
  return r;
}

template <typename FT>
void floatOp(Opcode code, const std::vector<const Tile*>& in, Tile& out) {
  using S = typename FT::S;
  using C = typename FT::C;
  int64_t n = out.size();
  S* o = out.as<S>();
  const S* x = in[0]->as<S>();
  auto un = [&](auto f) {
    for (int64_t i = 0; i < n; ++i) o[i] = FT::st(C(f(FT::ld(x[i]))));
  };
  auto bin = [&](auto f) {
    const S* y = in[1]->as<S>();
    if (in[0]->view || in[1]->view) {
      binaryOverViews<FT>(*in[0], *in[1], out, f);
      return;
    }
    for (int64_t i = 0; i < n; ++i) o[i] = FT::st(C(f(FT::ld(x[i]), FT::ld(y[i]))));
  };
  if constexpr (std::is_same_v<FT, F32T>) {
    if (code == Opcode::Exp || code == Opcode::Exp2) {
      exp2Floats(x, o, n, code == Opcode::Exp ? kLog2E : 1.0, code == Opcode::Exp2);
      return;
    }
  }
  switch (code) {
    case Opcode::AddF: bin([](C l, C r) { return l + r; }); break;
    case Opcode::SubF: bin([](C l, C r) { return l - r; }); break;
    case Opcode::MulF: bin([](C l, C r) { return l * r; }); break;
    case Opcode::DivF:
    case Opcode::PreciseDiv: bin([](C l, C r) { return l / r; }); break;
    case Opcode::RemF: bin([](C l, C r) { return std::fmod(l, r); }); break;
    case Opcode::Pow: bin([](C l, C r) { return std::pow(l, r); }); break;
    case Opcode::MinimumF: bin([](C l, C r) { return minimumNan(l, r); }); break;
    case Opcode::MaximumF: bin([](C l, C r) { return maximumNan(l, r); }); break;
    case Opcode::MinNumF: bin([](C l, C r) { return minNum(l, r); }); break;
    case Opcode::MaxNumF: bin([](C l, C r) { return maxNum(l, r); }); break;
    case Opcode::NegF: un([](C v) { return -v; }); break;
    case Opcode::Exp:
      if constexpr (std::is_same_v<C, float>) un([](C v) { return expToFloat(v); });
      else un([](C v) { return std::exp(v); });
      break;
    case Opcode::Exp2:
      if constexpr (std::is_same_v<C, float>) un([](C v) { return exp2ToFloatFtz(v); });
      else un([](C v) { return std::exp2(v); });
      break;
    case Opcode::Log: un([](C v) { return std::log(v); }); break;
    case Opcode::Log2: un([](C v) { return std::log2(v); }); break;
    case Opcode::Sqrt:
    case Opcode::PreciseSqrt: un([](C v) { return std::sqrt(v); }); break;
    case Opcode::Rsqrt: un([](C v) { return C(1) / std::sqrt(v); }); break;
    case Opcode::Sin: un([](C v) { return std::sin(v); }); break;
    case Opcode::Cos: un([](C v) { return std::cos(v); }); break;
    case Opcode::AbsF: un([](C v) { return std::fabs(v); }); break;
    case Opcode::Floor: un([](C v) { return std::floor(v); }); break;
    case Opcode::Ceil: un([](C v) { return std::ceil(v); }); break;
    case Opcode::Erf: un([](C v) { return std::erf(v); }); break;
    case Opcode::Tanh: un([](C v) { return std::tanh(v); }); break;
    case Opcode::Trunc: un([](C v) { return std::trunc(v); }); break;
    case Opcode::Round: un([](C v) { return std::round(v); }); break;
    case Opcode::Rint: un([](C v) { return std::nearbyint(v); }); break;
    case Opcode::Log10: un([](C v) { return std::log10(v); }); break;
    case Opcode::Log1p: un([](C v) { return std::log1p(v); }); break;
    case Opcode::Expm1: un([](C v) { return std::expm1(v); }); break;
    case Opcode::Sinh: un([](C v) { return std::sinh(v); }); break;
    case Opcode::Cosh: un([](C v) { return std::cosh(v); }); break;
    case Opcode::Tan: un([](C v) { return std::tan(v); }); break;
    case Opcode::Asin: un([](C v) { return std::asin(v); }); break;
    case Opcode::Acos: un([](C v) { return std::acos(v); }); break;
    case Opcode::Atan: un([](C v) { return std::atan(v); }); break;
    case Opcode::Asinh: un([](C v) { return std::asinh(v); }); break;
    case Opcode::Acosh: un([](C v) { return std::acosh(v); }); break;
    case Opcode::Atanh: un([](C v) { return std::atanh(v); }); break;
    case Opcode::Erfc: un([](C v) { return std::erfc(v); }); break;
    case Opcode::Cbrt: un([](C v) { return std::cbrt(v); }); break;
    case Opcode::Exp10:  // glibc's exp10f / exp10 (C++ has no std::exp10)
      if constexpr (std::is_same_v<C, float>) un([](C v) { return ::exp10f(v); });
      else un([](C v) { return ::exp10(v); });
      break;
    case Opcode::Erfinv: un([](C v) { return C(erfinv(v)); }); break;
    case Opcode::Erfcinv: un([](C v) { return C(erfcinv(v)); }); break;
    case Opcode::Normcdf: un([](C v) { return C(normcdf(v)); }); break;
    case Opcode::Normcdfinv: un([](C v) { return C(normcdfinv(v)); }); break;
    case Opcode::Atan2: bin([](C l, C r) { return std::atan2(l, r); }); break;
    case Opcode::Hypot: bin([](C l, C r) { return std::hypot(l, r); }); break;
    case Opcode::CopySign: bin([](C l, C r) { return std::copysign(l, r); }); break;
    case Opcode::Fma: {
      const S* y = in[1]->as<S>();
      const S* z = in[2]->as<S>();
      for (int64_t i = 0; i < n; ++i) o[i] = FT::st(std::fma(FT::ld(x[i]), FT::ld(y[i]), FT::ld(z[i])));
      break;
    }
#define TILEVM_CASES_NOT_OF FloatBinary
#define TILEVM_CASES_NOT_OF_2 FloatUnary
#define TILEVM_CASES_NOT_OF_3 FloatTernary
#include "ir/FamilyCases.inc"
      ir::opNotInFamily("interp::floatOp", code);
  }
}

}  // namespace

void execArith(Program& p, const Instr& ins, const std::vector<const Tile*>& in, Tile& out) {
  const ir::Op& op = *ins.op;
  const Tile* dead = ins.reuseOperand >= 0 ? in[size_t(ins.reuseOperand)] : nullptr;
  if (dead && !dead->lazy() && !dead->poison) out = tileAt(op.result()->type, dead->data);  // Reuse.cpp
  else out = allocTile(p.arena, op.result()->type);
  ScalarKind k = in[0]->type.elem().kind;
  switch (op.code) {
    case Opcode::AddPtr: {
      // Addresses in [0, 2^63) add as integers; a lane whose true address leaves that range (or
      // a wild lane moved on) takes the exact path, which gives it a token (Memory.h) so it is
      // reported out of bounds with its true element index, never as a wrapped address.
      out.provenance = in[0]->provenance;
      const uint64_t* base = in[0]->as<uint64_t>();
      uint64_t* o = out.as<uint64_t>();
      int64_t scale = storageBytes(in[0]->type.elem().pointee), n = out.size();
      const Tile& off = *in[1];
      uint64_t high = 0;  // bit 63 set: some lane needs the exact path
      switch (off.type.elem().kind) {
        case ScalarKind::I32: {  // |offset * scale| < 2^35: only the sum can leave the range
          const int32_t* d = off.as<int32_t>();
          for (int64_t i = 0; i < n; ++i) {
            o[i] = base[i] + uint64_t(int64_t(d[i]) * scale);
            high |= base[i] | o[i];
          }
          break;
        }
        case ScalarKind::I64: {  // offsets in [-2^59, 2^59) keep the product exact
          const int64_t* d = off.as<int64_t>();
          for (int64_t i = 0; i < n; ++i) {
            o[i] = base[i] + uint64_t(d[i]) * uint64_t(scale);
            high |= base[i] | o[i] | (uint64_t(uint64_t(d[i]) + (uint64_t(1) << 59) >= (uint64_t(1) << 60)) << 63);
          }
          break;
        }
        default:
          high = uint64_t(1) << 63;
      }
      if (high >> 63)
        for (int64_t i = 0; i < n; ++i)
          o[i] = pointerFor(p.wild, trueAddress(p.wild, base[i]) + __int128(elementAsInt(off, i)) * scale);
      break;
    }
    case Opcode::AbsI:
      withInt(k, [&](auto t) {
        using T = decltype(t);
        using S = std::conditional_t<std::is_same_v<T, uint8_t>, int8_t, T>;
        const T* x = in[0]->as<T>();
        T* o = out.as<T>();
        for (int64_t i = 0, n = out.size(); i < n; ++i) o[i] = S(x[i]) < 0 ? T(std::make_unsigned_t<S>(0) - std::make_unsigned_t<S>(x[i])) : x[i];
      });
      break;
    case Opcode::Clz:
    case Opcode::Popc:
    case Opcode::Brev:
      withInt(k, [&](auto t) {
        using T = decltype(t);
        using U = std::make_unsigned_t<T>;
        const T* x = in[0]->as<T>();
        T* o = out.as<T>();
        const int64_t n = out.size();
        auto each = [&](auto f) {
          for (int64_t i = 0; i < n; ++i) o[i] = T(f(U(x[i])));
        };
        if (op.code == Opcode::Clz) each([](U u) { return std::countl_zero(u); });
        else if (op.code == Opcode::Popc) each([](U u) { return std::popcount(u); });
        else each([](U u) { return reverseBits(u); });
      });
      break;
    case Opcode::CmpI:
      withInt(k, [&](auto t) { intCompare<decltype(t)>(*op.strAttr("pred"), *in[0], *in[1], out); });
      break;
    case Opcode::CmpF:
      withFloat(k, [&](auto ft) { floatCompare<decltype(ft)>(*op.strAttr("pred"), *in[0], *in[1], out); });
      break;
#define TILEVM_CASES_OF IntBinary
#include "ir/FamilyCases.inc"
      withInt(k, [&](auto t) { intBinary<decltype(t)>(op.code, *in[0], *in[1], out); });
      break;
#define TILEVM_CASES_OF FloatBinary
#include "ir/FamilyCases.inc"
#define TILEVM_CASES_OF FloatUnary
#include "ir/FamilyCases.inc"
#define TILEVM_CASES_OF FloatTernary
#include "ir/FamilyCases.inc"
      withFloat(k, [&](auto ft) { floatOp<decltype(ft)>(op.code, in, out); });
      break;
#define TILEVM_CASES_NOT_OF Pointer
#define TILEVM_CASES_NOT_OF_2 IntBinary
#define TILEVM_CASES_NOT_OF_3 IntUnary
#define TILEVM_CASES_NOT_OF_4 Compare
#define TILEVM_CASES_NOT_OF_5 FloatBinary
#define TILEVM_CASES_NOT_OF_6 FloatUnary
#define TILEVM_CASES_NOT_OF_7 FloatTernary
#include "ir/FamilyCases.inc"
      ir::opNotInFamily("interp::execArith", op.code);
  }
  propagatePoison(p, in, out);
}

}  // namespace tilevm::interp
