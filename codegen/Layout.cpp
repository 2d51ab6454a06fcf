// Layout.cpp - the cyclic layout (see Layout.h).
#include "codegen/Layout.h"

namespace tilevm::codegen {

Layout Layout::of(const ir::Type& t, unsigned threads) {
  Layout l;
  l.threads = threads;
  l.scalar = t.isScalar();
  l.numel = t.numElements();
  return l;
}

}  // namespace tilevm::codegen
