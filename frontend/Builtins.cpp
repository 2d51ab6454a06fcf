// Builtins.cpp - name resolution for triton / triton.language, and the builtins for creation,
// casts, memory, atomics and Python's own builtins (shapes: BuiltinsShape.cpp; debugging:
// BuiltinsDebug.cpp).
#include "frontend/Builtins.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

#include "frontend/BlockPointers.h"
#include "frontend/BuiltinTable.h"
#include "ir/Hints.h"

namespace tilevm::frontend {

using ir::Opcode;
using ir::ScalarKind;

namespace {

std::vector<int64_t> shapeOf(const CV& t) { return {t.type().shape().begin(), t.type().shape().end()}; }

const char* const kPythonBuiltins[] = {"range", "min", "max", "float", "int", "bool", "len", "print", "abs", "isinstance",
                                       "getattr", "hasattr"};

// The public attributes Python's own int, float, bool, str and None have (dir() without the
// dunder names): getattr/hasattr of one of these on a Python value is not modelled, an error
// rather than a wrong answer.
bool pythonValueAttribute(const CV& v, const std::string& name) {
  static const char* const kNumber[] = {"real", "imag", "conjugate", "numerator", "denominator", "bit_length",
                                        "bit_count", "to_bytes", "from_bytes", "as_integer_ratio", "is_integer",
                                        "hex", "fromhex"};
  static const char* const kStr[] = {"capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs",
                                     "find", "format", "format_map", "index", "isalnum", "isalpha", "isascii",
                                     "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric", "isprintable",
                                     "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip", "maketrans",
                                     "partition", "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust",
                                     "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip",
                                     "swapcase", "title", "translate", "upper", "zfill"};
  if (name.rfind("__", 0) == 0) return true;
  if (v.isNumber())
    for (const char* n : kNumber)
      if (name == n) return true;
  if (v.kind == CV::K::Str)
    for (const char* n : kStr)
      if (name == n) return true;
  return false;
}

// getattr/hasattr: the attribute as the kernel's `obj.name` would read it; on a Python number,
// string or None only Python's own attributes exist (a number's `.dtype`, which `zero.dtype`
// reads as a tensor's, is not one of them: Triton calls Python's getattr on the value).
std::optional<CV> lookupAttribute(Lowerer& L, const CV& obj, const std::string& name, const Expr& at, const char* fn) {
  if (obj.isNumber() || obj.kind == CV::K::Str || obj.kind == CV::K::None) {
    if (pythonValueAttribute(obj, name))
      L.fail(at, std::string(fn) + "(): tilevm does not model the attribute '" + name + "' of " + obj.describe());
    return std::nullopt;
  }
  try {
    return L.attribute(obj, name, at);
  } catch (const DiagnosticError&) {
    return std::nullopt;
  }
}

// isinstance(v, T) for the classes a kernel can test (Triton's `isinstance(d, tl.tensor_descriptor)`
// picks a host-made descriptor over a pointer): a compile-time answer, as Triton's is.
bool isInstance(Lowerer& L, const CV& v, const CV& cls, const Expr& at) {
  if (cls.kind == CV::K::Tuple) {
    for (const CV& c : cls.elts)
      if (isInstance(L, v, c, at)) return true;
    return false;
  }
  const std::string n = cls.kind == CV::K::Builtin ? cls.s : "";
  if (n == "tl.tensor_descriptor") return v.kind == CV::K::BlockPtr && v.s == "tensor_descriptor";
  if (n == "tl.tensor") return v.isTensor();
  if (n == "tl.dtype") return v.kind == CV::K::DType;
  if (n == "tl.pointer_type") return v.kind == CV::K::DType && v.s != "block" && v.dtype.isPtr();
  if (n == "tl.constexpr") return !v.isTensor() && v.kind != CV::K::BlockPtr;
  if (n == "int") return v.kind == CV::K::Int || v.kind == CV::K::Bool;  // bool is an int, as in Python
  if (n == "float") return v.kind == CV::K::Float;
  if (n == "bool") return v.kind == CV::K::Bool;
  L.fail(at, "isinstance() can test tl.tensor, tl.tensor_descriptor, tl.dtype, tl.pointer_type, tl.constexpr, int, float and bool (or a "
             "tuple of them), got " + cls.describe());
}
const char* const kTensorMethods[] = {"to", "reshape", "view", "trans", "permute", "expand_dims", "broadcast_to", "sum",
                                      "max", "min", "argmax", "argmin", "cumsum", "cumprod", "split", "interleave", "reduce",
                                      "associative_scan", "exp", "exp2", "log", "log2", "sqrt", "abs", "sigmoid",
                                      "softmax", "floor", "ceil", "cos", "sin", "rsqrt", "erf", "ravel", "cast", "flip",
                                      "sort", "topk", "xor_sum", "reduce_or", "gather", "histogram", "item"};

// Canonical spelling: "tl.NAME" for everything in triton.language (and its math, libdevice,
// random, standard and core submodules), "triton.NAME" for the triton package itself.
std::string canonical(const std::string& path) {
  if (path == "triton.language" || path == "triton.language.math" || path == "triton.language.extra.cuda.libdevice" ||
      path == "triton.language.extra.libdevice" || path == "triton.language.libdevice" || path == "triton.language.random" ||
      path == "triton.language.standard" || path == "triton.language.core")
    return "tl";
  static const char* prefixes[] = {"triton.language.extra.cuda.libdevice.", "triton.language.extra.libdevice.",
                                   "triton.language.libdevice.",
                                   "triton.language.math.", "triton.language.core.", "triton.language.standard.",
                                   "triton.language.random.", "triton.language."};
  for (const char* p : prefixes) {
    std::string s(p);
    if (path.rfind(s, 0) == 0) return "tl." + path.substr(s.size());
  }
  if (path == "triton.cdiv") return "tl.cdiv";
  return path;
}

// Triton's memory semantics and scopes of atomics (as strings, checked here so that a typo is a
// located error at the call).
void atomicOrdering(Lowerer& L, const Args& a, size_t semIdx, std::vector<ir::Attribute>& attrs) {
  if (a.has(semIdx)) {
    std::string sem = a.strOr(semIdx, "acq_rel");
    if (sem != "relaxed" && sem != "acquire" && sem != "release" && sem != "acq_rel")
      L.fail(a.at(semIdx), "sem must be one of relaxed, acquire, release, acq_rel, got '" + sem + "'");
    attrs.push_back({"sem", sem});
  }
  if (a.has(semIdx + 1)) {
    std::string scope = a.strOr(semIdx + 1, "gpu");
    if (scope != "gpu" && scope != "cta" && scope != "sys")
      L.fail(a.at(semIdx + 1), "scope must be one of gpu, cta, sys, got '" + scope + "'");
    attrs.push_back({"scope", scope});
  }
}

// eviction_policy: "" or one of Triton's three (checked here: a typo is a located error).
std::string evictionPolicy(Lowerer& L, const std::string& ev, const Expr& at) {
  if (ev.empty() || ev == "evict_first" || ev == "evict_last" || ev == "evict_normal") return ev;
  L.fail(at, "eviction_policy must be evict_first, evict_last or evict_normal, got '" + ev + "'");
}

void checkPointer(Lowerer& L, const CV& p, const Expr& at, const char* fn) {
  if (!p.isTensor() || !p.dtype.isPtr())
    L.fail(at, std::string(fn) + "() needs a pointer (or a tile of pointers), got " + p.describe());
  if (p.dtype.pointeeConst && std::string(fn) != "load")  // Triton's words
    L.fail(at, "Cannot store to a constant pointer: " + std::string(fn) + "() through " + p.describe() + " (a tl.const parameter)");
}

// Broadcasts `v` (a number or tensor) to the pointer's shape and element type.
CV toPointee(Lowerer& L, const CV& v, const CV& ptr, const Expr& at) {
  CV t = L.cast(v, ptr.dtype.element(), at);
  return L.broadcastTo(t, shapeOf(ptr), at);
}

CV mask(Lowerer& L, const CV& m, const CV& ptr, const Expr& at) {
  CV b = L.cast(m, DType::of(ScalarKind::I1), at);
  return L.broadcastTo(b, shapeOf(ptr), at);
}

// pointer and mask/value may each be broadcast to the other's shape (Triton's load semantics).
void broadcastPointerWith(Lowerer& L, CV& ptr, const CV& other, const Expr& at) {
  if (!other.isTensor()) return;
  CV o = other;
  L.broadcastPair(ptr, o, at);
}

std::string cacheModifier(Lowerer& L, const std::string& s, const Expr& at, bool load) {
  if (s.empty()) return s;
  std::string m = s[0] == '.' ? s.substr(1) : s;
  bool ok = load ? (m == "ca" || m == "cg" || m == "cv") : (m == "wb" || m == "cg" || m == "cs" || m == "wt");
  if (!ok) L.fail(at, "unsupported cache modifier '" + s + "'");
  return m;
}

CV atomicRmw(Lowerer& L, CallArgs& c, const std::string& fn, const std::string& base) {
  Args a(L, c, fn, {"pointer", "val", "mask", "sem", "scope"});
  CV ptr = a.get(0);
  checkPointer(L, ptr, a.at(0), fn.c_str());
  if (a.get(1).isTensor()) broadcastPointerWith(L, ptr, a.get(1), a.site());
  if (a.has(2) && a.get(2).isTensor()) broadcastPointerWith(L, ptr, a.get(2), a.site());
  DType e = ptr.dtype.element();
  if (e.isFp8()) L.fail(a.site(), fn + "() does not support " + e.name() + " (Triton's atomics take no fp8)");
  // Triton's semantic.py (atom_red_typechecking_impl): no atomics on elements under 32 bits but
  // fp16/bf16, which take only atomic_add.
  if ((e.isInt() && e.bits() < 32) || ((e.kind == ir::ScalarKind::F16 || e.kind == ir::ScalarKind::BF16) && base != "add"))
    L.fail(a.site(), fn + "() does not support " + e.name() + " (as Triton's atomics)");
  CV val = toPointee(L, a.get(1), ptr, a.at(1));
  if ((base == "and" || base == "or" || base == "xor") && !e.isInt())
    L.fail(a.site(), fn + "() needs integer values, got " + e.name());
  std::vector<ir::Attribute> order;
  atomicOrdering(L, a, 3, order);
  std::optional<CV> m;
  if (a.has(2)) m = mask(L, a.get(2), ptr, a.at(2));
  auto rmw = [&](const std::string& kind, const CV& p, const CV& v, const std::optional<CV>& on) {
    std::vector<ir::Value*> ops{p.value, v.value};
    if (on) ops.push_back(on->value);
    std::vector<ir::Attribute> attrs{{"kind", kind}};
    attrs.insert(attrs.end(), order.begin(), order.end());
    L.setLoc(a.site());
    return CV::tensor(L.b.create(Opcode::AtomicRmw, ops, {v.type()}, attrs)->result(), p.dtype.element());
  };
  if ((base == "max" || base == "min") && e.isFloat()) {
    // Triton's semantic.py: a float's max (min) is a signed integer max (min) of its bits where
    // its sign bit is clear and an unsigned min (max) where it is set, so both engines order
    // -0.0, +0.0 and NaNs as Triton's GPUs do.
    const ScalarKind ik = e.bits() == 64 ? ScalarKind::I64 : ScalarKind::I32;
    const DType it = DType::of(ik), ut = DType::of(ik, true);
    const Expr& at = a.site();
    CV iv = L.cast(val, it, at, true), uv = L.cast(val, ut, at, true);
    CV neg = L.compare("<", iv, CV::integer(0), at), pos = L.unary("not", neg, at);
    auto where = [&](const CV& sign) { return m ? L.binary("&", *m, sign, at) : sign; };
    CV posOld = rmw(base, L.cast(ptr, DType::ptrTo(it), at, true), iv, where(pos));
    CV negOld = rmw(base == "max" ? "umin" : "umax", L.cast(ptr, DType::ptrTo(ut), at, true), uv, where(neg));
    return L.cast(L.select(pos, posOld, L.cast(negOld, it, at, true), at), e, at, true);
  }
  std::string kind = base;
  if (base == "add") kind = e.isFloat() ? "fadd" : "add";
  if ((base == "max" || base == "min") && e.isUnsigned) kind = "u" + base;
  return rmw(kind, ptr, val, m);
}

void registerPython(BuiltinTable& t) {
  auto minmax = [](bool isMax) {
    return [isMax](Lowerer& L, CallArgs& c) {
      const char* fn = isMax ? "max" : "min";
      if (c.pos.size() < 2 || !c.kw.empty()) L.fail(*c.site, std::string(fn) + "() takes two or more positional arguments");
      CV acc = c.pos[0];
      for (size_t i = 1; i < c.pos.size(); ++i) {
        const CV& v = c.pos[i];
        if (acc.isNumber() && v.isNumber()) {
          bool pick = isMax ? v.asDouble() > acc.asDouble() : v.asDouble() < acc.asDouble();
          if (pick) acc = v;
        } else {
          acc = L.minMax(isMax, acc, v, false, *c.site);
        }
      }
      return acc;
    };
  };
  t["max"] = minmax(true);
  t["min"] = minmax(false);
  t["float"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "float", {"x"});
    const CV& v = a.get(0);
    if (v.isNumber()) return CV::real(v.asDouble());
    if (v.kind == CV::K::Str) {
      std::string s = v.s;
      for (char& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
      if (s == "inf" || s == "+inf" || s == "infinity") return CV::real(std::numeric_limits<double>::infinity());
      if (s == "-inf" || s == "-infinity") return CV::real(-std::numeric_limits<double>::infinity());
      if (s == "nan") return CV::real(std::numeric_limits<double>::quiet_NaN());
      char* end = nullptr;
      double d = std::strtod(v.s.c_str(), &end);
      if (end && *end == '\0' && !v.s.empty()) return CV::real(d);
    }
    L.fail(a.at(0), "float() needs a constant number or string, got " + v.describe());
  };
  t["int"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "int", {"x"});
    const CV& v = a.get(0);
    if (v.kind == CV::K::Int) return v;
    if (v.kind == CV::K::Bool) return CV::integer(v.i);
    if (v.kind == CV::K::Float) {
      double t = std::trunc(v.f);
      std::optional<CV> r = std::isfinite(t) && t >= -0x1p63 && t < 0x1p64 ? CV::pythonInt(__int128(t)) : std::nullopt;
      if (!r) L.fail(a.at(0), "int(" + v.describe() + "): does not fit in 64 bits (" + CV::kIntRange + ")");
      return *r;
    }
    L.fail(a.at(0), "int() needs a constant number (use x.to(tl.int32) for tensors), got " + v.describe());
  };
  t["bool"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "bool", {"x"});
    return CV::boolean(L.constexprTruth(a.get(0), a.at(0), "bool() argument"));
  };
  t["len"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "len", {"x"});
    const CV& v = a.get(0);
    if (v.kind == CV::K::Tuple) return CV::integer(int64_t(v.elts.size()));
    if (v.isTensor() && !v.type().isScalar()) return CV::integer(v.type().dim(0));
    L.fail(a.at(0), "len() needs a tuple or a tile, got " + v.describe());
  };
  t["abs"] = [](Lowerer& L, CallArgs& c) { return L.callBuiltin("tl.abs", c); };
  t["isinstance"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "isinstance", {"obj", "class_or_tuple"});
    return CV::boolean(isInstance(L, a.get(0), a.get(1), a.at(1)));
  };
  // getattr(obj, name[, default]) and hasattr(obj, name), answered at compile time as Triton
  // answers them (Python's own, on the values): `getattr(tl, FUNC)(x, y)`, `hasattr(x, "dtype")`.
  auto attrName = [](Lowerer& L, const Args& a, const char* fn) {
    const CV& n = a.get(1);
    if (n.kind != CV::K::Str) L.fail(a.at(1), std::string(fn) + "(): attribute name must be a constexpr string, got " + n.describe());
    return n.s;
  };
  t["getattr"] = [attrName](Lowerer& L, CallArgs& c) {
    Args a(L, c, "getattr", {"object", "name", "default"});
    std::string name = attrName(L, a, "getattr");
    const CV& obj = a.value(0);
    if (std::optional<CV> v = lookupAttribute(L, obj, name, a.site(), "getattr")) return *v;
    if (a.given(2)) return a.value(2);
    if (obj.isNumber() || obj.kind == CV::K::Str || obj.kind == CV::K::None)
      L.fail(a.site(), obj.describe() + " has no attribute '" + name + "'");
    return L.attribute(obj, name, a.site());  // its own error, located here
  };
  t["hasattr"] = [attrName](Lowerer& L, CallArgs& c) {
    Args a(L, c, "hasattr", {"obj", "name"});
    return CV::boolean(lookupAttribute(L, a.value(0), attrName(L, a, "hasattr"), a.site(), "hasattr").has_value());
  };
  // Classes, for isinstance(); calling one is not how a kernel makes its values.
  for (const char* cls : {"tl.tensor_descriptor", "tl.tensor", "tl.dtype"})
    t[cls] = [cls](Lowerer& L, CallArgs& c) -> CV {
      L.fail(*c.site, std::string(cls) + " is a class a kernel can test with isinstance(); make values with tl.make_tensor_descriptor, "
                                         "tl.zeros, tl.full or a cast");
    };
  t["print"] = [](Lowerer& L, CallArgs& c) { return L.callBuiltin("tl.device_print", c); };
  t["range"] = [](Lowerer& L, CallArgs& c) -> CV { L.fail(*c.site, "range() can only be used as the iterable of a for loop"); };
  t["tl.range"] = t["range"];
  t["tl.condition"] = [](Lowerer& L, CallArgs& c) -> CV {
    L.fail(*c.site, "tl.condition() can only be used as the condition of a while loop");
  };
  t["tl.static_range"] = t["range"];
  t["tl.constexpr"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "tl.constexpr", {"value"});
    if (a.get(0).isTensor()) L.fail(a.at(0), "tl.constexpr() needs a compile-time value");
    return a.get(0);
  };
  // constexpr_type(v) (triton.language.core): the type a constexpr's `.type` is.
  t["tl.constexpr_type"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "constexpr_type", {"value"});
    if (a.get(0).isTensor()) L.fail(a.at(0), "constexpr_type() needs a compile-time value");
    return CV::constexprType(a.get(0));
  };
  // tl.tuple(values): Triton's tuple class over a Python tuple (or list) of values; here a tuple
  // is that already.
  t["tl.tuple"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "tl.tuple", {"args"});
    if (a.get(0).kind != CV::K::Tuple) L.fail(a.at(0), "tl.tuple() needs a tuple or list, got " + a.get(0).describe());
    return a.get(0);
  };
  t["triton.next_power_of_2"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "triton.next_power_of_2", {"n"});
    int64_t n = a.intArg(0), p = 1;
    while (p < n) p <<= 1;
    return CV::integer(p);
  };
}

void registerCreation(BuiltinTable& t) {
  auto gridQuery = [](Opcode code, const char* fn) {
    return [code, fn](Lowerer& L, CallArgs& c) {
      Args a(L, c, fn, {"axis"});
      int64_t axis = a.intArg(0);
      if (axis < 0 || axis > 2) L.fail(a.at(0), std::string(fn) + " axis must be 0, 1, or 2 but got " + std::to_string(axis));
      L.setLoc(a.site());
      return CV::tensor(L.b.create(code, {}, {ir::Type::scalar(ScalarKind::I32)}, {{"axis", axis}})->result(),
                        DType::of(ScalarKind::I32));
    };
  };
  t["tl.program_id"] = gridQuery(Opcode::ProgramId, "program_id");
  t["tl.num_programs"] = gridQuery(Opcode::NumPrograms, "num_programs");
  t["tl.arange"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "arange", {"start", "end"});
    int64_t s = a.intArg(0), e = a.intArg(1);
    if (e <= s) L.fail(a.site(), "arange's end must be greater than start");
    if (e > INT32_MAX || s < 0) L.fail(a.site(), "arange's range is too large");  // before e - s can wrap
    int64_t n = e - s;
    if (n & (n - 1)) L.fail(a.site(), "arange's range must be a power of 2");  // Triton's words, exactly
    if (n > ir::kMaxTileElements) L.fail(a.site(), "arange's range is too large");
    L.setLoc(a.site());
    return CV::tensor(L.b.arange(s, e), DType::of(ScalarKind::I32));
  };
  t["tl.full"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "full", {"shape", "value", "dtype"});
    auto shape = a.shapeArg(0);
    DType dt = a.dtypeArg(2);
    const CV& v = a.get(1);
    L.setLoc(a.site());
    // Triton fills a pointer tile only with 0 (its null value; get_pointer<...> does not exist).
    if (dt.isPtr() && v.isNumber() && !(v.kind != CV::K::Float && v.i == 0))
      L.fail(a.at(1), "tl.full: a tile of " + dt.name() + " can only be filled with 0 (null) or a pointer, got " + v.describe());
    if (v.isNumber()) {
      L.checkNumberFits(v, dt, a.at(1));
      return L.constant(v, dt, shape);
    }
    return L.broadcastTo(L.cast(v, dt, a.at(1)), shape, a.site());
  };
  t["tl.zeros"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "zeros", {"shape", "dtype"});
    L.setLoc(a.site());
    return L.constant(CV::integer(0), a.dtypeArg(1), a.shapeArg(0));
  };
  t["tl.zeros_like"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "zeros_like", {"input"});
    CV x = a.tensor(0);
    L.setLoc(a.site());
    return L.constant(CV::integer(0), x.dtype, shapeOf(x));
  };
  t["tl.full_like"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "full_like", {"input", "value", "dtype"});
    CV x = a.tensor(0);
    DType dt = a.has(2) ? a.dtypeArg(2) : x.dtype;
    L.setLoc(a.site());
    return L.broadcastTo(L.cast(a.get(1), dt, a.at(1)), shapeOf(x), a.site());
  };
  t["tl.cdiv"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "cdiv", {"x", "div"});
    CV sum = L.binary("+", a.get(0), a.get(1), a.site());
    CV num = L.binary("-", sum, CV::integer(1), a.site());
    return L.binary("//", num, a.get(1), a.site());
  };
  t["tl.where"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "where", {"condition", "x", "y"});
    return L.select(a.get(0), a.get(1), a.get(2), a.site());
  };
}

// x.to(dtype, fp_downcast_rounding, bitcast) and tl.cast: Triton's rounding rule. A rounding
// applies to float narrowings only (elsewhere Triton's ValueError); rtz makes the truncf round
// toward zero (not into fp8: a located error).
CV castWithRounding(Lowerer& L, const Args& a) {
  const CV& x = a.get(0);
  DType to = a.dtypeArg(1);
  if (!a.has(2) || a.get(2).kind == CV::K::None) return L.cast(x, to, a.site(), a.boolOr(3, false));
  std::string r = a.strOr(2, "");
  if (r != "rtne" && r != "rtz")
    L.fail(a.at(2), "Invalid rounding mode: " + r + ". Supported rounding modes are 'rtne' and 'rtz'.");
  DType from = x.isTensor() ? x.dtype : L.constexprDType(x, a.at(0));
  auto floating = [](const DType& d) { return d.isFloat() || d.isFp8(); };
  if (!floating(from) || !floating(to) || to.bits() >= from.bits())
    L.fail(a.at(2), "fp_downcast_rounding should be set only for truncating fp conversions. Source scalar type is " +
                        from.name() + " and destination type is " + to.name());
  if (r == "rtz" && to.isFp8() && to.kind != ir::ScalarKind::F8E5)
    L.fail(a.at(2), "fp_downcast_rounding 'rtz' into " + to.name() + " is not supported (rtz into fp8: float8e5 only)");
  CV out = L.cast(L.toTensor(x, a.at(0)), to, a.site(), a.boolOr(3, false));
  if (r == "rtz") {
    ir::Op* trunc = out.value->def;
    if (!trunc || trunc->code != Opcode::TruncF) L.fail(a.site(), "internal error: a float narrowing without truncf");
    trunc->setAttr("rounding", std::string("rtz"));
  }
  return out;
}

// Casts, pointer types, hints and dtype queries.
void registerTypes(BuiltinTable& t) {
  t["tensor.to"] = [](Lowerer& L, CallArgs& c) { return castWithRounding(L, Args(L, c, "to", {"self", "dtype", "fp_downcast_rounding", "bitcast"})); };
  t["tl.cast"] = [](Lowerer& L, CallArgs& c) {
    return castWithRounding(L, Args(L, c, "cast", {"input", "dtype", "fp_downcast_rounding", "bitcast"}));
  };
  t["tl.pointer_type"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "pointer_type", {"element_ty", "address_space", "const"});
    DType e = a.dtypeArg(0);
    if (e.isPtr()) L.fail(a.at(0), "pointers to pointers are not supported");
    return CV::type(DType::ptrTo(e));
  };
  // tl.multiple_of / max_contiguous / max_constancy: Triton's hints, set where the value is
  // defined (ir/Hints.h) as Triton's set_attr does, so a hint whose result is dropped (tutorial
  // 08's `tl.multiple_of(a_ptrs, [16, 16])` on a loop-carried pointer) still holds. They change
  // no value.
  auto hint = [](const char* fn, ir::Hint kind) {
    return [fn, kind](Lowerer& L, CallArgs& c) {
      Args a(L, c, fn, {"input", "values"});
      const CV& x = a.get(0);
      std::vector<CV> given = a.get(1).kind == CV::K::Tuple ? a.get(1).elts : std::vector<CV>{a.get(1)};
      std::vector<int64_t> values;
      for (size_t i = 0; i < given.size(); ++i) {
        const CV& d = given[i];
        if (!d.isConstexpr()) L.fail(a.at(1), "values element " + std::to_string(i) + " must have type `constexpr`");
        if (d.kind == CV::K::Float)
          L.fail(a.at(1), "values element " + std::to_string(i) + " must have type `constexpr[int]`, got `constexpr[<class 'float'>]`");
        values.push_back(d.i);
      }
      if (!x.isTensor()) L.fail(a.at(0), std::string(fn) + " needs a tensor, got " + x.describe());
      size_t rank = x.type().rank();
      if ((kind == ir::Hint::Divisibility ? std::max<size_t>(1, rank) : rank) != values.size())
        L.fail(a.site(), std::string("Shape of input to ") + fn + " does not match the length of values");
      for (int64_t v : values)
        if (v <= 0) L.fail(a.at(1), std::string(fn) + " values must be positive, got " + std::to_string(v));
      if (values.empty()) return x;  // a scalar's contiguity or constancy: nothing to say
      if (std::optional<ir::HintSite> site = ir::hintSite(*x.value, kind)) site->op->setAttr(site->name, values);
      return x;
    };
  };
  t["tl.multiple_of"] = hint("multiple_of", ir::Hint::Divisibility);
  t["tl.max_contiguous"] = hint("max_contiguous", ir::Hint::Contiguity);
  t["tl.max_constancy"] = hint("max_constancy", ir::Hint::Constancy);
  auto dtypeQuery = [](std::function<bool(const DType&)> pred) {
    return [pred](Lowerer& L, CallArgs& c) {
      Args a(L, c, "dtype query", {"self"});
      return CV::boolean(pred(a.get(0).dtype));
    };
  };
  t["dtype.is_floating"] = dtypeQuery([](const DType& d) { return d.isFloat() || d.isFp8(); });
  t["dtype.is_fp8"] = dtypeQuery([](const DType& d) { return d.isFp8(); });
  t["dtype.is_fp8e5"] = dtypeQuery([](const DType& d) { return d.kind == ScalarKind::F8E5; });
  t["dtype.is_fp8e4nv"] = dtypeQuery([](const DType& d) { return d.kind == ScalarKind::F8E4NV; });
  t["dtype.is_fp8e4b15"] = dtypeQuery([](const DType& d) { return d.kind == ScalarKind::F8E4B15; });
  t["dtype.is_fp8e5b16"] = dtypeQuery([](const DType& d) { return d.kind == ScalarKind::F8E5B16; });
  t["dtype.is_fp8e4b8"] = dtypeQuery([](const DType& d) { return d.kind == ScalarKind::F8E4B8; });
  t["dtype.is_standard_floating"] = dtypeQuery([](const DType& d) { return d.isFloat(); });
  t["dtype.is_int"] = dtypeQuery([](const DType& d) { return d.isInt(); });
  t["dtype.is_ptr"] = dtypeQuery([](const DType& d) { return d.isPtr(); });
  t["dtype.is_int_signed"] = dtypeQuery([](const DType& d) { return d.isSigned(); });
  t["dtype.is_int_unsigned"] = dtypeQuery([](const DType& d) { return d.isInt() && d.isUnsigned; });
  t["dtype.is_fp16"] = dtypeQuery([](const DType& d) { return d.kind == ScalarKind::F16; });
  t["dtype.is_bf16"] = dtypeQuery([](const DType& d) { return d.kind == ScalarKind::BF16; });
  t["dtype.is_fp32"] = dtypeQuery([](const DType& d) { return d.kind == ScalarKind::F32; });
  t["dtype.is_fp64"] = dtypeQuery([](const DType& d) { return d.kind == ScalarKind::F64; });
}

void registerMemory(BuiltinTable& t) {
  t["tl.load"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "load", {"pointer", "mask", "other", "boundary_check", "padding_option", "cache_modifier",
                          "eviction_policy", "volatile"});
    CV ptr = a.get(0);
    if (ptr.kind == CV::K::BlockPtr && ptr.s == "block_ptr") {
      // A block pointer: the pointer tile and boundary mask stand in for pointer and mask.
      if (a.has(1) || a.has(2)) L.fail(a.site(), "mask and other cannot be used with a block pointer (use boundary_check)");
      std::string padding = a.strOr(4, "");
      if (padding != "" && padding != "zero" && padding != "nan")
        L.fail(a.at(4), "padding_option must be 'zero' or 'nan', got '" + padding + "'");
      BlockAccess acc = blockAccess(L, ptr, {}, boundaryDims(L, ptr, a.getOr(3, CV::none()), a.at(3)), a.site());
      CallArgs plain;
      plain.site = c.site;
      plain.pos = {acc.ptrs};
      plain.posExprs = {c.site};
      if (acc.mask.kind != CV::K::None) {
        plain.kw.emplace_back("mask", acc.mask);
        if (!padding.empty()) plain.kw.emplace_back("other", padding == "nan" ? CV::real(NAN) : CV::integer(0));
      }
      for (size_t k = 5; k < 8; ++k)
        if (a.has(k)) plain.kw.emplace_back(k == 5 ? "cache_modifier" : k == 6 ? "eviction_policy" : "volatile", a.get(k));
      return L.callBuiltin("tl.load", plain);
    }
    checkPointer(L, ptr, a.at(0), "load");
    if (a.has(3) || a.has(4)) L.fail(a.site(), "boundary_check and padding_option need a block pointer, got " + ptr.describe());
    if (a.has(2) && !a.has(1)) L.fail(a.at(2), "`other` cannot be provided without `mask`");
    if (a.has(1)) broadcastPointerWith(L, ptr, a.get(1), a.site());
    if (a.has(2)) broadcastPointerWith(L, ptr, a.get(2), a.site());
    std::vector<ir::Value*> ops{ptr.value};
    if (a.has(1)) ops.push_back(mask(L, a.get(1), ptr, a.at(1)).value);
    if (a.has(2)) ops.push_back(toPointee(L, a.get(2), ptr, a.at(2)).value);
    std::vector<ir::Attribute> attrs;
    std::string cache = cacheModifier(L, a.strOr(5, ""), a.site(), true);
    if (!cache.empty()) attrs.push_back({"cache", cache});
    std::string ev = evictionPolicy(L, a.strOr(6, ""), a.at(6));
    if (!ev.empty()) attrs.push_back({"eviction", ev});
    if (a.boolOr(7, false)) attrs.push_back({"volatile", int64_t(1)});
    L.setLoc(a.site());
    DType e = ptr.dtype.element();
    return CV::tensor(L.b.create(Opcode::Load, ops, {ptr.type().withElem(e.elem())}, attrs)->result(), e);
  };
  t["tl.store"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "store", {"pointer", "value", "mask", "boundary_check", "cache_modifier", "eviction_policy"});
    CV ptr = a.get(0);
    if (ptr.kind == CV::K::BlockPtr && ptr.s == "block_ptr") {
      if (a.has(2)) L.fail(a.site(), "mask cannot be used with a block pointer (use boundary_check)");
      BlockAccess acc = blockAccess(L, ptr, {}, boundaryDims(L, ptr, a.getOr(3, CV::none()), a.at(3)), a.site());
      CallArgs plain;
      plain.site = c.site;
      plain.pos = {acc.ptrs, a.get(1)};
      plain.posExprs = {c.site, &a.at(1)};
      if (acc.mask.kind != CV::K::None) plain.kw.emplace_back("mask", acc.mask);
      for (size_t k = 4; k < 6; ++k)
        if (a.has(k)) plain.kw.emplace_back(k == 4 ? "cache_modifier" : "eviction_policy", a.get(k));
      return L.callBuiltin("tl.store", plain);
    }
    checkPointer(L, ptr, a.at(0), "store");
    if (a.has(3)) L.fail(a.site(), "boundary_check needs a block pointer, got " + ptr.describe());
    if (a.get(1).isTensor()) broadcastPointerWith(L, ptr, a.get(1), a.site());
    if (a.has(2)) broadcastPointerWith(L, ptr, a.get(2), a.site());
    std::vector<ir::Value*> ops{ptr.value, toPointee(L, a.get(1), ptr, a.at(1)).value};
    if (a.has(2)) ops.push_back(mask(L, a.get(2), ptr, a.at(2)).value);
    std::vector<ir::Attribute> attrs;
    std::string cache = cacheModifier(L, a.strOr(4, ""), a.site(), false);
    if (!cache.empty()) attrs.push_back({"cache", cache});
    std::string ev = evictionPolicy(L, a.strOr(5, ""), a.at(5));
    if (!ev.empty()) attrs.push_back({"eviction", ev});
    L.setLoc(a.site());
    L.b.create(Opcode::Store, ops, {}, attrs);
    return CV::none();
  };
  for (const char* k : {"add", "max", "min", "and", "or", "xor", "xchg"}) {
    std::string kind = k, fn = std::string("atomic_") + k;
    t["tl." + fn] = [kind, fn](Lowerer& L, CallArgs& c) { return atomicRmw(L, c, fn, kind); };
  }
  t["tl.atomic_cas"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "atomic_cas", {"pointer", "cmp", "val", "sem", "scope"});
    CV ptr = a.get(0);
    checkPointer(L, ptr, a.at(0), "atomic_cas");
    if (ptr.dtype.element().isFp8())
      L.fail(a.site(), "atomic_cas() does not support " + ptr.dtype.element().name() + " (Triton's atomics take no fp8)");
    if (unsigned bits = ptr.dtype.element().bits(); bits != 16 && bits != 32 && bits != 64)  // Triton's rule
      L.fail(a.site(), "atomic_cas() only supports elements with width {16, 32, 64}, got " + ptr.dtype.element().name());
    CV cmp = toPointee(L, a.get(1), ptr, a.at(1));
    CV val = toPointee(L, a.get(2), ptr, a.at(2));
    std::vector<ir::Attribute> attrs;
    atomicOrdering(L, a, 3, attrs);
    L.setLoc(a.site());
    return CV::tensor(L.b.create(Opcode::AtomicCas, {ptr.value, cmp.value, val.value}, {val.type()}, attrs)->result(),
                      ptr.dtype.element());
  };
}

// tl.to_tensor, and the functions the prelude defines in Triton's language (Prelude.cpp).
void registerPrelude(BuiltinTable& t) {
  t["tl.to_tensor"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "to_tensor", {"x"});
    return a.tensor(0);
  };
  for (const char* fn : {"rand", "randn", "randint", "randint4x", "rand4x", "randn4x", "philox", "uint_to_uniform_float",
                         "pair_uniform_to_normal", "swizzle2d", "reduce_or", "sort", "topk", "xor_sum", "gather",
                         "dot_scaled"}) {
    std::string name = fn;
    t["tl." + name] = [name](Lowerer& L, CallArgs& c) { return L.inlinePrelude(name, c); };
  }
}

}  // namespace

void registerCoreBuiltins(BuiltinTable& t) {
  registerBlockPointerBuiltins(t);
  registerPython(t);
  registerCreation(t);
  registerShapeBuiltins(t);
  registerTypes(t);
  registerMemory(t);
  registerPrelude(t);
  registerDebugBuiltins(t);
}

const BuiltinTable& builtins() {
  static const BuiltinTable table = [] {
    BuiltinTable t;
    registerCoreBuiltins(t);
    registerMathBuiltins(t);
    registerLibdeviceBuiltins(t);
    registerMapBuiltins(t);
    registerPythonMath(t);
    return t;
  }();
  return table;
}

bool isPythonBuiltin(const std::string& name) {
  for (const char* n : kPythonBuiltins)
    if (name == n) return true;
  return false;
}

bool isTensorMethod(const std::string& name) {
  for (const char* n : kTensorMethods)
    if (name == n) return true;
  return false;
}

CV resolvePath(const std::string& path, const Expr& at, const Lowerer& L) {
  if (path == "math") return CV::module("math");
  if (path.rfind("math.", 0) == 0) {
    CV k;
    if (pythonMathConstant(path.substr(5), k)) return k;
    if (builtins().count(path)) return CV::builtin(path);
    L.fail(at, "'" + path + "' is not supported by tilevm (Python's math module: constants and functions of numbers)");
  }
  std::string c = canonical(path);
  if (c == "tl" || c == "triton" || c == "tl.extra" || c == "tl.extra.cuda") return CV::module(c == "tl" ? "triton.language" : path);
  // Triton's PropagateNan enum, as the integers its members are (NONE 0, ALL 0xFFFF).
  if (c == "tl.PropagateNan") return CV::module("triton.language.PropagateNan");
  if (c == "tl.PropagateNan.NONE") return CV::integer(0);
  if (c == "tl.PropagateNan.ALL") return CV::integer(0xFFFF);
  if (c.rfind("tl.", 0) == 0) {
    DType d;
    std::string leaf = c.substr(3);
    if (leaf != "float" && leaf != "double" && leaf != "bool" && parseDTypeName(leaf, d)) return CV::type(d);
    if (leaf == "pi32_t") return CV::type(DType::ptrTo(DType::of(ScalarKind::I32)));
  }
  if (builtins().count(c)) return CV::builtin(c);
  L.fail(at, "'" + path + "' is not supported by tilevm (see docs/language.md)");
}

CV callMethod(Lowerer& L, const std::string& name, const CV& self, const Expr& at) {
  CallArgs c;
  c.site = &at;
  c.pos.push_back(self);
  c.posExprs.push_back(&at);
  return L.callBuiltin("tensor." + name, c);
}

CV Lowerer::callBuiltin(const std::string& name, CallArgs& args) {
  std::string key = name;
  if (key.rfind("tensor.", 0) == 0 && key != "tensor.to" && key != "tensor.item") key = "tl." + key.substr(7);
  auto it = builtins().find(key);
  if (it == builtins().end()) fail(*args.site, "'" + name + "' is not supported by tilevm (see docs/language.md)");
  return it->second(*this, args);
}

}  // namespace tilevm::frontend
