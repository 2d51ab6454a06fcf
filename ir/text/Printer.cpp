// Printer.cpp - writes a module in the `.tile` text form.
#include <charconv>
#include <cmath>
#include <unordered_map>

#include "ir/text/Text.h"

namespace tilevm::ir {

namespace {

bool isBareWord(const std::string& s) {
  if (s.empty() || s == "inf" || s == "nan" || s == "loc") return false;
  if (!(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
  return true;
}

std::string quote(const std::string& s) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c >= 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string printDouble(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);  // shortest text that reads back exactly
  std::string s(buf, end);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

class Printer {
 public:
  Printer(const Module& m, const PrintOptions& o) : m_(m), opts_(o) {}

  std::string run() {
    for (size_t i = 0; i < m_.kernels.size(); ++i) {
      if (i) out_ += "\n";
      printKernel(*m_.kernels[i]);
    }
    return std::move(out_);
  }

 private:
  void printKernel(const Kernel& k) {
    names_.clear();
    next_ = 0;
    out_ += "kernel @" + k.name + "(";
    for (size_t i = 0; i < k.params().size(); ++i) {
      const Value* p = k.params()[i].get();
      names_[p] = "%" + k.paramNames[i];
      out_ += (i ? ", " : "") + names_[p] + ": " + p->type.str();
    }
    out_ += ")";
    printLoc(k.loc);
    out_ += " {\n";
    printBlock(k.body.block, 1);
    out_ += "}\n";
  }

  void printBlock(const Block& b, int depth) {
    for (const auto& op : b.ops) printOp(*op, depth);
  }

  std::string name(const Value* v) {
    auto it = names_.find(v);
    return it == names_.end() ? std::string("%<unnamed>") : it->second;
  }

  std::string define(const Value* v) { return names_[v] = "%" + std::to_string(next_++); }

  void printOp(const Op& op, int depth) {
    std::string indent(2 * depth, ' ');
    out_ += indent;
    if (!op.results.empty()) {
      for (size_t i = 0; i < op.results.size(); ++i) out_ += (i ? ", " : "") + define(op.results[i].get());
      out_ += " = ";
    }
    out_ += op.mnemonic();
    for (size_t i = 0; i < op.operands.size(); ++i) out_ += (i ? ", " : " ") + name(op.operands[i]);
    if (!op.attrs.empty()) {
      out_ += " {";
      for (size_t i = 0; i < op.attrs.size(); ++i)
        out_ += (i ? ", " : "") + op.attrs[i].name + " = " + printAttrValue(op.attrs[i].value);
      out_ += "}";
    }
    if (!op.results.empty()) {
      out_ += " : ";
      for (size_t i = 0; i < op.results.size(); ++i) out_ += (i ? ", " : "") + op.results[i]->type.str();
    }
    for (const auto& r : op.regions) {
      out_ += " (";
      for (size_t i = 0; i < r->block.args.size(); ++i) {
        const Value* a = r->block.args[i].get();
        out_ += (i ? ", " : "") + define(a) + ": " + a->type.str();
      }
      out_ += ") {\n";
      printBlock(r->block, depth + 1);
      out_ += indent + "}";
    }
    printLoc(op.loc);
    out_ += "\n";
  }

  void printLoc(const Location& l) {
    if (!opts_.locations) return;
    if (l.line == 0) {
      out_ += " loc(unknown)";  // so that parsing does not invent a position
      return;
    }
    const std::string& f = l.file < m_.files.size() ? m_.files[l.file] : std::string();
    out_ += " loc(" + quote(f) + ":" + std::to_string(l.line) + ":" + std::to_string(l.col) + ")";
  }

  const Module& m_;
  const PrintOptions& opts_;
  std::string out_;
  std::unordered_map<const Value*, std::string> names_;
  unsigned next_ = 0;
};

}  // namespace

std::string printAttrValue(const AttrValue& v) {
  if (const int64_t* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const double* d = std::get_if<double>(&v)) return printDouble(*d);
  if (const std::string* s = std::get_if<std::string>(&v)) return isBareWord(*s) ? *s : quote(*s);
  const auto& list = std::get<std::vector<int64_t>>(v);
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + std::to_string(list[i]);
  return out + "]";
}

std::string print(const Module& m, const PrintOptions& opts) { return Printer(m, opts).run(); }

}  // namespace tilevm::ir
