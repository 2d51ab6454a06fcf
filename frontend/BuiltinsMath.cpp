// BuiltinsMath.cpp - math functions, reductions and scans (with Triton's accumulator dtypes and
// combiners), and dot.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "frontend/Builtins.h"
#include "frontend/BuiltinTable.h"

namespace tilevm::frontend {

using ir::Opcode;
using ir::ScalarKind;

namespace {

std::vector<int64_t> shapeOf(const CV& t) { return {t.type().shape().begin(), t.type().shape().end()}; }

CV unaryMath(Lowerer& L, CallArgs& c, const char* fn, Opcode code, bool checked) {
  Args a(L, c, fn, {"x"});
  if (checked) requireF32OrF64(L, a.get(0), a.at(0));
  CV x = a.tensor(0);
  if (!x.dtype.isFloat()) L.fail(a.at(0), std::string(fn) + "() needs a floating-point tensor, got " + x.describe());
  L.setLoc(a.site());
  return CV::tensor(L.b.unary(code, x.value), x.dtype);
}

// The dtype Triton accumulates sums in: integers narrower than 32 bits widen to (u)int32.
DType sumDType(const DType& in) {
  if (in.isInt() && in.bits() < 32) return DType::of(ScalarKind::I32, in.isUnsigned && !in.isBool());
  if (in.kind == ScalarKind::BF16) return DType::of(ScalarKind::F32);
  return in;
}

struct AxisArg {
  bool all = false;  // axis=None: reduce over every element
  int64_t axis = 0;
};

AxisArg axisFrom(Lowerer& L, const Args& a, size_t i, const CV& x, const Expr& at) {
  AxisArg r;
  if (!a.has(i)) {
    r.all = true;
    return r;
  }
  r.axis = a.intArg(i);
  int64_t rank = x.type().rank();
  if (r.axis < 0) r.axis += rank;
  if (r.axis < 0 || r.axis >= rank) L.fail(at, "axis " + std::to_string(a.intArg(i)) + " out of range for " + x.describe());
  return r;
}

using Combine = std::function<std::vector<CV>(std::vector<CV>&, std::vector<CV>&)>;

// Reduces (or scans) `inputs` along an axis (or all of them), optionally keeping the dim.
std::vector<CV> reduceAlong(Lowerer& L, bool scan, std::vector<CV> inputs, AxisArg ax, bool keepDims, bool reverse,
                            const Combine& combine, const Expr& at) {
  if (inputs[0].type().isScalar()) L.fail(at, std::string("cannot ") + (scan ? "scan" : "reduce") + " a scalar (" + inputs[0].describe() + ")");
  if (ax.all) {
    if (scan) L.fail(at, "scans need an axis");
    for (CV& x : inputs) x = L.reshape(x, {x.type().numElements()}, at);
  }
  std::vector<CV> out = L.reduceOrScan(scan, inputs, ax.axis, reverse, combine, at);
  if (keepDims && !scan) {
    for (CV& r : out) {
      if (ax.all) {
        std::vector<int64_t> ones(inputs[0].type().rank(), 1);
        r = L.reshape(r, ones, at);
      } else {
        r = L.expandDims(r, ax.axis, at);
      }
    }
  }
  return out;
}

CV sumOrProd(Lowerer& L, CallArgs& c, bool scan, bool product) {
  const char* fn = scan ? (product ? "cumprod" : "cumsum") : "sum";
  Args a = scan ? Args(L, c, fn, {"input", "axis", "reverse", "dtype"}) : Args(L, c, fn, {"input", "axis", "keep_dims", "dtype"});
  CV x = a.tensor(0);
  DType acc = a.has(3) ? a.dtypeArg(3) : sumDType(x.dtype);
  x = L.cast(x, acc, a.site());
  AxisArg ax = scan ? AxisArg{false, a.intOr(1, 0)} : axisFrom(L, a, 1, x, a.site());
  if (scan && ax.axis < 0) ax.axis += x.type().rank();
  std::string op = product ? "*" : "+";
  const Expr& at = a.site();
  Combine combine = [&L, op, &at](std::vector<CV>& l, std::vector<CV>& r) {
    return std::vector<CV>{L.binary(op, l[0], r[0], at)};
  };
  return reduceAlong(L, scan, {x}, ax, !scan && a.boolOr(2, false), scan && a.boolOr(2, false), combine, at)[0];
}

CV maxOrMin(Lowerer& L, CallArgs& c, bool isMax) {
  const char* fn = isMax ? "max" : "min";
  Args a(L, c, fn, {"input", "axis", "return_indices", "return_indices_tie_break_left", "keep_dims"});
  CV x = a.tensor(0);
  AxisArg ax = axisFrom(L, a, 1, x, a.site());
  const Expr& at = a.site();
  if (a.boolOr(2, false)) {
    CallArgs c2;
    c2.site = c.site;
    c2.pos = {x, a.getOr(1, CV::none()), CV::boolean(a.boolOr(3, true)), CV::boolean(a.boolOr(4, false))};
    return L.callBuiltin(isMax ? "tl.argmax_pair" : "tl.argmin_pair", c2);
  }
  // Narrow types are compared in 32 bits, as Triton does.
  if (x.dtype.bits() < 32) x = L.cast(x, x.dtype.isFloat() || x.dtype.isFp8() ? DType::of(ScalarKind::F32) : DType::of(ScalarKind::I32), at);
  Combine combine = [&L, isMax, &at](std::vector<CV>& l, std::vector<CV>& r) {
    return std::vector<CV>{L.minMax(isMax, l[0], r[0], false, at)};
  };
  return reduceAlong(L, false, {x}, ax, a.boolOr(4, false), false, combine, at)[0];
}

// (value, index) reduction: the extreme value and its first (tie_break_left) index.
std::vector<CV> argExtreme(Lowerer& L, const CV& input, const CV& axisArg, bool tieLeft, bool keepDims, bool isMax,
                           const Expr& at) {
  CV x = L.toTensor(input, at);
  if (x.type().isScalar()) L.fail(at, "cannot reduce a scalar");
  AxisArg ax;
  if (axisArg.kind == CV::K::None) {
    ax.all = true;
    x = L.reshape(x, {x.type().numElements()}, at);
  } else {
    if (axisArg.kind != CV::K::Int) L.fail(at, "axis must be a constexpr integer");
    ax.axis = axisArg.i < 0 ? axisArg.i + x.type().rank() : axisArg.i;
    if (ax.axis < 0 || ax.axis >= int64_t(x.type().rank())) L.fail(at, "axis out of range for " + x.describe());
  }
  int64_t axis = ax.all ? 0 : ax.axis;
  int64_t n = x.type().dim(unsigned(axis));
  L.setLoc(at);
  CV idx = CV::tensor(L.b.arange(0, n), DType::of(ScalarKind::I32));
  if (x.type().rank() > 1) {
    std::vector<int64_t> s(x.type().rank(), 1);
    s[size_t(axis)] = n;
    idx = L.reshape(idx, s, at);
  }
  idx = L.broadcastTo(idx, shapeOf(x), at);
  Combine combine = [&L, tieLeft, isMax, &at](std::vector<CV>& l, std::vector<CV>& r) {
    CV better = L.compare(isMax ? ">" : "<", l[0], r[0], at);
    if (tieLeft) {
      CV equal = L.compare("==", l[0], r[0], at);
      CV lower = L.compare("<", l[1], r[1], at);
      CV tie = L.binary("&", equal, lower, at);
      better = L.binary("|", better, tie, at);
    }
    CV value = L.select(better, l[0], r[0], at);
    CV index = L.select(better, l[1], r[1], at);
    return std::vector<CV>{value, index};
  };
  AxisArg along{false, axis};
  std::vector<CV> out = reduceAlong(L, false, {x, idx}, along, false, false, combine, at);
  if (keepDims)
    for (CV& r : out) r = ax.all ? L.reshape(r, std::vector<int64_t>(input.type().rank(), 1), at) : L.expandDims(r, axis, at);
  return out;
}

// tl.reduce / tl.associative_scan with a @triton.jit combiner.
CV userCombine(Lowerer& L, CallArgs& c, bool scan) {
  Args a = scan ? Args(L, c, "associative_scan", {"input", "axis", "combine_fn", "reverse"})
                : Args(L, c, "reduce", {"input", "axis", "combine_fn", "keep_dims"});
  const CV& in = a.get(0);
  std::vector<CV> inputs = in.kind == CV::K::Tuple ? in.elts : std::vector<CV>{in};
  for (CV& x : inputs) x = L.toTensor(x, a.at(0));
  for (size_t i = 1; i < inputs.size(); ++i) L.broadcastPair(inputs[0], inputs[i], a.site());
  const CV& fn = a.get(2);
  if (fn.kind != CV::K::Function) L.fail(a.at(2), "combine_fn must be a @triton.jit function, got " + fn.describe());
  AxisArg ax = scan ? AxisArg{false, a.intArg(1)} : axisFrom(L, a, 1, inputs[0], a.site());
  if (scan && ax.axis < 0) ax.axis += inputs[0].type().rank();
  const Expr& at = a.site();
  const FunctionDef* f = fn.fn;
  Combine combine = [&L, f, &at](std::vector<CV>& l, std::vector<CV>& r) {
    CallArgs call;
    call.site = &at;
    for (const CV& v : l) call.pos.push_back(v);
    for (const CV& v : r) call.pos.push_back(v);
    CV res = L.inlineFunction(*f, call);
    return res.kind == CV::K::Tuple ? res.elts : std::vector<CV>{res};
  };
  std::vector<CV> out = reduceAlong(L, scan, inputs, ax, !scan && a.boolOr(3, false), scan && a.boolOr(3, false), combine, at);
  // A tuple in gives a tuple out, one element too (`r, = tl.associative_scan((x,), ...)`).
  return in.kind == CV::K::Tuple ? CV::tuple(out) : out[0];
}

// One IR dot, acc + x @ y, with `precision` on f32 operands ("" for others).
CV dotOp(Lowerer& L, const CV& x, const CV& y, const CV& acc, const std::string& precision, const Expr& at,
         int64_t impreciseAcc = 0) {
  std::vector<ir::Attribute> attrs;
  if (!precision.empty()) attrs.push_back({"input_precision", precision});
  if (impreciseAcc > 0) attrs.push_back({"max_num_imprecise_acc", impreciseAcc});
  L.setLoc(at);
  return CV::tensor(L.b.create(Opcode::Dot, {x.value, y.value, acc.value}, {acc.type()}, attrs)->result(), acc.dtype);
}

// Triton's split precisions for f32 operands, as its F32DotTC pass rewrites them, so that both
// engines run plain tensor-core dots:
// - bf16x3 (n = 2) and bf16x6 (n = 3): each operand split into n bf16 parts (hi, mid, lo: each
//   the bf16 rounding of what the parts before it leave);
// - tf32x3 (n = 0): each operand as big = its tf32 rounding (nearest, ties away, as cvt.rna.tf32)
//   and small = the rest, in tf32 dots.
// The cross products are summed smallest first into a zero tile, their NaNs replaced by zero
// (an infinite input's small part is inf - inf), then the main product, then the accumulator.
CV dotSplit(Lowerer& L, const CV& x, const CV& y, const CV& acc, int n, const Expr& at) {
  const DType bf16 = DType::of(ScalarKind::BF16), f32 = DType::of(ScalarKind::F32), i32 = DType::of(ScalarKind::I32);
  const std::string precision = n == 0 ? "tf32" : "";
  auto split = [&](CV v) {
    if (n == 0) {
      CV bits = L.cast(v, i32, at, true);
      CV special = L.compare("==", L.binary("&", bits, CV::integer(0x7f800000), at), CV::integer(0x7f800000), at);
      CV rounded = L.binary("&", L.binary("+", bits, CV::integer(0x1000), at), CV::integer(-0x2000), at);
      CV big = L.cast(L.select(special, bits, rounded, at), f32, at, true);
      return std::vector<CV>{big, L.binary("-", v, big, at)};
    }
    std::vector<CV> parts;
    for (int i = 0; i < n; ++i) {
      CV part = L.cast(v, bf16, at);
      if (i != n - 1) v = L.binary("-", v, L.cast(part, f32, at), at);
      parts.push_back(part);
    }
    return parts;
  };
  std::vector<CV> as = split(x), bs = split(y);
  enum { Hi, Mid, Lo };
  L.setLoc(at);
  CV zero = L.constant(CV::integer(0), f32, acc.type().shape());
  CV r = zero;
  if (n == 3) {
    r = dotOp(L, as[Mid], bs[Mid], r, precision, at);
    r = dotOp(L, as[Lo], bs[Hi], r, precision, at);
    r = dotOp(L, as[Hi], bs[Lo], r, precision, at);
  }
  r = dotOp(L, as[Mid], bs[Hi], r, precision, at);
  r = dotOp(L, as[Hi], bs[Mid], r, precision, at);
  r = L.select(L.compare("!=", r, r, at), zero, r, at);
  r = dotOp(L, as[Hi], bs[Hi], r, precision, at);
  return L.binary("+", r, acc, at);
}

CV dot(Lowerer& L, CallArgs& c) {
  Args a(L, c, "dot", {"input", "other", "acc", "input_precision", "allow_tf32", "max_num_imprecise_acc", "out_dtype"});
  CV x = a.tensor(0), y = a.tensor(1);
  const Expr& at = a.site();
  // 2-D: a matrix product; 3-D: one per leading (batch) index, as Triton's dot; more leading
  // dimensions are flattened into one batch dimension and the result shaped back.
  size_t rank = x.type().rank();
  if (rank < 2 || y.type().rank() != rank)
    L.fail(at, "dot() needs two tiles of the same rank, 2 or more, got " + x.describe() + " and " + y.describe());
  std::vector<int64_t> batch(x.type().shape().begin(), x.type().shape().end() - 2);
  if (rank > 3) {
    if (!std::equal(batch.begin(), batch.end(), y.type().shape().begin()))
      L.fail(at, "dot() shapes do not match: " + x.type().str() + " @ " + y.type().str());
    int64_t b = 1;
    for (int64_t d : batch) b *= d;
    auto flat = [&](const CV& t) { return L.reshape(t, {b, t.type().dim(rank - 2), t.type().dim(rank - 1)}, at); };
    // The same call on the flattened tiles: input, other and acc by position or keyword, the
    // other arguments as they were (positional ones by their names).
    static const char* names[] = {"input", "other", "acc", "input_precision", "allow_tf32", "max_num_imprecise_acc", "out_dtype"};
    CallArgs inner;
    inner.site = c.site;
    inner.pos = {flat(x), flat(y)};
    inner.posExprs = {&a.at(0), &a.at(1)};
    if (a.has(2)) {
      CV acc = a.tensor(2);
      if (acc.type().rank() != rank) L.fail(a.at(2), "dot() accumulator must have rank " + std::to_string(rank) + ", got " + acc.describe());
      inner.kw.emplace_back("acc", flat(acc));
    }
    for (size_t i = 3; i < c.pos.size() && i < 7; ++i) inner.kw.emplace_back(names[i], c.pos[i]);
    for (const auto& [k, v] : c.kw)
      if (k != "input" && k != "other" && k != "acc") inner.kw.emplace_back(k, v);
    CV r = dot(L, inner);
    std::vector<int64_t> shape = batch;
    shape.push_back(r.type().dim(1));
    shape.push_back(r.type().dim(2));
    return L.reshape(r, shape, at);
  }
  size_t m = rank - 2;  // the first matrix dimension
  if (x.type().dim(m + 1) != y.type().dim(m) || (rank == 3 && x.type().dim(0) != y.type().dim(0)))
    L.fail(at, "dot() shapes do not match: " + x.type().str() + " @ " + y.type().str());
  if (x.dtype.isFp8() && y.dtype.isFp8() && !(x.dtype == y.dtype)) {
    // Two fp8 dtypes (Triton allows the mix): both widen to f16 exactly, the same products.
    x = L.cast(x, DType::of(ScalarKind::F16), at);
    y = L.cast(y, DType::of(ScalarKind::F16), at);
  }
  if (!(x.dtype == y.dtype)) L.fail(at, "dot() operands must have the same dtype, got " + x.dtype.name() + " and " + y.dtype.name());
  ScalarKind in = x.dtype.kind;
  if (!(in == ScalarKind::F16 || in == ScalarKind::BF16 || in == ScalarKind::F32 || in == ScalarKind::F64 || in == ScalarKind::I8 ||
        x.dtype.isFp8()))
    L.fail(at, "dot() operands must be fp16, bf16, fp32, fp64, int8 or an fp8 dtype, got " + x.dtype.name());
  // Triton's result dtypes (semantic.py): int8 gives int32 (no other integer type has a dot),
  // fp32 and bf16 give fp32 and fp64 fp64 whatever out_dtype says, fp16 gives out_dtype (fp16 or
  // fp32), fp8 gives fp32 here; out_dtype=bfloat16 is refused.
  if (x.dtype.isInt() && x.dtype.isUnsigned) L.fail(at, "dot(): only int8 supported!, got " + x.dtype.name());
  const DType asked = a.has(6) ? a.dtypeArg(6) : DType::of(ScalarKind::F32);
  if (asked.kind == ScalarKind::BF16)
    L.fail(a.at(6), "out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 and cast with `.to(tl.bfloat16)`");
  DType out = DType::of(ScalarKind::F32);
  if (in == ScalarKind::I8) out = DType::of(ScalarKind::I32);
  else if (in == ScalarKind::F64) out = x.dtype;
  else if (in == ScalarKind::F16 || x.dtype.isFp8()) out = asked;
  if ((in == ScalarKind::F16 || x.dtype.isFp8()) && !(out.kind == ScalarKind::F32 || (in == ScalarKind::F16 && out.kind == ScalarKind::F16)))
    L.fail(a.at(6), "dot(): out_dtype of " + x.dtype.name() + " operands must be fp32" + (in == ScalarKind::F16 ? " or fp16" : "") +
                        ", got " + out.name());
  std::vector<int64_t> shape{x.type().dim(m), y.type().dim(m + 1)};
  if (rank == 3) shape.insert(shape.begin(), x.type().dim(0));
  L.checkTileShape(shape, at, "dot() result");
  CV acc;
  if (a.has(2)) {
    acc = a.tensor(2);
    if (!(acc.dtype == asked))  // Triton's semantic.py asserts acc.type.element_ty == out_dtype
      L.fail(a.at(2), "dot(): the accumulator is " + acc.dtype.name() + " but out_dtype is " + asked.name() +
                          (a.has(6) ? "" : " (the default)") + ": Triton requires them equal (pass out_dtype " +
                          acc.dtype.name() + ")");
    if (!(acc.type() == ir::Type(out.elem(), shape)))
      L.fail(a.at(2), "dot() accumulator must be " + ir::Type(out.elem(), shape).str() + ", got " + acc.describe());
  } else {
    L.setLoc(at);
    acc = L.constant(CV::integer(0), out, shape);
  }
  std::string p = "tf32";
  if (a.has(4) && !a.boolOr(4, true)) p = "ieee";
  if (a.has(3)) p = a.strOr(3, "tf32");
  std::transform(p.begin(), p.end(), p.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
  if (!(p == "tf32" || p == "tf32x3" || p == "ieee" || p == "bf16x3" || p == "bf16x6"))
    L.fail(a.at(3), "input_precision must be one of ('tf32', 'tf32x3', 'ieee', 'bf16x3', 'bf16x6'). Got " + a.strOr(3, ""));
  // fp8 operands: Triton's max_num_imprecise_acc, how many elements of K the tensor cores may sum
  // in their own precision before the sum is added to the accumulator in f32 (absent or 0: all
  // of K into the accumulator; other operands: ignored, as Triton ignores it).
  int64_t impreciseAcc = 0;
  if (x.dtype.isFp8() && a.has(5)) {
    impreciseAcc = a.intArg(5);
    const int64_t K = x.type().dim(m + 1);
    if (impreciseAcc < 0 || impreciseAcc > K)
      L.fail(a.at(5), "max_num_imprecise_acc (" + std::to_string(impreciseAcc) + ") must be <= K (" + std::to_string(K) + ")");
  }
  if (x.dtype.kind != ScalarKind::F32) return dotOp(L, x, y, acc, "", at, impreciseAcc);
  if (p == "bf16x3" || p == "bf16x6" || p == "tf32x3") return dotSplit(L, x, y, acc, p == "bf16x6" ? 3 : p == "bf16x3" ? 2 : 0, at);
  return dotOp(L, x, y, acc, p, at);
}

// tl.histogram(input, num_bins, mask=None): the counts of 0 .. num_bins - 1 in a 1-D integer
// tensor (int32), as Triton's semantic.histogram checks it; unsigned inputs narrower than 64
// bits are zero-extended first (the op reads its input as signed).
CV histogram(Lowerer& L, CallArgs& c) {
  Args a(L, c, "histogram", {"input", "num_bins", "mask"});
  const Expr& at = a.site();
  CV x = L.toTensor(a.get(0), a.at(0));
  if (x.type().rank() != 1) L.fail(a.at(0), "histogram: the input must be 1-D, got " + x.type().str());
  if (!x.dtype.isInt() || x.dtype.isBool()) L.fail(a.at(0), "histogram: the input must be integers, got " + x.dtype.name());
  const int64_t bins = a.intArg(1);
  if (bins < 1 || bins > ir::kMaxTileElements)
    L.fail(a.at(1), "histogram: num_bins must be 1 to " + std::to_string(ir::kMaxTileElements) + ", got " + std::to_string(bins));
  if (x.dtype.isUnsigned && x.dtype.bits() < 64) x = L.cast(x, DType::of(ir::ScalarKind::I64), at);
  std::vector<ir::Value*> operands{x.value};
  if (a.has(2)) {
    CV m = L.toTensor(a.get(2), a.at(2));
    if (!m.dtype.isBool()) L.fail(a.at(2), "Mask must have boolean scalar type, got " + m.dtype.name());
    operands.push_back(L.broadcastTo(m, x.type().shape(), a.at(2)).value);
  }
  L.setLoc(at);
  const int64_t shape[] = {bins};
  ir::Op* op = L.b.create(ir::Opcode::Histogram, operands, {ir::Type::tile(ir::ScalarKind::I32, shape)});
  return CV::tensor(op->result(), DType::of(ir::ScalarKind::I32));
}

}  // namespace

std::vector<CV> Lowerer::reduceOrScan(bool scan, const std::vector<CV>& inputs, int64_t axis, bool reverse,
                                      const std::function<std::vector<CV>(std::vector<CV>&, std::vector<CV>&)>& combine,
                                      const Expr& at) {
  // Every reduce and scan comes through here: one place checks the axis against the rank.
  for (const CV& x : inputs) {
    if (!x.isTensor()) fail(at, std::string(scan ? "scan" : "reduce") + " needs tensors, got " + x.describe());
    int64_t rank = int64_t(x.type().rank());
    if (rank == 0) fail(at, std::string("cannot ") + (scan ? "scan" : "reduce") + " a scalar (" + x.describe() + ")");
    if (axis < 0 || axis >= rank)
      fail(at, "axis " + std::to_string(axis) + " out of range for " + x.describe());
  }
  std::vector<ir::Value*> ops;
  std::vector<ir::Type> types;
  for (const CV& x : inputs) {
    ops.push_back(x.value);
    std::vector<int64_t> s = shapeOf(x);
    if (!scan) s.erase(s.begin() + axis);
    types.push_back(x.type().withShape(s));
  }
  std::vector<ir::Attribute> attrs{{"axis", axis}};
  if (scan && reverse) attrs.push_back({"reverse", int64_t(1)});
  setLoc(at);
  ir::Op* op = b.create(scan ? Opcode::Scan : Opcode::Reduce, ops, types, attrs);
  ir::Block& blk = op->regions[0]->block;
  std::vector<CV> lhs, rhs;
  for (const CV& x : inputs) lhs.push_back(CV::tensor(blk.addArg(ir::Type(x.dtype.elem())), x.dtype));
  for (const CV& x : inputs) rhs.push_back(CV::tensor(blk.addArg(ir::Type(x.dtype.elem())), x.dtype));
  ir::Block* parent = b.insertionBlock();
  b.setInsertionPoint(&blk);
  std::vector<CV> outs = combine(lhs, rhs);
  if (outs.size() != inputs.size())
    fail(at, "the combine function returns " + std::to_string(outs.size()) + " values for " + std::to_string(inputs.size()) + " inputs");
  std::vector<ir::Value*> yielded;
  for (size_t i = 0; i < outs.size(); ++i) {
    CV v = cast(outs[i], inputs[i].dtype, at);
    if (!v.type().isScalar()) fail(at, "the combine function must return scalars, got " + v.describe());
    yielded.push_back(v.value);
  }
  setLoc(at);
  b.create(Opcode::Yield, yielded, {});
  b.setInsertionPoint(parent);
  std::vector<CV> results;
  for (size_t i = 0; i < inputs.size(); ++i) results.push_back(CV::tensor(op->result(unsigned(i)), inputs[i].dtype));
  return results;
}

void registerMathBuiltins(BuiltinTable& t) {
  struct U { const char* name; Opcode code; bool checked; };
  for (U u : {U{"exp", Opcode::Exp, true}, U{"exp2", Opcode::Exp2, true}, U{"log", Opcode::Log, true},
              U{"log2", Opcode::Log2, true}, U{"sqrt", Opcode::Sqrt, true}, U{"sqrt_rn", Opcode::PreciseSqrt, true},
              U{"rsqrt", Opcode::Rsqrt, true}, U{"sin", Opcode::Sin, true}, U{"cos", Opcode::Cos, true},
              U{"erf", Opcode::Erf, true}, U{"floor", Opcode::Floor, true}, U{"ceil", Opcode::Ceil, true},
              U{"tanh", Opcode::Tanh, false}}) {
    std::string fn = u.name;
    t["tl." + fn] = [u](Lowerer& L, CallArgs& c) { return unaryMath(L, c, u.name, u.code, u.checked); };
  }
  t["tl.abs"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "abs", {"x"});
    const CV& n = a.get(0);
    if (n.isNumber()) {
      if (n.kind == CV::K::Float) return CV::real(std::fabs(n.f));
      return *CV::pythonInt(n.wide() < 0 ? -n.wide() : n.wide());  // |x| <= 2^63
    }
    CV x = a.tensor(0);
    if (x.dtype.isPtr()) L.fail(a.at(0), "abs() needs numbers, got " + x.describe());
    L.setLoc(a.site());
    if (x.dtype.isFp8()) {  // exact through f32 (fp8 is a storage format)
      CV w = L.cast(x, DType::of(ScalarKind::F32), a.site());
      L.setLoc(a.site());
      return L.cast(CV::tensor(L.b.unary(Opcode::AbsF, w.value), w.dtype), x.dtype, a.site());
    }
    if (x.dtype.isFloat()) return CV::tensor(L.b.unary(Opcode::AbsF, x.value), x.dtype);
    if (x.dtype.isUnsigned || x.dtype.isBool()) return x;
    return CV::tensor(L.b.unary(Opcode::AbsI, x.value), x.dtype);
  };
  auto binaryFloat = [](const char* fn, Opcode code, bool checked) {
    return [fn, code, checked](Lowerer& L, CallArgs& c) {
      Args a(L, c, fn, {"x", "y", "ieee_rounding"});
      if (checked) {
        requireF32OrF64(L, a.get(0), a.at(0));
        requireF32OrF64(L, a.get(1), a.at(1));
      }
      CV x = a.get(0), y = a.get(1);
      L.unify(x, y, a.site(), true);
      if (!x.dtype.isFloat()) L.fail(a.site(), std::string(fn) + "() needs floating-point operands");
      L.setLoc(a.site());
      return CV::tensor(L.b.binary(code, x.value, y.value), x.dtype);
    };
  };
  t["tl.div_rn"] = binaryFloat("div_rn", Opcode::PreciseDiv, true);
  t["tl.pow"] = binaryFloat("pow", Opcode::Pow, false);
  t["tl.fdiv"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "fdiv", {"x", "y", "ieee_rounding"});
    CV x = a.get(0), y = a.get(1);
    L.unify(x, y, a.site(), true);
    if (!x.dtype.isFloat()) L.fail(a.site(), "fdiv() needs floating-point operands");
    L.setLoc(a.site());
    return CV::tensor(L.b.binary(a.boolOr(2, false) ? Opcode::PreciseDiv : Opcode::DivF, x.value, y.value), x.dtype);
  };
  // tl.add / tl.sub / tl.mul: the operators as functions, with Triton's sanitize_overflow switch.
  for (const auto& [name, op] : {std::pair{"add", "+"}, std::pair{"sub", "-"}, std::pair{"mul", "*"}}) {
    t[std::string("tl.") + name] = [name, op](Lowerer& L, CallArgs& c) {
      Args a(L, c, name, {"x", "y", "sanitize_overflow"});
      return L.binary(op, a.get(0), a.get(1), a.site(), a.boolOr(2, true));
    };
  }
  t["tl.umulhi"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "umulhi", {"x", "y"});
    CV x = a.get(0), y = a.get(1);
    L.unify(x, y, a.site());
    if (!x.dtype.isInt()) L.fail(a.site(), "umulhi() needs integer operands");
    L.setLoc(a.site());
    return CV::tensor(L.b.binary(Opcode::MulHiUI, x.value, y.value), x.dtype);
  };
  t["tl.fma"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "fma", {"x", "y", "z"});
    CV x = a.get(0), y = a.get(1), z = a.get(2);
    L.unify(x, y, a.site());
    L.unify(x, z, a.site());
    L.unify(y, z, a.site());
    if (!x.dtype.isFloat()) L.fail(a.site(), "fma() needs floating-point operands");
    L.setLoc(a.site());
    return CV::tensor(L.b.create(Opcode::Fma, {x.value, y.value, z.value}, {x.type()})->result(), x.dtype);
  };
  auto nanFlag = [](Lowerer& L, const Args& a, size_t i) {
    if (!a.has(i)) return false;
    const CV& v = a.get(i);
    if (v.kind == CV::K::Int || v.kind == CV::K::Bool) return v.i != 0;  // PropagateNan.ALL is truthy
    L.fail(a.at(i), "propagate_nan must be a constexpr");
  };
  t["tl.maximum"] = [nanFlag](Lowerer& L, CallArgs& c) {
    Args a(L, c, "maximum", {"x", "y", "propagate_nan"});
    return L.minMax(true, a.get(0), a.get(1), nanFlag(L, a, 2), a.site());
  };
  t["tl.minimum"] = [nanFlag](Lowerer& L, CallArgs& c) {
    Args a(L, c, "minimum", {"x", "y", "propagate_nan"});
    return L.minMax(false, a.get(0), a.get(1), nanFlag(L, a, 2), a.site());
  };
  t["tl.clamp"] = [nanFlag](Lowerer& L, CallArgs& c) {
    Args a(L, c, "clamp", {"x", "min", "max", "propagate_nan"});
    bool nan = nanFlag(L, a, 3);
    CV low = L.minMax(true, a.get(0), a.get(1), nan, a.site());
    return L.minMax(false, low, a.get(2), nan, a.site());
  };
  t["tl.sigmoid"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "sigmoid", {"x"});
    requireF32OrF64(L, a.get(0), a.at(0));
    CV x = a.tensor(0);
    L.setLoc(a.site());
    CV neg = L.unary("-", x, a.site());
    CV e = CV::tensor(L.b.unary(Opcode::Exp, neg.value), x.dtype);
    CV den = L.binary("+", CV::integer(1), e, a.site());
    return L.binary("/", CV::integer(1), den, a.site());
  };
  t["tl.softmax"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "softmax", {"x", "dim", "keep_dims", "ieee_rounding"});
    requireF32OrF64(L, a.get(0), a.at(0));
    CV x = a.tensor(0);
    CallArgs mx;
    mx.site = c.site;
    mx.pos = {x, a.has(1) ? a.get(1) : CV::integer(0), CV::boolean(false), CV::boolean(false), CV::boolean(true)};
    CV mxv = L.callBuiltin("tl.max", mx);
    CV z = L.binary("-", x, mxv, a.site());
    L.setLoc(a.site());
    CV num = CV::tensor(L.b.unary(Opcode::Exp, z.value), z.dtype);
    CallArgs sm;
    sm.site = c.site;
    sm.pos = {num, a.has(1) ? a.get(1) : CV::integer(0), CV::boolean(true)};
    CV den = L.callBuiltin("tl.sum", sm);
    CallArgs dv;
    dv.site = c.site;
    dv.pos = {num, den, CV::boolean(a.boolOr(3, false))};
    return L.callBuiltin("tl.fdiv", dv);
  };
  t["tl.sum"] = [](Lowerer& L, CallArgs& c) { return sumOrProd(L, c, false, false); };
  t["tl.histogram"] = histogram;
  t["tl.cumsum"] = [](Lowerer& L, CallArgs& c) { return sumOrProd(L, c, true, false); };
  t["tl.cumprod"] = [](Lowerer& L, CallArgs& c) { return sumOrProd(L, c, true, true); };
  t["tl.max"] = [](Lowerer& L, CallArgs& c) { return maxOrMin(L, c, true); };
  t["tl.min"] = [](Lowerer& L, CallArgs& c) { return maxOrMin(L, c, false); };
  auto arg = [](bool isMax, bool pair) {
    return [isMax, pair](Lowerer& L, CallArgs& c) {
      Args a(L, c, isMax ? "argmax" : "argmin", {"input", "axis", "tie_break_left", "keep_dims"});
      auto out = argExtreme(L, a.get(0), a.getOr(1, CV::none()), a.boolOr(2, true), a.boolOr(3, false), isMax, a.site());
      return pair ? CV::tuple(out) : out[1];
    };
  };
  t["tl.argmax"] = arg(true, false);
  t["tl.argmin"] = arg(false, false);
  t["tl.argmax_pair"] = arg(true, true);
  t["tl.argmin_pair"] = arg(false, true);
  t["tl.reduce"] = [](Lowerer& L, CallArgs& c) { return userCombine(L, c, false); };
  t["tl.associative_scan"] = [](Lowerer& L, CallArgs& c) { return userCombine(L, c, true); };
  t["tl.dot"] = dot;
}

}  // namespace tilevm::frontend
