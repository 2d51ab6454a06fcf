// Builder.cpp - op creation.
#include "ir/Builder.h"

#include <cassert>

namespace tilevm::ir {

Kernel* Builder::createKernel(std::string name, const std::vector<std::pair<std::string, Type>>& params) {
  auto k = std::make_unique<Kernel>();
  k->name = std::move(name);
  k->loc = loc_;
  for (const auto& [pname, type] : params) {
    k->paramNames.push_back(pname);
    k->body.block.addArg(type);
  }
  module_.kernels.push_back(std::move(k));
  block_ = &module_.kernels.back()->body.block;
  return module_.kernels.back().get();
}

Op* Builder::create(Opcode code, std::span<Value* const> operands, std::span<const Type> resultTypes,
                    std::vector<Attribute> attrs) {
  assert(block_ && "no insertion point");
  ++opsCreated_;
  auto op = std::make_unique<Op>(code, loc_);
  op->operands.assign(operands.begin(), operands.end());
  for (size_t i = 0; i < resultTypes.size(); ++i)
    op->results.push_back(std::make_unique<Value>(resultTypes[i], op.get(), block_, static_cast<unsigned>(i)));
  for (auto& a : attrs) op->setAttr(std::move(a.name), std::move(a.value));
  for (unsigned i = 0; i < opInfo(code).numRegions; ++i) {
    op->regions.push_back(std::make_unique<Region>());
    op->regions.back()->parentOp = op.get();
  }
  op->parent = block_;
  block_->ops.push_back(std::move(op));
  return block_->ops.back().get();
}

Value* Builder::constant(Type t, AttrValue value) {
  return create(Opcode::Constant, {}, {t}, {{"value", std::move(value)}})->result();
}

Value* Builder::compare(Opcode code, std::string pred, Value* a, Value* b) {
  return create(code, {a, b}, {a->type.withElem(ScalarKind::I1)}, {{"pred", std::move(pred)}})->result();
}

Value* Builder::programId(int axis) {
  return create(Opcode::ProgramId, {}, {Type::scalar(ScalarKind::I32)}, {{"axis", int64_t(axis)}})->result();
}

Value* Builder::arange(int64_t start, int64_t end) {
  int64_t n = end - start;
  return create(Opcode::Arange, {}, {Type::tile(ScalarKind::I32, std::span<const int64_t>(&n, 1))},
                {{"end", end}, {"start", start}})
      ->result();
}

Value* Builder::splat(Value* scalar, std::span<const int64_t> shape) {
  return create(Opcode::Splat, {scalar}, {scalar->type.withShape(shape)})->result();
}

Value* Builder::broadcast(Value* a, std::span<const int64_t> shape) {
  return create(Opcode::Broadcast, {a}, {a->type.withShape(shape)})->result();
}

Value* Builder::expandDims(Value* a, int axis) {
  std::vector<int64_t> shape(a->type.shape().begin(), a->type.shape().end());
  shape.insert(shape.begin() + axis, 1);
  return create(Opcode::ExpandDims, {a}, {a->type.withShape(shape)}, {{"axis", int64_t(axis)}})->result();
}

}  // namespace tilevm::ir
