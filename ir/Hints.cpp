// Hints.cpp - where value hints are kept (Hints.h) and their shape check.
#include "ir/Hints.h"

#include <algorithm>

namespace tilevm::ir {

std::string_view hintStem(Hint h) {
  switch (h) {
    case Hint::Divisibility: return "divisibility";
    case Hint::Contiguity: return "contiguity";
    case Hint::Constancy: return "constancy";
  }
  return "";
}

std::optional<HintSite> hintSite(const Value& v, Hint h) {
  std::string stem(hintStem(h));
  if (v.def) {
    if (v.def->results.size() == 1) return HintSite{v.def, stem};
    return HintSite{v.def, stem + "_res" + std::to_string(v.index)};
  }
  Region* region = v.owner ? v.owner->parent : nullptr;
  Op* loop = region ? region->parentOp : nullptr;
  if (!loop || loop->code != Opcode::For) return std::nullopt;
  return HintSite{loop, stem + "_arg" + std::to_string(v.index)};
}

const std::vector<int64_t>* hintOf(const Value& v, Hint h) {
  std::optional<HintSite> s = hintSite(v, h);
  return s ? s->op->intsAttr(s->name) : nullptr;
}

std::vector<const Value*> hintedValues(const Op& op) {
  std::vector<const Value*> out;
  for (const auto& r : op.results) out.push_back(r.get());
  if (op.code == Opcode::For && !op.regions.empty())
    for (const auto& a : op.regions[0]->block.args) out.push_back(a.get());
  return out;
}

namespace {

std::optional<std::string> checkOne(const Op& op, const Value& v, Hint h) {
  std::optional<HintSite> s = hintSite(v, h);
  if (!s) return std::nullopt;
  const AttrValue* a = op.attr(s->name);
  if (!a) return std::nullopt;
  const auto* list = std::get_if<std::vector<int64_t>>(a);
  size_t want = std::max<size_t>(1, v.type.rank());
  if (!list || list->size() != want)
    return "hint '" + s->name + "' must list " + std::to_string(want) + " integer(s), one per dim";
  for (int64_t x : *list)
    if (x <= 0) return "hint '" + s->name + "' must be positive, got " + std::to_string(x);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> checkHints(const Op& op) {
  const std::vector<const Value*> values = hintedValues(op);
  // Every hint attribute names one of them (its result, result N of several, argument N).
  auto names = [&](const std::string& name) {
    for (const Value* v : values)
      for (Hint h : kHints)
        if (auto s = hintSite(*v, h); s && s->name == name) return true;
    return false;
  };
  for (const Attribute& a : op.attrs)
    for (Hint h : kHints)
      if (a.name.rfind(hintStem(h), 0) == 0 && !names(a.name)) return "hint '" + a.name + "' names no value of this op";
  for (const Value* v : values)
    for (Hint h : kHints)
      if (auto p = checkOne(op, *v, h)) return p;
  return std::nullopt;
}

}  // namespace tilevm::ir
