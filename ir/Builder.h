// Builder.h - creates kernels and ops at an insertion point, with a current source location.
#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ir/IR.h"

namespace tilevm::ir {

/// Appends ops to a block. Regions of new ops are created empty (one block each); fill them by
/// moving the insertion point into `op->regions[i]->block`. Types are not checked here: run
/// the verifier on the finished module.
class Builder {
 public:
  explicit Builder(Module& m) : module_(m) {}

  /// Adds a kernel with the given parameters and points the builder at its body.
  Kernel* createKernel(std::string name, const std::vector<std::pair<std::string, Type>>& params);

  void setInsertionPoint(Block* b) { block_ = b; }
  Block* insertionBlock() const { return block_; }
  void setLoc(Location l) { loc_ = l; }
  Location loc() const { return loc_; }
  Module& module() { return module_; }
  /// Ops this builder has created (a budget for generators such as the frontend's unrolling).
  size_t opsCreated() const { return opsCreated_; }

  /// The general form: any op, any operands, result types and attributes.
  Op* create(Opcode code, std::span<Value* const> operands, std::span<const Type> resultTypes,
             std::vector<Attribute> attrs = {});
  Op* create(Opcode code, std::initializer_list<Value*> operands, std::initializer_list<Type> resultTypes,
             std::vector<Attribute> attrs = {}) {
    return create(code, std::span<Value* const>(operands.begin(), operands.size()),
                  std::span<const Type>(resultTypes.begin(), resultTypes.size()), std::move(attrs));
  }

  Op* create(Opcode code, const std::vector<Value*>& operands, std::initializer_list<Type> resultTypes,
             std::vector<Attribute> attrs = {}) {
    return create(code, std::span<Value* const>(operands), std::span<const Type>(resultTypes.begin(), resultTypes.size()),
                  std::move(attrs));
  }

  /// Conveniences for common single-result ops.
  Value* constant(Type t, AttrValue value);
  Value* unary(Opcode code, Value* a) { return create(code, {a}, {a->type})->result(); }
  Value* binary(Opcode code, Value* a, Value* b) { return create(code, {a, b}, {a->type})->result(); }
  Value* compare(Opcode code, std::string pred, Value* a, Value* b);
  Value* cast(Opcode code, Value* a, ElemType to) { return create(code, {a}, {a->type.withElem(to)})->result(); }
  Value* programId(int axis);
  Value* arange(int64_t start, int64_t end);
  Value* splat(Value* scalar, std::span<const int64_t> shape);
  Value* broadcast(Value* a, std::span<const int64_t> shape);
  Value* expandDims(Value* a, int axis);

 private:
  Module& module_;
  size_t opsCreated_ = 0;
  Block* block_ = nullptr;
  Location loc_;
};

}  // namespace tilevm::ir
