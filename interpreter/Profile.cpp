// Profile.cpp - the per-op and per-element records of a launch (see Profile.h).
#include "interpreter/Profile.h"

namespace tilevm::interp {

std::unique_ptr<OpProfile> OpProfile::forKernel(const ir::Kernel& k) {
  auto p = std::make_unique<OpProfile>();
  ir::walk(k.body.block, [&](const ir::Op& op) { p->ops.try_emplace(&op); });
  return p;
}

void AccessMap::resize(int64_t n) {
  numel = n;
  firstReader.reset(new std::atomic<uint32_t>[size_t(n)]());
  firstWriter.reset(new std::atomic<uint32_t>[size_t(n)]());
  otherReader.reset(new std::atomic<uint8_t>[size_t(n)]());
  otherWriter.reset(new std::atomic<uint8_t>[size_t(n)]());
  firstWriteOp.reset(new std::atomic<uint32_t>[size_t(n)]());
}

void AccessMap::record(int64_t element, uint32_t program, bool write, uint32_t op) {
  if (element < 0 || element >= numel) return;
  std::atomic<uint32_t>& first = (write ? firstWriter : firstReader)[size_t(element)];
  uint32_t id = program + 1, none = 0;
  if (first.compare_exchange_strong(none, id, std::memory_order_relaxed)) {
    if (write) firstWriteOp[size_t(element)].store(op + 1, std::memory_order_relaxed);
  } else if (none != id) {
    (write ? otherWriter : otherReader)[size_t(element)].store(1, std::memory_order_relaxed);
  }
}

}  // namespace tilevm::interp
