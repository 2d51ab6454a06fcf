// LowerExpr.cpp - expressions: names and scopes, attributes, subscripts, calls and the inlining
// of @triton.jit helpers.
#include <algorithm>
#include <functional>

#include "frontend/Builtins.h"
#include "frontend/Lowerer.h"
#include "frontend/Modules.h"
#include "frontend/Prelude.h"
#include "frontend/SourceUnit.h"

namespace tilevm::frontend {

using ir::Opcode;
using ir::ScalarKind;

namespace {
constexpr int kMaxCallDepth = 64;

bool isConstexprAnnotation(const Expr* a) {
  if (!a) return false;
  if (a->kind == Expr::K::Attr) return a->str == "constexpr";
  if (a->kind == Expr::K::Name) return a->str == "constexpr";
  if (a->kind == Expr::K::Str) return a->str.find("constexpr") != std::string::npos;
  return false;
}

// The error for naming a value a kernel cannot use: `what` says what it is (`a torch.Tensor`).
std::string unusableValue(const std::string& name, const std::string& what) {
  return "'" + name + "' is " + what + ": a kernel can use constexpr values (int, float, bool, None, str, tl.constexpr), "
         "dtypes, @triton.jit functions and modules";
}

// Whether a compile-time value holds a tensor (a runtime tuple) anywhere inside.
bool holdsTensor(const CV& v) {
  if (v.isTensor()) return true;
  return v.kind == CV::K::Tuple && std::any_of(v.elts.begin(), v.elts.end(), holdsTensor);
}

}  // namespace

bool isConstexprParam(const Param& p) { return isConstexprAnnotation(p.annotation.get()); }

std::optional<DType> annotatedDType(const Param& p) {
  const Expr* a = p.annotation.get();
  std::string name;
  if (a && a->kind == Expr::K::Attr && a->a) {
    const Expr* base = a->a.get();
    const bool language = (base->kind == Expr::K::Name && base->str == "tl") ||
                          (base->kind == Expr::K::Attr && base->str == "language" && base->a && base->a->kind == Expr::K::Name &&
                           base->a->str == "triton");
    if (language) name = a->str;
  } else if (a && a->kind == Expr::K::Str) {
    name = a->str.substr(a->str.find_first_not_of(" "));
    if (name.rfind("tl.", 0) == 0) name = name.substr(3);
  }
  DType dt;
  if (name.empty() || name[0] == '*' || !parseDTypeName(name, dt)) return std::nullopt;
  return dt;
}

bool isConstParam(const Param& p) {
  const Expr* a = p.annotation.get();
  return a && (a->kind == Expr::K::Attr || a->kind == Expr::K::Name) && a->str == "const";
}

Lowerer::Lowerer(const PyModule& m, ir::Module& out, ModuleLoader* loader) : b(out), module(&m), loader_(loader) {
  fileIdx_ = out.fileIndex(m.fileName);
}

const PyModule* Lowerer::enterModule(const PyModule* m) {
  const PyModule* old = module;
  if (m && m != module) {
    module = m;
    if (!inPrelude_) fileIdx_ = b.module().fileIndex(m->fileName);
  }
  return old;
}

void Lowerer::fail(uint32_t line, uint32_t col, const std::string& msg) const {
  throw DiagnosticError(Diagnostic{module->fileName, line, col, msg});
}

CV Lowerer::inlinePrelude(const std::string& name, CallArgs& args) {
  const PyModule& pre = prelude();
  const FunctionDef* fn = pre.kernel(name);
  if (!fn) fail(*args.site, "'" + name + "' is missing from the prelude");
  // Names resolve in the prelude; errors inside it are reported at the user's call.
  const PyModule* saved = module;
  bool savedPrelude = inPrelude_;
  module = &pre;
  inPrelude_ = true;
  try {
    CV r = inlineFunction(*fn, args);
    module = saved;
    inPrelude_ = savedPrelude;
    return r;
  } catch (const DiagnosticError& e) {
    module = saved;
    inPrelude_ = savedPrelude;
    if (e.diag.file == pre.fileName) fail(*args.site, "in " + name + "(): " + e.diag.message);
    throw;
  }
}

bool Lowerer::constexprTruth(const CV& v, const Expr& at, const char* what) {
  switch (v.kind) {
    case CV::K::None: return false;
    case CV::K::Bool:
    case CV::K::Int: return v.i != 0;
    case CV::K::Float: return v.f != 0;
    case CV::K::Str: return !v.s.empty();
    case CV::K::Tuple: return !v.elts.empty();
    case CV::K::DType:
    case CV::K::Function:
    case CV::K::HostFunction:
    case CV::K::Module:
    case CV::K::Builtin:
    case CV::K::TupleType:
    case CV::K::ConstexprType:
    case CV::K::Method: return true;
    case CV::K::Tensor:
    case CV::K::Slice:
    case CV::K::Opaque:
    case CV::K::BlockPtr: break;
  }
  fail(at, std::string(what) + " must be a compile-time constant, got " + v.describe());
}

CV Lowerer::moduleConstant(const PyModule& m, const std::string& name, const Binding& bnd, const Expr& at) {
  auto key = std::make_pair(&m, bnd.id);
  if (auto cached = constantCache_.find(key); cached != constantCache_.end()) return cached->second;
  if (!bnd.expr)
    fail(at, "module-level '" + name + "' (" + m.fileName + ":" + std::to_string(bnd.line) +
                 ") is not a compile-time constant tilevm understands");
  if (std::find(evaluatingConstants_.begin(), evaluatingConstants_.end(), key) != evaluatingConstants_.end())
    fail(at, "module-level '" + name + "' refers to itself");
  evaluatingConstants_.push_back(key);
  const PyModule* saved = enterModule(&m);
  CV v;
  try {
    Env empty;
    v = eval(*bnd.expr, empty);
    if (v.isTensor()) fail(*bnd.expr, "module-level '" + name + "' must be a compile-time constant");
  } catch (...) {
    enterModule(saved);
    evaluatingConstants_.pop_back();
    throw;
  }
  enterModule(saved);
  evaluatingConstants_.pop_back();
  constantCache_[key] = v;
  return v;
}

CV Lowerer::importedValue(const PyModule& m, const Binding& bnd, const Expr& at) {
  std::string full = bnd.attr.empty() ? bnd.moduleName : bnd.moduleName.empty() ? bnd.attr : bnd.moduleName + "." + bnd.attr;
  if (bnd.level == 0 && (bnd.moduleName == "triton" || bnd.moduleName.rfind("triton.", 0) == 0 || bnd.moduleName == "math"))
    return resolvePath(full, at, *this);
  std::string shown = std::string(size_t(bnd.level), '.') + full;
  if (!loader_) fail(at, "cannot import '" + shown + "': project imports are not available here");
  auto found = loader_->import(m, bnd.level, bnd.moduleName);
  if (!found) throw DiagnosticError(found.error());
  if (!*found) {
    std::string where;
    if (bnd.level > 0) {
      where = "relative to " + m.dir;
    } else {
      for (const auto& d : loader_->searchPath()) where += (where.empty() ? "" : ", ") + d;
      where = "searched " + where + "; add a directory with -I";
    }
    fail(at, "cannot import '" + shown + "' (imported at " + m.fileName + ":" + std::to_string(bnd.line) + "): no module found (" +
                 where + ")");
  }
  if (bnd.attr.empty()) {
    CV v = CV::module(full);
    v.pymod = *found;
    return v;
  }
  return moduleAttribute(**found, bnd.attr, at);
}

std::optional<CV> Lowerer::hostName(const HostNames& names, const std::string& name, const Expr& at) {
  if (auto it = names.values.find(name); it != names.values.end()) {
    if (it->second.kind == CV::K::Function && it->second.fn->syntaxError) throw DiagnosticError(*it->second.fn->syntaxError);
    // A Triton module or function by its dotted name (`my_cdiv = triton.cdiv`): what the
    // frontend knows it as, as if the kernel spelled the name.
    if (it->second.kind == CV::K::Module && !it->second.pymod) return resolvePath(it->second.s, at, *this);
    return it->second;
  }
  if (auto it = names.unsupported.find(name); it != names.unsupported.end()) fail(at, unusableValue(name, it->second));
  return std::nullopt;
}

CV Lowerer::moduleAttribute(const PyModule& m, const std::string& name, const Expr& at) {
  if (m.host) {
    if (auto v = hostName(*m.host, name, at)) return *v;
    fail(at, m.host->what + " has no attribute '" + name + "'");
  }
  if (m.names.count(name)) return global(m, name, at);
  if (loader_) {
    auto sub = loader_->submodule(m, name);
    if (!sub) throw DiagnosticError(sub.error());
    if (*sub) {
      CV v = CV::module(name);
      v.pymod = *sub;
      return v;
    }
  }
  fail(at, "module " + m.fileName + " has no attribute '" + name + "'");
}

CV Lowerer::resolveBinding(const PyModule& m, const std::string& name, const Binding& bnd, const Expr& at) {
  switch (bnd.kind) {
    case Binding::K::Function: {
      if (bnd.fn->syntaxError) throw DiagnosticError(*bnd.fn->syntaxError);
      CV v;
      v.kind = CV::K::Function;
      v.fn = bnd.fn;
      return v;
    }
    case Binding::K::Constant: return moduleConstant(m, name, bnd, at);
    case Binding::K::Import: return importedValue(m, bnd, at);
    case Binding::K::Undecided: {
      std::string use = module ? module->fileName + ":" + std::to_string(at.line) : std::to_string(at.line);
      throw DiagnosticError(Diagnostic{m.fileName, bnd.line, bnd.col, bnd.what + " (it binds '" + name + "', used at " + use + ")"});
    }
    case Binding::K::Other: break;
  }
  fail(at, "'" + name + "' (" + m.fileName + ":" + std::to_string(bnd.line) + ") is a " + bnd.what +
               ", not a @triton.jit function or a compile-time constant");
}

CV Lowerer::global(const PyModule& m, const std::string& name, const Expr& at) {
  const std::vector<Binding>& alts = m.names.at(name);
  for (size_t i = 0; i < alts.size(); ++i) {
    try {
      return resolveBinding(m, name, alts[i], at);
    } catch (const DiagnosticError&) {
      if (i + 1 == alts.size()) throw;  // the last alternative's error is the one reported
    }
  }
  fail(at, "name '" + name + "' is not defined");
}

CV Lowerer::lookup(const std::string& name, const Expr& at, Env& env) {
  if (auto it = env.find(name); it != env.end()) {
    if (it->second.kind == CV::K::Opaque) fail(at, unusableValue(name, it->second.s));
    return it->second;
  }
  if (module->host) {
    if (auto v = hostName(*module->host, name, at)) return *v;
  } else if (module->names.count(name)) {
    return global(*module, name, at);
  }
  if (isPythonBuiltin(name)) return CV::builtin(name);
  fail(at, "name '" + name + "' is not defined");
}

CV Lowerer::attribute(const CV& base, const std::string& name, const Expr& at) {
  switch (base.kind) {
    case CV::K::Module:
      if (base.pymod) return moduleAttribute(*base.pymod, name, at);
      return resolvePath(base.s + "." + name, at, *this);
    case CV::K::Tensor: {
      if (name == "dtype") return CV::type(base.dtype);
      if (name == "type") {  // a block's type: its element_ty is the dtype; a scalar's is the dtype
        CV t = CV::type(base.dtype);
        if (!base.type().isScalar()) t.s = "block";
        return t;
      }
      if (name == "shape") {
        std::vector<CV> dims;
        for (int64_t d : base.type().shape()) dims.push_back(CV::integer(d));
        return CV::tuple(std::move(dims));
      }
      if (name == "numel") {  // a constexpr, as Triton's tensor.numel
        int64_t n = 1;
        for (int64_t d : base.type().shape()) n *= d;
        return CV::integer(n);
      }
      if (name == "T") return callMethod(*this, "trans", base, at);
      if (isTensorMethod(name)) {
        CV m;
        m.kind = CV::K::Method;
        m.s = name;
        m.elts.push_back(base);
        return m;
      }
      fail(at, "tensors have no attribute '" + name + "'");
    }
    case CV::K::BlockPtr:
      if (base.s == "tensor_descriptor" && (name == "load" || name == "store" || name == "gather" || name == "scatter")) {
        CV m;
        m.kind = CV::K::Method;
        m.s = "desc." + name;
        m.elts.push_back(base);
        return m;
      }
      if (name == "block_shape") {
        std::vector<CV> dims;
        for (int64_t d : base.ints) dims.push_back(CV::integer(d));
        return CV::tuple(std::move(dims));
      }
      if (name == "dtype") return CV::type(base.elts[0].dtype.element());
      if (base.s == "tensor_descriptor" && (name == "shape" || name == "strides")) {
        // Triton's desc.shape (int32 scalars) and desc.strides (int64): elts holds the base,
        // then each dimension's shape, then each stride, as i64 scalars.
        const size_t r = base.ints.size();
        std::vector<CV> dims;
        for (size_t d = 0; d < r; ++d)
          dims.push_back(name == "shape" ? cast(base.elts[1 + d], DType::of(ir::ScalarKind::I32), at) : base.elts[1 + r + d]);
        return CV::tuple(std::move(dims));
      }
      fail(at, base.describe() + " has no attribute '" + name + "'");
    case CV::K::DType:
      if (name == "element_ty" && base.s == "block") return CV::type(base.dtype);
      if (name == "element_ty") {
        if (!base.dtype.isPtr()) fail(at, base.dtype.name() + " is not a pointer type: it has no element_ty");
        return CV::type(base.dtype.element());
      }
      if (name == "primitive_bitwidth") return CV::integer(base.dtype.bits());
      if (base.dtype.isFp8() && name == "fp_mantissa_width") return CV::integer(ir::fp8Format(base.dtype.kind).manBits);
      if (base.dtype.isFp8() && name == "exponent_bias") return CV::integer(ir::fp8Format(base.dtype.kind).bias);
      if (name == "is_floating" || name == "is_int" || name == "is_ptr" || name == "is_int_signed" ||
          name == "is_int_unsigned" || name == "is_fp16" || name == "is_bf16" || name == "is_fp32" || name == "is_fp64" ||
          name == "is_fp8" || name == "is_fp8e5" || name == "is_fp8e4nv" || name == "is_fp8e4b15" || name == "is_fp8e5b16" ||
          name == "is_fp8e4b8" || name == "is_standard_floating") {
        CV m;
        m.kind = CV::K::Method;
        m.s = "dtype." + name;
        m.elts.push_back(base);
        return m;
      }
      fail(at, "dtypes have no attribute '" + name + "'");
    case CV::K::Tuple:
      for (size_t i = 0; i < base.fields.size() && i < base.elts.size(); ++i)
        if (base.fields[i] == name) return base.elts[i];
      if (name == "type" && !holdsTensor(base)) return CV::constexprType(base);  // a constexpr tuple's
      fail(at, (base.fields.empty() ? "tuples have" : "this named tuple has") + std::string(" no attribute '") + name + "'");
    case CV::K::Int:
    case CV::K::Float:
    case CV::K::Bool:
    case CV::K::Str:
      if (name == "type") return CV::constexprType(base);  // Triton's constexpr.type
      // A number used as a tensor (`zero: tl.constexpr = 0.0; zero.to(x.dtype)`): its default dtype.
      if (base.isNumber() && (isTensorMethod(name) || name == "dtype")) return attribute(toTensor(base, at), name, at);
      fail(at, base.describe() + " has no attribute '" + name + "'");
    default:
      fail(at, base.describe() + " has no attribute '" + name + "'");
  }
}

// Whether a slice keeps a whole dimension: `:`, or bounds and step that are all None
// (`None:`, `:None`, `None:None:None`), as Triton's tensor.__getitem__ takes them.
bool Lowerer::fullSlice(const Expr& slice, Env& env) {
  for (const Expr* part : {slice.a.get(), slice.b.get(), slice.c.get()})
    if (part && eval(*part, env).kind != CV::K::None) return false;
  return true;
}

CV Lowerer::subscript(const CV& base, const Expr& index, Env& env, const Expr& at) {
  std::vector<const Expr*> items;
  if (index.kind == Expr::K::Tuple) {
    for (const auto& e : index.elts) items.push_back(e.get());
  } else {
    items.push_back(&index);
  }
  if (base.kind == CV::K::Tuple) {
    if (items.size() != 1) fail(at, "tuples take one index");
    CV i = eval(*items[0], env);
    if (i.kind != CV::K::Int || i.u64) fail(*items[0], "tuple indices must be constexpr integers, got " + i.describe());
    int64_t k = i.i < 0 ? i.i + int64_t(base.elts.size()) : i.i;
    if (k < 0 || k >= int64_t(base.elts.size())) fail(*items[0], "tuple index out of range");
    return base.elts[size_t(k)];
  }
  if (!base.isTensor()) fail(at, base.describe() + " cannot be indexed");
  CV t = base;
  int64_t dim = 0;
  for (const Expr* item : items) {
    if (item->kind == Expr::K::None) {
      t = expandDims(t, dim, *item);
      ++dim;
    } else if (item->kind == Expr::K::Slice && fullSlice(*item, env)) {
      ++dim;  // keeps a dimension; past the last one it keeps nothing, as in Triton (Z[None, :] on a scalar)
    } else {
      fail(*item, "unsupported tensor index: tensors can only be indexed with None and ':' (to add or keep dimensions)");
    }
  }
  return t;
}

CallArgs Lowerer::evalArgs(const Expr& call, Env& env) {
  CallArgs args;
  args.site = &call;
  for (const auto& a : call.elts) {
    if (a->kind == Expr::K::Starred && a->a) {  // f(*t): a tuple's elements, as arguments
      CV t = eval(*a->a, env);
      if (t.kind != CV::K::Tuple) fail(*a, "'*' in a call needs a tuple, got " + t.describe());
      for (const CV& e : t.elts) {
        args.pos.push_back(e);
        args.posExprs.push_back(a.get());
      }
      continue;
    }
    args.pos.push_back(eval(*a, env));
    args.posExprs.push_back(a.get());
  }
  for (const auto& k : call.keywords) args.kw.emplace_back(k.name, eval(*k.value, env));
  return args;
}

CV Lowerer::call(const Expr& e, Env& env) {
  CV callee = eval(*e.a, env);
  CallArgs args = evalArgs(e, env);
  return callValue(callee, args);
}

// A @triton.constexpr_function: run in Python on the compile-time arguments, as Triton runs it;
// its result is a compile-time value.
CV Lowerer::callHost(const CV& callee, const CallArgs& args) {
  std::function<bool(const CV&)> compileTime = [&](const CV& v) {
    if (v.kind == CV::K::Tuple) return std::all_of(v.elts.begin(), v.elts.end(), compileTime);
    return v.kind == CV::K::None || v.isNumber() || v.kind == CV::K::Str || v.kind == CV::K::DType;
  };
  for (size_t i = 0; i < args.pos.size(); ++i)
    if (!compileTime(args.pos[i]))
      fail(*args.posExprs[i], "constexpr function " + callee.s + " takes compile-time values (numbers, strings, dtypes, "
                              "tuples of them), got " + args.pos[i].describe());
  for (const auto& [name, v] : args.kw)
    if (!compileTime(v))
      fail(*args.site, "constexpr function " + callee.s + " takes compile-time values, got " + v.describe() + " for '" +
                           name + "'");
  auto r = callee.host->call(size_t(callee.i), args.pos, args.kw);
  if (const std::string* why = std::get_if<std::string>(&r)) fail(*args.site, "constexpr function " + callee.s + ": " + *why);
  return std::get<CV>(std::move(r));
}

CV Lowerer::callValue(const CV& callee, CallArgs& args) {
  const Expr& at = *args.site;
  switch (callee.kind) {
    case CV::K::Function: return inlineFunction(*callee.fn, args);
    case CV::K::HostFunction: return callHost(callee, args);
    case CV::K::Builtin: return callBuiltin(callee.s, args);
    case CV::K::Method:
      args.pos.insert(args.pos.begin(), callee.elts[0]);
      args.posExprs.insert(args.posExprs.begin(), args.site);
      return callBuiltin(callee.s.rfind("dtype.", 0) == 0 || callee.s.rfind("desc.", 0) == 0 ? callee.s : "tensor." + callee.s, args);
    case CV::K::DType:
      // tl.float32(x): a cast, as in Triton.
      if (args.pos.size() == 1 && args.kw.empty()) return cast(args.pos[0], callee.dtype, at);
      break;
    case CV::K::TupleType: {
      // A named tuple, as Python makes one: fields by position, then by keyword.
      const size_t n = callee.fields.size();
      if (args.pos.size() > n)
        fail(at, callee.s + "() takes " + std::to_string(n) + " arguments but " + std::to_string(args.pos.size()) + " were given");
      std::vector<std::optional<CV>> v(n);
      for (size_t i = 0; i < args.pos.size(); ++i) v[i] = args.pos[i];
      for (const auto& [name, value] : args.kw) {
        auto it = std::find(callee.fields.begin(), callee.fields.end(), name);
        if (it == callee.fields.end()) fail(at, callee.s + "() got an unexpected keyword argument '" + name + "'");
        auto& slot = v[size_t(it - callee.fields.begin())];
        if (slot) fail(at, callee.s + "() got multiple values for argument '" + name + "'");
        slot = value;
      }
      CV t = CV::tuple({});
      for (size_t i = 0; i < n; ++i) {
        if (!v[i]) fail(at, callee.s + "() missing required argument '" + callee.fields[i] + "'");
        t.elts.push_back(*v[i]);
      }
      t.fields = callee.fields;
      return t;
    }
    default: break;
  }
  fail(at, callee.describe() + " is not callable");
}

CV Lowerer::inlineFunction(const FunctionDef& fn, CallArgs& args) {
  const Expr& at = *args.site;
  if (++callDepth_ > kMaxCallDepth) fail(at, "calls nested deeper than " + std::to_string(kMaxCallDepth) + " (recursion?)");
  if (args.pos.size() > fn.params.size())
    fail(at, fn.name + "() takes " + std::to_string(fn.params.size()) + " arguments but " +
                 std::to_string(args.pos.size()) + " were given");
  Env env;
  std::vector<bool> bound(fn.params.size(), false);
  for (size_t i = 0; i < args.pos.size(); ++i) {
    env[fn.params[i].name] = args.pos[i];
    bound[i] = true;
  }
  for (const auto& [name, v] : args.kw) {
    auto it = std::find_if(fn.params.begin(), fn.params.end(), [&](const Param& p) { return p.name == name; });
    if (it == fn.params.end()) fail(at, fn.name + "() got an unexpected keyword argument '" + name + "'");
    size_t i = size_t(it - fn.params.begin());
    if (bound[i]) fail(at, fn.name + "() got multiple values for argument '" + name + "'");
    env[name] = v;
    bound[i] = true;
  }
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const Param& p = fn.params[i];
    if (!bound[i]) {
      if (!p.defaultValue) fail(at, fn.name + "() missing required argument '" + p.name + "'");
      Env empty;
      const PyModule* caller = enterModule(fn.module);  // defaults resolve where fn is defined
      try {
        env[p.name] = eval(*p.defaultValue, empty);
      } catch (...) {
        enterModule(caller);
        throw;
      }
      enterModule(caller);
    }
    // A helper's tl.constexpr annotation does not make its argument one: Triton specializes a
    // called function on the values it is given, so a tile passed there stays a tile (the
    // attention tutorial passes offs_m, a tile, to `offs_m: tl.constexpr`).
  }
  const PyModule* caller = enterModule(fn.module);
  auto callerContinuation = std::move(continuation_);  // a return ends only this function
  continuation_.clear();
  Flow flow;
  try {
    flow = execBlock(fn.body, env);
  } catch (...) {
    enterModule(caller);
    continuation_ = std::move(callerContinuation);
    throw;
  }
  enterModule(caller);
  continuation_ = std::move(callerContinuation);
  --callDepth_;
  return flow.value;
}

CV Lowerer::eval(const Expr& e, Env& env) {
  switch (e.kind) {
    case Expr::K::Name: return lookup(e.str, e, env);
    case Expr::K::Int:
      return *CV::pythonInt(e.str.empty() ? __int128(e.ival) : __int128(uint64_t(e.ival)));  // the parser kept u64 ones as text
    case Expr::K::Float: return CV::real(e.fval);
    case Expr::K::Str: return CV::str(e.str);
    case Expr::K::Bool: return CV::boolean(e.ival != 0);
    case Expr::K::None: return CV::none();
    case Expr::K::Ellipsis: fail(e, "'...' is not supported here");
    case Expr::K::Tuple:
    case Expr::K::List: {
      std::vector<CV> elts;
      for (const auto& x : e.elts) elts.push_back(eval(*x, env));
      return CV::tuple(std::move(elts));
    }
    case Expr::K::Dict: fail(e, "dicts are not supported in a @triton.jit function");
    case Expr::K::Attr: return attribute(eval(*e.a, env), e.str, e);
    case Expr::K::Subscript: return subscript(eval(*e.a, env), *e.b, env, e);
    case Expr::K::Call: return call(e, env);
    case Expr::K::Binary: {
      CV l = eval(*e.a, env);
      CV r = eval(*e.b, env);
      return binary(e.str, l, r, e, true);
    }
    case Expr::K::Unary: return unary(e.str, eval(*e.a, env), e, true);
    case Expr::K::BoolOp: {
      bool isAnd = e.str == "and";
      CV acc = eval(*e.elts[0], env);
      for (size_t i = 1; i < e.elts.size(); ++i) {
        if (!acc.isTensor()) {
          // Python semantics on constants: short-circuit, and return the deciding operand.
          bool t = constexprTruth(acc, *e.elts[i - 1], "operand");
          if (isAnd ? !t : t) return acc;
          acc = eval(*e.elts[i], env);
          continue;
        }
        CV r = eval(*e.elts[i], env);
        CV lb = cast(acc, DType::of(ScalarKind::I1), e);
        CV rb = cast(r, DType::of(ScalarKind::I1), e);
        acc = binary(isAnd ? "&" : "|", lb, rb, e);
      }
      return acc;
    }
    case Expr::K::Compare: {
      CV result;
      CV left = eval(*e.elts[0], env);
      for (size_t i = 0; i < e.ops.size(); ++i) {
        CV right = eval(*e.elts[i + 1], env);
        const std::string& op = e.ops[i];
        CV r;
        if (op == "is" || op == "is not") {
          bool same = left.kind == right.kind &&
                      (left.kind == CV::K::None || (left.isNumber() && left.i == right.i && left.u64 == right.u64 && left.f == right.f) ||
                       (left.kind == CV::K::DType && left.dtype == right.dtype));
          if (left.isTensor() || right.isTensor()) same = left.isTensor() && right.isTensor() && left.value == right.value;
          r = CV::boolean(op == "is" ? same : !same);
        } else if ((op == "in" || op == "not in") && right.kind == CV::K::Str && left.kind == CV::K::Str) {
          bool found = right.s.find(left.s) != std::string::npos;
          r = CV::boolean(op == "in" ? found : !found);
        } else if (op == "in" || op == "not in") {
          if (right.kind != CV::K::Tuple) fail(e, "'in' needs a constexpr tuple on the right");
          bool found = false;
          for (const CV& x : right.elts)
            if ((x.isNumber() && left.isNumber() && x.asDouble() == left.asDouble()) ||
                (x.kind == CV::K::Str && left.kind == CV::K::Str && x.s == left.s) ||
                (x.kind == CV::K::DType && left.kind == CV::K::DType && x.dtype == left.dtype) ||
                (x.kind == CV::K::None && left.kind == CV::K::None))
              found = true;
          r = CV::boolean(op == "in" ? found : !found);
        } else {
          r = compare(op, left, right, e);
        }
        result = i == 0 ? r : (result.isTensor() || r.isTensor() ? binary("&", result, r, e)
                                                                  : CV::boolean(result.i && r.i));
        left = right;
      }
      return result;
    }
    case Expr::K::IfExp: {
      CV c = eval(*e.b, env);
      if (!c.isTensor()) return constexprTruth(c, *e.b, "condition") ? eval(*e.a, env) : eval(*e.c, env);
      return lowerRuntimeIfExp(e, c, env);
    }
    case Expr::K::NamedExpr: {
      CV v = eval(*e.b, env);
      env[e.a->str] = v;
      return v;
    }
    case Expr::K::Lambda: fail(e, "lambda is not supported in a @triton.jit function");
    case Expr::K::Comp:
    case Expr::K::CompFor: fail(e, "comprehensions are not supported in a @triton.jit function");
    case Expr::K::Starred: fail(e, "'" + e.str + "' unpacking is not supported in a @triton.jit function");
    case Expr::K::Set: fail(e, "sets are not supported in a @triton.jit function");
    case Expr::K::Await: fail(e, "'await' is not supported in a @triton.jit function");
    case Expr::K::Yield: fail(e, "'yield' is not supported in a @triton.jit function");
    case Expr::K::Slice: {
      CV s;
      s.kind = CV::K::Slice;
      for (const Expr* part : {e.a.get(), e.b.get(), e.c.get()}) s.elts.push_back(part ? eval(*part, env) : CV::none());
      return s;
    }
  }
  fail(e, "unsupported expression");
}

}  // namespace tilevm::frontend
