// VerifyOps.cpp - the type, shape and attribute rules of each op (one switch, no default, so a
// new op in ops.def does not compile until it has rules here).
#include <algorithm>
#include <initializer_list>

#include "ir/Verifier.h"

namespace tilevm::ir {

namespace {

using Problem = std::optional<std::string>;

std::string ty(const Value* v) { return v->type.str(); }

Problem sameType(const Value* a, const Value* b, const char* what) {
  if (a->type == b->type) return std::nullopt;
  return std::string(what) + " types differ: " + ty(a) + " vs " + ty(b);
}

// All operands and the single result share one type whose element satisfies `pred`.
template <typename Pred>
Problem uniform(const Op& op, Pred pred, const char* kindName) {
  const Type& t = op.operands[0]->type;
  for (const Value* v : op.operands)
    if (!(v->type == t)) return "operands must have one type, got " + ty(op.operands[0]) + " and " + ty(v);
  if (!pred(t.elem())) return "expects " + std::string(kindName) + " operands, got " + t.str();
  if (!op.results.empty() && !(op.result()->type == t))
    return "result type " + ty(op.result()) + " must equal operand type " + t.str();
  return std::nullopt;
}
Problem intOp(const Op& op) { return uniform(op, [](ElemType e) { return e.isInt(); }, "integer"); }
Problem floatOp(const Op& op) { return uniform(op, [](ElemType e) { return e.isFloat(); }, "float"); }

Problem requireIntAttr(const Op& op, const char* name, int64_t lo, int64_t hi) {
  const int64_t* v = op.intAttr(name);
  if (!v) return std::string("requires integer attribute '") + name + "'";
  if (*v < lo || *v > hi)
    return std::string("attribute '") + name + "' = " + std::to_string(*v) + " out of range [" + std::to_string(lo) +
           ", " + std::to_string(hi) + "]";
  return std::nullopt;
}

Problem optionalIntAttr(const Op& op, const char* name, int64_t lo, int64_t hi) {
  if (!op.attr(name)) return std::nullopt;
  return requireIntAttr(op, name, lo, hi);
}

// Optional (unless `required`) string attribute whose value is one of `allowed`.
Problem enumAttr(const Op& op, const char* name, std::initializer_list<const char*> allowed, bool required) {
  const AttrValue* v = op.attr(name);
  if (!v) return required ? Problem(std::string("requires attribute '") + name + "'") : std::nullopt;
  const std::string* s = std::get_if<std::string>(v);
  if (s)
    for (const char* a : allowed)
      if (*s == a) return std::nullopt;
  std::string list;
  for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
  return std::string("attribute '") + name + "' must be one of " + list;
}

Problem castOp(const Op& op, bool (*srcOk)(ElemType), bool (*dstOk)(ElemType), int widthOrder) {
  const Type& s = op.operands[0]->type;
  const Type& d = op.result()->type;
  if (!s.sameShape(d)) return "operand and result shapes differ: " + s.str() + " vs " + d.str();
  if (!srcOk(s.elem()) || !dstOk(d.elem())) return "cannot cast " + s.str() + " to " + d.str();
  unsigned sw = s.elem().bitWidth(), dw = d.elem().bitWidth();
  if (widthOrder > 0 && !(dw > sw)) return "result must be wider than operand: " + s.str() + " to " + d.str();
  if (widthOrder < 0 && !(dw < sw)) return "result must be narrower than operand: " + s.str() + " to " + d.str();
  return std::nullopt;
}
bool isIntE(ElemType e) { return e.isInt(); }
bool isFloatE(ElemType e) { return e.isFloat(); }
bool isFloatOrFp8E(ElemType e) { return e.isFloat() || e.isFp8(); }

Problem pointerOperand(const Op& op, const Type& valueType) {
  const Type& p = op.operands[0]->type;
  if (!p.isPtr()) return "expects a pointer operand, got " + p.str();
  if (!p.sameShape(valueType) || valueType.elem().kind != p.elem().pointee || valueType.isPtr())
    return "value type " + valueType.str() + " does not match pointer " + p.str();
  return std::nullopt;
}

Problem maskOperand(const Op& op, size_t index) {
  if (op.operands.size() <= index) return std::nullopt;
  const Type& m = op.operands[index]->type;
  const Type& p = op.operands[0]->type;
  if (m.elem().kind != ScalarKind::I1 || !m.sameShape(p)) return "mask must be i1 of the pointer's shape, got " + m.str();
  return std::nullopt;
}

// Regions yield `types` through their terminator.
Problem yields(const Region& r, std::span<const Type> types, const char* what) {
  const Op* t = r.block.terminator();
  if (!t) return std::nullopt;  // reported by the structural verifier
  size_t first = t->code == Opcode::Condition ? 1 : 0;
  if (t->operands.size() - first != types.size())
    return std::string(what) + " yields " + std::to_string(t->operands.size() - first) + " values, expected " +
           std::to_string(types.size());
  for (size_t i = 0; i < types.size(); ++i)
    if (t->operands[first + i] && !(t->operands[first + i]->type == types[i]))
      return std::string(what) + " yields " + t->operands[first + i]->type.str() + " at #" + std::to_string(i) +
             ", expected " + types[i].str();
  return std::nullopt;
}

Problem regionArgs(const Region& r, std::span<const Type> types, const char* what) {
  const auto& args = r.block.args;
  if (args.size() != types.size())
    return std::string(what) + " has " + std::to_string(args.size()) + " arguments, expected " +
           std::to_string(types.size());
  for (size_t i = 0; i < types.size(); ++i)
    if (!(args[i]->type == types[i]))
      return std::string(what) + " argument #" + std::to_string(i) + " is " + args[i]->type.str() + ", expected " +
             types[i].str();
  return std::nullopt;
}

std::vector<Type> typesOf(std::span<Value* const> vs) {
  std::vector<Type> t;
  for (const Value* v : vs) t.push_back(v->type);
  return t;
}
std::vector<Type> typesOf(const std::vector<std::unique_ptr<Value>>& vs) {
  std::vector<Type> t;
  for (const auto& v : vs) t.push_back(v->type);
  return t;
}

#define CHECK(expr) \
  if (Problem p_ = (expr)) return p_

Problem checkReduceOrScan(const Op& op, bool scan) {
  const Type& t0 = op.operands[0]->type;
  if (t0.isScalar()) return "expects tile operands, got " + t0.str();
  CHECK(requireIntAttr(op, "axis", 0, int64_t(t0.rank()) - 1));
  int64_t axis = *op.intAttr("axis");
  if (op.results.size() != op.operands.size())
    return "expects one result per operand, got " + std::to_string(op.results.size());
  std::vector<Type> scalars;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const Type& t = op.operands[i]->type;
    if (!t.sameShape(t0)) return "operands must share one shape, got " + t0.str() + " and " + t.str();
    if (t.isPtr()) return "cannot combine pointers";
    std::vector<int64_t> shape(t.shape().begin(), t.shape().end());
    if (!scan) shape.erase(shape.begin() + axis);
    Type expect = t.withShape(shape);
    if (!(op.results[i]->type == expect))
      return "result #" + std::to_string(i) + " is " + op.results[i]->type.str() + ", expected " + expect.str();
    scalars.push_back(Type(t.elem()));
  }
  std::vector<Type> args = scalars;
  args.insert(args.end(), scalars.begin(), scalars.end());
  if (scan) CHECK(optionalIntAttr(op, "reverse", 0, 1));
  CHECK(regionArgs(*op.regions[0], args, "combiner"));
  return yields(*op.regions[0], scalars, "combiner");
}

Problem checkMap(const Op& op) {
  const Type& t0 = op.operands[0]->type;
  CHECK(requireIntAttr(op, "pack", 1, 64));
  int64_t pack = *op.intAttr("pack");
  if (t0.numElements() % pack != 0)
    return "pack " + std::to_string(pack) + " does not divide the " + std::to_string(t0.numElements()) + " elements of " + t0.str();
  if (op.results.empty()) return "expects at least one result";
  std::vector<Type> args, yielded;
  for (const Value* v : op.operands) {
    if (!v->type.sameShape(t0)) return "operands must share one shape, got " + t0.str() + " and " + v->type.str();
    for (int64_t j = 0; j < pack; ++j) args.push_back(Type(v->type.elem()));
  }
  for (const auto& r : op.results) {
    if (!r->type.sameShape(t0)) return "results must have the operands' shape " + t0.str() + ", got " + r->type.str();
    for (int64_t j = 0; j < pack; ++j) yielded.push_back(Type(r->type.elem()));
  }
  CHECK(regionArgs(*op.regions[0], args, "map function"));
  return yields(*op.regions[0], yielded, "map function");
}

Problem checkHistogram(const Op& op) {
  const Type& x = op.operands[0]->type;
  if (x.rank() != 1 || !x.elem().isInt() || x.elem().kind == ScalarKind::I1)
    return "expects a 1-D integer tile, got " + x.str();
  if (op.operands.size() == 2 && (op.operands[1]->type.elem().kind != ScalarKind::I1 || !op.operands[1]->type.sameShape(x)))
    return "mask must be an i1 tile of the input's shape " + x.str() + ", got " + op.operands[1]->type.str();
  const Type& r = op.result()->type;
  if (r.rank() != 1 || r.elem().kind != ScalarKind::I32) return "result must be a 1-D i32 tile of counts, got " + r.str();
  return std::nullopt;
}

Problem checkInlineAsm(const Op& op) {
  for (const char* name : {"asm", "constraints"})
    if (!op.strAttr(name)) return std::string("requires string attribute '") + name + "'";
  CHECK(requireIntAttr(op, "pack", 1, 16));
  CHECK(requireIntAttr(op, "pure", 0, 1));
  if (op.results.empty()) return "expects at least one result";
  // Without operands (Triton's tl.extra.cuda.globaltimer) the results are scalars.
  const Type& t0 = op.operands.empty() ? op.results[0]->type : op.operands[0]->type;
  if (op.operands.empty() && t0.rank() != 0) return "without operands, results must be scalars, got " + t0.str();
  for (const Value* v : op.operands)
    if (!v->type.sameShape(t0)) return "operands must share one shape, got " + t0.str() + " and " + v->type.str();
  for (const auto& r : op.results)
    if (!r->type.sameShape(t0)) return "results must have the operands' shape " + t0.str() + ", got " + r->type.str();
  return std::nullopt;
}

Problem checkDot(const Op& op) {
  const Type &a = op.operands[0]->type, &b = op.operands[1]->type, &c = op.operands[2]->type;
  // Rank 2: a matrix product; rank 3: one per leading (batch) index.
  size_t r = a.rank();
  if ((r != 2 && r != 3) || b.rank() != r || c.rank() != r) return "expects rank-2 or rank-3 tiles of one rank";
  size_t m = r - 2;  // the first matrix dimension
  if ((r == 3 && (a.dim(0) != b.dim(0) || a.dim(0) != c.dim(0))) || a.dim(m + 1) != b.dim(m) || a.dim(m) != c.dim(m) ||
      b.dim(m + 1) != c.dim(m + 1))
    return "shapes do not chain: " + a.str() + " @ " + b.str() + " + " + c.str();
  if (!(a.elem() == b.elem())) return "a and b element types differ: " + a.str() + " vs " + b.str();
  ScalarKind in = a.elem().kind, acc = c.elem().kind;
  bool okFloat = (in == ScalarKind::F16 || in == ScalarKind::BF16) && (acc == ScalarKind::F32 || acc == in);
  okFloat |= in == ScalarKind::F32 && acc == ScalarKind::F32;
  okFloat |= in == ScalarKind::F64 && acc == ScalarKind::F64;
  okFloat |= isFp8(in) && acc == ScalarKind::F32;  // exact products, f32 accumulation
  bool okInt = in == ScalarKind::I8 && acc == ScalarKind::I32;
  if (!okFloat && !okInt) return "unsupported element types " + a.str() + " x " + b.str() + " -> " + c.str();
  if (!(op.result()->type == c)) return "result type must equal accumulator type " + c.str();
  if (op.intAttr("max_num_imprecise_acc")) {
    if (!isFp8(in)) return "max_num_imprecise_acc applies to fp8 operands only, got " + a.str();
    CHECK(requireIntAttr(op, "max_num_imprecise_acc", 1, a.dim(m + 1)));
  }
  return enumAttr(op, "input_precision", {"tf32", "tf32x3", "ieee"}, false);
}

// A loop's code-generation hints (docs/ir.md): Triton's disable_licm and loop_unroll_factor.
Problem loopHints(const Op& op) {
  CHECK(optionalIntAttr(op, "disable_licm", 0, 1));
  return optionalIntAttr(op, "unroll_factor", 1, kMaxUnrollFactor);
}

Problem checkFor(const Op& op) {
  const Type& lb = op.operands[0]->type;
  if (!lb.isScalar() || !lb.isInt() || lb.elem().kind == ScalarKind::I1) return "bounds must be integer scalars, got " + lb.str();
  CHECK(sameType(op.operands[0], op.operands[1], "bound"));
  CHECK(sameType(op.operands[0], op.operands[2], "bound and step"));
  std::vector<Type> carried = typesOf(std::span<Value* const>(op.operands).subspan(3));
  if (typesOf(op.results) != carried) return "results must match the carried values' types";
  std::vector<Type> args{lb};
  args.insert(args.end(), carried.begin(), carried.end());
  CHECK(regionArgs(*op.regions[0], args, "body"));
  CHECK(loopHints(op));
  return yields(*op.regions[0], carried, "body");
}

Problem checkIf(const Op& op) {
  const Type& c = op.operands[0]->type;
  if (!c.isScalar() || c.elem().kind != ScalarKind::I1) return "condition must be an i1 scalar, got " + c.str();
  std::vector<Type> res = typesOf(op.results);
  CHECK(regionArgs(*op.regions[0], {}, "then-region"));
  CHECK(regionArgs(*op.regions[1], {}, "else-region"));
  CHECK(yields(*op.regions[0], res, "then-region"));
  return yields(*op.regions[1], res, "else-region");
}

Problem checkWhile(const Op& op) {
  CHECK(loopHints(op));
  std::vector<Type> inits = typesOf(op.operands);
  std::vector<Type> res = typesOf(op.results);
  CHECK(regionArgs(*op.regions[0], inits, "before-region"));
  const Op* cond = op.regions[0]->block.terminator();
  if (cond && cond->code == Opcode::Condition && !cond->operands.empty() && cond->operands[0]) {
    const Type& c = cond->operands[0]->type;
    if (!c.isScalar() || c.elem().kind != ScalarKind::I1) return "condition must be an i1 scalar, got " + c.str();
  }
  CHECK(yields(*op.regions[0], res, "before-region"));
  CHECK(regionArgs(*op.regions[1], res, "after-region"));
  return yields(*op.regions[1], inits, "after-region");
}

Problem checkConstant(const Op& op) {
  const Type& t = op.result()->type;
  const AttrValue* v = op.attr("value");
  if (!v) return std::string("requires attribute 'value'");
  if (t.isPtr()) return "cannot be a pointer";
  if ((t.isFloat() || t.isFp8()) && !std::holds_alternative<double>(*v)) return "float constant needs a float 'value'";
  if (t.isInt()) {
    const int64_t* i = std::get_if<int64_t>(v);
    if (!i) return "integer constant needs an integer 'value'";
    unsigned w = t.elem().bitWidth();
    if (w < 64 && (*i < -(int64_t(1) << (w - 1)) || *i >= (int64_t(1) << w)))
      return "value " + std::to_string(*i) + " does not fit " + t.str();
  }
  return std::nullopt;
}

Problem checkShapeOp(const Op& op) {
  const Type& a = op.operands[0]->type;
  const Type& r = op.result()->type;
  if (!(a.elem() == r.elem())) return "element type changes: " + a.str() + " to " + r.str();
  switch (op.code) {
    case Opcode::Splat:
      if (!a.isScalar() || r.isScalar()) return "expects a scalar operand and a tile result";
      return std::nullopt;
    case Opcode::Broadcast:
      if (a.rank() != r.rank() || a.isScalar()) return "rank must stay the same: " + a.str() + " to " + r.str();
      for (unsigned i = 0; i < a.rank(); ++i)
        if (a.dim(i) != r.dim(i) && a.dim(i) != 1)
          return "cannot broadcast dim " + std::to_string(i) + " of " + a.str() + " to " + r.str();
      return std::nullopt;
    case Opcode::ExpandDims: {
      CHECK(requireIntAttr(op, "axis", 0, a.rank()));
      std::vector<int64_t> s(a.shape().begin(), a.shape().end());
      s.insert(s.begin() + *op.intAttr("axis"), 1);
      if (!(r == a.withShape(s))) return "result must be " + a.withShape(s).str() + ", got " + r.str();
      return std::nullopt;
    }
    case Opcode::Reshape:
      if (a.numElements() != r.numElements()) return "element count changes: " + a.str() + " to " + r.str();
      return std::nullopt;
    case Opcode::Permute: {
      const std::vector<int64_t>* order = op.intsAttr("order");
      if (!order || order->size() != a.rank()) return "requires 'order', a permutation of the operand's dims";
      std::vector<int64_t> sorted = *order, s;
      std::sort(sorted.begin(), sorted.end());
      for (size_t i = 0; i < sorted.size(); ++i)
        if (sorted[i] != int64_t(i)) return std::string("'order' is not a permutation");
      for (int64_t d : *order) s.push_back(a.dim(d));
      if (!(r == a.withShape(s))) return "result must be " + a.withShape(s).str() + ", got " + r.str();
      return std::nullopt;
    }
    case Opcode::Flip:
      if (a.isScalar() || !(r == a)) return "expects a tile and a result of its type, got " + a.str() + " to " + r.str();
      return requireIntAttr(op, "dim", 0, int64_t(a.rank()) - 1);
    case Opcode::Constant:  // checkOpTypes checks these itself
    case Opcode::Arange:
    case Opcode::Cat:
    case Opcode::Join:
    case Opcode::Split:
#define TILEVM_CASES_NOT_OF Shape
#include "ir/FamilyCases.inc"
      opNotInFamily("ir::checkShapeOp", op.code);
  }
  return "unknown op";
}

Problem checkCatJoinSplit(const Op& op) {
  const Type& a = op.operands[0]->type;
  if (op.code == Opcode::Split) {
    if (a.isScalar() || a.dim(a.rank() - 1) != 2) return "expects a last dim of 2, got " + a.str();
    std::vector<int64_t> s(a.shape().begin(), a.shape().end() - 1);
    Type want = a.withShape(s);
    for (const auto& r : op.results)
      if (!(r->type == want)) return "results must be " + want.str() + ", got " + r->type.str();
    return std::nullopt;
  }
  CHECK(sameType(op.operands[0], op.operands[1], "operand"));
  std::vector<int64_t> s(a.shape().begin(), a.shape().end());
  if (op.code == Opcode::Join) {
    if (a.rank() >= kMaxRank) return std::string("result rank exceeds the limit");
    s.push_back(2);
  } else {
    if (a.isScalar()) return "expects tiles, got " + a.str();
    s[0] *= 2;
  }
  Type want = a.withShape(s);
  if (!(op.result()->type == want)) return "result must be " + want.str() + ", got " + op.result()->type.str();
  return std::nullopt;
}

}  // namespace

std::optional<std::string> checkOpTypes(const Op& op) {
  const auto& ops = op.operands;
  switch (op.code) {
    case Opcode::ProgramId:
    case Opcode::NumPrograms:
      if (!(op.result()->type == Type::scalar(ScalarKind::I32))) return "result must be i32";
      return requireIntAttr(op, "axis", 0, 2);
    case Opcode::Constant:
      return checkConstant(op);
    case Opcode::Arange: {
      CHECK(requireIntAttr(op, "start", 0, kMaxTileElements));
      CHECK(requireIntAttr(op, "end", 1, int64_t(1) << 31));
      int64_t n = *op.intAttr("end") - *op.intAttr("start");
      if (n <= 0) return std::string("'end' must exceed 'start'");
      int64_t shape[] = {n};
      if (!(op.result()->type == Type::tile(ScalarKind::I32, shape)))
        return "result must be tile<" + std::to_string(n) + "xi32>";
      return std::nullopt;
    }
    case Opcode::Splat:
    case Opcode::Broadcast:
    case Opcode::ExpandDims:
    case Opcode::Reshape:
    case Opcode::Permute:
    case Opcode::Flip:
      return checkShapeOp(op);
    case Opcode::Cat:
    case Opcode::Join:
    case Opcode::Split:
      return checkCatJoinSplit(op);
    case Opcode::AddPtr:
      if (!ops[0]->type.isPtr() || !ops[1]->type.isInt() || !ops[0]->type.sameShape(ops[1]->type))
        return "expects a pointer and an integer offset of one shape, got " + ty(ops[0]) + " and " + ty(ops[1]);
      if (!(op.result()->type == ops[0]->type)) return "result must have the pointer's type";
      return std::nullopt;
    case Opcode::PtrToInt:
      if (!ops[0]->type.isPtr() || !(op.result()->type == ops[0]->type.withElem(ScalarKind::I64)))
        return "converts ptr<T> to i64 of the same shape";
      return std::nullopt;
    case Opcode::IntToPtr:
      if (ops[0]->type.elem().kind != ScalarKind::I64 || !op.result()->type.isPtr() ||
          !ops[0]->type.sameShape(op.result()->type))
        return "converts i64 to ptr<T> of the same shape";
      return std::nullopt;
    case Opcode::Bitcast: {
      const Type &a = ops[0]->type, &r = op.result()->type;
      if (!a.sameShape(r)) return "shapes differ";
      if (a.isPtr() != r.isPtr() || a.elem().bitWidth() != r.elem().bitWidth())
        return "cannot bitcast " + a.str() + " to " + r.str();
      return std::nullopt;
    }
    case Opcode::Load:
      CHECK(pointerOperand(op, op.result()->type));
      CHECK(maskOperand(op, 1));
      if (ops.size() == 3 && !(ops[2]->type == op.result()->type))
        return "'other' must have the result type " + op.result()->type.str() + ", got " + ty(ops[2]);
      CHECK(enumAttr(op, "cache", {"ca", "cg", "cv"}, false));
      CHECK(enumAttr(op, "eviction", {"evict_first", "evict_last", "evict_normal"}, false));
      return optionalIntAttr(op, "volatile", 0, 1);
    case Opcode::Store:
      CHECK(pointerOperand(op, ops[1]->type));
      CHECK(maskOperand(op, 2));
      CHECK(enumAttr(op, "cache", {"wb", "cg", "cs", "wt"}, false));
      return enumAttr(op, "eviction", {"evict_first", "evict_last", "evict_normal"}, false);
    case Opcode::AtomicRmw: {
      CHECK(pointerOperand(op, ops[1]->type));
      CHECK(maskOperand(op, 2));
      if (!(op.result()->type == ops[1]->type)) return "result must have the value's type";
      CHECK(enumAttr(op, "kind", {"add", "fadd", "max", "min", "umax", "umin", "and", "or", "xor", "xchg"}, true));
      const std::string& kind = *op.strAttr("kind");
      bool isF = ops[1]->type.isFloat();
      if (ops[1]->type.isFp8()) return "cannot operate on fp8 values " + ty(ops[1]);
      if (kind == "fadd" && !isF) return std::string("'fadd' needs float values");
      if ((kind == "add" || kind == "umax" || kind == "umin" || kind == "and" || kind == "or" || kind == "xor") && isF)
        return "'" + kind + "' needs integer values";
      CHECK(enumAttr(op, "sem", {"relaxed", "acquire", "release", "acq_rel"}, false));
      return enumAttr(op, "scope", {"gpu", "cta", "sys"}, false);
    }
    case Opcode::AtomicCas:
      CHECK(pointerOperand(op, ops[1]->type));
      CHECK(sameType(ops[1], ops[2], "compare and value"));
      if (ops[1]->type.isFp8()) return "cannot operate on fp8 values " + ty(ops[1]);
      if (!(op.result()->type == ops[1]->type)) return "result must have the value's type";
      CHECK(enumAttr(op, "sem", {"relaxed", "acquire", "release", "acq_rel"}, false));
      return enumAttr(op, "scope", {"gpu", "cta", "sys"}, false);
#define TILEVM_CASES_OF IntBinary
#include "ir/FamilyCases.inc"
#define TILEVM_CASES_OF IntUnary
#include "ir/FamilyCases.inc"
      return intOp(op);
    case Opcode::CmpI: {
      if (!(ops[0]->type == ops[1]->type) || ops[0]->type.isFloat() || ops[0]->type.isFp8())
        return "expects integer or pointer operands of one type, got " + ty(ops[0]) + " and " + ty(ops[1]);
      if (!(op.result()->type == ops[0]->type.withElem(ScalarKind::I1))) return "result must be i1 of the operands' shape";
      return enumAttr(op, "pred", {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"}, true);
    }
#define TILEVM_CASES_OF FloatBinary
#include "ir/FamilyCases.inc"
#define TILEVM_CASES_OF FloatUnary
#include "ir/FamilyCases.inc"
#define TILEVM_CASES_OF FloatTernary
#include "ir/FamilyCases.inc"
      return floatOp(op);
    case Opcode::CmpF:
      if (!(ops[0]->type == ops[1]->type) || !ops[0]->type.isFloat())
        return "expects float operands of one type, got " + ty(ops[0]) + " and " + ty(ops[1]);
      if (!(op.result()->type == ops[0]->type.withElem(ScalarKind::I1))) return "result must be i1 of the operands' shape";
      return enumAttr(op, "pred",
                      {"oeq", "one", "olt", "ole", "ogt", "oge", "ueq", "une", "ult", "ule", "ugt", "uge", "ord", "uno"},
                      true);
    case Opcode::Select:
      if (ops[0]->type.elem().kind != ScalarKind::I1 || !ops[0]->type.sameShape(ops[1]->type))
        return "condition must be i1 of the values' shape, got " + ty(ops[0]);
      CHECK(sameType(ops[1], ops[2], "value"));
      if (!(op.result()->type == ops[1]->type)) return "result must have the values' type";
      return std::nullopt;
    case Opcode::ExtSI:
    case Opcode::ExtUI:
      return castOp(op, isIntE, isIntE, +1);
    case Opcode::TruncI:
      return castOp(op, isIntE, isIntE, -1);
    case Opcode::ExtF:  // fp8 widens to any float
      return castOp(op, isFloatOrFp8E, isFloatE, +1);
    case Opcode::TruncF:  // into fp8: round to nearest even, saturating (docs/ops.md)
      CHECK(castOp(op, isFloatE, isFloatOrFp8E, -1));
      CHECK(enumAttr(op, "rounding", {"rtne", "rtz"}, false));
      // rtz into fp8: e5m2 only, the top byte of f16 rounded toward zero (Triton's conversion).
      if (op.result()->type.isFp8() && op.result()->type.elem().kind != ScalarKind::F8E5 && op.strAttr("rounding") &&
          *op.strAttr("rounding") == "rtz")
        return "rounding 'rtz' into " + op.result()->type.str() + " is not supported (rtz into fp8: f8e5 only)";
      return std::nullopt;
    case Opcode::SIToFP:
    case Opcode::UIToFP:
      return castOp(op, isIntE, isFloatE, 0);
    case Opcode::FPToSI:
    case Opcode::FPToUI:
      return castOp(op, isFloatE, isIntE, 0);
    case Opcode::Reduce:
      return checkReduceOrScan(op, false);
    case Opcode::Scan:
      return checkReduceOrScan(op, true);
    case Opcode::Map:
      return checkMap(op);
    case Opcode::Histogram:
      return checkHistogram(op);
    case Opcode::Dot:
      return checkDot(op);
    case Opcode::For:
      return checkFor(op);
    case Opcode::If:
      return checkIf(op);
    case Opcode::While:
      return checkWhile(op);
    case Opcode::Yield:
    case Opcode::Condition:
    case Opcode::Return:
      return std::nullopt;  // checked by the op that owns the region (and the structural verifier)
    case Opcode::Print:
      return optionalIntAttr(op, "hex", 0, 1);
    case Opcode::Assert:
      if (ops[0]->type.elem().kind != ScalarKind::I1) return "condition must be i1, got " + ty(ops[0]);
      return std::nullopt;
    case Opcode::Barrier:
      return std::nullopt;
    case Opcode::InlineAsm:
      return checkInlineAsm(op);
  }
  return "unknown op";
}

}  // namespace tilevm::ir
