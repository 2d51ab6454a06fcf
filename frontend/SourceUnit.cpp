// SourceUnit.cpp - loads a source unit: each function's text parsed once into a module of its
// own whose names are the values Python gave; then lowers its kernel like any other.
#include "frontend/SourceUnit.h"

#include "frontend/Builtins.h"
#include "frontend/CompileFunction.h"
#include "frontend/PyParser.h"

namespace tilevm::frontend {

namespace {

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    std::string line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(std::move(line));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

}  // namespace

LoadedUnit::~LoadedUnit() = default;

Result<std::unique_ptr<LoadedUnit>> LoadedUnit::load(const SourceUnit& unit) {
  if (unit.functions.empty()) return Diagnostic{"<python>", 0, 0, "internal error: a source unit without a kernel"};
  std::unique_ptr<LoadedUnit> u(new LoadedUnit);
  u->caller_ = unit.caller;
  for (size_t t = 0; t < unit.tables.size(); ++t) u->names_.push_back(std::make_unique<HostNames>());
  for (const FunctionSource& f : unit.functions) {
    if (f.table >= unit.tables.size()) return Diagnostic{f.file, f.firstLine, 0, "internal error: a function without its namespace"};
    auto parsed = parseFunctionSource(f.text, f.file, f.firstLine == 0 ? 1 : f.firstLine, f.indent);
    if (!parsed) return parsed.error();
    auto m = std::make_unique<PyModule>(std::move(*parsed));
    m->host = u->names_[f.table].get();
    m->adoptFunctions();
    u->modules_.push_back(std::move(m));
    // Source lines at their places in the file (the file itself may be gone or rewritten since).
    std::vector<std::string>& lines = u->lines_[f.file];
    std::vector<std::string> own = splitLines(f.text);
    size_t first = (f.firstLine == 0 ? 1 : f.firstLine) - 1;
    if (lines.size() < first + own.size()) lines.resize(first + own.size());
    for (size_t k = 0; k < own.size(); ++k) lines[first + k] = (own[k].empty() ? "" : std::string(f.indent, ' ')) + own[k];
  }
  size_t functions = u->modules_.size();
  std::map<size_t, const PyModule*> namespaces;  // table -> the module standing for it
  auto namespaceModule = [&](size_t table, const std::string& name) {
    if (auto it = namespaces.find(table); it != namespaces.end()) return it->second;
    auto m = std::make_unique<PyModule>();
    m->fileName = name;
    m->host = u->names_[table].get();
    u->names_[table]->what = "module '" + name + "'";
    const PyModule* raw = m.get();
    u->modules_.push_back(std::move(m));
    return namespaces[table] = raw;
  };
  for (size_t t = 0; t < unit.tables.size(); ++t) {
    HostNames& names = *u->names_[t];
    for (const auto& [name, v] : unit.tables[t]) {
      CV cv;
      switch (v.kind) {
        case HostValue::K::None: cv = CV::none(); break;
        case HostValue::K::Bool: cv = CV::boolean(v.i != 0); break;
        case HostValue::K::Int: cv = *CV::pythonInt(v.u64 ? __int128(uint64_t(v.i)) : __int128(v.i)); break;
        case HostValue::K::Float: cv = CV::real(v.f); break;
        case HostValue::K::Str: cv = CV::str(v.s); break;
        case HostValue::K::DType: {
          DType dt;
          if (!parseDTypeName(v.s, dt)) {
            names.unsupported[name] = "the dtype " + v.s + ", which tilevm does not support";
            continue;
          }
          cv = CV::type(dt);
          break;
        }
        case HostValue::K::Module: cv = CV::module(v.s); break;
        case HostValue::K::NamedTuple: {
          const size_t colon = v.s.find(':');
          cv.kind = CV::K::TupleType;
          cv.s = v.s.substr(0, colon);
          for (size_t at = colon == std::string::npos ? v.s.size() : colon + 1; at < v.s.size();) {
            const size_t comma = std::min(v.s.find(',', at), v.s.size());
            cv.fields.push_back(v.s.substr(at, comma - at));
            at = comma + 1;
          }
          break;
        }
        case HostValue::K::Namespace:
          if (v.ref >= unit.tables.size()) return Diagnostic{"<python>", 0, 0, "internal error: a module without its table"};
          cv = CV::module(v.s);
          cv.pymod = namespaceModule(v.ref, v.s);
          break;
        case HostValue::K::Function:
          if (v.ref >= functions) return Diagnostic{"<python>", 0, 0, "internal error: a function outside the unit"};
          cv.kind = CV::K::Function;
          cv.fn = u->modules_[v.ref]->functions.at(0).get();
          break;
        case HostValue::K::ConstexprFunction:
          if (!u->caller_) {
            names.unsupported[name] = "the @triton.constexpr_function " + v.s + ", which only Python can call";
            continue;
          }
          cv.kind = CV::K::HostFunction;
          cv.s = v.s;
          cv.i = int64_t(v.ref);
          cv.host = u->caller_.get();
          break;
        case HostValue::K::Unsupported: names.unsupported[name] = v.s; continue;
      }
      names.values[name] = cv;
    }
  }
  return u;
}

const std::string& LoadedUnit::kernelName() const { return modules_[0]->functions[0]->name; }

std::vector<ParamInfo> LoadedUnit::params() const {
  std::vector<ParamInfo> out;
  for (const Param& p : modules_[0]->functions[0]->params) out.push_back(ParamInfo{p.name, isConstexprParam(p)});
  return out;
}

Result<std::unique_ptr<ir::Module>> LoadedUnit::compile(const CompileOptions& opts) const {
  const FunctionDef& fn = *modules_[0]->functions[0];
  if (fn.syntaxError) return *fn.syntaxError;
  return compileFunction(fn, nullptr, opts);
}

void LoadedUnit::addTexts(SourceManager& sources) const {
  for (const auto& [file, lines] : lines_) {
    std::string text;
    for (const std::string& l : lines) text += l + "\n";
    sources.add(file, std::move(text));
  }
}

}  // namespace tilevm::frontend
