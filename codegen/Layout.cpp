// Layout.cpp - the blocked layout (see Layout.h).
#include "codegen/Layout.h"

namespace tilevm::codegen {

Layout Layout::of(const ir::Type& t, unsigned threads) {
  Layout l;
  l.threads = threads;
  l.scalar = t.isScalar();
  l.numel = t.numElements();
  if (!l.scalar)
    while (l.vec < kMaxVec && l.numel % (int64_t(l.vec) * 2 * threads) == 0) l.vec *= 2;
  return l;
}

}  // namespace tilevm::codegen
