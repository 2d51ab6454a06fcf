// LowerInlineAsm.cpp - inline_asm (Triton's inline_asm_elementwise): the PTX text called once per
// group of `pack` slots of the blocked layout (pack consecutive elements), as Triton's lowering
// does. Operands are packed as Triton packs them: elements narrower than 32 bits share a register,
// min(32 / bits, pack) of them, element 0 in the low bits; results unpack the same way. Each
// register's LLVM type is its constraint's (h: 16-bit, r: 32, l: 64, f: f32, d: f64), so any
// element type moves through any register of its width (floats by their bits, pointers as
// addresses). Groups are laid out and guarded by lowerGroups (LowerElementwise.cpp).
#include <llvm/IR/InlineAsm.h>
#include <llvm/Support/Error.h>

#include "codegen/Lowerer.h"

namespace tilevm::codegen {

namespace {

struct Constraints {
  std::vector<std::string> outputs, inputs;  // letters without '=' (h, r, l, f, d)
  std::string joined;                        // as LLVM takes them: no spaces
};

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

void Lowerer::inlineAsm(const ir::Op& op) {
  const unsigned pack = unsigned(*op.intAttr("pack"));
  // The constraints, outputs first.
  Constraints c;
  {
    std::string text = *op.strAttr("constraints");
    size_t start = 0;
    while (start <= text.size()) {
      size_t comma = text.find(',', start);
      std::string item = trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (item.empty()) fail(op, "codegen: inline_asm_elementwise's constraints '" + text + "' have an empty entry");
      bool out = item[0] == '=';
      std::string letter = out ? item.substr(1) : item;
      if (letter != "h" && letter != "r" && letter != "l" && letter != "f" && letter != "d")
        fail(op, "codegen: inline_asm_elementwise's constraint '" + item + "' is not supported (h, r, l, f, d registers)");
      if (out && !c.inputs.empty()) fail(op, "codegen: inline_asm_elementwise's output constraint '" + item + "' follows an input");
      (out ? c.outputs : c.inputs).push_back(letter);
      c.joined += (c.joined.empty() ? "" : ",") + item;
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  // Each element's bits and the elements per register of each operand and result (Triton's packing).
  auto elemBits = [&](const ir::Type& t) {
    unsigned bits = t.isPtr() ? 64 : ir::bitWidth(t.elem().kind);
    if (bits == 1) fail(op, "codegen: inline_asm_elementwise on i1 tiles is not supported (cast them to int8)");
    return bits;
  };
  auto perRegister = [&](const ir::Type& t) { return std::min(std::max(32 / elemBits(t), 1u), pack); };
  size_t wantIn = 0, wantOut = 0;
  for (const ir::Value* v : op.operands) wantIn += pack / perRegister(v->type);
  for (const auto& r : op.results) wantOut += pack / perRegister(r->type);
  if (c.outputs.size() != wantOut || c.inputs.size() != wantIn)
    fail(op, "codegen: inline_asm_elementwise's constraints name " + std::to_string(c.outputs.size()) + " outputs and " +
                 std::to_string(c.inputs.size()) + " inputs; its results and arguments with pack " + std::to_string(pack) +
                 " need " + std::to_string(wantOut) + " and " + std::to_string(wantIn));
  auto regType = [&](const std::string& letter) -> llvm::Type* {
    if (letter == "h") return b_.getInt16Ty();
    if (letter == "r") return b_.getInt32Ty();
    if (letter == "l") return b_.getInt64Ty();
    if (letter == "f") return b_.getFloatTy();
    return b_.getDoubleTy();
  };
  std::vector<llvm::Type*> inTypes, outTypes;
  for (const std::string& s : c.inputs) inTypes.push_back(regType(s));
  for (const std::string& s : c.outputs) outTypes.push_back(regType(s));
  llvm::Type* ret = outTypes.size() == 1 ? outTypes[0] : llvm::StructType::get(ctx_, outTypes);
  auto* fty = llvm::FunctionType::get(ret, inTypes, false);
  if (llvm::Error e = llvm::InlineAsm::verify(fty, c.joined)) {
    std::string why = llvm::toString(std::move(e));
    fail(op, "codegen: inline_asm_elementwise's constraints '" + c.joined + "' do not fit its operands: " + why);
  }
  auto* asmFn = llvm::InlineAsm::get(fty, *op.strAttr("asm"), c.joined, /*hasSideEffects=*/*op.intAttr("pure") == 0);

  auto regBits = [&](llvm::Type* t) { return unsigned(t->getPrimitiveSizeInBits().getFixedValue()); };
  // Each register must hold its elements: checked once, for inputs then outputs.
  auto checkWidths = [&](std::span<const ir::Value* const> values, const std::vector<llvm::Type*>& regs, const char* side) {
    size_t reg = 0;
    for (const ir::Value* v : values)
      for (unsigned j = 0, n = perRegister(v->type); j < pack; j += n, ++reg)
        if (n * elemBits(v->type) > regBits(regs[reg]))
          fail(op, std::string("codegen: inline_asm_elementwise's ") + side + " register " + std::to_string(reg) + " holds " +
                       std::to_string(regBits(regs[reg])) + " bits, its elements need " + std::to_string(n * elemBits(v->type)));
  };
  std::vector<const ir::Value*> resultValues;  // the results, as the operands are held
  for (const auto& r : op.results) resultValues.push_back(r.get());
  checkWidths(op.operands, inTypes, "input");
  checkWidths(resultValues, outTypes, "output");

  // An element as bits (iN), and back.
  auto toBits = [&](llvm::Value* v) -> llvm::Value* {
    if (v->getType()->isPointerTy()) return b_.CreatePtrToInt(v, b_.getInt64Ty());
    if (v->getType()->isIntegerTy()) return v;
    return b_.CreateBitCast(v, b_.getIntNTy(v->getType()->getPrimitiveSizeInBits()));
  };
  auto fromBits = [&](llvm::Value* bits, llvm::Type* ty) -> llvm::Value* {
    if (ty->isPointerTy()) return b_.CreateIntToPtr(bits, ty);
    return ty->isIntegerTy() ? bits : b_.CreateBitCast(bits, ty);
  };
  lowerGroups(op, "inline_asm_elementwise", "asm", [&](unsigned s) {
    // Inputs: each register's elements, element 0 in the low bits.
    std::vector<llvm::Value*> args;
    for (const ir::Value* v : op.operands) {
      const unsigned n = perRegister(v->type), bits = elemBits(v->type);
      for (unsigned j = 0; j < pack; j += n) {
        llvm::Type* reg = inTypes[args.size()];
        llvm::Value* word = nullptr;
        for (unsigned k = 0; k < n; ++k) {
          llvm::Value* wide = b_.CreateZExt(toBits(slot(v, s + j + k)), b_.getIntNTy(regBits(reg)));
          word = k == 0 ? wide : b_.CreateOr(word, b_.CreateShl(wide, uint64_t(k) * bits));
        }
        args.push_back(fromBits(word, reg));
      }
    }
    llvm::Value* call = b_.CreateCall(fty, asmFn, args);
    std::vector<llvm::Value*> group;  // result-major, pack elements each
    size_t reg = 0;
    for (const ir::Value* res : resultValues) {
      llvm::Type* elemTy = scalarType(res->type.elem());
      const unsigned n = perRegister(res->type), bits = elemBits(res->type);
      for (unsigned j = 0; j < pack; j += n, ++reg) {
        llvm::Value* word = toBits(outTypes.size() == 1 ? call : b_.CreateExtractValue(call, unsigned(reg)));
        for (unsigned k = 0; k < n; ++k)
          group.push_back(fromBits(b_.CreateTrunc(b_.CreateLShr(word, uint64_t(k) * bits), b_.getIntNTy(bits)), elemTy));
      }
    }
    return group;
  });
}

}  // namespace tilevm::codegen
