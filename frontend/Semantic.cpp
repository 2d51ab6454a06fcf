// Semantic.cpp - Triton's typing rules (triton/language/semantic.py): default dtypes of Python
// numbers, weak typing of numbers against tensors, integer promotion ("usual arithmetic
// conversions"), casts, numpy-style broadcasting, and the arithmetic and compare ops.
#include <cmath>
#include <functional>
#include <limits>

#include "frontend/Lowerer.h"

namespace tilevm::frontend {

using ir::Opcode;
using ir::ScalarKind;

namespace {

// Triton's dtype kinds, ordered: bool < uint < int < float.
// Triton's dtype.kind(): bool < integer (signed or not: one kind) < floating.
int kindRank(const DType& d) {
  if (d.isBool()) return 0;
  if (d.isInt()) return 1;
  return 2;
}

DType integerPromote(const DType& a, const DType& b) {
  if (a.isUnsigned == b.isUnsigned) return a.bits() > b.bits() ? a : b;
  if (a.isUnsigned) return a.bits() >= b.bits() ? a : b;
  return b.bits() >= a.bits() ? b : a;
}

__int128 floorDiv(__int128 a, __int128 b) {
  __int128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

std::vector<int64_t> shapeOf(const CV& t) { return {t.type().shape().begin(), t.type().shape().end()}; }

}  // namespace

DType Lowerer::constexprDType(const CV& v, const Expr& at) const {
  switch (v.kind) {
    case CV::K::Bool: return DType::of(ScalarKind::I1);
    case CV::K::Int:  // Triton's to_tensor
      if (v.u64) return DType::of(ScalarKind::I64, true);
      if (v.i >= INT32_MIN && v.i <= INT32_MAX) return DType::of(ScalarKind::I32);
      if (v.i > INT32_MAX && v.i <= int64_t(UINT32_MAX)) return DType::of(ScalarKind::I32, true);
      return DType::of(ScalarKind::I64);
    case CV::K::Float:
      // Triton's to_tensor_type: fp64 for a finite nonzero magnitude outside fp32's normal range.
      if (std::isfinite(v.f) && v.f != 0 &&
          (std::fabs(v.f) > std::numeric_limits<float>::max() || std::fabs(v.f) < std::numeric_limits<float>::min()))
        return DType::of(ScalarKind::F64);
      return DType::of(ScalarKind::F32);
    default: fail(at, "expected a number, got " + v.describe());
  }
}

std::string Lowerer::tileShapeProblem(std::span<const int64_t> shape) {
  std::string dims;
  for (int64_t d : shape) dims += (dims.empty() ? "" : "x") + std::to_string(d);
  if (shape.size() > ir::kMaxRank)
    return "a tile of rank " + std::to_string(shape.size()) + " (" + dims + ") has more than the IR's " +
           std::to_string(ir::kMaxRank) + " dimensions";
  for (int64_t d : shape)
    if (d < 1) return "tile dimensions must be positive, got " + dims;
  int64_t n = 1;
  bool wrapped = false;
  for (int64_t d : shape) wrapped = wrapped || __builtin_mul_overflow(n, d, &n);
  if (wrapped || n > ir::kMaxTileElements)
    return "a tile of " + (wrapped ? std::string("more than 2^63") : std::to_string(n)) + " elements (" + dims +
           ") is larger than " + std::to_string(ir::kMaxTileElements) + " (the IR's limit)";
  return "";
}

void Lowerer::checkTileShape(std::span<const int64_t> shape, const Expr& at, const std::string& what) const {
  std::string problem = tileShapeProblem(shape);
  if (!problem.empty()) fail(at, what + ": " + problem);
}

CV Lowerer::constant(const CV& number, DType dt, std::span<const int64_t> shape) {
  if (dt.isPtr()) {  // the IR has no pointer constants: an address, as int_to_ptr of an i64
    CV address = constant(number, DType::of(ScalarKind::I64), shape);
    return CV::tensor(b.create(Opcode::IntToPtr, {address.value}, {address.type().withElem(dt.elem())})->result(), dt);
  }
  ir::Type t(dt.elem(), shape);
  if (dt.isFloat() || dt.isFp8()) return CV::tensor(b.constant(t, number.asDouble()), dt);
  unsigned w = dt.bits();
  double f = number.f;  // callers checked the range (checkNumberFits); NaN and overflow stay defined here
  int64_t v = number.kind != CV::K::Float                      ? number.i  // a u64's bits
              : std::isfinite(f) && std::fabs(f) < 0x1p63    ? static_cast<int64_t>(f)
              : std::isfinite(f) && f >= 0x1p63 && f < 0x1p64 ? static_cast<int64_t>(static_cast<uint64_t>(f))
                                                             : 0;
  if (w == 1) v = number.kind == CV::K::Float ? f != 0 : v != 0;
  else if (w < 64) {
    uint64_t mask = (uint64_t(1) << w) - 1;
    uint64_t low = static_cast<uint64_t>(v) & mask;
    // Signed types keep the sign-extended value, unsigned ones the low bits.
    v = dt.isUnsigned ? int64_t(low) : (low >> (w - 1) ? int64_t(low | ~mask) : int64_t(low));
  }
  return CV::tensor(b.constant(t, v), dt);
}

CV Lowerer::toTensor(const CV& v, const Expr& at) {
  if (v.isTensor()) return v;
  if (!v.isNumber()) fail(at, "expected a tensor or a number, got " + v.describe());
  setLoc(at);
  return constant(v, constexprDType(v, at), {});
}

CV Lowerer::cast(const CV& in, DType to, const Expr& at, bool bitcast) {
  if (in.isNumber() && !bitcast && !to.isPtr()) {
    checkNumberFits(in, to, at);
    setLoc(at);
    return constant(in, to, {});  // a number takes the dtype directly (Triton's scalar_constant)
  }
  CV v = toTensor(in, at);
  const DType& from = v.dtype;
  if (from == to) return v;
  setLoc(at);
  ir::Type dst = v.type().withElem(to.elem());
  auto op = [&](Opcode code) { return CV::tensor(b.create(code, {v.value}, {dst})->result(), to); };
  if (bitcast) {
    if (from.bits() != to.bits() || from.isPtr() != to.isPtr())
      fail(at, "cannot bitcast " + from.name() + " to " + to.name() + ": sizes differ");
    if (from.elem() == to.elem()) return CV::tensor(v.value, to);
    return op(Opcode::Bitcast);
  }
  if (from.isInt() && to.isInt()) {
    if (to.isBool()) {
      CV zero = constant(CV::integer(0), from, shapeOf(v));
      return CV::tensor(b.compare(Opcode::CmpI, "ne", v.value, zero.value), to);
    }
    if (from.bits() == to.bits()) return CV::tensor(v.value, to);  // signedness only
    if (from.bits() > to.bits()) return op(Opcode::TruncI);
    return op(from.isSigned() && !from.isBool() ? Opcode::ExtSI : Opcode::ExtUI);
  }
  if (from.isFp8() || to.isFp8()) {
    // fp8 converts to and from the floats (Triton's fp_to_fp): widening is exact, narrowing
    // rounds to nearest even and saturates; between two fp8 dtypes through f32. No int casts.
    if ((from.isFp8() || from.isFloat()) && (to.isFp8() || to.isFloat())) {
      if (from.isFp8() && to.isFp8()) return cast(cast(v, DType::of(ScalarKind::F32), at), to, at);
      return op(from.isFp8() ? Opcode::ExtF : Opcode::TruncF);
    }
    fail(at, "cannot cast " + from.name() + " to " + to.name() + " (fp8 converts only to and from floating dtypes)");
  }
  if (from.isFloat() && to.isFloat()) {
    bool halfPair = (from.kind == ScalarKind::F16 && to.kind == ScalarKind::BF16) ||
                    (from.kind == ScalarKind::BF16 && to.kind == ScalarKind::F16);
    if (halfPair) return cast(cast(v, DType::of(ScalarKind::F32), at), to, at);
    return op(from.bits() < to.bits() ? Opcode::ExtF : Opcode::TruncF);
  }
  if (from.isInt() && to.isFloat()) return op(from.isSigned() && !from.isBool() ? Opcode::SIToFP : Opcode::UIToFP);
  if (from.isFloat() && to.isInt()) {
    if (to.isBool()) {
      CV zero = constant(CV::real(0), from, shapeOf(v));
      return CV::tensor(b.compare(Opcode::CmpF, "une", v.value, zero.value), to);
    }
    return op(to.isUnsigned ? Opcode::FPToUI : Opcode::FPToSI);
  }
  if (from.isPtr() && to.isPtr()) return op(Opcode::Bitcast);
  if (from.isPtr() && to.isInt()) {
    CV asInt = CV::tensor(b.create(Opcode::PtrToInt, {v.value}, {v.type().withElem(ScalarKind::I64)})->result(),
                          DType::of(ScalarKind::I64));
    return cast(asInt, to, at);
  }
  if (from.isInt() && to.isPtr()) {
    CV wide = cast(v, DType::of(ScalarKind::I64), at);
    return CV::tensor(b.create(Opcode::IntToPtr, {wide.value}, {dst})->result(), to);
  }
  fail(at, "cannot cast " + from.name() + " to " + to.name());
}

CV Lowerer::broadcastTo(const CV& in, std::span<const int64_t> shape, const Expr& at) {
  CV t = toTensor(in, at);
  if (t.type().shape().size() == shape.size() && std::equal(shape.begin(), shape.end(), t.type().shape().begin()))
    return t;
  if (std::string problem = tileShapeProblem(shape); !problem.empty())
    fail(at, "broadcasting " + t.type().str() + ": " + problem);
  setLoc(at);
  if (t.type().isScalar()) return CV::tensor(b.splat(t.value, shape), t.dtype);
  if (t.type().rank() > shape.size())
    fail(at, "cannot broadcast " + t.type().str() + " to a shape of lower rank");
  while (t.type().rank() < shape.size()) t = expandDims(t, 0, at);
  for (unsigned i = 0; i < shape.size(); ++i)
    if (t.type().dim(i) != shape[i] && t.type().dim(i) != 1)
      fail(at, "cannot broadcast " + t.type().str() + " to shape " + ir::Type(t.type().elem(), shape).str());
  return CV::tensor(b.broadcast(t.value, shape), t.dtype);
}

void Lowerer::broadcastPair(CV& x, CV& y, const Expr& at) {
  auto sx = shapeOf(x), sy = shapeOf(y);
  if (sx == sy) return;
  if (sx.empty()) { x = broadcastTo(x, sy, at); return; }
  if (sy.empty()) { y = broadcastTo(y, sx, at); return; }
  while (sx.size() < sy.size()) sx.insert(sx.begin(), 1);
  while (sy.size() < sx.size()) sy.insert(sy.begin(), 1);
  std::vector<int64_t> out;
  for (size_t i = 0; i < sx.size(); ++i) {
    if (sx[i] == sy[i] || sy[i] == 1) out.push_back(sx[i]);
    else if (sx[i] == 1) out.push_back(sy[i]);
    else
      fail(at, "incompatible shapes " + x.type().str() + " and " + y.type().str() + " at dimension " + std::to_string(i) + ": " +
                   std::to_string(sx[i]) + " vs " + std::to_string(sy[i]));
  }
  x = broadcastTo(x, out, at);
  y = broadcastTo(y, out, at);
}

namespace {
// The integers type `dt` holds; `bitPatterns` widens them to every value of its width in either
// signedness (-1 for all ones in a uint32, 0xFFFFFFFF in an int32).
void intRange(const DType& dt, bool bitPatterns, __int128& lo, __int128& hi) {
  unsigned w = dt.bits();
  bool isUnsigned = dt.isUnsigned || dt.isBool();
  lo = isUnsigned && !bitPatterns ? 0 : -(__int128(1) << (w - 1));
  hi = isUnsigned || bitPatterns ? (__int128(1) << w) - 1 : (__int128(1) << (w - 1)) - 1;
}

std::string text(__int128 v) { return v < 0 ? std::to_string(int64_t(v)) : std::to_string(uint64_t(v)); }

std::string rangeText(const DType& dt) {
  __int128 lo, hi;
  intRange(dt, false, lo, hi);
  return "[" + text(lo) + ", " + text(hi) + "]";
}
}  // namespace

std::string Lowerer::scalarRangeProblem(const CV& number, const DType& ct) {
  if (!(number.kind == CV::K::Int || number.kind == CV::K::Bool) || !ct.isInt()) return "";
  if (number.wide() < 0 && (ct.isUnsigned || ct.isBool()))
    return "Cannot perform a binary operation between an unsigned tensor and a negative scalar. "
           "Perform a explicit cast on one of them.";
  __int128 lo, hi;
  intRange(ct, false, lo, hi);
  if (number.wide() < lo || number.wide() > hi) return "Scalar " + number.intText() + " is out of range for type " + ct.name();
  return "";
}

std::string Lowerer::implicitNumberProblem(const CV& number, const DType& dt) {
  if (!dt.isInt() || !number.isNumber()) return "";
  if (number.kind == CV::K::Float) return number.describe() + " is not an integer (" + dt.name() + ")";
  __int128 lo, hi;
  intRange(dt, false, lo, hi);
  if (number.wide() < lo || number.wide() > hi) return number.intText() + " does not fit " + dt.name() + " " + rangeText(dt);
  return "";
}

void Lowerer::checkNumberFits(const CV& number, const DType& to, const Expr& at) const {
  if (!number.isNumber() || !to.isInt() || to.isBool()) return;
  __int128 lo, hi;
  intRange(to, true, lo, hi);
  bool fits = number.wide() >= lo && number.wide() <= hi;
  if (number.kind == CV::K::Float) {
    double t = std::trunc(number.f);  // a float converts toward zero, if it is in range
    fits = std::isfinite(t) && t >= -0x1p63 && t < 0x1p64 && __int128(t) >= lo && __int128(t) <= hi;
  }
  if (!fits) fail(at, number.describe() + " does not fit in the " + std::to_string(to.bits()) + " bits of " + to.name());
}

DType Lowerer::computationType(const CV& a, const CV& b, bool divOrMod, const Expr& at) {
  DType ct = promotedType(a, b, divOrMod, at);
  if (a.isNumber() != b.isNumber())
    if (std::string problem = scalarRangeProblem(a.isNumber() ? a : b, ct); !problem.empty()) fail(at, problem);
  return ct;
}

DType Lowerer::promotedType(const CV& a, const CV& b, bool divOrMod, const Expr& at) {
  DType ta = a.isTensor() ? a.dtype : constexprDType(a, at);
  DType tb = b.isTensor() ? b.dtype : constexprDType(b, at);
  if (a.isTensor() != b.isTensor()) {
    const DType& scalar = a.isTensor() ? tb : ta;
    const DType& tensor = a.isTensor() ? ta : tb;
    if (kindRank(scalar) <= kindRank(tensor)) {
      if (divOrMod && (tensor.kind == ScalarKind::F16 || tensor.kind == ScalarKind::BF16)) return DType::of(ScalarKind::F32);
      return tensor;
    }
  }
  if (ta.kind == ScalarKind::F64 || tb.kind == ScalarKind::F64) return DType::of(ScalarKind::F64);
  if (ta.kind == ScalarKind::F32 || tb.kind == ScalarKind::F32) return DType::of(ScalarKind::F32);
  if (ta.kind == ScalarKind::F16 || tb.kind == ScalarKind::F16)
    return DType::of(divOrMod ? ScalarKind::F32 : ScalarKind::F16);
  if (ta.kind == ScalarKind::BF16 || tb.kind == ScalarKind::BF16) {
    if (divOrMod || !(ta.kind == tb.kind)) return DType::of(ScalarKind::F32);
    return DType::of(ScalarKind::BF16);
  }
  if (ta.isFp8() && tb.isFp8()) return ta == tb ? ta : DType::of(ScalarKind::F16);  // Triton's rule 5
  if (!ta.isInt() || !tb.isInt()) fail(at, "unexpected operand types " + ta.name() + " and " + tb.name());
  if (divOrMod && ta.isUnsigned != tb.isUnsigned)
    fail(at, "Cannot use /, //, or % with " + ta.name() + " and " + tb.name() +
                 " because they have different signedness; this is unlikely to result in a useful answer. Cast them to the "
                 "same signedness.");
  return integerPromote(ta, tb);
}

void Lowerer::unify(CV& x, CV& y, const Expr& at, bool divOrMod) {
  DType ct = computationType(x, y, divOrMod, at);
  x = cast(x, ct, at);
  y = cast(y, ct, at);
  broadcastPair(x, y, at);
}

namespace {
// A constexpr integer Python computed (`what` says how), or the located error past CV::kIntRange.
CV constexprInt(const Lowerer& L, __int128 r, const std::string& what, const Expr& at) {
  std::optional<CV> v = CV::pythonInt(r);
  if (!v) L.fail(at, "constexpr integer overflow: " + what + " does not fit in 64 bits (" + CV::kIntRange + ")");
  return *v;
}

// Python semantics for two compile-time numbers.
CV pythonBinary(const Lowerer& L, const std::string& op, const CV& a, const CV& b, const Expr& at) {
  bool ints = a.kind != CV::K::Float && b.kind != CV::K::Float;
  if (ints) {
    // Python's integers are unbounded; Triton's constexprs hold -2^63 to 2^64 - 1 (past
    // INT64_MAX, a uint64): a result beyond them is an error. Computed in 128 bits, where no
    // operation on two such values overflows (`**` and `<<` check their steps).
    __int128 x = a.wide(), y = b.wide();
    auto result = [&](__int128 r) { return constexprInt(L, r, a.intText() + " " + op + " " + b.intText(), at); };
    auto overflow = [&]() { return result(__int128(UINT64_MAX) + 1); };
    bool bools = a.kind == CV::K::Bool && b.kind == CV::K::Bool;
    if (op == "+") return result(x + y);
    if (op == "-") return result(x - y);
    if (op == "*") {
      __int128 r;
      return __builtin_mul_overflow(x, y, &r) ? overflow() : result(r);
    }
    if ((op == "//" || op == "%" || op == "/") && y == 0) L.fail(at, "division by zero in a constexpr expression");
    if (op == "//") return result(floorDiv(x, y));
    if (op == "%") return result(x - floorDiv(x, y) * y);
    if (op == "/") return CV::real(double(x) / double(y));
    if (op == "&") return bools ? CV::boolean(x & y) : result(x & y);
    if (op == "|") return bools ? CV::boolean(x | y) : result(x | y);
    if (op == "^") return bools ? CV::boolean(x ^ y) : result(x ^ y);
    if ((op == "<<" || op == ">>") && y < 0) L.fail(at, "negative shift count in a constexpr expression");
    if (op == "<<") {
      if (x == 0) return CV::integer(0);
      if (y >= 64) return overflow();
      return result(x << int(y));  // |x| < 2^64 and y < 64: within 128 bits
    }
    if (op == ">>") return result(y >= 64 ? (x < 0 ? -1 : 0) : x >> int(y));
    if (op == "**") {
      if (y < 0) return CV::real(std::pow(double(x), double(y)));
      if (x == 0 || x == 1) return CV::integer(y == 0 ? 1 : int64_t(x));
      if (x == -1) return CV::integer(y % 2 ? -1 : 1);
      __int128 p = 1;  // |x| >= 2: past 2^64 within 64 steps
      for (__int128 i = 0; i < y; ++i)
        if (__builtin_mul_overflow(p, x, &p) || p > __int128(UINT64_MAX) || p < __int128(INT64_MIN)) return overflow();
      return result(p);
    }
  } else {
    double x = a.asDouble(), y = b.asDouble();
    if (op == "+") return CV::real(x + y);
    if (op == "-") return CV::real(x - y);
    if (op == "*") return CV::real(x * y);
    if (op == "/") {
      if (y == 0) L.fail(at, "division by zero in a constexpr expression");
      return CV::real(x / y);
    }
    if (op == "//") {
      if (y == 0) L.fail(at, "division by zero in a constexpr expression");
      return CV::real(std::floor(x / y));
    }
    if (op == "%") {
      if (y == 0) L.fail(at, "division by zero in a constexpr expression");
      double r = std::fmod(x, y);
      if (r != 0 && ((r < 0) != (y < 0))) r += y;
      return CV::real(r);
    }
    if (op == "**") return CV::real(std::pow(x, y));
  }
  L.fail(at, "operator '" + op + "' is not supported on " + a.describe() + " and " + b.describe());
}
}  // namespace

void Lowerer::sanitizeOverflow(const std::string& op, const CV& x, const CV& y, const DType& ct, const Expr& at) {
  const DType wide = DType::of(ScalarKind::I64);
  CV xw = cast(x, wide, at);  // in order: the IR is the same from every compiler
  CV yw = cast(y, wide, at);
  CV exact = binary(op, xw, yw, at);
  __int128 lo, hi;
  intRange(ct, false, lo, hi);
  CV below = compare("<=", exact, CV::integer(int64_t(hi)), at);
  CV above = compare(">=", exact, CV::integer(int64_t(lo)), at);
  CV fits = binary("&", below, above, at);
  const char* name = op == "+" ? "add" : op == "-" ? "sub" : "mul";
  setLoc(at);
  b.create(Opcode::Assert, {fits.value}, {},
           {{"message", "int" + std::to_string(ct.bits()) + " overflow detected for operation " + name}});
}

CV Lowerer::binary(const std::string& op, const CV& a, const CV& b_, const Expr& at, bool sanitize) {
  if (a.isNumber() && b_.isNumber()) return pythonBinary(*this, op, a, b_, at);
  if (op == "+" && a.kind == CV::K::Tuple && b_.kind == CV::K::Tuple) {  // Python's (and tl.tuple's) concatenation
    std::vector<CV> elts = a.elts;
    elts.insert(elts.end(), b_.elts.begin(), b_.elts.end());
    return CV::tuple(std::move(elts));
  }
  // Python's repetition of a sequence by a constexpr integer (`[2] * (RANK - 2)`): none for n <= 0.
  auto isInt = [](const CV& v) { return v.kind == CV::K::Int || v.kind == CV::K::Bool; };
  if (op == "*" && ((a.kind == CV::K::Tuple && isInt(b_)) || (isInt(a) && b_.kind == CV::K::Tuple))) {
    const CV& seq = a.kind == CV::K::Tuple ? a : b_;
    int64_t n = (a.kind == CV::K::Tuple ? b_ : a).i;
    if (n > 0 && int64_t(seq.elts.size()) * n > 4096) fail(at, "a tuple repeated to more than 4096 elements");
    std::vector<CV> elts;
    for (int64_t r = 0; r < n; ++r) elts.insert(elts.end(), seq.elts.begin(), seq.elts.end());
    return CV::tuple(std::move(elts));
  }
  if (!(a.isNumber() || a.isTensor()) || !(b_.isNumber() || b_.isTensor()))
    fail(at, "operator '" + op + "' is not supported on " + a.describe() + " and " + b_.describe());
  // Pointer arithmetic: ptr + int, int + ptr, ptr - int.
  bool aPtr = a.isTensor() && a.dtype.isPtr(), bPtr = b_.isTensor() && b_.dtype.isPtr();
  if (aPtr || bPtr) {
    if (aPtr && bPtr) fail(at, "operator '" + op + "' is not supported between two pointers");
    if (!(op == "+" || (op == "-" && aPtr))) fail(at, "operator '" + op + "' is not supported on pointers");
    CV p = aPtr ? a : b_;
    CV off = toTensor(aPtr ? b_ : a, at);
    if (!off.dtype.isInt()) fail(at, "pointer offsets must be integers, got " + off.dtype.name());
    if (op == "-") off = unary("-", off, at);
    // addptr reads its offset as signed: unsigned offsets narrower than 64 bits are
    // zero-extended first, as Triton's semantic.add does (uint8 codes indexing a table).
    if (off.dtype.isUnsigned && off.dtype.bits() < 64) off = cast(off, DType::of(ScalarKind::I64), at);
    broadcastPair(p, off, at);
    setLoc(at);
    return CV::tensor(b.create(Opcode::AddPtr, {p.value, off.value}, {p.type()})->result(), p.dtype);
  }
  bool divOrMod = op == "/" || op == "//" || op == "%";
  CV x = a, y = b_;
  DType ct = computationType(x, y, divOrMod, at);
  if (op == "/" && ct.isInt()) ct = DType::of(ScalarKind::F32);
  if (ct.isFp8())
    fail(at, "operator '" + op + "' would compute in " + ct.name() +
                 ", a storage format: convert the operands with .to(tl.float16) or .to(tl.float32) first");
  x = cast(x, ct, at);
  y = cast(y, ct, at);
  broadcastPair(x, y, at);
  setLoc(at);
  auto make = [&](Opcode code) { return CV::tensor(b.binary(code, x.value, y.value), ct); };
  bool f = ct.isFloat(), u = ct.isUnsigned;
  if (flags.fpFusion && (op == "+" || op == "-") && (ct.kind == ScalarKind::F32 || ct.kind == ScalarKind::F64)) {
    // Triton's enable_fp_fusion (LLVM's AllowFPOpFusion::Fast on NVPTX): a product of this
    // block, added or subtracted, is one fma: a*b + c, a*b - c = fma(a, b, -c),
    // c + a*b, c - a*b = fma(-a, b, c). The product stays for its other uses.
    auto product = [&](const CV& v) -> ir::Op* {
      ir::Op* d = v.value->def;
      return d && d->code == Opcode::MulF && v.value->owner == b.insertionBlock() ? d : nullptr;
    };
    auto fma = [&](ir::Value* p, ir::Value* q, ir::Value* r) {
      return CV::tensor(b.create(Opcode::Fma, {p, q, r}, {r->type})->result(), ct);
    };
    if (ir::Op* m = product(x)) return fma(m->operands[0], m->operands[1], op == "+" ? y.value : b.unary(Opcode::NegF, y.value));
    if (ir::Op* m = product(y))
      return fma(op == "+" ? m->operands[0] : b.unary(Opcode::NegF, m->operands[0]), m->operands[1], x.value);
  }
  auto needInt = [&] {  // Triton's words for a bitwise operator on floats (its IncompatibleTypeError)
    if (f && op == "//") fail(at, "operator '//' needs integer operands, got " + ct.name());
    if (f) fail(at, "invalid operands of type " + a.dtype.name() + " and " + b_.dtype.name() + ": operator '" + op +
                        "' needs integers");
  };
  if (sanitize && flags.debug && ct.isInt() && !ct.isBool() && ct.bits() < 64 && (op == "+" || op == "-" || op == "*"))
    sanitizeOverflow(op, x, y, ct, at);
  if (op == "+") return make(f ? Opcode::AddF : Opcode::AddI);
  if (op == "-") return make(f ? Opcode::SubF : Opcode::SubI);
  if (op == "*") return make(f ? Opcode::MulF : Opcode::MulI);
  if (op == "/") return make(Opcode::DivF);
  if (op == "//") {
    needInt();
    return make(u ? Opcode::DivUI : Opcode::DivSI);
  }
  if (op == "%") return make(f ? Opcode::RemF : u ? Opcode::RemUI : Opcode::RemSI);
  if (op == "&") { needInt(); return make(Opcode::AndI); }
  if (op == "|") { needInt(); return make(Opcode::OrI); }
  if (op == "^") { needInt(); return make(Opcode::XorI); }
  if (op == "<<") { needInt(); return make(Opcode::ShlI); }
  if (op == ">>") {
    // Arithmetic or logical as the tensor operand's own dtype says (Triton's __rshift__ and
    // __rrshift__), whatever the promoted type: int8 >> uint8 shifts arithmetically.
    needInt();
    const DType& decides = a.isTensor() ? a.dtype : b_.dtype;
    return make(decides.isSigned() && !decides.isBool() ? Opcode::ShrSI : Opcode::ShrUI);
  }
  fail(at, "operator '" + op + "' is not supported on tensors" + (op == "**" ? std::string(" (use tl.math.pow)") : ""));
}

CV Lowerer::unary(const std::string& op, const CV& a, const Expr& at, bool sanitize) {
  if (a.isNumber()) {
    auto result = [&](__int128 r) { return constexprInt(*this, r, op + "(" + a.intText() + ")", at); };
    if (op == "-") return a.kind == CV::K::Float ? CV::real(-a.f) : result(-a.wide());
    if (op == "+") return a.kind == CV::K::Bool ? CV::integer(a.i) : a;
    if (op == "~") {
      if (a.kind == CV::K::Float) fail(at, "'~' needs an integer");
      return result(~a.wide());
    }
    if (op == "not") return CV::boolean(!(a.kind == CV::K::Float ? a.f != 0 : a.i != 0));
  }
  if (!a.isTensor()) {
    if (op == "not" && a.kind == CV::K::None) return CV::boolean(true);
    fail(at, "operator '" + op + "' is not supported on " + a.describe());
  }
  setLoc(at);
  if (op == "+") return a;
  if (op == "-") {
    if (a.dtype.isFloat()) return CV::tensor(b.unary(Opcode::NegF, a.value), a.dtype);
    if (a.dtype.isFp8()) return cast(unary("-", cast(a, DType::of(ScalarKind::F32), at), at), a.dtype, at);  // exact
    if (a.dtype.isPtr()) fail(at, "cannot negate a pointer");
    return binary("-", constant(CV::integer(0), a.dtype, shapeOf(a)), a, at, sanitize);  // Triton's minus: 0 - x
  }
  if (op == "~" || op == "not") {
    if (!a.dtype.isInt()) fail(at, "'" + op + "' needs an integer or boolean tensor, got " + a.dtype.name());
    if (op == "not" && !a.dtype.isBool()) return compare("==", a, CV::integer(0), at);
    return CV::tensor(b.binary(Opcode::XorI, a.value, constant(CV::integer(-1), a.dtype, shapeOf(a)).value), a.dtype);
  }
  fail(at, "unknown unary operator '" + op + "'");
}

CV Lowerer::compare(const std::string& op, const CV& a, const CV& b_, const Expr& at) {
  if (a.isNumber() && b_.isNumber()) {
    double x = a.asDouble(), y = b_.asDouble();
    bool ints = a.kind != CV::K::Float && b_.kind != CV::K::Float;
    auto cmp = [&](auto l, auto r) {
      if (op == "<") return l < r;
      if (op == "<=") return l <= r;
      if (op == ">") return l > r;
      if (op == ">=") return l >= r;
      if (op == "==") return l == r;
      return l != r;
    };
    return CV::boolean(ints ? cmp(a.wide(), b_.wide()) : cmp(x, y));
  }
  if (!a.isTensor() && !b_.isTensor() && (op == "==" || op == "!=")) {
    // Compile-time values other than two numbers, as Python compares them: dtypes, strings,
    // None, tuples and lists (x.shape) element by element.
    std::function<bool(const CV&, const CV&)> same = [&](const CV& x, const CV& y) -> bool {
      if (x.isTensor() || y.isTensor()) fail(at, "cannot compare " + a.describe() + " and " + b_.describe() + " at compile time: it holds a tensor");
      if (x.isNumber() && y.isNumber())
        return x.kind == CV::K::Float || y.kind == CV::K::Float ? x.asDouble() == y.asDouble() : x.wide() == y.wide();
      if (x.kind != y.kind) return false;
      switch (x.kind) {
        case CV::K::None: return true;
        case CV::K::DType: return x.dtype == y.dtype && x.s == y.s;  // a block type is not its dtype
        case CV::K::ConstexprType: return same(x.elts[0], y.elts[0]);
        case CV::K::Str: return x.s == y.s;
        case CV::K::Tuple:
          if (x.elts.size() != y.elts.size()) return false;
          for (size_t i = 0; i < x.elts.size(); ++i)
            if (!same(x.elts[i], y.elts[i])) return false;
          return true;
        case CV::K::Function: return x.fn == y.fn;
        case CV::K::HostFunction: return x.host == y.host && x.i == y.i;
        case CV::K::Module: return x.s == y.s && x.pymod == y.pymod;
        case CV::K::Builtin: return x.s == y.s;
        case CV::K::TupleType: return x.s == y.s && x.fields == y.fields;
        default: fail(at, "cannot compare " + a.describe() + " and " + b_.describe() + " at compile time");
      }
    };
    const bool eq = same(a, b_);
    return CV::boolean(op == "==" ? eq : !eq);
  }
  if (!(a.isNumber() || a.isTensor()) || !(b_.isNumber() || b_.isTensor()))
    fail(at, "cannot compare " + a.describe() + " and " + b_.describe());
  CV x = a, y = b_;
  DType ct;
  if (x.isTensor() && y.isTensor() && x.dtype.isPtr() && y.dtype.isPtr()) ct = x.dtype;
  else ct = computationType(x, y, false, at);
  if (ct.isFp8()) ct = DType::of(ScalarKind::F32);  // exact: fp8 values compare as their f32 values
  x = cast(x, ct, at);
  y = cast(y, ct, at);
  broadcastPair(x, y, at);
  setLoc(at);
  std::string pred;
  if (ct.isFloat()) {
    pred = op == "<" ? "olt" : op == "<=" ? "ole" : op == ">" ? "ogt" : op == ">=" ? "oge" : op == "==" ? "oeq" : "une";
    return CV::tensor(b.compare(Opcode::CmpF, pred, x.value, y.value), DType::of(ScalarKind::I1));
  }
  bool u = ct.isUnsigned || ct.isPtr();
  if (op == "==") pred = "eq";
  else if (op == "!=") pred = "ne";
  else pred = std::string(u ? "u" : "s") + (op == "<" ? "lt" : op == "<=" ? "le" : op == ">" ? "gt" : "ge");
  return CV::tensor(b.compare(Opcode::CmpI, pred, x.value, y.value), DType::of(ScalarKind::I1));
}

CV Lowerer::minMax(bool isMax, const CV& a, const CV& b_, bool propagateNan, const Expr& at) {
  CV x = a, y = b_;
  for (const CV* v : {&x, &y})
    if (v->isTensor() && v->dtype.isPtr())
      fail(at, std::string(isMax ? "maximum" : "minimum") + " needs numbers, got " + v->describe());
  unify(x, y, at);
  if (x.dtype.isFp8()) {  // exact through f32: the result is one of the operands
    DType f8 = x.dtype;
    return cast(minMax(isMax, cast(x, DType::of(ScalarKind::F32), at), cast(y, DType::of(ScalarKind::F32), at), propagateNan, at),
                f8, at);
  }
  setLoc(at);
  Opcode code;
  if (x.dtype.isFloat()) code = propagateNan ? (isMax ? Opcode::MaximumF : Opcode::MinimumF) : (isMax ? Opcode::MaxNumF : Opcode::MinNumF);
  else if (x.dtype.isUnsigned || x.dtype.isBool()) code = isMax ? Opcode::MaxUI : Opcode::MinUI;
  else code = isMax ? Opcode::MaxSI : Opcode::MinSI;
  return CV::tensor(b.binary(code, x.value, y.value), x.dtype);
}

CV Lowerer::select(const CV& cond, const CV& a, const CV& b_, const Expr& at) {
  CV c = cast(cond, DType::of(ScalarKind::I1), at);
  CV x = a, y = b_;
  if (x.isTensor() && y.isTensor() && (x.dtype.isPtr() || y.dtype.isPtr())) {
    // Pointers are chosen as they are: both must point to one element type.
    if (!(x.dtype == y.dtype)) fail(at, "where: cannot choose between " + x.dtype.name() + " and " + y.dtype.name());
  } else {
    unify(x, y, at);
  }
  broadcastPair(c, x, at);
  broadcastPair(c, y, at);
  broadcastPair(x, y, at);
  setLoc(at);
  return CV::tensor(b.create(Opcode::Select, {c.value, x.value, y.value}, {x.type()})->result(), x.dtype);
}

CV Lowerer::expandDims(const CV& in, int64_t axis, const Expr& at) {
  CV t = toTensor(in, at);
  int64_t rank = t.type().rank();
  if (axis < 0) axis += rank + 1;
  if (axis < 0 || axis > rank) fail(at, "expand_dims axis " + std::to_string(axis) + " out of range for rank " + std::to_string(rank));
  if (rank + 1 > int64_t(ir::kMaxRank)) fail(at, "tiles are limited to rank " + std::to_string(ir::kMaxRank));
  setLoc(at);
  return CV::tensor(b.expandDims(t.value, int(axis)), t.dtype);
}

CV Lowerer::reshape(const CV& in, std::vector<int64_t> shape, const Expr& at) {
  CV t = toTensor(in, at);
  int64_t n = 1;
  bool wrapped = false;
  for (int64_t d : shape) {
    if (d <= 0) fail(at, "reshape dimensions must be positive");
    wrapped = wrapped || __builtin_mul_overflow(n, d, &n);
  }
  if (wrapped || n != t.type().numElements())
    fail(at, "cannot reshape " + t.type().str() + " (" + std::to_string(t.type().numElements()) + " elements) to " +
                 (wrapped ? std::string("more than 2^63") : std::to_string(n)) + " elements");
  if (shape.size() > ir::kMaxRank) fail(at, "tiles are limited to rank " + std::to_string(ir::kMaxRank));
  setLoc(at);
  if (shape.empty() && t.type().isScalar()) return t;
  if (shape.empty()) fail(at, "cannot reshape a tile to a scalar (use a reduction)");
  if (t.type().isScalar()) return CV::tensor(b.splat(t.value, shape), t.dtype);
  return CV::tensor(b.create(Opcode::Reshape, {t.value}, {t.type().withShape(shape)})->result(), t.dtype);
}

}  // namespace tilevm::frontend
