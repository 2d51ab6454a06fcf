// BlockPointers.cpp - make_block_ptr / advance / make_tensor_descriptor and their loads and
// stores. A block of shape B at offsets o over a tensor (shape S, strides T) addresses
// base + sum_d (o_d + arange(B_d)) * T_d; boundary checks mask the elements with
// 0 <= o_d + i < S_d. Out-of-bounds loads read the padding (zero or NaN; undefined without one,
// as in Triton); descriptors check every dimension and pad with zero, as TMA does.
#include "frontend/BlockPointers.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "frontend/BuiltinArgs.h"

namespace tilevm::frontend {

using ir::ScalarKind;

namespace {

CV scalarOf(Lowerer& L, const CV& v, ScalarKind k, const Expr& at, const char* what) {
  if (!(v.isNumber() || (v.isTensor() && v.type().isScalar() && v.dtype.isInt())) || v.kind == CV::K::Float)
    L.fail(at, std::string(what) + " must be integer scalars, got " + v.describe());
  return L.cast(L.toTensor(v, at), DType::of(k), at);
}

std::vector<CV> listOf(Lowerer& L, const CV& v, const Expr& at, const char* what) {
  if (v.kind == CV::K::Tuple) return v.elts;
  if (v.isNumber() || v.isTensor()) return {v};
  L.fail(at, std::string(what) + " must be a tuple or list, got " + v.describe());
}

size_t rankOf(const CV& bp) { return bp.ints.size(); }

CV arange(Lowerer& L, int64_t n, const Expr& at) {
  CallArgs c;
  c.site = &at;
  c.pos = {CV::integer(0), CV::integer(n)};
  c.posExprs = {&at, &at};
  return L.callBuiltin("tl.arange", c);
}

// An index vector along dimension d of a rank-r block, shaped to broadcast (1s elsewhere).
CV alongDim(Lowerer& L, CV v, size_t d, size_t r, const Expr& at) {
  for (size_t k = 0; k < d; ++k) v = L.expandDims(v, 0, at);
  for (size_t k = d + 1; k < r; ++k) v = L.expandDims(v, int64_t(k), at);
  return v;
}

void requireBlock(Lowerer& L, const CV& v, const char* kind, const Expr& at, const char* fn) {
  if (v.kind != CV::K::BlockPtr || v.s != kind)
    L.fail(at, std::string(fn) + "() needs a " + (std::string(kind) == "block_ptr" ? "block pointer" : "tensor descriptor") +
                   ", got " + v.describe());
}

// A block pointer or tensor descriptor value: base, then shape (i64) and strides (i64) per
// dimension; callers append what their kind adds (a block pointer's offsets).
CV blockValue(Lowerer& L, const char* kind, const CV& base, const std::vector<int64_t>& block, const std::vector<CV>& shape,
              const std::vector<CV>& strides, const Expr& shapeAt, const Expr& stridesAt) {
  CV v;
  v.kind = CV::K::BlockPtr;
  v.s = kind;
  v.ints = block;
  v.elts.push_back(base);
  for (const CV& x : shape) v.elts.push_back(scalarOf(L, x, ScalarKind::I64, shapeAt, "shape"));
  for (const CV& x : strides) v.elts.push_back(scalarOf(L, x, ScalarKind::I64, stridesAt, "strides"));
  return v;
}

// TMA's contract for a descriptor made in the kernel (Triton documents it for
// make_tensor_descriptor; the hardware requires it): a 16-byte aligned base, and leading strides
// whose bytes are multiples of 16. The interpreter checks it (a false one is a finding at the
// call, as a false tl.assume is); the code generator knows it through hints on fresh copies of
// the base and strides (a hint on the caller's own value would hold for its other uses too).
void tmaContract(Lowerer& L, CV& d, int64_t elemBytes, const Expr& site) {
  const size_t r = rankOf(d);
  const ir::Type i64 = ir::Type::scalar(ScalarKind::I64);
  L.setLoc(site);
  auto assume = [&](ir::Value* bytes, const std::string& what) {
    ir::Value* low = L.b.binary(ir::Opcode::AndI, bytes, L.b.constant(i64, int64_t(15)));
    ir::Value* ok = L.b.compare(ir::Opcode::CmpI, "eq", low, L.b.constant(i64, int64_t(0)));
    L.b.create(ir::Opcode::Assert, {ok}, {},
               {{"message", "tensor descriptor " + what + " is not a multiple of 16 bytes, as TMA requires"}, {"assume", "1"}});
  };
  CV& base = d.elts[0];
  assume(L.b.create(ir::Opcode::PtrToInt, {base.value}, {i64})->result(), "base address");
  ir::Op* copy = L.b.create(ir::Opcode::AddPtr, {base.value, L.b.constant(ir::Type::scalar(ScalarKind::I32), int64_t(0))},
                            {base.value->type});
  copy->setAttr("divisibility", std::vector<int64_t>{16});
  base.value = copy->result();
  for (size_t k = 0; k + 1 < r; ++k) {
    CV& stride = d.elts[1 + r + k];
    assume(L.b.binary(ir::Opcode::MulI, stride.value, L.b.constant(i64, elemBytes)), "stride " + std::to_string(k) + " in bytes");
    ir::Op* same = L.b.create(ir::Opcode::MulI, {stride.value, L.b.constant(i64, int64_t(1))}, {i64});
    same->setAttr("divisibility", std::vector<int64_t>{16 / std::gcd<int64_t>(16, elemBytes)});
    stride.value = same->result();
  }
}

}  // namespace

// A descriptor's block at `offsets`, every dimension checked (TMA's rule).
BlockAccess descriptorAccess(Lowerer& L, const CV& d, const CV& offsets, const Expr& offsetsAt, const Expr& site,
                             const char* what) {
  std::vector<CV> offs = listOf(L, offsets, offsetsAt, "offsets");
  if (offs.size() != rankOf(d)) L.fail(offsetsAt, std::string(what) + "(): expected " + std::to_string(rankOf(d)) + " offsets");
  std::vector<int64_t> all;
  for (size_t k = 0; k < rankOf(d); ++k) all.push_back(int64_t(k));
  return blockAccess(L, d, offs, all, site);
}

std::vector<int64_t> boundaryDims(Lowerer& L, const CV& bp, const CV& check, const Expr& at) {
  std::vector<int64_t> dims;
  if (check.kind == CV::K::None) return dims;
  for (const CV& d : listOf(L, check, at, "boundary_check")) {
    if (d.kind != CV::K::Int || d.i < 0 || d.i >= int64_t(rankOf(bp)))
      L.fail(at, "boundary_check entries must be dimensions of the block (0.." + std::to_string(rankOf(bp) - 1) + "), got " +
                     d.describe());
    dims.push_back(d.i);
  }
  return dims;
}

BlockAccess blockAccess(Lowerer& L, const CV& bp, const std::vector<CV>& offsets, const std::vector<int64_t>& checkDims,
                        const Expr& at) {
  size_t r = rankOf(bp);
  const std::vector<int64_t>& block = bp.ints;
  DType i64 = DType::of(ScalarKind::I64);
  CV ptrs = L.broadcastTo(bp.elts[0], block, at);
  CV mask;
  for (size_t d = 0; d < r; ++d) {
    const CV& shape = bp.elts[1 + d];
    const CV& stride = bp.elts[1 + r + d];
    CV off = offsets.empty() ? bp.elts[1 + 2 * r + d] : scalarOf(L, offsets[d], ScalarKind::I32, at, "offsets");
    CV idx = L.cast(L.binary("+", arange(L, block[d], at), off, at), i64, at);
    CV idxNd = alongDim(L, idx, d, r, at);
    ptrs = L.binary("+", ptrs, L.broadcastTo(L.binary("*", idxNd, stride, at), block, at), at);
    if (std::find(checkDims.begin(), checkDims.end(), int64_t(d)) == checkDims.end()) continue;
    CV inside = L.binary("&", L.compare(">=", idx, CV::integer(0), at), L.compare("<", idx, shape, at), at);
    CV m = L.broadcastTo(alongDim(L, inside, d, r, at), block, at);
    mask = mask.kind == CV::K::None ? m : L.binary("&", mask, m, at);
  }
  return {ptrs, mask};
}

void registerBlockPointerBuiltins(BuiltinTable& t) {
  t["tl.make_block_ptr"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "make_block_ptr", {"base", "shape", "strides", "offsets", "block_shape", "order"});
    CV base = a.get(0);
    if (!base.isTensor() || !base.dtype.isPtr() || !base.type().isScalar())
      L.fail(a.at(0), "make_block_ptr() needs a scalar pointer as base, got " + base.describe());
    std::vector<CV> shape = listOf(L, a.get(1), a.at(1), "shape"), strides = listOf(L, a.get(2), a.at(2), "strides"),
                    offsets = listOf(L, a.get(3), a.at(3), "offsets");
    std::vector<int64_t> block = a.shapeArg(4);
    size_t r = block.size();
    if (shape.size() != r || strides.size() != r || offsets.size() != r)
      L.fail(a.site(), "make_block_ptr(): shape, strides, offsets and block_shape must have the same length (" +
                           std::to_string(shape.size()) + ", " + std::to_string(strides.size()) + ", " +
                           std::to_string(offsets.size()) + ", " + std::to_string(r) + ")");
    if (a.has(5)) {
      std::vector<CV> order = listOf(L, a.get(5), a.at(5), "order");  // a layout hint; only checked
      if (order.size() != r) L.fail(a.at(5), "make_block_ptr(): order must have one entry per dimension");
    }
    CV bp = blockValue(L, "block_ptr", base, block, shape, strides, a.at(1), a.at(2));
    for (const CV& v : offsets) bp.elts.push_back(scalarOf(L, v, ScalarKind::I32, a.at(3), "offsets"));
    return bp;
  };
  t["tl.advance"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "advance", {"base", "offsets"});
    CV bp = a.get(0);
    requireBlock(L, bp, "block_ptr", a.at(0), "advance");
    std::vector<CV> delta = listOf(L, a.get(1), a.at(1), "offsets");
    size_t r = rankOf(bp);
    if (delta.size() != r) L.fail(a.at(1), "advance(): expected " + std::to_string(r) + " offsets, got " + std::to_string(delta.size()));
    for (size_t d = 0; d < r; ++d) {
      CV& off = bp.elts[1 + 2 * r + d];
      off = L.cast(L.binary("+", off, scalarOf(L, delta[d], ScalarKind::I32, a.at(1), "offsets"), a.site()),
                   DType::of(ScalarKind::I32), a.site());
    }
    return bp;
  };
  t["tl.make_tensor_descriptor"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "make_tensor_descriptor", {"base", "shape", "strides", "block_shape", "padding_option"});
    CV base = a.get(0);
    if (!base.isTensor() || !base.dtype.isPtr() || !base.type().isScalar())
      L.fail(a.at(0), "make_tensor_descriptor() needs a scalar pointer as base, got " + base.describe());
    std::vector<CV> shape = listOf(L, a.get(1), a.at(1), "shape"), strides = listOf(L, a.get(2), a.at(2), "strides");
    std::vector<int64_t> block = a.shapeArg(3);
    if (shape.size() != block.size() || strides.size() != block.size())
      L.fail(a.site(), "make_tensor_descriptor(): shape, strides and block_shape must have the same length");
    // Triton's two checks of the descriptor's layout (semantic.py), in its words: a TMA box row
    // of at least 16 bytes, and a contiguous last dimension when the stride is known.
    const int64_t elemBytes = base.dtype.element().bits() / 8, rowBytes = block.empty() ? 0 : block.back() * elemBytes;
    if (!block.empty() && rowBytes < 16)
      L.fail(a.at(3), "Descriptor block shape must have at least 16 bytes in the last dimension, but got " +
                          std::to_string(block.back()) + " * " + std::to_string(elemBytes) + " = " +
                          std::to_string(rowBytes) + " bytes");
    if (!strides.empty() && strides.back().kind == CV::K::Int && strides.back().i != 1)
      L.fail(a.at(2), "Tensor descriptor last dim must be 1 but got " + strides.back().intText());
    std::string padding = a.strOr(4, "zero");
    if (padding != "zero" && padding != "nan") L.fail(a.at(4), "padding_option must be 'zero' or 'nan', got '" + padding + "'");
    CV d = blockValue(L, "tensor_descriptor", base, block, shape, strides, a.at(1), a.at(2));
    d.f = padding == "nan" ? 1 : 0;
    tmaContract(L, d, elemBytes, a.site());
    return d;
  };
  // Triton 3.2's experimental forms: the descriptor is made on the host
  // (create_2d_tma_descriptor) and passed as a pointer; here it is a descriptor parameter
  // (CLI: --arg d=desc:ARRAY:BLOCK), and the call's shape and dtype must agree with it.
  t["tl._experimental_descriptor_load"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "_experimental_descriptor_load", {"desc_pointer", "offsets", "shape", "dtype"});
    CV d = a.get(0);
    requireBlock(L, d, "tensor_descriptor", a.at(0), "_experimental_descriptor_load");
    if (a.shapeArg(2) != d.ints) L.fail(a.at(2), "the shape does not match the descriptor's block shape");
    if (!(a.dtypeArg(3) == d.elts[0].dtype.element()))
      L.fail(a.at(3), "the dtype does not match the descriptor's (" + d.elts[0].dtype.element().name() + ")");
    CallArgs load;
    load.site = c.site;
    load.pos = {d, a.get(1)};
    load.posExprs = {c.site, &a.at(1)};
    return L.callBuiltin("desc.load", load);
  };
  t["tl._experimental_descriptor_store"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "_experimental_descriptor_store", {"desc_pointer", "value", "offsets"});
    CV d = a.get(0);
    requireBlock(L, d, "tensor_descriptor", a.at(0), "_experimental_descriptor_store");
    CallArgs store;
    store.site = c.site;
    store.pos = {d, a.get(2), a.get(1)};
    store.posExprs = {c.site, &a.at(2), &a.at(1)};
    return L.callBuiltin("desc.store", store);
  };
  // tl.load_tensor_descriptor(desc, offsets) and tl.store_tensor_descriptor(desc, offsets,
  // value): Triton's functional forms of desc.load and desc.store.
  t["tl.load_tensor_descriptor"] = [](Lowerer& L, CallArgs& c) {
    requireBlock(L, c.pos.empty() ? CV() : c.pos[0], "tensor_descriptor", c.posExprs.empty() ? *c.site : *c.posExprs[0],
                 "load_tensor_descriptor");
    return L.callBuiltin("desc.load", c);
  };
  t["tl.store_tensor_descriptor"] = [](Lowerer& L, CallArgs& c) {
    requireBlock(L, c.pos.empty() ? CV() : c.pos[0], "tensor_descriptor", c.posExprs.empty() ? *c.site : *c.posExprs[0],
                 "store_tensor_descriptor");
    return L.callBuiltin("desc.store", c);
  };
  // A descriptor access as tl.load / tl.store at the call: masked to the descriptor's shape,
  // reading zero (or NaN, padding="nan") outside it.
  auto loadAccess = [](Lowerer& L, CallArgs& c, const CV& d, const BlockAccess& acc) {
    CallArgs load;
    load.site = c.site;
    load.pos = {acc.ptrs};
    load.posExprs = {c.site};
    load.kw = {{"mask", acc.mask}, {"other", d.f != 0 ? CV::real(NAN) : CV::integer(0)}};
    return L.callBuiltin("tl.load", load);
  };
  auto storeAccess = [](Lowerer& L, CallArgs& c, const BlockAccess& acc, const CV& value, const Expr& valueAt) {
    CallArgs store;
    store.site = c.site;
    store.pos = {acc.ptrs, value};
    store.posExprs = {c.site, &valueAt};
    store.kw = {{"mask", acc.mask}};
    return L.callBuiltin("tl.store", store);
  };
  t["desc.load"] = [loadAccess](Lowerer& L, CallArgs& c) {
    // multicast: a hint to share the load among a cluster's programs (Triton's fork's
    // TMA multicast); the values loaded are the same, so it is checked and otherwise ignored.
    Args a(L, c, "load", {"self", "offsets", "multicast"});
    if (a.has(2)) (void)a.boolOr(2, false);
    const CV& d = a.get(0);
    BlockAccess acc = descriptorAccess(L, d, a.get(1), a.at(1), a.site(), "load");
    return loadAccess(L, c, d, acc);
  };
  // desc.gather(x_offsets, y_offset) / desc.scatter(value, x_offsets, y_offset): TMA's row
  // gather and scatter over a 2-D descriptor whose block is one row of BLOCK_Y: rows x_offsets
  // (a 1-D int16/int32 tile of at least 8), columns y_offset .. y_offset + BLOCK_Y, each
  // element checked against the descriptor's shape (outside: read as zero or NaN, not written).
  auto rowsAccess = [](Lowerer& L, const CV& d, const CV& xs, const Expr& xsAt, const CV& y, const Expr& yAt,
                       const Expr& site, const char* what) {
    requireBlock(L, d, "tensor_descriptor", site, what);
    const std::string w = std::string("descriptor ") + what;
    if (d.ints.size() != 2) L.fail(site, "descriptor must be 2D, but got a block of rank " + std::to_string(d.ints.size()));
    if (d.ints[0] != 1) L.fail(site, "descriptor block must have 1 row, but got " + std::to_string(d.ints[0]));
    if (!xs.isTensor() || xs.type().rank() != 1) L.fail(xsAt, "x offsets must be 1D, but got " + xs.describe());
    if (!(xs.dtype.kind == ScalarKind::I16 || xs.dtype.kind == ScalarKind::I32))
      L.fail(xsAt, "x offsets must have dtype int16 or int32, but got " + xs.describe());
    const int64_t rows = xs.type().shape()[0], cols = d.ints[1];
    if (rows < 8) L.fail(xsAt, w + " must have at least 8 rows, but got " + std::to_string(rows));
    const DType elem = d.elts[0].dtype.element();
    const int64_t minCols = 32 / int64_t(elem.bits()) * 8;
    if (cols < minCols)
      L.fail(site, w + " of " + elem.name() + " must have at least " + std::to_string(minCols) + " columns, but got " +
                       std::to_string(cols));
    const DType i64 = DType::of(ScalarKind::I64);
    const std::vector<int64_t> block{rows, cols};
    CV r = L.cast(xs, i64, site);
    CV col = L.cast(L.binary("+", arange(L, cols, site), scalarOf(L, y, ScalarKind::I32, yAt, "y_offset"), site), i64, site);
    CV ptrs = L.broadcastTo(d.elts[0], block, site);
    ptrs = L.binary("+", ptrs, L.broadcastTo(L.binary("*", alongDim(L, r, 0, 2, site), d.elts[3], site), block, site), site);
    ptrs = L.binary("+", ptrs, L.broadcastTo(L.binary("*", alongDim(L, col, 1, 2, site), d.elts[4], site), block, site), site);
    CV inR = L.binary("&", L.compare(">=", r, CV::integer(0), site), L.compare("<", r, d.elts[1], site), site);
    CV inC = L.binary("&", L.compare(">=", col, CV::integer(0), site), L.compare("<", col, d.elts[2], site), site);
    CV mask = L.binary("&", L.broadcastTo(alongDim(L, inR, 0, 2, site), block, site),
                       L.broadcastTo(alongDim(L, inC, 1, 2, site), block, site), site);
    return BlockAccess{ptrs, mask};
  };
  t["desc.gather"] = [rowsAccess, loadAccess](Lowerer& L, CallArgs& c) {
    Args a(L, c, "gather", {"self", "x_offsets", "y_offset"});
    const CV& d = a.get(0);
    BlockAccess acc = rowsAccess(L, d, a.get(1), a.at(1), a.get(2), a.at(2), a.site(), "gather");
    return loadAccess(L, c, d, acc);
  };
  t["desc.scatter"] = [rowsAccess, storeAccess](Lowerer& L, CallArgs& c) {
    Args a(L, c, "scatter", {"self", "value", "x_offsets", "y_offset"});
    BlockAccess acc = rowsAccess(L, a.get(0), a.get(2), a.at(2), a.get(3), a.at(3), a.site(), "scatter");
    return storeAccess(L, c, acc, a.get(1), a.at(1));
  };
  t["desc.store"] = [storeAccess](Lowerer& L, CallArgs& c) {
    Args a(L, c, "store", {"self", "offsets", "value"});
    BlockAccess acc = descriptorAccess(L, a.get(0), a.get(1), a.at(1), a.site(), "store");
    return storeAccess(L, c, acc, a.get(2), a.at(2));
  };
}

}  // namespace tilevm::frontend
