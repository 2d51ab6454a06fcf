// BuiltinsShape.cpp - the shape builtins of triton.language: broadcast, expand_dims, reshape,
// squeeze and unsqueeze, item, permute and trans, flip, join, split, cat.
#include <algorithm>

#include "frontend/BuiltinTable.h"

namespace tilevm::frontend {

using ir::Opcode;

namespace {

std::vector<int64_t> shapeOf(const CV& t) { return {t.type().shape().begin(), t.type().shape().end()}; }

CV permute(Lowerer& L, const CV& in, std::vector<int64_t> order, const Expr& at, const char* fn) {
  CV t = L.toTensor(in, at);
  unsigned r = t.type().rank();
  std::string given;
  for (int64_t d : order) given += (given.empty() ? "" : ", ") + std::to_string(d);
  given = "(" + given + (order.size() == 1 ? ",)" : ")");
  if (order.size() != r) L.fail(at, "permute order must list " + std::to_string(r) + " dims");
  std::vector<int64_t> shape;
  std::vector<bool> seen(r, false);
  for (int64_t& d : order) {
    if (d < 0) d += r;
    if (d < 0 || d >= int64_t(r) || seen[size_t(d)])
      L.fail(at, std::string(fn) + ": " + given + " is not a permutation of the axes of a " + std::to_string(r) + "-D tile");
    seen[size_t(d)] = true;
    shape.push_back(t.type().dim(unsigned(d)));
  }
  L.setLoc(at);
  return CV::tensor(L.b.create(Opcode::Permute, {t.value}, {t.type().withShape(shape)}, {{"order", order}})->result(), t.dtype);
}

std::vector<int64_t> dimsFrom(Lowerer& L, const Args& a, size_t first, const Expr& at) {
  std::vector<int64_t> dims;
  auto add = [&](const CV& v) {
    if (v.kind != CV::K::Int) L.fail(at, "dimensions must be constexpr integers, got " + v.describe());
    dims.push_back(v.i);
  };
  if (a.has(first)) {
    const CV& v = a.get(first);
    if (v.kind == CV::K::Tuple) for (const CV& d : v.elts) add(d);
    else add(v);
  }
  for (const CV& v : a.rest()) add(v);
  return dims;
}

}  // namespace

void registerShapeBuiltins(BuiltinTable& t) {
  t["tl.broadcast_to"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "broadcast_to", {"input", "shape", "*"});
    return L.broadcastTo(a.get(0), dimsFrom(L, a, 1, a.site()), a.site());
  };
  t["tl.broadcast"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "broadcast", {"input", "other"});
    CV x = a.tensor(0), y = a.tensor(1);
    L.broadcastPair(x, y, a.site());
    return CV::tuple({x, y});
  };
  t["tl.expand_dims"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "expand_dims", {"input", "axis"});
    CV x = a.tensor(0);
    std::vector<int64_t> axes = dimsFrom(L, a, 1, a.site());
    int64_t rank = x.type().rank() + int64_t(axes.size());
    for (int64_t& ax : axes) {
      if (ax < -rank || ax >= rank)  // Triton's _wrap_axis, in its words
        L.fail(a.site(), "invalid axis " + std::to_string(ax) + ". Expected " + std::to_string(-rank) + " <= axis < " + std::to_string(rank));
      if (ax < 0) ax += rank;
    }
    std::sort(axes.begin(), axes.end());
    if (std::adjacent_find(axes.begin(), axes.end()) != axes.end()) {
      std::string list;
      for (int64_t ax : axes) list += (list.empty() ? "" : ", ") + std::to_string(ax);
      L.fail(a.site(), "expand_dims received duplicate axes, normalized axes = [" + list + "]");
    }
    for (int64_t ax : axes) x = L.expandDims(x, ax, a.site());
    return x;
  };
  auto reshape = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "reshape", {"input", "shape", "*", "can_reorder"});
    return L.reshape(a.get(0), dimsFrom(L, a, 1, a.site()), a.site());
  };
  t["tl.reshape"] = reshape;
  t["tl.view"] = reshape;
  // Triton's standard.squeeze / unsqueeze: drop a dimension of extent 1, or add one.
  t["tl.squeeze"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "squeeze", {"x", "dim"});
    CV x = a.tensor(0);
    CV d = a.get(1);
    int64_t rank = int64_t(x.type().rank());
    if (d.kind != CV::K::Int || d.i < 0 || d.i >= rank)
      L.fail(a.at(1), "squeeze() dim must be a constexpr integer from 0 to " + std::to_string(rank - 1) + ", got " + d.describe());
    std::vector<int64_t> s = shapeOf(x);
    if (s[size_t(d.i)] != 1)
      L.fail(a.site(), "squeeze() of dim " + std::to_string(d.i) + " needs extent 1, got " + x.type().str());
    s.erase(s.begin() + d.i);
    return L.reshape(x, s, a.site());
  };
  t["tl.unsqueeze"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "unsqueeze", {"x", "dim"});
    CV x = a.tensor(0);
    CV d = a.get(1);
    int64_t rank = int64_t(x.type().rank());
    if (d.kind != CV::K::Int || d.i < 0 || d.i > rank)
      L.fail(a.at(1), "unsqueeze() dim must be a constexpr integer from 0 to " + std::to_string(rank) + ", got " + d.describe());
    return L.expandDims(x, d.i, a.site());
  };
  t["tl.ravel"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "ravel", {"x"});
    CV x = a.tensor(0);
    return L.reshape(x, {x.type().numElements()}, a.site());
  };
  // x.item(): the one element of a tile as a scalar (Triton's unsplat); a method only.
  t["tensor.item"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "item", {"self"});
    CV x = a.tensor(0);
    if (x.type().isScalar()) return x;
    if (x.type().numElements() != 1)
      L.fail(a.site(), "tensor.item(): can only unsplat single-element tensors, got " + x.type().str());
    // A one-element reduce whose combiner is never called: the element's bits, exactly (a
    // pointer through its int64 address, as reduce takes no pointers).
    const Expr& at = a.site();
    CV flat = x.type().rank() == 1 ? x : L.reshape(x, {1}, at);
    if (x.dtype.isPtr()) flat = L.cast(flat, DType::of(ir::ScalarKind::I64), at);
    CV r = L.reduceOrScan(false, {flat}, 0, false, [](std::vector<CV>& lhs, std::vector<CV>&) { return lhs; }, at)[0];
    return x.dtype.isPtr() ? L.cast(r, x.dtype, at) : r;
  };
  t["tl.permute"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "permute", {"input", "dims", "*"});
    return permute(L, a.get(0), dimsFrom(L, a, 1, a.site()), a.site(), "tl.permute");
  };
  t["tl.trans"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "trans", {"input", "dims", "*"});
    CV x = a.tensor(0);
    std::vector<int64_t> dims = dimsFrom(L, a, 1, a.site());
    if (dims.empty()) {  // Triton's default: the last two axes swapped (a batched 2-D transpose)
      const int64_t n = int64_t(x.type().rank());
      if (n < 2) L.fail(a.site(), "tl.trans invoked with a 0- or 1-dimensional tensor: " + x.describe());
      for (int64_t d = 0; d < n - 2; ++d) dims.push_back(d);
      dims.push_back(n - 1);
      dims.push_back(n - 2);
    }
    return permute(L, x, dims, a.site(), "tl.trans");
  };
  t["tl.join"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "join", {"a", "b"});
    CV x = a.get(0), y = a.get(1);
    L.unify(x, y, a.site());
    std::vector<int64_t> s = shapeOf(x);
    s.push_back(2);
    L.checkTileShape(s, a.site(), "tl.join");
    L.setLoc(a.site());
    return CV::tensor(L.b.create(Opcode::Join, {x.value, y.value}, {x.type().withShape(s)})->result(), x.dtype);
  };
  // Triton's standard.interleave: join, then the last two dims merged (a0 b0 a1 b1 ...); two
  // scalars give the 2-element join itself.
  t["tl.interleave"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "interleave", {"a", "b"});
    CV joined = L.callBuiltin("tl.join", c);
    std::vector<int64_t> s = shapeOf(joined);
    if (s.size() == 1) return joined;
    s[s.size() - 2] *= 2;
    s.pop_back();
    return L.reshape(joined, s, a.site());
  };
  t["tl.split"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "split", {"a"});
    CV x = a.tensor(0);
    if (x.type().isScalar() || x.type().dim(x.type().rank() - 1) != 2)
      L.fail(a.site(), "split() needs a tile whose last dimension is 2, got " + x.describe());
    std::vector<int64_t> s = shapeOf(x);
    s.pop_back();
    ir::Type r = x.type().withShape(s);
    L.setLoc(a.site());
    ir::Op* op = L.b.create(Opcode::Split, {x.value}, {r, r});
    return CV::tuple({CV::tensor(op->result(0), x.dtype), CV::tensor(op->result(1), x.dtype)});
  };
  t["tl.cat"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "cat", {"input", "other", "can_reorder"});
    CV x = a.get(0), y = a.get(1);
    L.unify(x, y, a.site());
    if (x.type().isScalar()) L.fail(a.site(), "cat() needs tiles");
    std::vector<int64_t> s = shapeOf(x);
    s[0] *= 2;
    L.checkTileShape(s, a.site(), "tl.cat");
    L.setLoc(a.site());
    return CV::tensor(L.b.create(Opcode::Cat, {x.value, y.value}, {x.type().withShape(s)})->result(), x.dtype);
  };
  t["tl.flip"] = [](Lowerer& L, CallArgs& c) {  // Triton's standard.flip: the last dim by default
    Args a(L, c, "flip", {"x", "dim"});
    CV x = a.tensor(0);
    int64_t rank = x.type().rank();
    if (rank == 0) L.fail(a.site(), "flip() needs a tile, got " + x.describe());
    int64_t dim = rank - 1;
    if (a.has(1) && a.get(1).kind != CV::K::None) {
      const CV& d = a.get(1);
      if (d.kind != CV::K::Int) L.fail(a.at(1), "flip() dim must be a constexpr integer or None, got " + d.describe());
      dim = d.i < 0 ? d.i + rank : d.i;
      if (dim < 0 || dim >= rank)
        L.fail(a.at(1), "flip() dim " + d.intText() + " is out of range for a " + std::to_string(rank) + "-D tile");
    }
    L.setLoc(a.site());
    return CV::tensor(L.b.create(Opcode::Flip, {x.value}, {x.type()}, {{"dim", dim}})->result(), x.dtype);
  };
}

}  // namespace tilevm::frontend
