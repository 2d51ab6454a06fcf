// CompileCache.cpp - the extension's compiled kernels (CompileCache.h).
#include "CompileCache.h"

#include <pybind11/stl.h>

#include <tuple>

#include "frontend/Compile.h"
#include "frontend/SourceUnit.h"
#include "frontend/Value.h"
#include "interpreter/WriteSet.h"
#include "runtime/Files.h"
#include "runtime/LaunchCache.h"

namespace py = pybind11;

namespace tilevm::py_ext {

namespace {

using CacheKey = std::tuple<std::string, std::string, std::string, std::map<std::string, std::string>, std::vector<std::string>>;

std::map<CacheKey, std::shared_ptr<Compiled>>& cache() {
  static std::map<CacheKey, std::shared_ptr<Compiled>> c;
  return c;
}

// A kernel that does not compile: Triton's CompilationError (tilevm/errors.py), its text the
// located diagnostic, its parts (file, line, column, message) as attributes.
[[noreturn]] void compileError(const Diagnostic& d, const SourceManager& sources) {
  py::object cls = py::module_::import("tilevm.errors").attr("CompilationError");
  py::object e = cls.attr("from_diagnostic")(render(d, &sources), d.file, d.line, d.col, d.message);
  PyErr_SetObject(cls.ptr(), e.ptr());
  throw py::error_already_set();
}

}  // namespace

std::shared_ptr<Compiled> compile(const std::string& path, const std::string& kernel, const std::string& signature,
                                  const std::map<std::string, std::string>& defines, const std::vector<std::string>& includes) {
  CacheKey key{path, kernel, signature, defines, includes};
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
  auto m = frontend::compileKernel(*text, path, o);
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

// A source unit as python/tilevm/source_unit.py builds it: (functions, tables).
frontend::SourceUnit unitFrom(const py::handle& unit) {
  static const std::map<std::string, frontend::HostValue::K> kinds = {
      {"none", frontend::HostValue::K::None},           {"bool", frontend::HostValue::K::Bool},
      {"int", frontend::HostValue::K::Int},             {"float", frontend::HostValue::K::Float},
      {"str", frontend::HostValue::K::Str},             {"dtype", frontend::HostValue::K::DType},
      {"module", frontend::HostValue::K::Module},       {"namespace", frontend::HostValue::K::Namespace},
      {"function", frontend::HostValue::K::Function},   {"unsupported", frontend::HostValue::K::Unsupported},
      {"namedtuple", frontend::HostValue::K::NamedTuple}};
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
      h.kind = kinds.at(v[0].cast<std::string>());
      h.i = v[1].cast<int64_t>();
      h.f = v[2].cast<double>();
      h.s = v[3].cast<std::string>();
      h.ref = v[4].cast<size_t>();
      names[name.cast<std::string>()] = h;
    }
    u.tables.push_back(std::move(names));
  }
  return u;
}

}  // namespace

std::shared_ptr<Compiled> compileUnit(int64_t key, const py::handle& unit, const std::string& signature,
                                      const std::map<std::string, std::string>& defines) {
  CacheKey ck{"<unit " + std::to_string(key) + ">", "", signature, defines, {}};
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
  auto m = loaded->compile(o);
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
