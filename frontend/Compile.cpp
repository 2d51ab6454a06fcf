// Compile.cpp - command-line constexprs and signatures, then parse -> lower -> verify.
#include "frontend/Compile.h"

#include <algorithm>
#include <cstdlib>

#include "frontend/Builtins.h"
#include "frontend/Lowerer.h"
#include "frontend/PyParser.h"
#include "ir/Verifier.h"

namespace tilevm::frontend {

namespace {

Diagnostic optionError(const std::string& msg) { return Diagnostic{"<command line>", 0, 0, msg}; }

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// A -D value: integer, float, True/False/None, or a dtype (fp16, tl.float16, ...).
bool parseDefine(const std::string& text, CV& out) {
  std::string t = trim(text);
  if (t == "True" || t == "true") return out = CV::boolean(true), true;
  if (t == "False" || t == "false") return out = CV::boolean(false), true;
  if (t == "None") return out = CV::none(), true;
  char* end = nullptr;
  errno = 0;
  long long i = std::strtoll(t.c_str(), &end, 0);
  if (!t.empty() && *end == '\0' && errno == 0) return out = CV::integer(i), true;
  double d = std::strtod(t.c_str(), &end);
  if (!t.empty() && *end == '\0') return out = CV::real(d), true;
  std::string name = t.rfind("tl.", 0) == 0 ? t.substr(3) : t.rfind("triton.language.", 0) == 0 ? t.substr(16) : t;
  DType dt;
  if (parseDTypeName(name, dt)) return out = CV::type(dt), true;
  return false;
}

}  // namespace

Result<std::vector<std::string>> listKernels(std::string_view source, const std::string& fileName) {
  auto mod = parsePython(source, fileName);
  if (!mod) return mod.error();
  std::vector<std::pair<uint32_t, std::string>> byLine;
  for (const auto& [name, fn] : mod->jitFunctions) byLine.emplace_back(fn->line, name);
  std::sort(byLine.begin(), byLine.end());
  std::vector<std::string> names;
  for (auto& [line, name] : byLine) names.push_back(name);
  return names;
}

Result<std::unique_ptr<ir::Module>> compileKernel(std::string_view source, const std::string& fileName,
                                                  const CompileOptions& opts) {
  auto mod = parsePython(source, fileName);
  if (!mod) return mod.error();
  auto it = mod->jitFunctions.find(opts.kernel);
  if (it == mod->jitFunctions.end()) {
    std::string known;
    for (const auto& [name, fn] : mod->jitFunctions) known += (known.empty() ? "" : ", ") + name;
    return Diagnostic{fileName, 0, 0,
                      "no @triton.jit function named '" + opts.kernel + "'" +
                          (known.empty() ? " (the file has none)" : " (the file has: " + known + ")")};
  }
  const FunctionDef& fn = *it->second;
  if (fn.syntaxError) return *fn.syntaxError;
  auto hasParam = [&](const std::string& n) {
    return std::any_of(fn.params.begin(), fn.params.end(), [&](const Param& p) { return p.name == n; });
  };
  std::map<std::string, CV> constexprs;
  for (const auto& [name, text] : opts.defines) {
    if (!hasParam(name)) return optionError("-D " + name + ": '" + opts.kernel + "' has no parameter named '" + name + "'");
    CV v;
    if (!parseDefine(text, v))
      return optionError("-D " + name + "=" + text + ": expected an integer, a float, True/False or a dtype such as fp16");
    constexprs[name] = v;
  }
  std::map<std::string, DType> signature;
  std::string sig = opts.signature;
  size_t start = 0;
  while (start <= sig.size() && !trim(sig.substr(start)).empty()) {
    size_t comma = sig.find(',', start);
    std::string item = trim(sig.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    start = comma == std::string::npos ? sig.size() + 1 : comma + 1;
    if (item.empty()) continue;
    size_t colon = item.find(':');
    if (colon == std::string::npos) return optionError("--signature: expected 'name: type' in '" + item + "'");
    std::string name = trim(item.substr(0, colon)), type = trim(item.substr(colon + 1));
    DType dt;
    std::string bare = type;
    if (!bare.empty() && bare[0] == '*') bare = "*" + trim(bare.substr(1));
    if (!parseDTypeName(bare, dt))
      return optionError("--signature: unknown type '" + type + "' for '" + name + "' (use e.g. i32, fp32, *fp16, *bf16, u8, i64)");
    if (!hasParam(name)) return optionError("--signature: '" + opts.kernel + "' has no parameter named '" + name + "'");
    if (constexprs.count(name)) return optionError("--signature: '" + name + "' is also given with -D");
    signature[name] = dt;
  }
  for (const Param& p : fn.params)
    if (signature.count(p.name) && isConstexprParam(p))
      return optionError("--signature: '" + p.name + "' is tl.constexpr: give its value with -D " + p.name + "=VALUE");

  auto out = std::make_unique<ir::Module>();
  try {
    Lowerer lowerer(*mod, *out);
    lowerer.lowerKernel(fn, constexprs, signature);
  } catch (const DiagnosticError& e) {
    return e.diag;
  }
  auto diags = ir::verify(*out);
  if (!diags.empty()) {
    Diagnostic d = diags[0];
    d.message = "internal error: the lowered IR does not verify: " + d.message;
    return d;
  }
  return out;
}

}  // namespace tilevm::frontend

namespace tilevm::frontend {

Result<std::vector<ParamInfo>> kernelParams(std::string_view source, const std::string& fileName, const std::string& kernel) {
  auto mod = parsePython(source, fileName);
  if (!mod) return mod.error();
  auto it = mod->jitFunctions.find(kernel);
  if (it == mod->jitFunctions.end()) return Diagnostic{fileName, 0, 0, "no @triton.jit function named '" + kernel + "'"};
  if (it->second->syntaxError) return *it->second->syntaxError;
  std::vector<ParamInfo> out;
  for (const Param& p : it->second->params) out.push_back(ParamInfo{p.name, isConstexprParam(p)});
  return out;
}

}  // namespace tilevm::frontend
