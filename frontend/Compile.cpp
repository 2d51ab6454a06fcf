// Compile.cpp - command-line constexprs and signatures, then parse -> lower -> verify.
#include "frontend/Compile.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "frontend/Builtins.h"
#include "frontend/Combine.h"
#include "frontend/CompileFunction.h"
#include "frontend/Lowerer.h"
#include "frontend/Modules.h"
#include "frontend/PyParser.h"
#include "frontend/SourceUnit.h"
#include "ir/Verifier.h"

namespace tilevm::frontend {

namespace {

Diagnostic optionError(const std::string& msg) { return Diagnostic{"<command line>", 0, 0, msg}; }

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The items of a tuple's text between its parentheses, split at the commas outside nested
// brackets and quotes ("16, (2, 4), 'a,b'"); a trailing comma ends the last item.
bool splitTupleItems(const std::string& inner, std::vector<std::string>& items) {
  int depth = 0;
  char quote = 0;
  std::string cur;
  for (char ch : inner) {
    if (quote) {
      if (ch == quote) quote = 0;
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
    } else if (ch == '(' || ch == '[') {
      ++depth;
    } else if (ch == ')' || ch == ']') {
      if (--depth < 0) return false;
    } else if (ch == ',' && depth == 0) {
      if (trim(cur).empty()) return false;  // "(,)", "(1,,2)"
      items.push_back(cur);
      cur.clear();
      continue;
    }
    cur += ch;
  }
  if (quote || depth != 0) return false;
  if (!trim(cur).empty()) items.push_back(cur);
  return true;
}

// A -D value: integer, float, True/False/None, a dtype (fp16, tl.float16, ...), a tuple of such
// values (`(16, 4)`, `(512,)`, `[2, 2]`), or else a string (quotes optional: `-D ACT=leaky_relu`
// or `-D ACT='leaky_relu'`).
// Decimal or 0x-prefixed hex digits with an optional sign (the forms parseDefine reads): an
// integer, whatever its size.
bool isIntegerText(const std::string& text) {
  std::string t = trim(text);
  size_t at = !t.empty() && (t[0] == '-' || t[0] == '+') ? 1 : 0;
  bool hex = t.size() > at + 1 && t[at] == '0' && (t[at + 1] == 'x' || t[at + 1] == 'X');
  if (hex) at += 2;
  if (at == t.size()) return false;
  for (size_t i = at; i < t.size(); ++i)
    if (!(hex ? std::isxdigit(static_cast<unsigned char>(t[i])) : std::isdigit(static_cast<unsigned char>(t[i])))) return false;
  return true;
}

bool parseDefine(const std::string& text, CV& out) {
  std::string t = trim(text);
  if (t.size() >= 2 && ((t.front() == '(' && t.back() == ')') || (t.front() == '[' && t.back() == ']'))) {
    std::vector<std::string> items;
    if (!splitTupleItems(t.substr(1, t.size() - 2), items)) return false;
    std::vector<CV> elts;
    for (const std::string& item : items) {
      CV e;
      if (!parseDefine(item, e)) return false;
      elts.push_back(e);
    }
    return out = CV::tuple(std::move(elts)), true;
  }
  if (t == "True" || t == "true") return out = CV::boolean(true), true;
  if (t == "False" || t == "false") return out = CV::boolean(false), true;
  if (t == "None") return out = CV::none(), true;
  char* end = nullptr;
  errno = 0;
  long long i = std::strtoll(t.c_str(), &end, 0);
  if (!t.empty() && *end == '\0' && errno == 0) return out = CV::integer(i), true;
  if (!t.empty() && *end == '\0' && errno == ERANGE) {  // past int64: a uint64 (up to 2^64 - 1), or not a number
    errno = 0;
    unsigned long long u = std::strtoull(t.c_str(), &end, 0);
    if (t[0] == '-' || errno != 0) return false;
    return out = *CV::pythonInt(__int128(u)), true;
  }
  double d = std::strtod(t.c_str(), &end);
  if (!t.empty() && *end == '\0') return out = CV::real(d), true;
  std::string name = t.rfind("tl.", 0) == 0 ? t.substr(3) : t.rfind("triton.language.", 0) == 0 ? t.substr(16) : t;
  DType dt;
  if (parseDTypeName(name, dt)) return out = CV::type(dt), true;
  if (t.size() >= 2 && (t.front() == '\'' || t.front() == '"') && t.back() == t.front())
    return out = CV::str(t.substr(1, t.size() - 2)), true;
  bool word = !t.empty() && t.find_first_of(" \t'\"") == std::string::npos && !std::isdigit(static_cast<unsigned char>(t[0]));
  if (word) return out = CV::str(t), true;
  return false;
}

// Reads the main file and returns the kernel `name`, or a diagnostic naming the known ones.
Result<const FunctionDef*> findKernel(ModuleLoader& loader, std::string_view source, const std::string& fileName,
                                      const std::string& name) {
  auto mod = loader.loadMain(source, fileName);
  if (!mod) return mod.error();
  const FunctionDef* fn = (*mod)->kernel(name);
  if (!fn) {
    std::string known;
    for (const auto& k : (*mod)->kernels) known += (known.empty() ? "" : ", ") + k.name;
    return Diagnostic{fileName, 0, 0,
                      "no @triton.jit function named '" + name + "'" +
                          (known.empty() ? " (the file has none)" : " (the file has: " + known + ")")};
  }
  if (fn->syntaxError) return *fn->syntaxError;
  return fn;
}

}  // namespace

Result<KernelList> listKernels(std::string_view source, const std::string& fileName) {
  ModuleLoader loader;
  auto mod = loader.loadMain(source, fileName);
  if (!mod) return mod.error();
  KernelList out;
  std::vector<std::string> seen;
  for (const auto& k : (*mod)->kernels)
    if (std::find(seen.begin(), seen.end(), k.name) == seen.end()) seen.push_back(k.name);
  out.names = seen;
  out.warnings = (*mod)->warnings;
  for (auto& w : out.warnings) w.message = "this kernel cannot be compiled: " + w.message;
  return out;
}

KernelSource::KernelSource(std::string_view source, std::string fileName, std::vector<std::string> includeDirs)
    : text_(source), fileName_(std::move(fileName)), loader_(std::make_unique<ModuleLoader>(std::move(includeDirs))) {}

KernelSource::~KernelSource() = default;

Result<std::unique_ptr<ir::Module>> compileKernel(std::string_view source, const std::string& fileName,
                                                  const CompileOptions& opts) {
  return KernelSource(source, fileName, opts.includeDirs).compile(opts);
}

Result<std::unique_ptr<ir::Module>> KernelSource::compile(const CompileOptions& opts) {
  ModuleLoader& loader = *loader_;
  auto found = findKernel(loader, text_, fileName_, opts.kernel);
  auto keepTexts = [&] {
    if (opts.sources)
      for (const auto& [file, text] : loader.texts()) opts.sources->add(file, text);
  };
  if (!found) return keepTexts(), found.error();
  auto out = compileFunction(**found, &loader, opts);
  keepTexts();
  return out;
}

Result<std::unique_ptr<ir::Module>> compileFunction(const FunctionDef& fn, ModuleLoader* loader, const CompileOptions& opts) {
  const PyModule& mainModule = *fn.module;
  // A parameter, or an element of a tuple argument: PARAM.PATH (tupleArgumentPath, Lowerer.h).
  auto hasParam = [&](const std::string& n) {
    const std::string head = n.substr(0, n.find('.'));
    if (head.size() < n.size() && !Lowerer::tuplePathValid(n.substr(head.size() + 1))) return false;
    return std::any_of(fn.params.begin(), fn.params.end(), [&](const Param& p) { return p.name == head; });
  };
  std::map<std::string, CV> constexprs;
  for (const auto& [name, text] : opts.defines) {
    if (!hasParam(name)) return optionError("-D " + name + ": '" + fn.name + "' has no parameter named '" + name + "'");
    if (!text.empty() && text[0] == '@') {
      // A @triton.jit function given as an argument, or one of Triton's by its dotted name (a
      // module path, resolved where the kernel binds it): the source unit holds it under this
      // name (python/tilevm/source_unit.py).
      const CV* function = nullptr;
      if (mainModule.host)
        if (auto it = mainModule.host->values.find(text); it != mainModule.host->values.end() &&
                                                          (it->second.kind == CV::K::Function ||
                                                           (it->second.kind == CV::K::Module && !it->second.pymod)))
          function = &it->second;
      if (!function)
        return optionError("-D " + name + "=" + text + ": a function argument needs the source unit that holds it "
                           "(the Python door passes one)");
      constexprs[name] = *function;
      continue;
    }
    if (!text.empty() && text[0] == '!') {
      // An object the Python door cannot hand over (a uuid given to a tl.constexpr parameter, as
      // Triton's tests do to defeat its cache): the kernel may take it but not use it.
      CV v;
      v.kind = CV::K::Opaque;
      v.s = text.substr(1);
      constexprs[name] = v;
      continue;
    }
    CV v;
    if (!parseDefine(text, v) && isIntegerText(text))
      return optionError("-D " + name + "=" + text + ": does not fit in 64 bits (" + CV::kIntRange + ")");
    if (!parseDefine(text, v))
      return optionError("-D " + name + "=" + text + ": expected an integer, a float, True/False, a dtype such as fp16, a string or a tuple of them");
    constexprs[name] = v;
  }
  std::map<std::string, DType> signature;
  std::map<std::string, DescriptorParam> descriptors;
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
    if (type.rfind("tensordesc<", 0) == 0 && type.back() == '>') {
      // tensordesc<*fp16:64x64>: a host-made tensor descriptor over a *fp16 array;
      // tensordesc<*fp16:64x64:nan> pads with NaN (Triton's padding="nan").
      std::string inner = type.substr(11, type.size() - 12);
      DescriptorParam d;
      if (inner.size() > 4 && inner.compare(inner.size() - 4, 4, ":nan") == 0) {
        d.nanPadding = true;
        inner.resize(inner.size() - 4);
      }
      size_t colon2 = inner.find(':');
      bool ok = colon2 != std::string::npos && parseDTypeName(trim(inner.substr(0, colon2)), d.pointer) && d.pointer.isPtr();
      std::string shape = colon2 == std::string::npos ? "" : inner.substr(colon2 + 1);
      for (size_t pos = 0; ok && pos <= shape.size();) {
        size_t x = shape.find('x', pos);
        std::string dim = shape.substr(pos, x == std::string::npos ? std::string::npos : x - pos);
        char* end = nullptr;
        long long v = std::strtoll(dim.c_str(), &end, 10);
        ok = !dim.empty() && *end == '\0' && v > 0 && v <= (1 << 20);
        d.block.push_back(v);
        pos = x == std::string::npos ? shape.size() + 1 : x + 1;
      }
      if (!ok) return optionError("--signature: expected tensordesc<*DTYPE:BLOCK> for '" + name + "', e.g. tensordesc<*fp16:64x64>");
      if (std::string problem = Lowerer::tileShapeProblem(d.block); !problem.empty())
        return optionError("--signature: the block of '" + name + "': " + problem);
      if (!hasParam(name)) return optionError("--signature: '" + fn.name + "' has no parameter named '" + name + "'");
      if (d.nanPadding && !d.pointer.element().isFloat())
        return optionError("--signature: '" + name + "': Padding option `nan` is not supported for integer blocks");
      descriptors[name] = d;
      continue;
    }
    DType dt;
    std::string bare = type;
    if (!bare.empty() && bare[0] == '*') bare = "*" + trim(bare.substr(1));
    if (!parseDTypeName(bare, dt))
      return optionError("--signature: unknown type '" + type + "' for '" + name + "' (use e.g. i32, fp32, *fp16, *bf16, u8, i64)");
    if (!hasParam(name)) return optionError("--signature: '" + fn.name + "' has no parameter named '" + name + "'");
    if (constexprs.count(name)) return optionError("--signature: '" + name + "' is also given with -D");
    signature[name] = dt;
  }
  for (const Param& p : fn.params)
    if ((signature.count(p.name) || signature.lower_bound(p.name + ".") != signature.lower_bound(p.name + "/")) &&
        isConstexprParam(p))
      return optionError("--signature: '" + p.name + "' is tl.constexpr: give its value with -D " + p.name + "=VALUE");

  auto out = std::make_unique<ir::Module>();
  try {
    Lowerer lowerer(mainModule, *out, loader);
    lowerer.staticPrint = opts.staticPrint;
    lowerer.flags = opts.flags;
    lowerer.lowerKernel(fn, constexprs, signature, descriptors);
  } catch (const DiagnosticError& e) {
    return e.diag;
  }
  for (auto& k : out->kernels) {
    combineBroadcastMulReduce(*k);
    combineDotAdds(*k);
  }
  auto diags = ir::verify(*out);
  if (!diags.empty()) {
    Diagnostic d = diags[0];
    d.message = "internal error: the lowered IR does not verify: " + d.message;
    return d;
  }
  // Triton's block types: every dimension of every tile a power of two.
  std::optional<Diagnostic> shape;
  for (const auto& k : out->kernels)
    ir::walk(k->body.block, [&](const ir::Op& op) {
      for (const auto& r : op.results)
        for (size_t i = 0; !shape && i < r->type.rank(); ++i)
          if (int64_t d = r->type.dim(i); d & (d - 1)) {
            const ir::Location& l = op.loc;
            shape = Diagnostic{l.file < out->files.size() ? out->files[l.file] : "", l.line, l.col,
                               "Shape element " + std::to_string(i) + " must be a power of 2"};  // Triton's words
          }
    });
  if (shape) return *shape;
  return out;
}

}  // namespace tilevm::frontend

namespace tilevm::frontend {

Result<std::vector<ParamInfo>> kernelParams(std::string_view source, const std::string& fileName, const std::string& kernel) {
  return KernelSource(source, fileName).params(kernel);
}

Result<std::vector<ParamInfo>> KernelSource::params(const std::string& kernel) {
  auto found = findKernel(*loader_, text_, fileName_, kernel);
  if (!found) return found.error();
  std::vector<ParamInfo> out;
  for (const Param& p : (*found)->params) out.push_back(ParamInfo{p.name, isConstexprParam(p)});
  return out;
}

uint64_t filesParsed() { return pythonFilesParsed(); }

}  // namespace tilevm::frontend
