// BuiltinsMap.cpp - the user's own elementwise code, mapped over groups of elements:
// tl.map_elementwise(scalar_fn, *args, pack=1), the function inlined once into the op's region on
// scalar arguments (pack consecutive elements of each operand, broadcast to one shape), its
// returns the region's yields; and tl.inline_asm_elementwise(asm, constraints, args, dtype,
// is_pure, pack), PTX the GPU engine runs per group (the `inline_asm` op).
#include "frontend/BuiltinTable.h"

namespace tilevm::frontend {

using ir::Opcode;
using ir::ScalarKind;

namespace {

// The arguments of a map, as tensors broadcast to one shape.
std::vector<CV> broadcastAll(Lowerer& L, std::vector<CV> inputs, const Expr& at) {
  for (CV& x : inputs) x = L.toTensor(x, at);
  for (int pass = 0; pass < 2; ++pass)  // the first pass grows inputs[0] to the common shape
    for (size_t i = 1; i < inputs.size(); ++i) L.broadcastPair(inputs[0], inputs[i], at);
  return inputs;
}

CV mapElementwise(Lowerer& L, CallArgs& c) {
  Args a(L, c, "map_elementwise", {"scalar_fn", "*", "pack"});
  const Expr& at = a.site();
  const CV& fn = a.get(0);
  if (fn.kind != CV::K::Function) L.fail(a.at(0), "map_elementwise's scalar_fn must be a @triton.jit function, got " + fn.describe());
  std::vector<CV> inputs = a.rest();
  if (inputs.empty()) L.fail(at, "map_elementwise must have at least 1 input tensor");
  const int64_t pack = a.intOr(1, 1);
  if (pack < 1) L.fail(a.at(1), "map_elementwise's pack must be at least 1, got " + std::to_string(pack));
  inputs = broadcastAll(L, inputs, at);
  const ir::Type& shape = inputs[0].type();
  if (shape.numElements() % pack != 0)
    L.fail(at, "map_elementwise's pack " + std::to_string(pack) + " does not divide the " + std::to_string(shape.numElements()) +
                   " elements of " + inputs[0].describe());
  std::vector<ir::Value*> operands;
  for (const CV& x : inputs) operands.push_back(x.value);
  L.setLoc(at);
  ir::Op* op = L.b.create(Opcode::Map, operands, std::span<const ir::Type>(), {{"pack", pack}});
  ir::Block& blk = op->regions[0]->block;
  CallArgs call;
  call.site = &at;
  for (const CV& x : inputs)
    for (int64_t j = 0; j < pack; ++j) call.pos.push_back(CV::tensor(blk.addArg(ir::Type(x.dtype.elem())), x.dtype));
  ir::Block* parent = L.b.insertionBlock();
  L.b.setInsertionPoint(&blk);
  CV res = L.inlineFunction(*fn.fn, call);
  std::vector<CV> outs = res.kind == CV::K::Tuple ? res.elts : std::vector<CV>{res};
  if (outs.empty() || size_t(outs.size()) % size_t(pack) != 0)
    L.fail(at, "map_elementwise's scalar_fn returns " + std::to_string(outs.size()) + " values, not a multiple of pack " +
                   std::to_string(pack));
  std::vector<ir::Value*> yielded;
  std::vector<DType> types;
  for (size_t i = 0; i < outs.size(); ++i) {
    CV v = L.toTensor(outs[i], at);
    if (!v.type().isScalar()) L.fail(at, "map_elementwise's scalar_fn must return scalars, got " + v.describe());
    if (i % size_t(pack) == 0) types.push_back(v.dtype);
    else if (!(v.dtype == types.back())) L.fail(at, "type mismatch in unpacked results: " + v.describe() + " after " + outs[i - 1].describe());
    yielded.push_back(v.value);
  }
  L.setLoc(at);
  L.b.create(Opcode::Yield, yielded, {});
  L.b.setInsertionPoint(parent);
  std::vector<CV> results;
  for (const DType& t : types) {
    unsigned i = unsigned(op->results.size());
    op->results.push_back(std::make_unique<ir::Value>(shape.withElem(t.elem()), op, parent, i));
    results.push_back(CV::tensor(op->results.back().get(), t));
  }
  return results.size() == 1 ? results[0] : CV::tuple(results);
}

CV inlineAsmElementwise(Lowerer& L, CallArgs& c) {
  Args a(L, c, "inline_asm_elementwise", {"asm", "constraints", "args", "dtype", "is_pure", "pack"});
  const Expr& at = a.site();
  const std::string asmText = a.strOr(0, ""), constraints = a.strOr(1, "");
  if (!a.has(0) || !a.has(1)) L.fail(at, "inline_asm_elementwise() needs the asm text and its constraints as strings");
  const CV& args = a.get(2);
  std::vector<CV> inputs = args.kind == CV::K::Tuple ? args.elts : std::vector<CV>{args};
  inputs = broadcastAll(L, inputs, at);  // none: the results are scalars, as Triton's
  const CV& dt = a.get(3);
  const bool several = dt.kind == CV::K::Tuple;
  std::vector<DType> types;
  for (const CV& d : several ? dt.elts : std::vector<CV>{dt}) {
    if (d.kind != CV::K::DType) L.fail(a.at(3), "inline_asm_elementwise()'s dtype must be a dtype or a tuple of them, got " + d.describe());
    types.push_back(d.dtype);
  }
  if (types.empty()) L.fail(a.at(3), "inline_asm_elementwise() needs at least one result dtype");
  const int64_t pack = a.intArg(5);
  if (pack < 1 || pack > 16) L.fail(a.at(5), "inline_asm_elementwise's pack must be 1 to 16, got " + std::to_string(pack));
  const bool pure = a.boolOr(4, true);
  std::vector<ir::Value*> operands;
  for (const CV& x : inputs) operands.push_back(x.value);
  std::vector<ir::Type> resultTypes;
  for (const DType& t : types)
    resultTypes.push_back(inputs.empty() ? ir::Type::scalar(t.elem().kind) : inputs[0].type().withElem(t.elem()));
  L.setLoc(at);
  ir::Op* op = L.b.create(Opcode::InlineAsm, operands, resultTypes,
                          {{"asm", asmText}, {"constraints", constraints}, {"pack", pack}, {"pure", int64_t(pure)}});
  std::vector<CV> results;
  for (size_t i = 0; i < types.size(); ++i) results.push_back(CV::tensor(op->result(unsigned(i)), types[i]));
  return several ? CV::tuple(results) : results[0];
}

// A special register read as Triton's tl.extra.cuda reads it: PTX without operands, one scalar.
BuiltinFn specialRegister(const char* name, const char* asmText, const char* constraint, ScalarKind kind, bool pure) {
  return [=](Lowerer& L, CallArgs& c) {
    Args a(L, c, name, {});
    L.setLoc(a.site());
    ir::Op* op = L.b.create(Opcode::InlineAsm, {}, {ir::Type::scalar(kind)},
                            {{"asm", std::string(asmText)}, {"constraints", std::string(constraint)}, {"pack", int64_t(1)},
                             {"pure", int64_t(pure)}});
    return CV::tensor(op->result(), DType::of(kind));
  };
}

}  // namespace

void registerMapBuiltins(BuiltinTable& t) {
  t["tl.map_elementwise"] = mapElementwise;
  t["tl.inline_asm_elementwise"] = inlineAsmElementwise;
  // Triton's language/extra/cuda/utils.py: the global nanosecond timer (not pure: each read is
  // its own) and the multiprocessor the program runs on.
  t["tl.extra.cuda.globaltimer"] = specialRegister("globaltimer", "mov.u64 $0, %globaltimer;", "=l", ScalarKind::I64, false);
  t["tl.extra.cuda.smid"] = specialRegister("smid", "mov.u32 $0, %smid;", "=r", ScalarKind::I32, true);
  // The launch's num_warps and its threads (32 a warp) as constexprs, as Triton's builtins give
  // them from its compile options.
  t["tl.extra.cuda.num_warps"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "num_warps", {});
    return CV::integer(L.flags.numWarps);
  };
  t["tl.extra.cuda.num_threads"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "num_threads", {});
    return CV::integer(int64_t(L.flags.numWarps) * 32);
  };
}

}  // namespace tilevm::frontend
