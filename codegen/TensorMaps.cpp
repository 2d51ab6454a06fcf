// TensorMaps.cpp - the TMA's copies of host tensor descriptors' blocks into a cp.async ring's
// stages (AsyncPipeline.cpp). A load is one when it is exactly the access the frontend writes
// for `desc.load` of a descriptor parameter (frontend/BlockPointers.cpp): then the launch encodes
// a tensor map from the descriptor's base, shapes and strides (codegen::TensorMap, a hidden
// 128-byte grid-constant parameter), one thread per stage arms the stage's mbarrier with the
// bytes to come and issues `cp.async.bulk.tensor` for each 128-, 64- or 32-byte slab of the
// swizzled tile, and every thread waits on the mbarrier's phase before reading the stage. The
// TMA writes the swizzle wgmma reads (CU_TENSOR_MAP_SWIZZLE_nB is Swizzle<n,4,3>, the layout of
// Layout.h's SharedLayout) and fills what lies outside the array with zeros (or NaN), as the
// descriptor's mask and `other` say.
#include <cmath>

#include <llvm/IR/IntrinsicsNVPTX.h>

#include "codegen/Lowerer.h"

namespace tilevm::codegen {

namespace {

using ir::Opcode;

const ir::Op* defOf(const ir::Value* v, Opcode code) { return v->def && v->def->code == code ? v->def : nullptr; }

// The scalar a splat spreads, or null.
const ir::Value* splatOf(const ir::Value* v) {
  const ir::Op* s = defOf(v, Opcode::Splat);
  return s && s->operands[0]->type.isScalar() ? s->operands[0] : nullptr;
}

// Whether v is a splat of the integer constant c.
bool splatOfInt(const ir::Value* v, int64_t c) {
  const ir::Value* s = splatOf(v);
  const ir::Op* k = s ? defOf(s, Opcode::Constant) : nullptr;
  const int64_t* i = k ? k->intAttr("value") : nullptr;
  return i && *i == c;
}

// One dim of a descriptor's pointers: ext(arange(0, n) + splat(off)) (or the arange alone).
struct DimIndex {
  const ir::Value* index = nullptr;   // the i64 index tile (what the mask compares)
  const ir::Value* offset = nullptr;  // the i32 scalar offset (null: 0)
  int64_t size = 0;
};

std::optional<DimIndex> dimIndex(const ir::Value* v) {
  const ir::Op* ext = defOf(v, Opcode::ExtSI);
  if (!ext || v->type.rank() != 1 || v->type.elem().kind != ir::ScalarKind::I64) return std::nullopt;
  const ir::Value* x = ext->operands[0];
  DimIndex d{v, nullptr, v->type.dim(0)};
  const ir::Op* range = defOf(x, Opcode::Arange);
  if (const ir::Op* add = defOf(x, Opcode::AddI); add && !range) {
    range = defOf(add->operands[0], Opcode::Arange);
    d.offset = splatOf(add->operands[1]);
    if (!d.offset || d.offset->type.elem().kind != ir::ScalarKind::I32) return std::nullopt;
  }
  if (!range || *range->intAttr("start") != 0 || x->type.elem().kind != ir::ScalarKind::I32) return std::nullopt;
  return d;
}

// The dim of a 2-D tile that a 1-D value expanded by `expand` (axis 0 or 1) runs along.
int alongDim(const ir::Op* expand) { return *expand->intAttr("axis") == 0 ? 1 : 0; }

}  // namespace

std::optional<Lowerer::TensorMapLoad> Lowerer::tensorMapLoad(const ir::Op& load) const {
  const ir::Type& t = load.result()->type;
  const ir::ScalarKind kind = t.elem().kind;
  if (t.rank() != 2 || load.operands.size() != 3) return std::nullopt;
  // The bytes the TMA moves: 1-byte tiles (int8, fp8) as u8.
  const bool byte = kind == ir::ScalarKind::I8 || kind == ir::ScalarKind::F8E5 || kind == ir::ScalarKind::F8E4NV;
  const char* dtype = kind == ir::ScalarKind::F16    ? "f16"
                      : kind == ir::ScalarKind::BF16 ? "bf16"
                      : kind == ir::ScalarKind::F32  ? "f32"
                      : byte                         ? "u8"
                                                     : nullptr;
  if (!dtype || t.dim(0) % 8 != 0 || t.dim(0) > 256) return std::nullopt;
  auto paramIndex = [&](const ir::Value* v) -> std::optional<unsigned> {
    for (size_t i = 0; i < k_.params().size(); ++i)
      if (k_.params()[i].get() == v) return unsigned(i);
    return std::nullopt;
  };
  // Pointers: splat(base) + term + term, a term per dim.
  TensorMap map;
  std::vector<DimIndex> dims(2);
  std::vector<const ir::Value*> strides(2), shapes(2);
  const ir::Value* p = load.operands[0];
  for (int term = 0; term < 2; ++term) {
    const ir::Op* add = defOf(p, Opcode::AddPtr);
    if (!add) return std::nullopt;
    const ir::Op* bcast = defOf(add->operands[1], Opcode::Broadcast);
    const ir::Op* mul = defOf(bcast ? bcast->operands[0] : add->operands[1], Opcode::MulI);
    const ir::Op* expand = mul ? defOf(mul->operands[0], Opcode::ExpandDims) : nullptr;
    const ir::Value* stride = mul ? splatOf(mul->operands[1]) : nullptr;
    auto d = expand ? dimIndex(expand->operands[0]) : std::nullopt;
    if (!d || !stride) return std::nullopt;
    const int dim = alongDim(expand);
    if (dims[dim].index || d->size != t.dim(dim)) return std::nullopt;
    dims[dim] = *d;
    strides[dim] = stride;
    p = add->operands[0];
  }
  const ir::Value* base = splatOf(p);
  if (!base) return std::nullopt;
  // The mask: the and of (index >= 0) and (index < shape) over both dims, each along its dim.
  std::vector<bool> nonNegative(2, false);
  std::vector<std::pair<const ir::Value*, int>> leaves;  // (i1 value, dim it runs along; -1: 2-D)
  std::vector<std::pair<const ir::Value*, int>> work{{load.operands[1], -1}};
  while (!work.empty()) {
    auto [v, dim] = work.back();
    work.pop_back();
    if (const ir::Op* a = defOf(v, Opcode::AndI)) {
      work.push_back({a->operands[0], dim});
      work.push_back({a->operands[1], dim});
    } else if (const ir::Op* b = defOf(v, Opcode::Broadcast); b && dim < 0) {
      work.push_back({b->operands[0], -1});
    } else if (const ir::Op* e = defOf(v, Opcode::ExpandDims); e && dim < 0 && v->type.rank() == 2) {
      work.push_back({e->operands[0], alongDim(e)});
    } else {
      leaves.push_back({v, dim});
    }
  }
  for (auto [v, dim] : leaves) {
    const ir::Op* cmp = defOf(v, Opcode::CmpI);
    if (!cmp || dim < 0 || cmp->operands[0] != dims[dim].index) return std::nullopt;
    const std::string& pred = *cmp->strAttr("pred");
    if (pred == "sge" && splatOfInt(cmp->operands[1], 0)) {
      nonNegative[dim] = true;
    } else if (pred == "slt" && splatOf(cmp->operands[1]) && !shapes[dim]) {
      shapes[dim] = splatOf(cmp->operands[1]);
    } else {
      return std::nullopt;
    }
  }
  // Outside the array: +0, or NaN (padding="nan").
  const ir::Value* other = splatOf(load.operands[2]);
  const ir::Op* c = other ? defOf(other, Opcode::Constant) : nullptr;
  const double* f = c ? c->floatAttr("value") : nullptr;
  if (!f || !(std::isnan(*f) || (*f == 0.0 && !std::signbit(*f))) || (byte && std::isnan(*f))) return std::nullopt;  // NaN fill: floats
  for (int d = 0; d < 2; ++d)
    if (!nonNegative[d] || !shapes[d]) return std::nullopt;
  const SharedLayout s = sharedLayoutOf(t);
  if (s.swizzleBytes == 0) return std::nullopt;
  map.dtype = dtype;
  map.box = {uint32_t(t.dim(0)), uint32_t(s.swizzleBytes / s.elemBytes)};
  map.swizzleBytes = s.swizzleBytes;
  map.nanFill = std::isnan(*f);
  // A host descriptor: TMA's alignment as the launch specializes the parameters (a 16-byte
  // aligned base, a leading stride of whole 16 bytes, the last stride 1).
  auto base_ = paramIndex(base);
  std::vector<std::optional<unsigned>> shape_{paramIndex(shapes[0]), paramIndex(shapes[1])};
  std::vector<std::optional<unsigned>> stride_{paramIndex(strides[0]), paramIndex(strides[1])};
  auto divisor = [&](unsigned i) { return i < o_.paramDivisors.size() ? o_.paramDivisors[i] : 1u; };
  auto one = [&](unsigned i) { return i < o_.paramOnes.size() && o_.paramOnes[i]; };
  if (base_ && shape_[0] && shape_[1] && stride_[0] && stride_[1] && divisor(*base_) % 16 == 0 &&
      divisor(*stride_[0]) * s.elemBytes % 16 == 0 && one(*stride_[1])) {
    map.base = *base_;
    map.shape = {*shape_[0], *shape_[1]};
    map.stride = {*stride_[0], *stride_[1]};
    return TensorMapLoad{map, {dims[0].offset, dims[1].offset}, std::nullopt};
  }
  // One made in the kernel: the same facts from the axis analysis, which holds the hints
  // make_tensor_descriptor puts on its contract (frontend/BlockPointers.cpp), and i64 scalars.
  auto known = [&](const ir::Value* v) {
    auto it = axes_.find(v);
    return it == axes_.end() ? AxisInfo{} : it->second;
  };
  auto isOne = [&](const ir::Value* v) {
    const ir::Op* ext = defOf(v, Opcode::ExtSI);
    const ir::Op* c = constantOf(ext ? ext->operands[0] : v);
    const int64_t* i = c ? c->intAttr("value") : nullptr;
    return known(v).one || (i && *i == 1);
  };
  for (const ir::Value* v : {shapes[0], shapes[1], strides[0], strides[1]})
    if (!v->type.isScalar() || v->type.elem().kind != ir::ScalarKind::I64) return std::nullopt;
  if (!base->type.isScalar() || known(base).divisibility % 16 != 0 || known(strides[0]).divisibility * s.elemBytes % 16 != 0 ||
      !isOne(strides[1]))
    return std::nullopt;
  return TensorMapLoad{map, {dims[0].offset, dims[1].offset}, DeviceMapValues{base, {shapes[0], shapes[1]}, {strides[0], strides[1]}}};
}

unsigned Lowerer::tensorMapIndex(const TensorMap& m) {
  for (size_t i = 0; i < tensorMaps_.size(); ++i)
    if (tensorMaps_[i] == m) return unsigned(i);
  tensorMaps_.push_back(m);
  return unsigned(tensorMaps_.size() - 1);
}

llvm::Value* Lowerer::tensorMapAddress(unsigned i) {
  return b_.CreatePtrToInt(fn_->getArg(unsigned(k_.params().size() + i)), b_.getInt64Ty());
}

llvm::Value* Lowerer::deviceMapAddress(unsigned slot) {
  auto sreg = [&](llvm::Intrinsic::ID id) { return b_.CreateZExt(b_.CreateIntrinsic(id, {}, {}), b_.getInt64Ty()); };
  llvm::Value* program =
      b_.CreateAdd(sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x),
                   b_.CreateMul(sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x),
                                b_.CreateAdd(sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y),
                                             b_.CreateMul(sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y),
                                                          sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z)))));
  llvm::Value* base = b_.CreatePtrToInt(fn_->getArg(unsigned(k_.params().size() + tensorMaps_.size())), b_.getInt64Ty());
  llvm::Value* index = b_.CreateAdd(b_.CreateMul(program, b_.getInt64(deviceMaps_)), b_.getInt64(slot));
  return b_.CreateAdd(base, b_.CreateMul(index, b_.getInt64(128)));
}

llvm::Value* Lowerer::buildDeviceMap(const TensorMapLoad& t, llvm::Value* map, llvm::Value* staging) {
  const DeviceMapValues& d = *t.device;
  const TensorMap& m = t.map;
  const int64_t elemBytes = tensorMapElementBytes(m.dtype);
  // tensormap.replace's element types (PTX ISA: .u8 0, .f16 6, .f32 7, .bf16 10; not the
  // driver's CUtensorMapDataType numbering).
  const int elemType = m.dtype == "u8" ? 0 : m.dtype == "f16" ? 6 : m.dtype == "f32" ? 7 : 10;
  const int swizzle = tensorMapSwizzleMode(m.swizzleBytes);
  llvm::Value* i64One = b_.getInt64(1);
  llvm::Value* rows = slot(d.shape[0], 0);
  llvm::Value* cols = slot(d.shape[1], 0);
  llvm::Value* nonEmpty = b_.CreateAnd(b_.CreateICmpSGE(rows, i64One), b_.CreateICmpSGE(cols, i64One));
  auto dim = [&](llvm::Value* n) { return b_.CreateTrunc(b_.CreateSelect(nonEmpty, n, i64One), b_.getInt32Ty()); };
  llvm::Value* stride = slot(d.stride[0], 0);
  llvm::Value* bytes = b_.CreateMul(stride, b_.getInt64(elemBytes));
  // A non-empty array with a leading stride TMA cannot take (the contract has made it a
  // multiple of 16 bytes) traps: the launch reports the fault.
  llvm::Value* unfit = b_.CreateAnd(nonEmpty, b_.CreateOr(b_.CreateICmpSLT(stride, i64One),
                                                          b_.CreateICmpUGE(bytes, b_.getInt64(int64_t(1) << 40))));
  auto* trap = llvm::BasicBlock::Create(ctx_, "tensormap_unfit", fn_);
  auto* fits = llvm::BasicBlock::Create(ctx_, "tensormap_fits", fn_);
  b_.CreateCondBr(unfit, trap, fits);
  b_.SetInsertPoint(trap);
  b_.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
  b_.CreateUnreachable();
  b_.SetInsertPoint(fits);
  bytes = b_.CreateSelect(nonEmpty, bytes, b_.getInt64(16));
  llvm::Value* base = b_.CreatePtrToInt(slot(d.base, 0), b_.getInt64Ty());
  llvm::Value* zeroAt = b_.CreateAdd(staging, b_.CreateShl(b_.CreateAnd(tid_, b_.getInt32(31)), b_.getInt32(2)));
  // Warp 0 (p) zero-fills the 128 bytes, thread 0 (q) writes the fields (dim 0 innermost: the
  // box's columns), and warp 0 copies them to global memory and acquires them for the TMA
  // (with Triton's workaround for a missing fence: a bulk commit and wait).
  std::string text = "{\n\t.reg .pred p, q;\n\tsetp.lt.u32 p, $0, 32;\n\tsetp.eq.u32 q, $0, 0;\n\t"
                     "@p st.shared.b32 [$1], 0;\n\t@p bar.warp.sync -1;\n\t";
  auto replace = [&](const std::string& field, const std::string& type, const std::string& args) {
    text += "@q tensormap.replace.tile." + field + ".shared::cta.b1024." + type + " [$2], " + args + ";\n\t";
  };
  replace("global_address", "b64", "$4");
  replace("rank", "b32", "1");
  replace("box_dim", "b32", "0, " + std::to_string(m.box[1]));
  replace("box_dim", "b32", "1, " + std::to_string(m.box[0]));
  replace("global_dim", "b32", "0, $5");
  replace("global_dim", "b32", "1, $6");
  replace("global_stride", "b64", "0, $7");
  replace("element_stride", "b32", "0, 1");
  replace("element_stride", "b32", "1, 1");
  replace("elemtype", "b32", std::to_string(elemType));
  replace("interleave_layout", "b32", "0");
  replace("swizzle_mode", "b32", std::to_string(swizzle));
  replace("fill_mode", "b32", m.nanFill ? "1" : "0");
  text += "@p bar.warp.sync -1;\n\t"
          "@p tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [$3], [$2], 128;\n\t"
          "@p fence.proxy.tensormap::generic.acquire.gpu [$3], 128;\n\t"
          "@p cp.async.bulk.commit_group;\n\t@p cp.async.bulk.wait_group.read 0;\n\t}";
  asmCall(b_.getVoidTy(), text, "r,r,r,l,l,r,r,l,~{memory}", {tid_, zeroAt, staging, map, base, dim(cols), dim(rows), bytes});
  return nonEmpty;
}

void Lowerer::initBarriers(llvm::Value* addr, unsigned count) {
  barrier();  // whatever used these bytes before is done with them
  llvm::Value* first = b_.CreateZExt(b_.CreateICmpEQ(tid_, b_.getInt32(0)), b_.getInt32Ty());
  for (unsigned i = 0; i < count; ++i)
    asmCall(b_.getVoidTy(), "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, $0, 0;\n\t@p mbarrier.init.shared::cta.b64 [$1], 1;\n\t}", "r,r,~{memory}",
            {first, b_.CreateAdd(addr, b_.getInt32(int32_t(8 * i)))});
  asmCall(b_.getVoidTy(), "fence.mbarrier_init.release.cluster;", "~{memory}", {});
  fenceProxyAsync();
  barrier();
}

void Lowerer::waitBarrier(llvm::Value* addr, llvm::Value* phase) {
  llvm::BasicBlock* spin = llvm::BasicBlock::Create(ctx_, "tma_wait", fn_);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "tma_ready", fn_);
  b_.CreateBr(spin);
  b_.SetInsertPoint(spin);
  llvm::Value* ready = asmCall(b_.getInt32Ty(),
                               "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [$1], $2;\n\tselp.b32 $0, 1, 0, p;\n\t}",
                               "=r,r,r,~{memory}", {addr, phase});
  b_.CreateCondBr(b_.CreateICmpNE(ready, b_.getInt32(0)), done, spin);
  b_.SetInsertPoint(done);
}

void Lowerer::expectBytes(llvm::Value* addr, unsigned bytes, llvm::Value* issue) {
  asmCall(b_.getVoidTy(),
          "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, $0, 0;\n\t@p mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], " + std::to_string(bytes) +
              ";\n\t}",
          "r,r,~{memory}", {b_.CreateZExt(issue, b_.getInt32Ty()), addr});
}

void Lowerer::tensorCopy(llvm::Value* map, llvm::Value* dst, llvm::Value* x, llvm::Value* y, llvm::Value* bar, llvm::Value* issue) {
  asmCall(b_.getVoidTy(),
          "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, $0, 0;\n\t@p cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
          "[$1], [$2, {$3, $4}], [$5];\n\t}",
          "r,r,l,r,r,r,~{memory}", {b_.CreateZExt(issue, b_.getInt32Ty()), dst, map, x, y, bar});
}

void Lowerer::invalidateBarriers(llvm::Value* addr, unsigned count) {
  llvm::Value* first = b_.CreateZExt(b_.CreateICmpEQ(tid_, b_.getInt32(0)), b_.getInt32Ty());
  for (unsigned i = 0; i < count; ++i)
    asmCall(b_.getVoidTy(), "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, $0, 0;\n\t@p mbarrier.inval.shared::cta.b64 [$1];\n\t}", "r,r,~{memory}",
            {first, b_.CreateAdd(addr, b_.getInt32(int32_t(8 * i)))});
  barrier();  // before anyone reuses the bytes
}

}  // namespace tilevm::codegen
