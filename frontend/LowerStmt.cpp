// LowerStmt.cpp - statements and structured control flow: assignments, constexpr-pruned and
// runtime `if` (merging the names both branches define), `for` over range (a `for` op whose
// loop-carried values are the names the body reassigns) or static_range (unrolled), `while`,
// and `return`.
#include <algorithm>
#include <array>
#include <functional>
#include <iostream>
#include <optional>
#include <set>

#include "frontend/BuiltinArgs.h"
#include "frontend/Builtins.h"
#include "frontend/Lowerer.h"

namespace tilevm::frontend {

using ir::Opcode;
using ir::ScalarKind;

namespace {

void namesIn(const Expr& target, std::vector<std::string>& out) {
  if (target.kind == Expr::K::Name) out.push_back(target.str);
  if (target.kind == Expr::K::Tuple || target.kind == Expr::K::List)
    for (const auto& e : target.elts) namesIn(*e, out);
}

bool sameConstant(const CV& a, const CV& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case CV::K::None: return true;
    case CV::K::Bool:
    case CV::K::Int: return a.i == b.i && a.u64 == b.u64;
    case CV::K::Float: return a.f == b.f || (a.f != a.f && b.f != b.f);
    case CV::K::Str:
    case CV::K::Module:
    case CV::K::Builtin: return a.s == b.s;
    case CV::K::DType: return a.dtype == b.dtype && a.s == b.s;
    case CV::K::Tensor: return a.value == b.value;
    case CV::K::Function: return a.fn == b.fn;
    case CV::K::HostFunction: return a.host == b.host && a.i == b.i;
    case CV::K::TupleType: return a.s == b.s && a.fields == b.fields;
    case CV::K::Opaque: return false;  // never reaches a comparison: naming it fails
    case CV::K::Tuple:
    case CV::K::Method:
    case CV::K::Slice:
    case CV::K::BlockPtr:
    case CV::K::ConstexprType:
      if (a.elts.size() != b.elts.size() || a.s != b.s) return false;
      for (size_t i = 0; i < a.elts.size(); ++i)
        if (!sameConstant(a.elts[i], b.elts[i])) return false;
      return true;
  }
  return false;
}

// Adds a result of type `t` to an op built without it (if's results are known only after its
// branches are lowered).
ir::Value* appendResult(ir::Op* op, const ir::Type& t) {
  op->results.push_back(std::make_unique<ir::Value>(t, op, op->parent, static_cast<unsigned>(op->results.size())));
  return op->results.back().get();
}

}  // namespace

void Lowerer::assignedNames(const std::vector<StmtP>& body, std::vector<std::string>& out) {
  for (const auto& s : body) {
    for (const auto& t : s->targets) namesIn(*t, out);
    assignedNames(s->body, out);
    assignedNames(s->orelse, out);
  }
}

void Lowerer::assign(const Expr& target, const CV& value, Env& env, const Expr& at) {
  switch (target.kind) {
    case Expr::K::Name:
      env[target.str] = value;
      return;
    case Expr::K::Tuple:
    case Expr::K::List:
      if (value.kind != CV::K::Tuple) fail(at, "cannot unpack " + value.describe());
      if (value.elts.size() != target.elts.size())
        fail(at, "cannot unpack " + std::to_string(value.elts.size()) + " values into " + std::to_string(target.elts.size()) + " names");
      for (size_t i = 0; i < target.elts.size(); ++i) assign(*target.elts[i], value.elts[i], env, at);
      return;
    default:
      fail(target, "only names and tuples of names can be assigned in a @triton.jit function");
  }
}

// Triton's assignment (CodeGenerator.visit_Assign): a number assigned to a name becomes a scalar
// tensor of its default dtype (int32, uint32, int64, fp32, fp64, int1), also inside tuples; only
// `x: tl.constexpr = v` keeps a constexpr. So `BLOCK = 128; tl.arange(0, BLOCK)` is an error, as
// in Triton.
CV Lowerer::lifted(const CV& v, const Expr& at) {
  if (v.isNumber()) return toTensor(v, at);
  if (v.kind != CV::K::Tuple) return v;
  CV t = v;
  for (CV& e : t.elts) e = lifted(e, at);
  return t;
}

static bool containsReturn(const std::vector<StmtP>& body) {
  for (const auto& s : body)
    if (s->kind == Stmt::K::Return || containsReturn(s->body) || containsReturn(s->orelse)) return true;
  return false;
}

Lowerer::Flow Lowerer::execBlock(const std::vector<StmtP>& body, Env& env) { return execStmts(body, 0, env); }

Lowerer::Flow Lowerer::execStmts(const std::vector<StmtP>& body, size_t start, Env& env) {
  for (size_t i = start; i < body.size(); ++i) {
    continuation_.emplace_back(&body, i + 1);
    Flow f;
    try {
      f = execStmt(*body[i], env);
    } catch (...) {
      continuation_.pop_back();
      throw;
    }
    continuation_.pop_back();
    if (f.returned) return f;
  }
  return {};
}

Lowerer::Flow Lowerer::runContinuation(Env& env) {
  auto saved = continuation_;
  Flow result;
  while (!continuation_.empty()) {
    auto [body, index] = continuation_.back();
    continuation_.pop_back();
    Flow f = execStmts(*body, index, env);
    if (f.returned) {
      result = f;
      break;
    }
  }
  continuation_ = saved;
  return result;
}

std::optional<DType> Lowerer::yieldBranchValues(const Stmt& s, ir::Op* op, const CV (&v)[2],
                                                std::vector<ir::Value*> (&yields)[2], const std::string& typeMismatch,
                                                const std::string& constantMismatch) {
  if (sameConstant(v[0], v[1])) return std::nullopt;
  if (!(v[0].isTensor() || v[0].isNumber()) || !(v[1].isTensor() || v[1].isNumber()))
    fail(s.line, s.col, constantMismatch.empty() ? typeMismatch : constantMismatch);
  // The merged type: a tensor side wins; two numbers take their promoted dtype.
  const CV& proto = v[0].isTensor() ? v[0] : v[1];
  DType dt = proto.isTensor() ? proto.dtype : computationType(v[0], v[1], false, *s.test);
  std::vector<int64_t> shape = proto.isTensor() ? std::vector<int64_t>(proto.type().shape().begin(), proto.type().shape().end())
                                                : std::vector<int64_t>{};
  for (int i = 0; i < 2; ++i) {
    b.setInsertionPoint(&op->regions[i]->block);
    if (v[i].isTensor() && !(v[i].dtype == dt && v[i].type().shape().size() == shape.size() &&
                             std::equal(shape.begin(), shape.end(), v[i].type().shape().begin())))
      fail(s.line, s.col, typeMismatch);
    if (std::string problem = implicitNumberProblem(v[i], dt); !problem.empty()) fail(s.line, s.col, typeMismatch + ": " + problem);
    yields[i].push_back((v[i].isTensor() ? v[i] : broadcastTo(cast(v[i], dt, *s.test), shape, *s.test)).value);
  }
  return dt;
}

std::vector<ir::Value*> Lowerer::closeIf(const Stmt& s, ir::Op* op, ir::Block* parent, std::vector<ir::Value*> (&yields)[2]) {
  for (int i = 0; i < 2; ++i) {
    b.setInsertionPoint(&op->regions[i]->block);
    setLoc(s.line, s.col);
    b.create(Opcode::Yield, yields[i], {});
  }
  b.setInsertionPoint(parent);
  std::vector<ir::Value*> results;
  for (ir::Value* y : yields[0]) results.push_back(appendResult(op, y->type));
  return results;
}

// A runtime `if` takes a scalar, or a one-element tile as its element (Triton unsplats it, with
// a warning); a larger tile is an error.
CV Lowerer::ifCondition(const CV& cond, const Expr& test) {
  if (cond.type().isScalar()) return cond;
  if (cond.type().numElements() == 1) return callMethod(*this, "item", cond, test);
  fail(test, "an if condition must be a scalar, got " + cond.describe());
}

CV Lowerer::lowerRuntimeIfExp(const Expr& e, const CV& cond, Env& env) {
  CV c = cast(ifCondition(cond, *e.b), DType::of(ScalarKind::I1), *e.b);
  setLoc(e);
  ir::Op* op = b.create(Opcode::If, {c.value}, {});
  ir::Block* parent = b.insertionBlock();
  const Expr* sides[2] = {e.a.get(), e.c.get()};
  CV v[2];
  for (int i = 0; i < 2; ++i) {
    b.setInsertionPoint(&op->regions[i]->block);
    CV side = eval(*sides[i], env);
    v[i] = side.kind == CV::K::None ? side : toTensor(side, *sides[i]);
  }
  const bool isVoid = v[0].kind == CV::K::None && v[1].kind == CV::K::None;
  auto sameType = [&] {
    if (!v[0].isTensor() || !v[1].isTensor() || !(v[0].dtype == v[1].dtype)) return false;
    auto s0 = v[0].type().shape(), s1 = v[1].type().shape();
    return s0.size() == s1.size() && std::equal(s0.begin(), s0.end(), s1.begin());
  };
  if (!isVoid && !sameType())
    fail(e, "Ternary expression with dynamic condition has inconsistent types " + v[0].describe() + " and " +
                v[1].describe() + " (as in Triton, each side must have the same type)");
  for (int i = 0; i < 2; ++i) {
    b.setInsertionPoint(&op->regions[i]->block);
    setLoc(e);
    b.create(Opcode::Yield, isVoid ? std::vector<ir::Value*>{} : std::vector<ir::Value*>{v[i].value}, {});
  }
  b.setInsertionPoint(parent);
  if (isVoid) return CV::none();
  return CV::tensor(appendResult(op, v[0].type()), v[0].dtype);
}

Lowerer::Flow Lowerer::lowerReturningIf(const Stmt& s, const CV& cond, Env& env) {
  CV c = cast(ifCondition(cond, *s.test), DType::of(ScalarKind::I1), *s.test);
  setLoc(s.line, s.col);
  ir::Op* op = b.create(Opcode::If, {c.value}, {});
  ir::Block* parent = b.insertionBlock();
  const std::vector<StmtP>* bodies[2] = {&s.body, &s.orelse};
  CV values[2];
  for (int i = 0; i < 2; ++i) {
    b.setInsertionPoint(&op->regions[i]->block);
    Env branchEnv = env;
    Flow f = execBlock(*bodies[i], branchEnv);
    if (!f.returned) f = runContinuation(branchEnv);
    values[i] = f.value;
  }
  // The return values of both paths become the if's results (numbers adapt to tensors).
  std::vector<CV> flat[2];
  std::function<void(const CV&, std::vector<CV>&)> flatten = [&](const CV& v, std::vector<CV>& out) {
    if (v.kind == CV::K::Tuple) for (const CV& e : v.elts) flatten(e, out);
    else out.push_back(v);
  };
  for (int i = 0; i < 2; ++i) flatten(values[i], flat[i]);
  if (flat[0].size() != flat[1].size())
    fail(s.line, s.col, "the paths through this if return different numbers of values");
  std::vector<ir::Value*> yields[2];
  std::vector<CV> merged(flat[0].size());
  std::vector<size_t> resultSlots;
  std::vector<DType> resultTypes;
  for (size_t k = 0; k < flat[0].size(); ++k) {
    const CV pair[2] = {flat[0][k], flat[1][k]};
    auto dt = yieldBranchValues(s, op, pair, yields,
                                "Return type mismatch: the paths through this if return " + pair[0].describe() + " and " +
                                    pair[1].describe() + "; a returned value must have one type");
    if (!dt) {
      merged[k] = pair[0];
      continue;
    }
    resultSlots.push_back(k);
    resultTypes.push_back(*dt);
  }
  std::vector<ir::Value*> results = closeIf(s, op, parent, yields);
  for (size_t r = 0; r < resultSlots.size(); ++r) merged[resultSlots[r]] = CV::tensor(results[r], resultTypes[r]);
  // Rebuild the returned value's shape (a tuple stays a tuple).
  size_t next = 0;
  std::function<CV(const CV&)> rebuild = [&](const CV& shapeOf) -> CV {
    if (shapeOf.kind != CV::K::Tuple) return merged[next++];
    std::vector<CV> elts;
    for (const CV& e : shapeOf.elts) elts.push_back(rebuild(e));
    return CV::tuple(std::move(elts));
  };
  Flow out;
  out.returned = true;
  out.value = rebuild(values[0]);
  return out;
}

Lowerer::Flow Lowerer::execStmt(const Stmt& s, Env& env) {
  setLoc(s.line, s.col);
  if (b.opsCreated() > kMaxKernelOps)
    fail(s.line, s.col, "the kernel lowers to more than " + std::to_string(kMaxKernelOps) +
                            " ops (unrolled loops and inlined helpers multiply; see docs/limits.md)");
  switch (s.kind) {
    case Stmt::K::Expr:
      eval(*s.value, env);
      return {};
    case Stmt::K::Assign: {
      CV v = lifted(eval(*s.value, env), *s.value);
      for (const auto& t : s.targets) assign(*t, v, env, *s.value);
      return {};
    }
    case Stmt::K::AugAssign: {
      const Expr& t = *s.targets[0];
      if (t.kind != Expr::K::Name) fail(t, "augmented assignment needs a name on the left");
      CV cur = lookup(t.str, t, env);
      CV rhs = eval(*s.value, env);
      env[t.str] = lifted(binary(s.op, cur, rhs, *s.value, true), *s.value);
      return {};
    }
    case Stmt::K::AnnAssign:
      if (s.value) {
        CV v = eval(*s.value, env);
        const bool isConstexpr = s.annotation->str == "constexpr";
        if (isConstexpr && v.isTensor())
          fail(*s.value, "a value annotated tl.constexpr must be a compile-time constant, got " + v.describe());
        assign(*s.targets[0], isConstexpr ? v : lifted(v, *s.value), env, *s.value);
      }
      return {};
    case Stmt::K::If:
      return lowerIf(s, env);
    case Stmt::K::For:
      lowerFor(s, env);
      return {};
    case Stmt::K::While:
      lowerWhile(s, env);
      return {};
    case Stmt::K::Return: {
      Flow f;
      f.returned = true;
      if (s.value) f.value = eval(*s.value, env);
      return f;
    }
    case Stmt::K::Pass:
      return {};
    case Stmt::K::Break:
    case Stmt::K::Continue:
      fail(s.line, s.col, std::string("'") + (s.kind == Stmt::K::Break ? "break" : "continue") +
                              "' is not supported in a @triton.jit function (Triton has no early loop exit)");
    case Stmt::K::Unsupported:
      fail(s.line, s.col, "'" + s.op + "' is not supported in a @triton.jit function");
    case Stmt::K::Assert: {
      CV c = eval(*s.test, env);
      std::string msg;
      if (s.value) {
        CV m = eval(*s.value, env);
        if (m.kind != CV::K::Str) fail(*s.value, "assert message must be a string");
        msg = m.s;
      }
      if (!c.isTensor()) {
        if (!constexprTruth(c, *s.test, "assert condition")) fail(*s.test, "assertion failed" + (msg.empty() ? "" : ": " + msg));
        return {};
      }
      CV cb = cast(c, DType::of(ScalarKind::I1), *s.test);
      setLoc(s.line, s.col);
      b.create(Opcode::Assert, {cb.value}, {}, {{"message", msg}});
      return {};
    }
  }
  return {};
}

Lowerer::Flow Lowerer::lowerIf(const Stmt& s, Env& env) {
  CV cond = eval(*s.test, env);
  if (!cond.isTensor()) return execBlock(constexprTruth(cond, *s.test, "condition") ? s.body : s.orelse, env);
  if (containsReturn(s.body) || containsReturn(s.orelse)) return lowerReturningIf(s, cond, env);
  CV c = cast(ifCondition(cond, *s.test), DType::of(ScalarKind::I1), *s.test);
  setLoc(s.line, s.col);
  ir::Op* op = b.create(Opcode::If, {c.value}, {});
  ir::Block* parent = b.insertionBlock();
  Env branchEnv[2] = {env, env};
  const std::vector<StmtP>* bodies[2] = {&s.body, &s.orelse};
  for (int i = 0; i < 2; ++i) {
    b.setInsertionPoint(&op->regions[i]->block);
    Flow f = execBlock(*bodies[i], branchEnv[i]);
  }
  // Names that differ after the branches become results: those defined before the if, or in
  // both branches.
  std::set<std::string> names;
  for (int i = 0; i < 2; ++i)
    for (const auto& [name, v] : branchEnv[i]) {
      bool before = env.count(name) > 0;
      bool inBoth = branchEnv[1 - i].count(name) > 0;
      if ((before && !sameConstant(v, env.at(name))) || (!before && inBoth)) names.insert(name);
    }
  // Each result: the name it binds, and the part of a tensor descriptor it is (-1: the value).
  std::vector<std::pair<std::string, int>> merged;
  std::vector<DType> dtypes;
  std::vector<ir::Value*> yields[2];
  for (const std::string& name : names) {
    const CV pair[2] = {branchEnv[0].at(name), branchEnv[1].at(name)};
    // Two descriptors of one kind, block shape and padding: part by part (a new one made in a
    // branch, as Triton allows).
    if (pair[0].kind == CV::K::BlockPtr && pair[1].kind == CV::K::BlockPtr && pair[0].s == "tensor_descriptor" &&
        pair[1].s == pair[0].s && pair[0].ints == pair[1].ints && pair[0].f == pair[1].f && pair[0].elts.size() == pair[1].elts.size()) {
      env[name] = pair[0];
      for (size_t k = 0; k < pair[0].elts.size(); ++k) {
        const CV part[2] = {pair[0].elts[k], pair[1].elts[k]};
        auto dt = yieldBranchValues(s, op, part, yields,
                                    "Mismatched type for " + name + ": " + pair[0].describe() + " in one branch of the if and " +
                                        pair[1].describe() + " in the other");
        if (dt) {
          merged.push_back({name, int(k)});
          dtypes.push_back(*dt);
        }
      }
      continue;
    }
    auto dt = yieldBranchValues(s, op, pair, yields,
                                "Mismatched type for " + name + ": " + pair[0].describe() + " in one branch of the if and " +
                                    pair[1].describe() + " in the other",
                                "'" + name + "' is assigned different compile-time values in the branches of a runtime if");
    if (!dt) {
      env[name] = pair[0];
      continue;
    }
    merged.push_back({name, -1});
    dtypes.push_back(*dt);
  }
  std::vector<ir::Value*> results = closeIf(s, op, parent, yields);
  for (size_t k = 0; k < merged.size(); ++k) {
    const auto& [name, part] = merged[k];
    CV r = CV::tensor(results[k], dtypes[k]);
    if (part < 0) env[name] = r;
    else env[name].elts[size_t(part)] = r;
  }
  return {};
}

std::array<CV, 3> Lowerer::rangeBounds(const std::string& kind, const CallArgs& a, const Expr& site,
                                       std::vector<ir::Attribute>* hints) {
  // Triton's signatures: range(arg1, arg2=None, step=None, *, num_stages, loop_unroll_factor,
  // disallow_acc_multi_buffer, flatten, warp_specialize, disable_licm) and static_range(arg1,
  // arg2=None, step=None); Python's range takes 1 to 3 positional arguments only. Of tl.range's
  // hints, loop_unroll_factor and disable_licm become the loop's attributes (docs/ir.md); the
  // others change nothing here.
  static const char* const kNames[3] = {"arg1", "arg2", "step"};
  const std::string name = kind == "tl.static_range" ? "static_range" : "range";
  if (a.pos.size() > 3) fail(site, name + " takes 1 to 3 arguments, got " + std::to_string(a.pos.size()));
  std::optional<CV> given[3];
  for (size_t i = 0; i < a.pos.size(); ++i) given[i] = a.pos[i];
  for (const auto& [k, v] : a.kw) {
    int slot = -1;
    for (int i = 0; i < 3; ++i)
      if (k == kNames[i]) slot = i;
    if (slot >= 0 && kind != "range") {
      if (given[slot]) fail(site, name + "() got multiple values for argument '" + k + "'");
      given[slot] = v;
      continue;
    }
    const bool hint = kind == "tl.range" && (k == "num_stages" || k == "loop_unroll_factor" || k == "disallow_acc_multi_buffer" ||
                                             k == "flatten" || k == "warp_specialize" || k == "disable_licm");
    if (!hint) fail(site, "unexpected keyword argument '" + k + "' to " + name + "()");
    if (hints && v.kind != CV::K::None) loopHint(k, v, site, *hints);
  }
  if (!given[0]) fail(site, name + "() missing required argument 'arg1'");
  auto isNone = [](const std::optional<CV>& v) { return !v || v->kind == CV::K::None; };
  std::array<CV, 3> out{CV::integer(0), CV::integer(0), CV::integer(1)};
  if (isNone(given[1])) out[1] = *given[0];
  else out[0] = *given[0], out[1] = *given[1];
  if (!isNone(given[2])) out[2] = *given[2];
  return out;
}

void Lowerer::loopHint(const std::string& name, const CV& v, const Expr& at, std::vector<ir::Attribute>& hints) {
  if (name == "disable_licm") {
    if (v.kind != CV::K::Bool && v.kind != CV::K::Int) fail(at, "disable_licm must be a constexpr bool, got " + v.describe());
    if (v.i) hints.push_back({"disable_licm", int64_t(1)});
  } else if (name == "loop_unroll_factor") {
    if (v.kind != CV::K::Int || v.i < 1 || v.i > ir::kMaxUnrollFactor)
      fail(at, "loop_unroll_factor must be from 1 to " + std::to_string(ir::kMaxUnrollFactor) + ", got " + v.describe());
    hints.push_back({"unroll_factor", v.i});
  }
}

void Lowerer::lowerStaticFor(const Stmt& s, const CallArgs& a, Env& env) {
  if (containsReturn(s.body)) fail(s.line, s.col, "return inside a loop is not supported (nor by Triton)");
  const std::array<CV, 3> bounds = rangeBounds("tl.static_range", a, *s.value);
  int64_t v[3];
  for (int i = 0; i < 3; ++i) {
    if ((bounds[i].kind != CV::K::Int && bounds[i].kind != CV::K::Bool) || bounds[i].u64)
      fail(*s.value, "static_range bounds must be constexpr integers from -2^63 to 2^63 - 1, got " + bounds[i].describe());
    v[i] = bounds[i].i;
  }
  if (v[2] == 0) fail(*s.value, "static_range step must not be zero");
  int64_t trips = 0;
  for (int64_t i = v[0]; v[2] > 0 ? i < v[1] : i > v[1]; i += v[2]) {
    if (++trips > 4096) fail(*s.value, "static_range unrolls more than 4096 iterations");
    if (++unrolledBodies_ > kMaxUnrolledBodies)
      fail(*s.value, "static_range loops unroll more than " + std::to_string(kMaxUnrolledBodies) +
                         " bodies in total (nested loops multiply; see docs/limits.md)");
    assign(*s.targets[0], CV::integer(i), env, *s.value);
    if (execBlock(s.body, env).returned) fail(s.line, s.col, "return inside a loop is not supported");
  }
}

void Lowerer::lowerFor(const Stmt& s, Env& env) {
  if (containsReturn(s.body)) fail(s.line, s.col, "return inside a loop is not supported (nor by Triton)");
  const Expr& iter = *s.value;
  if (iter.kind != Expr::K::Call) fail(iter, "for loops must iterate over range(), tl.range() or tl.static_range()");
  CV callee = eval(*iter.a, env);
  CallArgs a = evalArgs(iter, env);
  std::string kind = callee.kind == CV::K::Builtin ? callee.s : "";
  if (kind == "tl.static_range") return lowerStaticFor(s, a, env);
  if (kind != "range" && kind != "tl.range")
    fail(iter, "for loops must iterate over range(), tl.range() or tl.static_range(), got " + callee.describe());
  if (s.targets[0]->kind != Expr::K::Name) fail(*s.targets[0], "the loop variable must be a name");
  std::vector<ir::Attribute> hints;
  const std::array<CV, 3> bounds = rangeBounds(kind, a, iter, &hints);
  if (bounds[2].isNumber() && bounds[2].i == 0) fail(iter, "range step must not be zero");
  // The induction variable's type: promoted over the bounds (constexprs default to int32).
  DType iv = DType::of(ScalarKind::I32);
  for (const CV& bnd : bounds) {
    if (!(bnd.isNumber() || bnd.isTensor()) || (bnd.isTensor() && (!bnd.dtype.isInt() || !bnd.type().isScalar())) ||
        bnd.kind == CV::K::Float)
      fail(iter, "range bounds must be integer scalars, got " + bnd.describe());
    DType d = bnd.isTensor() ? bnd.dtype : constexprDType(bnd, iter);
    if (d.bits() > iv.bits()) iv = d;
  }
  setLoc(iter);
  ir::Value* operands[3];
  for (int i = 0; i < 3; ++i) operands[i] = cast(bounds[i], iv, iter).value;

  Carried c = loopCarried(s, env, s.targets[0]->str, iter);
  std::vector<ir::Value*> ops(operands, operands + 3);
  for (const CV& v : c.inits) ops.push_back(v.value);
  setLoc(s.line, s.col);
  ir::Op* loop = b.create(Opcode::For, ops, c.types);
  for (auto& h : hints) loop->setAttr(h.name, h.value);
  ir::Block* parent = b.insertionBlock();
  ir::Block& body = loop->regions[0]->block;
  Env bodyEnv = env;
  bodyEnv[s.targets[0]->str] = CV::tensor(body.addArg(ir::Type(iv.elem())), iv);
  bindCarried(c, body, bodyEnv);
  b.setInsertionPoint(&body);
  if (execBlock(s.body, bodyEnv).returned) fail(s.line, s.col, "return inside a loop is not supported");
  yieldCarried(s, c, bodyEnv, iter);
  b.setInsertionPoint(parent);
  bindResults(c, loop, env);
}

void Lowerer::lowerWhile(const Stmt& s, Env& env) {
  if (containsReturn(s.body)) fail(s.line, s.col, "return inside a loop is not supported (nor by Triton)");
  Carried c = loopCarried(s, env, "", *s.test);
  std::vector<ir::Value*> ops;
  for (const CV& v : c.inits) ops.push_back(v.value);
  setLoc(s.line, s.col);
  ir::Op* loop = b.create(Opcode::While, ops, c.types);
  ir::Block* parent = b.insertionBlock();
  // before-region: evaluate the condition (every iteration, side effects included).
  Env condEnv = env;
  ir::Block& before = loop->regions[0]->block;
  bindCarried(c, before, condEnv);
  b.setInsertionPoint(&before);
  // `while tl.condition(c, disable_licm=...)`: Triton's wrapper of a loop condition with a hint.
  std::optional<CV> wrapped;
  const Expr* testAt = s.test.get();
  if (testAt->kind == Expr::K::Call) {
    CV callee = eval(*testAt->a, condEnv);
    if (callee.kind == CV::K::Builtin && callee.s == "tl.condition") {
      CallArgs ca = evalArgs(*testAt, condEnv);
      Args args(*this, ca, "condition", {"arg1", "disable_licm"});
      std::vector<ir::Attribute> hints;
      if (args.has(1)) loopHint("disable_licm", args.get(1), args.at(1), hints);
      for (auto& h : hints) loop->setAttr(h.name, h.value);
      wrapped = args.get(0);
      testAt = &args.at(0);
    }
  }
  const Expr& testExpr = *testAt;
  CV cond = wrapped ? *wrapped : eval(testExpr, condEnv);
  if (!cond.isTensor()) fail(testExpr, "a while condition must depend on runtime values (constant conditions would not terminate)");
  if (!cond.type().isScalar()) fail(testExpr, "a while condition must be a scalar, got " + cond.describe());
  CV test = cast(cond, DType::of(ScalarKind::I1), testExpr);
  std::vector<ir::Value*> condOps{test.value};
  for (const auto& a : before.args) condOps.push_back(a.get());
  setLoc(testExpr);
  b.create(Opcode::Condition, condOps, {});
  // after-region: the body.
  Env bodyEnv = env;
  ir::Block& after = loop->regions[1]->block;
  bindCarried(c, after, bodyEnv);
  b.setInsertionPoint(&after);
  if (execBlock(s.body, bodyEnv).returned) fail(s.line, s.col, "return inside a loop is not supported");
  yieldCarried(s, c, bodyEnv, *s.test);
  b.setInsertionPoint(parent);
  bindResults(c, loop, env);
}

// A block pointer carried by a loop travels as its offsets (names `p#0`, `p#1`, ...); its base,
// shape and strides must be the same values on every iteration. A tensor descriptor travels
// whole: its base, shapes and strides (a loop may make a new one, as Triton allows).
static std::string offsetSlot(const std::string& name, size_t d) { return name + "#" + std::to_string(d); }

// The first of an aggregate's parts a loop carries: a block pointer's offsets, all of a
// descriptor.
static size_t firstCarried(const CV& v) { return v.s == "block_ptr" ? 1 + 2 * v.ints.size() : 0; }

Lowerer::Carried Lowerer::loopCarried(const Stmt& s, const Env& env, const std::string& exclude, const Expr& at) {
  std::vector<std::string> assigned;
  assignedNames(s.body, assigned);
  Carried c;
  for (const std::string& n : assigned) {
    if (n == exclude || !env.count(n) || std::find(c.names.begin(), c.names.end(), n) != c.names.end() ||
        c.blockPtrs.count(n))
      continue;
    const CV& v = env.at(n);
    if (v.kind == CV::K::BlockPtr) {
      c.blockPtrs[n] = v;
      for (size_t d = firstCarried(v); d < v.elts.size(); ++d) {
        c.names.push_back(offsetSlot(n, d));
        c.inits.push_back(v.elts[d]);
        c.types.push_back(c.inits.back().type());
      }
      continue;
    }
    if (!v.isTensor() && !v.isNumber())
      fail(s.line, s.col, "'" + n + "' (" + v.describe() + ") is reassigned inside a loop; only tensors, numbers, block pointers and tensor descriptors can be");
    c.names.push_back(n);
    c.inits.push_back(toTensor(v, at));
    c.types.push_back(c.inits.back().type());
  }
  return c;
}

void Lowerer::regroupCarried(const Carried& c, Env& env) {
  for (const auto& [name, proto] : c.blockPtrs) {
    CV bp = proto;
    for (size_t d = firstCarried(bp); d < bp.elts.size(); ++d) {
      bp.elts[d] = env.at(offsetSlot(name, d));
      env.erase(offsetSlot(name, d));
    }
    env[name] = bp;
  }
}

void Lowerer::bindCarried(const Carried& c, ir::Block& block, Env& env) {
  for (size_t k = 0; k < c.names.size(); ++k) env[c.names[k]] = CV::tensor(block.addArg(c.types[k]), c.inits[k].dtype);
  regroupCarried(c, env);
}

void Lowerer::bindResults(const Carried& c, ir::Op* loop, Env& env) {
  for (size_t k = 0; k < c.names.size(); ++k) env[c.names[k]] = CV::tensor(loop->result(unsigned(k)), c.inits[k].dtype);
  regroupCarried(c, env);
}

void Lowerer::yieldCarried(const Stmt& s, const Carried& c, Env& bodyEnv, const Expr& at) {
  for (const auto& [name, proto] : c.blockPtrs) {
    const CV& v = bodyEnv.at(name);
    bool same = v.kind == CV::K::BlockPtr && v.s == proto.s && v.ints == proto.ints && v.f == proto.f &&
                v.elts.size() == proto.elts.size();
    if (!same && proto.s != "block_ptr")
      fail(s.line, s.col, "tensor descriptor '" + name + "' is " + (v.kind == CV::K::BlockPtr ? "made with another block shape, padding or kind" : "reassigned to " + v.describe()) +
                              " in the loop; its type must stay the same");
    for (size_t k = 0; same && k < firstCarried(proto); ++k) same = v.elts[k].value == proto.elts[k].value;
    if (!same)
      fail(s.line, s.col, "block pointer '" + name + "' is rebuilt in the loop; only tl.advance may change it there");
    for (size_t d = firstCarried(proto); d < v.elts.size(); ++d) bodyEnv[offsetSlot(name, d)] = v.elts[d];
  }
  std::vector<ir::Value*> next;
  for (size_t k = 0; k < c.names.size(); ++k) {
    CV v = bodyEnv.at(c.names[k]);
    if (std::string problem = implicitNumberProblem(v, c.inits[k].dtype); !problem.empty())
      fail(s.line, s.col, "loop-carried variable '" + c.names[k] + "' has initial type " + c.inits[k].describe() +
                              " but is reassigned to " + v.describe() + " in the loop: " + problem);
    if (v.isNumber()) v = broadcastTo(cast(v, c.inits[k].dtype, at), c.types[k].shape(), at);
    if (!v.isTensor() || !(v.dtype == c.inits[k].dtype) || !(v.type() == c.types[k]))
      fail(s.line, s.col, "loop-carried variable '" + c.names[k] + "' has initial type " + c.inits[k].describe() +
                              " but is reassigned to " + v.describe() + " in the loop; its type must stay the same");
    next.push_back(v.value);
  }
  setLoc(s.line, s.col);
  b.create(Opcode::Yield, next, {});
}

}  // namespace tilevm::frontend
