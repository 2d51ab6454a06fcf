// IR.cpp - small helpers of the in-memory IR.
#include "ir/IR.h"

#include <algorithm>

namespace tilevm::ir {

Value* Block::addArg(Type t) {
  args.push_back(std::make_unique<Value>(t, nullptr, this, static_cast<unsigned>(args.size())));
  return args.back().get();
}

Op* Block::terminator() const {
  if (ops.empty() || !hasTrait(ops.back()->code, Terminator)) return nullptr;
  return ops.back().get();
}

const AttrValue* Op::attr(std::string_view name) const {
  for (const auto& a : attrs)
    if (a.name == name) return &a.value;
  return nullptr;
}

void Op::setAttr(std::string name, AttrValue v) {
  auto it = std::lower_bound(attrs.begin(), attrs.end(), name,
                             [](const Attribute& a, const std::string& n) { return a.name < n; });
  if (it != attrs.end() && it->name == name) {
    it->value = std::move(v);
    return;
  }
  attrs.insert(it, Attribute{std::move(name), std::move(v)});
}

const int64_t* Op::intAttr(std::string_view name) const {
  const AttrValue* v = attr(name);
  return v ? std::get_if<int64_t>(v) : nullptr;
}
const double* Op::floatAttr(std::string_view name) const {
  const AttrValue* v = attr(name);
  return v ? std::get_if<double>(v) : nullptr;
}
const std::string* Op::strAttr(std::string_view name) const {
  const AttrValue* v = attr(name);
  return v ? std::get_if<std::string>(v) : nullptr;
}
const std::vector<int64_t>* Op::intsAttr(std::string_view name) const {
  const AttrValue* v = attr(name);
  return v ? std::get_if<std::vector<int64_t>>(v) : nullptr;
}

uint32_t Module::fileIndex(const std::string& name) {
  for (size_t i = 0; i < files.size(); ++i)
    if (files[i] == name) return static_cast<uint32_t>(i);
  files.push_back(name);
  return static_cast<uint32_t>(files.size() - 1);
}

Kernel* Module::findKernel(std::string_view name) const {
  for (const auto& k : kernels)
    if (k->name == name) return k.get();
  return nullptr;
}

std::string Module::locStr(const Location& l) const {
  if (l.line == 0) return "<unknown>";
  std::string f = l.file < files.size() ? files[l.file] : "?";
  return f + ":" + std::to_string(l.line) + ":" + std::to_string(l.col);
}

size_t countOps(const Kernel& k) {
  size_t n = 0;
  walk(k.body.block, [&](const Op&) { ++n; });
  return n;
}

}  // namespace tilevm::ir
