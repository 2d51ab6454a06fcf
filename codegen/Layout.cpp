// Layout.cpp - the blocked and accumulator layouts, and the shared swizzle (see Layout.h).
#include "codegen/Layout.h"

#include <algorithm>

namespace tilevm::codegen {

Layout Layout::of(const ir::Type& t, unsigned threads, unsigned maxVec) {
  Layout l;
  l.threads = threads;
  l.scalar = t.isScalar();
  l.numel = t.numElements();
  if (!l.scalar)
    while (l.vec < maxVec && l.numel % (int64_t(l.vec) * 2 * threads) == 0) l.vec *= 2;
  return l;
}

bool Layout::accumulatorFits(const ir::Type& t, unsigned threads, LayoutKind kind) {
  if (t.rank() != 2 || t.dim(0) % 16 != 0 || t.dim(1) % 8 != 0) return false;
  unsigned warps = threads / 32;
  switch (kind) {
    case LayoutKind::Blocked:
    case LayoutKind::Rows: return false;
    case LayoutKind::Wgmma: return warps % 4 == 0 && t.dim(0) % (16 * warps) == 0 && t.dim(1) <= 256;
    case LayoutKind::Mma: return true;  // some warps hold the blocks; the rest hold copies
  }
  return false;
}

Layout Layout::accumulatorOf(const ir::Type& t, unsigned threads, LayoutKind kind) {
  Layout l = of(t, threads, 1);
  l.kind = kind;
  l.vec = 1;
  l.rows = t.dim(0);
  l.cols = t.dim(1);
  unsigned warps = threads / 32;
  if (kind == LayoutKind::Wgmma) {
    l.warpsM = warps;
    l.warpsN = 1;
    return l;
  }
  // As many warps as the 16x8 blocks can employ, then the fewest A and B fragment loads per k
  // step; warps beyond (a tile smaller than the warps) hold copies.
  int64_t best = -1;
  unsigned used = 0;
  for (unsigned wm = 1; wm <= warps; wm *= 2)
    for (unsigned wn = 1; wm * wn <= warps; wn *= 2) {
      if ((l.rows / 16) % wm != 0 || (l.cols / 8) % wn != 0) continue;
      int64_t fragments = l.rows / 16 / wm + l.cols / 8 / wn;
      if (wm * wn > used || (wm * wn == used && fragments < best)) {
        used = wm * wn;
        best = fragments;
        l.warpsM = wm;
        l.warpsN = wn;
      }
    }
  return l;
}

Layout Layout::rowsOf(const Layout& acc) {
  Layout l = acc;
  l.kind = LayoutKind::Rows;
  l.parent = acc.kind;
  l.cols = 1;
  l.numel = acc.rows;
  return l;
}

unsigned SharedLayout::swizzleFor(int64_t cols, unsigned elemBytes) {
  int64_t rowBytes = cols * elemBytes;
  if (rowBytes == 32 || rowBytes == 64) return unsigned(rowBytes);
  return rowBytes % 128 == 0 ? 128 : 0;
}

unsigned kernelRunLength(const ir::Kernel& k) {
  unsigned narrowest = 4;  // bytes; kernels without 8- or 16-bit tiles keep runs of 4
  ir::walk(k.body.block, [&](const ir::Op& op) {
    if (op.code != ir::Opcode::Load && op.code != ir::Opcode::Store) return;
    const ir::Type& t = op.code == ir::Opcode::Load ? op.result()->type : op.operands[1]->type;
    if (t.isScalar()) return;
    switch (t.elem().kind) {
      case ir::ScalarKind::I16: case ir::ScalarKind::F16: case ir::ScalarKind::BF16: narrowest = std::min(narrowest, 2u); break;
      case ir::ScalarKind::I8: case ir::ScalarKind::F8E5: case ir::ScalarKind::F8E4NV: case ir::ScalarKind::F8E4B15:
      case ir::ScalarKind::F8E5B16: case ir::ScalarKind::F8E4B8: narrowest = 1; break;
      default: break;
    }
  });
  return std::min(16u / narrowest, Layout::kMaxVec);
}

}  // namespace tilevm::codegen
