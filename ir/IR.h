// IR.h - the in-memory tile IR: module, kernel, region, block, op, value, attribute, location.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "ir/Op.h"
#include "ir/Types.h"

namespace tilevm::ir {

class Block;
class Op;
class Region;

/// A source position: index into Module::files (0 = unknown file), 1-based line and column.
struct Location {
  uint32_t file = 0;
  uint32_t line = 0;
  uint32_t col = 0;
  bool operator==(const Location&) const = default;
};

/// An attribute value: integer, float, string (identifier-like strings print bare), int list.
using AttrValue = std::variant<int64_t, double, std::string, std::vector<int64_t>>;

/// A named compile-time property of an op (axis, predicate, constant value, ...).
struct Attribute {
  std::string name;
  AttrValue value;
  bool operator==(const Attribute&) const = default;
};

/// An SSA value: the result of an op or an argument of a block.
class Value {
 public:
  Value(Type type, Op* def, Block* owner, unsigned index) : type(type), def(def), owner(owner), index(index) {}
  Type type;
  Op* def;        ///< defining op, or null for a block argument
  Block* owner;   ///< block of the defining op, or the block owning the argument
  unsigned index; ///< result number or argument number
};

/// A straight-line list of ops with arguments; regions hold exactly one block (structured IR).
class Block {
 public:
  std::vector<std::unique_ptr<Value>> args;
  std::vector<std::unique_ptr<Op>> ops;
  Region* parent = nullptr;

  Value* addArg(Type t);
  Op* terminator() const;
};

/// A nested body of an op (loop body, branch, combiner) or of a kernel.
class Region {
 public:
  Region() { block.parent = this; }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
  Block block;
  Op* parentOp = nullptr;  ///< null for a kernel body
};

/// One operation.
class Op {
 public:
  Op(Opcode code, Location loc) : code(code), loc(loc) {}
  Opcode code;
  Location loc;
  std::vector<Value*> operands;
  std::vector<std::unique_ptr<Value>> results;
  std::vector<Attribute> attrs;  ///< sorted by name, names unique
  std::vector<std::unique_ptr<Region>> regions;
  Block* parent = nullptr;

  Value* result(unsigned i = 0) const { return results[i].get(); }
  std::string_view mnemonic() const { return opInfo(code).mnemonic; }
  /// The attribute named `name`, or null.
  const AttrValue* attr(std::string_view name) const;
  /// Sets (or replaces) an attribute, keeping attrs sorted.
  void setAttr(std::string name, AttrValue v);
  /// Typed getters: null when absent or of another kind.
  const int64_t* intAttr(std::string_view name) const;
  const double* floatAttr(std::string_view name) const;
  const std::string* strAttr(std::string_view name) const;
  const std::vector<int64_t>* intsAttr(std::string_view name) const;
};

/// A kernel: named parameters (the body's block arguments) and a body ending in `return`.
class Kernel {
 public:
  std::string name;
  std::vector<std::string> paramNames;
  Region body;
  Location loc;

  std::span<const std::unique_ptr<Value>> params() const { return body.block.args; }
};

/// A compilation unit: source file names (for locations) and kernels.
class Module {
 public:
  Module() { files.push_back(""); }
  /// files[0] is "" (unknown); Location::file indexes this list.
  std::vector<std::string> files;
  std::vector<std::unique_ptr<Kernel>> kernels;

  /// Index of `name` in files, adding it if new.
  uint32_t fileIndex(const std::string& name);
  Kernel* findKernel(std::string_view name) const;
  /// "file:line:col" for a location (or "<unknown>").
  std::string locStr(const Location& l) const;
};

/// Calls f(op) for every op of a block, in order, recursing into regions (pre-order).
template <typename F>
void walk(const Block& b, F&& f) {
  for (const auto& op : b.ops) {
    f(*op);
    for (const auto& r : op->regions) walk(r->block, f);
  }
}

/// Number of ops in a kernel, nested ones included.
size_t countOps(const Kernel& k);

}  // namespace tilevm::ir
