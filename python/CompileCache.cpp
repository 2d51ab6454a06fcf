// CompileCache.cpp - the extension's compiled kernels (CompileCache.h).
#include "CompileCache.h"

#include <pybind11/stl.h>

#include <stdexcept>
#include <tuple>
#include <variant>

#include "frontend/Compile.h"
#include "frontend/SourceUnit.h"
#include "frontend/Value.h"
#include "interpreter/WriteSet.h"
#include "runtime/Files.h"
#include "runtime/LaunchCache.h"

namespace py = pybind11;

namespace tilevm::py_ext {

namespace {

/// (file or unit, kernel, signature, constexprs, include directories, launch flags).
using CacheKey = std::tuple<std::string, std::string, std::string, std::map<std::string, std::string>, std::vector<std::string>,
                            frontend::LaunchFlags>;

std::map<CacheKey, std::shared_ptr<Compiled>>& cache() {
  static std::map<CacheKey, std::shared_ptr<Compiled>> c;
  return c;
}

// A kernel that does not compile: Triton's CompilationError (tilevm/errors.py), its text the
// located diagnostic, its parts (file, line, column, message) as attributes.
[[noreturn]] void compileError(const Diagnostic& d, const SourceManager& sources) {
  py::object cls = py::module_::import("tilevm.errors").attr("CompilationError");
  py::object e = cls.attr("from_diagnostic")(render(d, &sources), d.file, d.line, d.col, d.message);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(e.ptr())), e.ptr());  // its own class (a subclass for static_assert)
  throw py::error_already_set();
}

}  // namespace

namespace {

// tl.static_print's lines of one compile, written to Python's sys.stdout as Triton's print does
// (after the compile, before its error if it fails).
struct StaticPrints {
  std::string text;
  void attach(frontend::CompileOptions& o) {
    o.staticPrint = [this](const std::string& line) { text += line + "\n"; };
  }
  void flush() {
    if (!text.empty()) py::module_::import("sys").attr("stdout").attr("write")(text);
    text.clear();
  }
};

}  // namespace

std::shared_ptr<Compiled> compile(const std::string& path, const std::string& kernel, const std::string& signature,
                                  const std::map<std::string, std::string>& defines, const std::vector<std::string>& includes,
                                  const frontend::LaunchFlags& flags) {
  CacheKey key{path, kernel, signature, defines, includes, flags};
  if (auto it = cache().find(key); it != cache().end()) return it->second;
  SourceManager sources;
  auto text = rt::readFile(path);
  if (!text) compileError(text.error(), sources);
  sources.add(path, *text);
  frontend::CompileOptions o;
  o.kernel = kernel;
  o.signature = signature;
  o.defines = defines;
  o.includeDirs = includes;
  o.sources = &sources;
  o.flags = flags;
  StaticPrints printed;
  printed.attach(o);
  auto m = frontend::compileKernel(*text, path, o);
  printed.flush();
  if (!m) compileError(m.error(), sources);
  auto c = std::make_shared<Compiled>();
  c->loaded.module = std::move(*m);
  c->loaded.kernel = c->loaded.module->findKernel(kernel);
  c->loaded.key = rt::kernelKey(*c->loaded.module, *c->loaded.kernel);
  c->written = interp::writtenParams(*c->loaded.kernel);
  cache()[key] = c;
  return c;
}

namespace {

using frontend::CV;

// A compile-time value as Python sees it, for a constexpr function's arguments: numbers,
// strings, None, tuples (named ones as namedtuples of their fields) and dtypes (the `triton`
// in use makes them, by name: source_unit.dtype_named).
py::object toPython(const CV& v) {
  switch (v.kind) {
    case CV::K::None: return py::none();
    case CV::K::Bool: return py::bool_(v.i != 0);
    case CV::K::Int: return v.u64 ? py::int_(uint64_t(v.i)) : py::int_(v.i);
    case CV::K::Float: return py::float_(v.f);
    case CV::K::Str: return py::str(v.s);
    case CV::K::DType: return py::module_::import("tilevm.source_unit").attr("dtype_named")(v.dtype.name());
    case CV::K::Tuple: {
      py::tuple t(v.elts.size());
      for (size_t i = 0; i < v.elts.size(); ++i) t[i] = toPython(v.elts[i]);
      if (v.fields.empty()) return std::move(t);
      py::object cls = py::module_::import("collections").attr("namedtuple")("Tuple", py::cast(v.fields));
      return cls(*t);
    }
    default: throw std::logic_error("not a compile-time value: " + v.describe());  // callHost checked
  }
}

// A constexpr function's result as a compile-time value, or why it is not one.
std::variant<CV, std::string> fromPython(const py::handle& r) {
  if (py::hasattr(r, "value") && std::string(py::str(py::type::of(r).attr("__name__"))) == "constexpr")
    return fromPython(r.attr("value"));
  if (r.is_none()) return CV::none();
  if (py::isinstance<py::bool_>(r)) return CV::boolean(r.cast<bool>());
  if (py::isinstance<py::int_>(r)) {
    py::int_ i = py::reinterpret_borrow<py::int_>(r);
    if (i >= py::int_(0) && i <= py::int_(UINT64_MAX)) return *CV::pythonInt(__int128(i.cast<uint64_t>()));
    if (i < py::int_(0) && i >= py::int_(INT64_MIN)) return CV::integer(i.cast<int64_t>());
    return std::string("it returned the integer ") + std::string(py::str(r)) +
           ", which does not fit 64 bits (" + CV::kIntRange + ")";
  }
  if (py::isinstance<py::float_>(r)) return CV::real(r.cast<double>());
  if (py::isinstance<py::str>(r)) return CV::str(r.cast<std::string>());
  if (py::isinstance<py::tuple>(r) || py::isinstance<py::list>(r)) {
    CV t = CV::tuple({});
    for (py::handle e : r) {
      auto c = fromPython(e);
      if (auto* why = std::get_if<std::string>(&c)) return *why;
      t.elts.push_back(std::get<CV>(std::move(c)));
    }
    if (py::hasattr(r, "_fields"))
      for (py::handle f : r.attr("_fields")) t.fields.push_back(f.cast<std::string>());
    return t;
  }
  std::string module = py::hasattr(r, "__module__") ? std::string(py::str(r.attr("__module__"))) : "";
  if (module.rfind("triton", 0) == 0 && py::hasattr(r, "name") && py::isinstance<py::str>(r.attr("name"))) {
    frontend::DType d;
    if (frontend::parseDTypeName(r.attr("name").cast<std::string>(), d)) return CV::type(d);
  }
  return "it returned " + std::string(py::str(py::type::of(r).attr("__qualname__"))) +
         " object, which is not a compile-time value tilevm can use";
}

// The unit's constexpr functions, called with the GIL held (compiles run under it). The
// functions are kept for the process, as the loaded units that name them are.
class PyHostCaller : public frontend::HostCaller {
 public:
  explicit PyHostCaller(const py::handle& functions) : functions_(py::reinterpret_borrow<py::object>(functions).release()) {}

  std::variant<CV, std::string> call(size_t index, const std::vector<CV>& args,
                                     const std::vector<std::pair<std::string, CV>>& kwargs) const override {
    py::list fns = py::reinterpret_borrow<py::list>(functions_);
    if (index >= fns.size()) return std::string("internal error: no such constexpr function");
    try {  // the arguments' conversion too: a dtype is made by Python
      py::tuple a(args.size());
      for (size_t i = 0; i < args.size(); ++i) a[i] = toPython(args[i]);
      py::dict kw;
      for (const auto& [name, v] : kwargs) kw[py::str(name)] = toPython(v);
      return fromPython(fns[index](*a, **kw));
    } catch (py::error_already_set& e) {
      std::string what = std::string(py::str(e.type().attr("__name__"))) + ": " + std::string(py::str(e.value()));
      return "Python raised " + what;
    }
  }

 private:
  py::handle functions_;  // a strong reference, never released (the unit outlives the interpreter's teardown order)
};

// A source unit as python/tilevm/source_unit.py builds it: (functions, tables[, constexpr functions]).
frontend::SourceUnit unitFrom(const py::handle& unit) {
  static const std::map<std::string, frontend::HostValue::K> kinds = {
      {"none", frontend::HostValue::K::None},           {"bool", frontend::HostValue::K::Bool},
      {"int", frontend::HostValue::K::Int},             {"float", frontend::HostValue::K::Float},
      {"str", frontend::HostValue::K::Str},             {"dtype", frontend::HostValue::K::DType},
      {"module", frontend::HostValue::K::Module},       {"namespace", frontend::HostValue::K::Namespace},
      {"function", frontend::HostValue::K::Function},   {"unsupported", frontend::HostValue::K::Unsupported},
      {"namedtuple", frontend::HostValue::K::NamedTuple}, {"constexpr_function", frontend::HostValue::K::ConstexprFunction}};
  frontend::SourceUnit u;
  py::tuple t = unit.cast<py::tuple>();
  for (py::handle f : t[0]) {
    py::tuple ft = f.cast<py::tuple>();
    u.functions.push_back(frontend::FunctionSource{ft[0].cast<std::string>(), ft[1].cast<std::string>(), ft[2].cast<uint32_t>(),
                                                   ft[3].cast<uint32_t>(), ft[4].cast<size_t>()});
  }
  for (py::handle table : t[1]) {
    std::map<std::string, frontend::HostValue> names;
    for (auto [name, value] : table.cast<py::dict>()) {
      py::tuple v = value.cast<py::tuple>();
      frontend::HostValue h;
      const std::string kind = v[0].cast<std::string>();
      h.u64 = kind == "uint";  // an int from 2^63 to 2^64 - 1
      h.kind = h.u64 ? frontend::HostValue::K::Int : kinds.at(kind);
      h.i = h.u64 ? int64_t(v[1].cast<uint64_t>()) : v[1].cast<int64_t>();
      h.f = v[2].cast<double>();
      h.s = v[3].cast<std::string>();
      h.ref = v[4].cast<size_t>();
      names[name.cast<std::string>()] = h;
    }
    u.tables.push_back(std::move(names));
  }
  if (t.size() > 2 && py::len(t[2]) > 0) u.caller = std::make_shared<PyHostCaller>(t[2]);
  return u;
}

}  // namespace

std::shared_ptr<Compiled> compileUnit(int64_t key, const py::handle& unit, const std::string& signature,
                                      const std::map<std::string, std::string>& defines, const frontend::LaunchFlags& flags) {
  CacheKey ck{"<unit " + std::to_string(key) + ">", "", signature, defines, {}, flags};
  if (auto it = cache().find(ck); it != cache().end()) return it->second;
  static std::map<int64_t, std::shared_ptr<frontend::LoadedUnit>> units;
  SourceManager sources;
  auto& loaded = units[key];
  if (!loaded) {
    auto l = frontend::LoadedUnit::load(unitFrom(unit));
    if (!l) {
      units.erase(key);
      compileError(l.error(), sources);
    }
    loaded = std::move(*l);
  }
  loaded->addTexts(sources);
  frontend::CompileOptions o;
  o.signature = signature;
  o.defines = defines;
  o.flags = flags;
  StaticPrints printed;
  printed.attach(o);
  auto m = loaded->compile(o);
  printed.flush();
  if (!m) compileError(m.error(), sources);
  auto c = std::make_shared<Compiled>();
  c->loaded.module = std::move(*m);
  c->loaded.kernel = c->loaded.module->findKernel(loaded->kernelName());
  c->loaded.key = rt::kernelKey(*c->loaded.module, *c->loaded.kernel);
  c->written = interp::writtenParams(*c->loaded.kernel);
  cache()[ck] = c;
  return c;
}

ir::ScalarKind kindOf(const std::string& dtype) {
  frontend::DType d;
  if (!frontend::parseDTypeName(dtype, d) || d.isPtr()) throw py::value_error("unsupported dtype " + dtype);
  return d.kind;
}

}  // namespace tilevm::py_ext
