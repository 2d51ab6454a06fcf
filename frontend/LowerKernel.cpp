// LowerKernel.cpp - a kernel's entry: its parameters bound to constexprs (given or defaulted),
// runtime scalars and pointers from the signature, tensor descriptors (base, shapes, strides) and
// tuple arguments (their elements arriving as PARAM.PATH, rebuilt as the tuple the kernel sees),
// then its body lowered.
#include <algorithm>
#include <functional>
#include <optional>

#include "frontend/Builtins.h"
#include "frontend/Lowerer.h"

namespace tilevm::frontend {

using ir::Opcode;
using ir::ScalarKind;

namespace {

// One component of a tuple argument's element path: INDEX, or INDEX_FIELD for a named tuple's
// field (a field name never starts with '_').
bool tupleComponent(const std::string& c, int64_t& index, std::string& field) {
  const size_t sep = c.find('_');
  const std::string digits = c.substr(0, sep);
  if (digits.empty() || digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
    return false;
  index = std::stoll(digits);
  field = sep == std::string::npos ? "" : c.substr(sep + 1);
  if (sep != std::string::npos &&
      (field.empty() || !(std::isalpha(static_cast<unsigned char>(field[0]))) ||
       !std::all_of(field.begin(), field.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; })))
    return false;
  return true;
}

std::vector<std::string> splitPath(const std::string& path) {
  std::vector<std::string> out;
  for (size_t at = 0;;) {
    const size_t dot = path.find('.', at);
    out.push_back(path.substr(at, dot == std::string::npos ? std::string::npos : dot - at));
    if (dot == std::string::npos) return out;
    at = dot + 1;
  }
}

// A tuple argument as its elements arrive (NAME.PATH entries), then as the value the kernel sees.
struct TupleNode {
  std::optional<CV> leaf;
  std::map<int64_t, std::pair<std::string, TupleNode>> kids;  // index -> (field, element)
};

}  // namespace

bool Lowerer::tuplePathValid(const std::string& path) {
  int64_t index;
  std::string field;
  for (const std::string& c : splitPath(path))
    if (!tupleComponent(c, index, field)) return false;
  return true;
}

void Lowerer::lowerKernel(const FunctionDef& fn, const std::map<std::string, CV>& constexprs,
                          const std::map<std::string, DType>& signature,
                          const std::map<std::string, DescriptorParam>& descriptors) {
  setLoc(fn.line, fn.col);
  Env env;
  std::vector<std::pair<std::string, ir::Type>> params;
  std::vector<std::pair<std::string, DType>> runtime;
  std::vector<const Param*> tupleArgs;
  for (const Param& p : fn.params) {
    if (auto it = constexprs.find(p.name); it != constexprs.end()) {
      Expr at;
      at.line = p.line;
      at.col = p.col;
      const bool triton = it->second.kind == CV::K::Module && !it->second.pymod;  // one of Triton's functions, by name
      env[p.name] = triton ? resolvePath(it->second.s, at, *this) : it->second;
      continue;
    }
    if (isConstexprParam(p)) {
      if (!p.defaultValue)
        fail(p.line, p.col, "tl.constexpr parameter '" + p.name + "' has no value: pass -D " + p.name + "=VALUE");
      Env empty;
      env[p.name] = eval(*p.defaultValue, empty);
      continue;
    }
    if (auto d = descriptors.find(p.name); d != descriptors.end()) {
      DType i64 = DType::of(ScalarKind::I64);
      params.emplace_back(p.name + ".base", ir::Type(d->second.pointer.elem()));
      runtime.emplace_back(p.name + ".base", d->second.pointer);
      for (const char* field : {"shape", "stride"})
        for (size_t k = 0; k < d->second.block.size(); ++k) {
          std::string n = p.name + "." + field + std::to_string(k);
          params.emplace_back(n, ir::Type(i64.elem()));
          runtime.emplace_back(n, i64);
        }
      continue;
    }
    const std::string prefix = p.name + ".";
    auto inSignature = signature.lower_bound(prefix);
    const bool signatureElements = inSignature != signature.end() && inSignature->first.rfind(prefix, 0) == 0;
    auto inConstexprs = constexprs.lower_bound(prefix);
    if (signatureElements || (inConstexprs != constexprs.end() && inConstexprs->first.rfind(prefix, 0) == 0)) {
      // A tuple argument: its runtime elements are parameters PARAM.PATH; the tuple is made below.
      for (; inSignature != signature.end() && inSignature->first.rfind(prefix, 0) == 0; ++inSignature) {
        params.emplace_back(inSignature->first, ir::Type(inSignature->second.elem()));
        runtime.emplace_back(inSignature->first, inSignature->second);
      }
      tupleArgs.push_back(&p);
      continue;
    }
    auto sig = signature.find(p.name);
    if (sig == signature.end() && p.defaultValue) {  // not passed: its default, as a Python call would
      Env empty;
      env[p.name] = eval(*p.defaultValue, empty);
      continue;
    }
    if (sig == signature.end())
      fail(p.line, p.col, "parameter '" + p.name + "' has no type: give it with --arg (e.g. '" + p.name + "=randn:f32:1024') or --signature (e.g. '" + p.name +
                              ": *fp32'), or make it a constant with -D " + p.name + "=VALUE");
    // A dtype annotation is the parameter's type in Triton. The Python door types the argument
    // from the live annotation (as Triton reads it); from a file, the argument must say it.
    std::optional<DType> annotated = module->host ? std::nullopt : annotatedDType(p);
    if (annotated && !sig->second.isPtr() && !(*annotated == sig->second))
      fail(p.line, p.col, "parameter '" + p.name + "' is annotated " + annotated->name() + ", which Triton makes its type, but its argument is " +
                              sig->second.name() + ": give it as " + annotated->name() + " (e.g. --arg " + p.name + "=VALUE:" +
                              annotated->name() + ")");
    params.emplace_back(p.name, ir::Type(sig->second.elem()));
    // `p: tl.const`: a pointer to data the kernel never writes (Triton's const pointer type).
    runtime.emplace_back(p.name, sig->second.isPtr() && isConstParam(p) ? DType::ptrTo(sig->second.element(), true) : sig->second);
  }
  ir::Kernel* k = b.createKernel(fn.name, params);
  for (size_t i = 0; i < runtime.size(); ++i) env[runtime[i].first] = CV::tensor(k->params()[i].get(), runtime[i].second);
  for (const auto& [name, d] : descriptors) {
    if (!env.count(name + ".base")) continue;
    CV desc;
    desc.kind = CV::K::BlockPtr;
    desc.s = "tensor_descriptor";
    desc.ints = d.block;
    desc.f = d.nanPadding ? 1 : 0;  // as make_tensor_descriptor's padding_option
    desc.elts.push_back(env.at(name + ".base"));
    for (const char* field : {"shape", "stride"})
      for (size_t k = 0; k < d.block.size(); ++k) desc.elts.push_back(env.at(name + "." + field + std::to_string(k)));
    for (auto it = env.begin(); it != env.end();) it = it->first.rfind(name + ".", 0) == 0 ? env.erase(it) : std::next(it);
    env[name] = desc;
  }
  for (const Param* p : tupleArgs) {
    // Its elements: constants from -D, runtime values from the parameters just made.
    const std::string prefix = p->name + ".";
    TupleNode root;
    auto add = [&](const std::string& key, const CV& v) {
      TupleNode* node = &root;
      for (const std::string& c : splitPath(key.substr(prefix.size()))) {
        int64_t index;
        std::string field;
        tupleComponent(c, index, field);  // checked by compileFunction
        auto& kid = node->kids[index];
        if (!field.empty()) kid.first = field;
        node = &kid.second;
      }
      node->leaf = v;
    };
    for (auto it = constexprs.lower_bound(prefix); it != constexprs.end() && it->first.rfind(prefix, 0) == 0; ++it)
      add(it->first, it->second);
    for (auto it = env.lower_bound(prefix); it != env.end() && it->first.rfind(prefix, 0) == 0;) {
      add(it->first, it->second);
      it = env.erase(it);
    }
    std::function<CV(const TupleNode&, const std::string&)> make = [&](const TupleNode& n, const std::string& path) -> CV {
      if (n.leaf && n.kids.empty()) return *n.leaf;
      if (n.leaf) fail(p->line, p->col, "tuple argument '" + path + "' is given both as a value and as elements");
      CV t = CV::tuple({});
      bool named = false;
      for (const auto& [index, kid] : n.kids) {
        if (index != int64_t(t.elts.size()))
          fail(p->line, p->col, "tuple argument '" + path + "': element " + std::to_string(t.elts.size()) + " is not given");
        t.elts.push_back(make(kid.second, path + "." + std::to_string(index)));
        t.fields.push_back(kid.first);
        named = named || !kid.first.empty();
      }
      if (!named) t.fields.clear();
      return t;
    };
    env[p->name] = make(root, p->name);
  }
  Flow f = execBlock(fn.body, env);
  if (f.returned && f.value.kind != CV::K::None) fail(fn.line, fn.col, "a kernel cannot return a value");
  setLoc(fn.line, fn.col);
  b.create(Opcode::Return, {}, {});
}

}  // namespace tilevm::frontend
