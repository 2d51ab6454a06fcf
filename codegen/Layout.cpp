// Layout.cpp - the blocked layout (see Layout.h).
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

unsigned kernelRunLength(const ir::Kernel& k) {
  unsigned narrowest = 4;  // bytes; kernels without 16-bit tiles keep runs of 4
  ir::walk(k.body.block, [&](const ir::Op& op) {
    if (op.code != ir::Opcode::Load && op.code != ir::Opcode::Store) return;
    const ir::Type& t = op.code == ir::Opcode::Load ? op.result()->type : op.operands[1]->type;
    if (t.isScalar()) return;
    switch (t.elem().kind) {
      case ir::ScalarKind::I16: case ir::ScalarKind::F16: case ir::ScalarKind::BF16: narrowest = std::min(narrowest, 2u); break;
      default: break;
    }
  });
  return std::min(16u / narrowest, Layout::kMaxVec);
}

}  // namespace tilevm::codegen
