// AsyncPipeline.cpp - a `for` loop's wgmma operands loaded through a ring of shared-memory
// buffers (Triton's num_stages on Hopper): each loaded tile goes global -> shared by cp.async
// (16 bytes a copy, zero-filled where masked: a mask true on a prefix of the copy, `offs < K` at
// any K, reads that prefix's bytes; swizzled as wgmma reads it; a tf32 B that must be
// stored transposed, 4 bytes a copy), `ahead` iterations before the one that reads it, one commit
// group per iteration. Iteration i waits for its own group (cp.async.wait_group ahead - 1)
// (tf32 tiles: then rounds them in place between barriers), fences the async proxy,
// synchronizes the CTA, runs its body (the dot reads its stage through descriptors), then issues
// iteration i + ahead's copies into the stage freed longest ago. A dot whose accumulator only the next iteration's dot reads
// keeps one wgmma group in flight (wait_group 1), so its stage stays busy one iteration longer:
// it gets num_stages + 1 buffers (shared memory permitting) and ahead = buffers - 2, else
// num_stages buffers and ahead = num_stages - 1.
#include "codegen/Lowerer.h"

namespace tilevm::codegen {

namespace {

using ir::Opcode;

uint64_t align1024(uint64_t n) { return (n + 1023) / 1024 * 1024; }

// Whether v is defined outside `loop` (its value is fixed before the loop starts).
bool definedOutside(const ir::Value* v, const ir::Op& loop) {
  for (const ir::Block* b = v->owner; b; b = b->parent && b->parent->parentOp ? b->parent->parentOp->parent : nullptr)
    if (b == &loop.regions[0]->block) return false;
  return true;
}

// Tensor maps a ring builds per program fit in its mbarrier block, 128 bytes each after the
// barriers' first 128 (AsyncPipeline.cpp, lowerRingFor).
constexpr unsigned kMaxDeviceMapsPerRing = 7;

// The elements of one 16-byte copy of a ring tile (f16/bf16: 8, f32: 4, the 1-byte types wgmma
// reads, int8 and fp8: 16); 0 for other types.
unsigned chunkElements(const ir::Type& t) {
  switch (t.elem().kind) {
    case ir::ScalarKind::F16:
    case ir::ScalarKind::BF16: return 8;
    case ir::ScalarKind::F32: return 4;
    case ir::ScalarKind::I8:
    case ir::ScalarKind::F8E5:
    case ir::ScalarKind::F8E4NV: return 16;
    default: return 0;
  }
}

}  // namespace

Lowerer::CopyMask Lowerer::copyMask(const ir::Op& load, int64_t chunk, bool reversed) const {
  if (load.operands.size() < 2 || load.operands[1]->type.isScalar()) return CopyMask::Whole;
  const auto& axes = reversed ? axesReversed_ : axes_;
  auto it = axes.find(load.operands[1]);
  if (it == axes.end()) return CopyMask::Unfit;
  if (it->second.constancy >= chunk) return CopyMask::Whole;
  return prefixRun(it->second) >= chunk ? CopyMask::Prefix : CopyMask::Unfit;
}

llvm::Value* Lowerer::copyBytes(const ir::Op& load, unsigned elemBytes, bool reversed,
                                const std::function<llvm::Value*(unsigned)>& maskAt) {
  const unsigned chunk = 16 / elemBytes;
  switch (load.operands.size() > 1 ? copyMask(load, chunk, reversed) : CopyMask::Whole) {
    case CopyMask::Prefix: {
      llvm::Value* bytes = b_.getInt32(0);
      for (unsigned i = 0; i < chunk; ++i)
        bytes = b_.CreateAdd(bytes, b_.CreateSelect(maskAt(i), b_.getInt32(int32_t(elemBytes)), b_.getInt32(0)));
      return bytes;
    }
    case CopyMask::Whole:
      return load.operands.size() > 1 ? b_.CreateSelect(maskAt(0), b_.getInt32(16), b_.getInt32(0)) : b_.getInt32(16);
    case CopyMask::Unfit: break;
  }
  fail(load, "internal error: a ring load whose mask no copy fits");
}

bool Lowerer::ringLoad(const ir::Op& load) const {
  const ir::Type& t = load.result()->type;
  const unsigned chunk = chunkElements(t);
  if (t.rank() != 2 || chunk == 0) return false;
  Layout l = layoutOf(load.result());
  if (l.kind != LayoutKind::Blocked || l.scalar || !l.full() || l.vec % chunk != 0 || t.dim(1) % chunk != 0) return false;
  if (runShape(load.operands[0]) != RunShape::Contiguous || runDivisor(load.operands[0]) % 16 != 0) return false;
  if (copyMask(load, chunk, false) == CopyMask::Unfit) return false;
  return load.operands.size() <= 2 || isZeroConstant(load.operands[2]);
}

const ir::Value* Lowerer::advancedPointerInit(const ir::Op& forOp, const ir::Value* v) const {
  const ir::Block& body = forOp.regions[0]->block;
  if (v->def || v->owner != &body || v->index == 0 || v->type.isScalar()) return nullptr;
  const ir::Op* next = body.ops.back()->operands[v->index - 1]->def;  // what the yield passes on
  if (!next || next->code != Opcode::AddPtr || next->operands[0] != v) return nullptr;
  const ir::Value* by = next->operands[1];
  if (!by->type.isScalar() && !(by->def && by->def->code == Opcode::Splat)) return nullptr;  // one offset for all elements
  const ir::Value* init = forOp.operands[3 + v->index - 1];
  return isIndexFunction(init) ? init : nullptr;
}

bool Lowerer::ringLoadTransposed(const ir::Op& load, const ir::Op& forOp) const {
  const ir::Type& t = load.result()->type;
  const unsigned chunk = chunkElements(t);  // per 16-byte copy, consecutive along dim 0
  if (t.rank() != 2 || chunk == 0 || t.dim(0) % chunk != 0 || SharedLayout::swizzleFor(t.dim(0), 16 / chunk) == 0) return false;
  auto p = axesReversed_.find(load.operands[0]);
  if (p == axesReversed_.end() || p->second.contiguity < chunk || p->second.divisibility % 16 != 0) return false;
  // Each copy's address recomputed at its element.
  // (Advanced pointers: every thread's first slot inside the tile, so its offset is defined.)
  if (!isIndexFunction(load.operands[0]) && !(advancedPointerInit(forOp, load.operands[0]) && layoutOf(load.operands[0]).full()))
    return false;
  if (copyMask(load, chunk, true) == CopyMask::Unfit) return false;
  if (load.operands.size() > 1 && !load.operands[1]->type.isScalar() && !isIndexFunction(load.operands[1])) return false;
  return load.operands.size() <= 2 || isZeroConstant(load.operands[2]);
}

bool Lowerer::ringLoadScattered(const ir::Op& load) const {
  const ir::Type& t = load.result()->type;
  if (t.rank() != 2 || t.elem().kind != ir::ScalarKind::F32 || SharedLayout::swizzleFor(t.dim(0), 4) == 0) return false;
  Layout l = layoutOf(load.result());
  if (l.kind != LayoutKind::Blocked || l.scalar || !l.full() || isUniform(load.operands[0])) return false;
  return load.operands.size() <= 2 || isZeroConstant(load.operands[2]);
}

void Lowerer::planRings() {
  if (o_.arch != "sm_90a" || o_.numStages < 2) return;
  // Each value's users (orderOps made them).
  auto users = [&](const ir::Value* v) -> const std::vector<const ir::Op*>& {
    static const std::vector<const ir::Op*> none;
    auto it = users_.find(v);
    return it == users_.end() ? none : it->second;
  };
  ir::walk(k_.body.block, [&](const ir::Op& forOp) {
    if (forOp.code != Opcode::For) return;
    const ir::Block& body = forOp.regions[0]->block;
    bool nested = false;
    for (const auto& o : body.ops) nested = nested || o->code == Opcode::For || o->code == Opcode::While || o->code == Opcode::If;
    if (nested) return;
    // Each candidate load: how it is stored, and the values dots read of it (with, per value,
    // whether the dot reads it as a K-major B).
    std::map<const ir::Op*, std::pair<RingFeed, std::vector<std::pair<const ir::Value*, bool>>>> candidates;
    std::vector<const ir::Op*> dots;
    auto only = [&](const ir::Value* v) { return users(v).size() == 1 ? users(v)[0] : nullptr; };
    auto wgmmaDot = [&](const ir::Op* o) { return o && o->code == Opcode::Dot && layoutOf(o->result()).kind == LayoutKind::Wgmma; };
    // A 16-bit tile several dots read as B, as loaded or through tl.trans (attention's backward:
    // `dot(p, do)` and `dot(v, trans(do))`): stored once, each dot reading it N-major or K-major.
    for (const auto& o : body.ops) {
      if (o->code != Opcode::Load || users(o->result()).size() < 2) continue;
      const ir::Value* v = o->result();
      const ir::ScalarKind kind = v->type.elem().kind;
      if (kind != ir::ScalarKind::F16 && kind != ir::ScalarKind::BF16) continue;
      const bool direct = ringLoad(*o), transposed = !direct && ringLoadTransposed(*o, forOp);
      if (!direct && !transposed) continue;
      std::vector<std::pair<const ir::Value*, bool>> uses;  // (what the dot reads, read K-major)
      bool ok = true;
      for (const ir::Op* u : users(v)) {
        if (wgmmaDot(u) && u->operands[1] == v && u->operands[0] != v) {
          uses.push_back({v, transposed});
        } else if (u->code == Opcode::Permute && (*u->intsAttr("order"))[0] == 1 && wgmmaDot(only(u->result())) &&
                   only(u->result())->operands[1] == u->result() && only(u->result())->operands[0] != u->result()) {
          uses.push_back({u->result(), direct});
        } else {
          ok = false;
        }
      }
      if (ok) candidates[o.get()] = {direct ? RingFeed::Direct : RingFeed::Transposed, uses};
    }
    for (const auto& o : body.ops) {
      if (o->code != Opcode::Dot || layoutOf(o->result()).kind != LayoutKind::Wgmma) continue;
      dots.push_back(o.get());
      for (int i = 0; i < 2; ++i) {
        const ir::Value* operand = o->operands[i];
        const ir::Op* d = operand->def;
        if (!d || d->parent != &body || only(operand) != o.get()) continue;
        // tf32, int8 and fp8 B must be stored K-major (wgmma transposes only 16-bit operands):
        // transposed from either kind of load, never as loaded.
        const bool kMajorB = i == 1 && (operand->type.elem().kind == ir::ScalarKind::F32 || ir::bitWidth(operand->type.elem().kind) == 8);
        // Stored as loaded, the tile is N-major as a B; the others are K-major.
        if (d->code == Opcode::Load && !kMajorB && ringLoad(*d)) candidates[d] = {RingFeed::Direct, {{operand, false}}};
        else if (d->code == Opcode::Load && i == 1 && ringLoadTransposed(*d, forOp)) candidates[d] = {RingFeed::Transposed, {{operand, true}}};
        else if (d->code == Opcode::Load && kMajorB && ringLoadScattered(*d)) candidates[d] = {RingFeed::Scattered, {{operand, true}}};
        else if (d->code == Opcode::Permute && i == 1 && (*d->intsAttr("order"))[0] == 1) {
          const ir::Op* l = d->operands[0]->def;
          if (l && l->code == Opcode::Load && l->parent == &body && only(l->result()) == d && ringLoad(*l))
            candidates[l] = {RingFeed::Permuted, {{operand, true}}};
        }
      }
    }
    if (candidates.empty()) return;
    std::set<const ir::Op*> loads;
    for (const auto& [l, feed] : candidates) loads.insert(l);
    RingPlan ring;
    ring.pipe = planPipeline(forOp, &loads);
    if (ring.pipe.loads.empty()) return;
    std::set<const ir::Value*> inRing;  // what the dots read from the ring
    std::set<const ir::Op*> permutes;   // folded into their ring tiles (never lowered)
    for (const ir::Op* l : ring.pipe.loads) {
      auto [feed, uses] = candidates.at(l);
      ring.feeds.push_back(feed);
      ring.pointerInits.push_back(feed == RingFeed::Transposed && !isIndexFunction(l->operands[0])
                                      ? advancedPointerInit(forOp, l->operands[0]) : nullptr);
      ring.tma.emplace_back();
      if (feed == RingFeed::Direct || feed == RingFeed::Permuted)
        if (auto t = tensorMapLoad(*l); t && (!t->device || [&] {
              // A map made in the kernel is built before the loop, from values fixed by then.
              unsigned built = 0;
              for (const auto& o : ring.tma) built += o && o->first.device ? 1 : 0;
              bool outside = o_.deviceTensorMaps && built < kMaxDeviceMapsPerRing && deviceMaps_ + built < kMaxDeviceTensorMaps &&
                             definedOutside(t->device->base, forOp);
              for (const ir::Value* v : t->device->shape) outside = outside && definedOutside(v, forOp);
              for (const ir::Value* v : t->device->stride) outside = outside && definedOutside(v, forOp);
              return outside;
            }())) {
          ring.tma.back() = {*t, 0u};
          const ir::Type& lt = l->result()->type;
          ring.tmaBytes += unsigned(lt.numElements() * (ir::bitWidth(lt.elem().kind) / 8));
        }
      ring.uses.push_back(uses);
      for (const auto& [operand, kMajor] : uses) {
        inRing.insert(operand);
        if (operand->def && operand->def->code == Opcode::Permute) permutes.insert(operand->def);
      }
      // Transposed, Scattered: the K x N tile stored as its N x K transpose; Permuted: as loaded (N x K).
      const ir::Type& t = l->result()->type;
      const bool transposed = feed == RingFeed::Transposed || feed == RingFeed::Scattered;
      ring.layouts.push_back(sharedLayoutOf(transposed ? ir::Type(t.elem(), std::vector<int64_t>{t.dim(1), t.dim(0)}) : t));
      ring.offsets.push_back(ring.stageBytes);
      ring.stageBytes += align1024(ring.layouts.back().bytes());
    }
    // Operands defined before the loop stay in shared memory across it (not A in an accumulator
    // layout: that one is fed from registers).
    std::set<const ir::Value*> resident = inRing;
    for (const ir::Op* d : dots)  // a tf32 tile read as both A and B would need both layouts
      if (d->operands[0] == d->operands[1] && d->operands[0]->type.elem().kind == ir::ScalarKind::F32) return;
    for (const ir::Op* d : dots)
      for (int i = 0; i < 2; ++i) {
        const ir::Value* v = d->operands[i];
        bool before = v->def ? v->def->parent != &body : v->owner != &body;
        if (resident.count(v) || !before || v->type.isScalar() || layoutOf(v).kind != LayoutKind::Blocked) continue;
        const bool kMajor = i == 1 && v->type.elem().kind == ir::ScalarKind::F32;  // tf32 B: its transpose
        ring.invariants.push_back(v);
        ring.invariantKMajor.push_back(kMajor);
        ring.invariantLayouts.push_back(sharedLayoutOf(kMajor ? ir::Type(v->type.elem(), std::vector<int64_t>{v->type.dim(1), v->type.dim(0)}) : v->type));
        ring.invariantBytes += align1024(ring.invariantLayouts.back().bytes());
        ring.invariantPinned.push_back(false);
        ring.invariantWrites.push_back(true);
        resident.insert(v);
      }
    // The body's other uses of the scratch array lie below the ring.
    uint64_t below = 0;
    for (const auto& o : body.ops) {
      bool fed = o->code == Opcode::Dot && (resident.count(o->operands[0]) || wgmmaAFromRegisters(*o)) && resident.count(o->operands[1]);
      if (!fed && !permutes.count(o.get())) below = std::max(below, sharedNeed(*o));
    }
    ring.offset = align1024(below);
    // One dot, fed by the ring alone, whose accumulator is carried from itself to itself only;
    // not an f16 one, whose pairs are unpacked after the wait.
    const ir::Op* async = nullptr;
    if (dots.size() == 1 && !ir::accumulatesInHalf(dots[0]->operands[0]->type.elem().kind, dots[0]->result()->type.elem().kind)) {
      const ir::Op* d = dots[0];
      const ir::Value* acc = d->operands[2];
      const auto& resultUsers = users(d->result());
      bool fed = resident.count(d->operands[0]) && resident.count(d->operands[1]);
      if (fed && resultUsers.size() == 1 && resultUsers[0] == body.ops.back().get() && !acc->def && acc->owner == &body &&
          users(acc).size() == 1 && body.ops.back()->operands[acc->index - 1] == d->result())
        async = d;
    }
    // num_stages - 1 iterations ahead, as Triton's num_stages: a wgmma left in flight holds one
    // more buffer (num_stages + 1), where shared memory allows.
    const uint64_t limit = maxDynamicSharedBytes(o_);
    ring.stages = o_.numStages + (async ? 1 : 0);
    auto total = [&] { return ring.footprint(); };
    while (ring.stages > 2 && total() > limit) --ring.stages;
    if (total() > limit) return;
    ring.placeTail();
    for (auto& t : ring.tma)  // the hidden parameters of the ring that is kept, or its slots
      if (t) t->second = t->first.device ? deviceMaps_++ : tensorMapIndex(t->first.map);
    if (async && ring.stages < 3) async = nullptr;
    ring.ahead = ring.stages - (async ? 2 : 1);
    if (async) asyncDots_.insert(async);
    for (const ir::Op* p : permutes) lowered_.insert(p);
    rings_[&forOp] = ring;
  });
  pinInvariants();
}

void Lowerer::RingPlan::placeTail() {
  uint64_t at = offset + bytes();  // multiples of 1024: aligned alike from any base
  invariantOffsets.resize(invariants.size());
  for (size_t j = 0; j < invariants.size(); ++j)
    if (!invariantPinned[j]) {
      invariantOffsets[j] = at;
      at += align1024(invariantLayouts[j].bytes());
    }
  barrierOffset = at;
}

void Lowerer::pinInvariants() {
  const ir::Block& top = k_.body.block;
  std::map<const ir::Op*, size_t> position;  // the kernel's top-level ops
  for (size_t i = 0; i < top.ops.size(); ++i) position[top.ops[i].get()] = i;
  // Each candidate's ring loops, as (position, index among the loop's invariants).
  std::map<const ir::Value*, std::vector<std::pair<size_t, size_t>>> loopsOf;
  for (const auto& [loop, ring] : rings_) {
    if (loop->parent != &top) continue;
    for (size_t j = 0; j < ring.invariants.size(); ++j) {
      const ir::Value* v = ring.invariants[j];
      if (v->def && v->def->parent == &top) loopsOf[v].push_back({position.at(loop), j});
    }
  }
  auto ringAt = [&](const std::pair<size_t, size_t>& l) -> RingPlan& { return rings_.at(top.ops[l.first].get()); };
  std::vector<std::vector<std::pair<size_t, size_t>>> pins;  // in program order: first loop, then index
  for (auto& [v, loops] : loopsOf) {
    std::sort(loops.begin(), loops.end());
    bool same = loops.size() >= 2;  // read alike by every loop (a tf32 B is stored transposed)
    for (const auto& l : loops) same = same && ringAt(l).invariantKMajor[l.second] == ringAt(loops[0]).invariantKMajor[loops[0].second];
    if (same) pins.push_back(loops);
  }
  std::sort(pins.begin(), pins.end());
  // Each pin goes above what every op of its window (its first to its last loop) uses: the
  // loops' own bytes without their pins (ring offsets are 1024-aligned from an aligned base, so
  // a ring ends 1024 below its footprint; other ops use the array from its unaligned base) and
  // the pins placed before it whose windows overlap. One that does not fit is dropped (its loops
  // write it again, past their rings) and the others placed again.
  const uint64_t limit = maxDynamicSharedBytes(o_);
  std::vector<uint64_t> at;
  for (bool placed = false; !placed;) {
    for (auto& [loop, ring] : rings_) {
      ring.invariantBytes = 0;
      for (size_t j = 0; j < ring.invariants.size(); ++j) {
        ring.invariantBytes += align1024(ring.invariantLayouts[j].bytes());
        ring.invariantPinned[j] = false;
      }
      ring.pinnedEnd = 0;
    }
    for (const auto& loops : pins)
      for (const auto& l : loops) {
        ringAt(l).invariantPinned[l.second] = true;
        ringAt(l).invariantBytes -= align1024(ringAt(l).invariantLayouts[l.second].bytes());
      }
    at.clear();
    placed = true;
    for (size_t p = 0; p < pins.size() && placed; ++p) {
      const auto& loops = pins[p];
      const size_t lo = loops.front().first, hi = loops.back().first;
      uint64_t end = 0;
      auto need = [&](const ir::Op& n) {
        auto it = rings_.find(&n);
        end = std::max(end, it != rings_.end() ? it->second.footprint() - 1024 : sharedNeed(n));
      };
      for (size_t i = lo; i <= hi; ++i) {
        need(*top.ops[i]);
        for (const auto& r : top.ops[i]->regions) ir::walk(r->block, need);
      }
      for (size_t q = 0; q < p; ++q)
        if (pins[q].front().first <= hi && lo <= pins[q].back().first)
          end = std::max(end, at[q] + align1024(ringAt(pins[q].front()).invariantLayouts[pins[q].front().second].bytes()));
      at.push_back(align1024(end));
      const uint64_t pinEnd = at.back() + align1024(ringAt(loops.front()).invariantLayouts[loops.front().second].bytes()) + 1024;
      if (pinEnd > limit) {
        pins.erase(pins.begin() + std::ptrdiff_t(p));
        placed = false;
      } else {
        for (const auto& l : loops) ringAt(l).pinnedEnd = std::max(ringAt(l).pinnedEnd, pinEnd);
      }
    }
  }
  for (auto& [loop, ring] : rings_) {
    ring.placeTail();
    ring.invariantWrites.assign(ring.invariants.size(), true);
  }
  for (size_t p = 0; p < pins.size(); ++p)
    for (const auto& l : pins[p]) {
      ringAt(l).invariantOffsets[l.second] = at[p];
      ringAt(l).invariantWrites[l.second] = &l == &pins[p].front();
    }
}

void Lowerer::issueRing(const RingPlan& ring, const std::map<const ir::Value*, Values>& bindings, llvm::Value* stage,
                        llvm::Value* live, llvm::Value* barrier) {
  lowerWith(bindings, ring.pipe.loadSlice, [&] {
    // The TMA's copies: thread 0 arms the stage's barrier with their bytes, then issues them.
    llvm::Value* issue = ring.tmaBytes ? b_.CreateAnd(live, b_.CreateICmpEQ(tid_, b_.getInt32(0))) : nullptr;
    if (ring.tmaBytes) expectBytes(barrier, ring.tmaBytes, issue);
    for (size_t j = 0; j < ring.pipe.loads.size(); ++j) {
      const ir::Op& ld = *ring.pipe.loads[j];
      const SharedLayout& s = ring.layouts[j];
      Layout l = layoutOf(ld.result());
      llvm::Type* ty = scalarType(ld.result()->type.elem());
      llvm::Value* base = b_.CreateAdd(stage, b_.getInt32(int32_t(ring.offsets[j])));
      if (ring.tma[j]) {
        // One box per slab of the swizzled tile: S / elemBytes columns of every row.
        const auto& [t, map] = *ring.tma[j];
        auto offset = [&](const ir::Value* v) { return v ? slot(v, 0) : b_.getInt32(0); };
        // A map made in the kernel: built before the loop; past every row where its sizes say
        // the array is empty (what TMA cannot describe), so the whole box reads as filled.
        llvm::Value* mapAt = t.device ? builtMaps_.at(&ld).first : tensorMapAddress(map);
        llvm::Value* y = offset(t.offsets[0]);
        if (t.device) y = b_.CreateSelect(builtMaps_.at(&ld).second, y, b_.getInt32(1 << 30));
        const int64_t perSlab = s.swizzleBytes / s.elemBytes;
        for (int64_t p = 0; p < s.cols / perSlab; ++p) {
          llvm::Value* dst = b_.CreateAdd(base, b_.getInt32(int32_t(p * s.rows * s.swizzleBytes)));
          llvm::Value* x = b_.CreateAdd(offset(t.offsets[1]), b_.getInt32(int32_t(p * perSlab)));
          tensorCopy(mapAt, dst, x, y, barrier, issue);
        }
        continue;
      }
      if (ring.feeds[j] == RingFeed::Transposed) {
        issueTransposed(ld, s, base, live, ring.pointerInits[j]);
        continue;
      }
      if (ring.feeds[j] == RingFeed::Scattered) {
        issueScattered(ld, s, base, live);
        continue;
      }
      for (unsigned k = 0; k < l.slots(); k += 16 / s.elemBytes) {
        llvm::Value* e = elementIndex(l, k);
        llvm::Value* row = b_.CreateUDiv(e, b_.getInt32(int32_t(s.cols)));
        llvm::Value* col = b_.CreateURem(e, b_.getInt32(int32_t(s.cols)));
        llvm::Value* dst = b_.CreateAdd(base, swizzledOffset(s, row, col));
        unsigned first = k - k % l.vec;
        llvm::Value* src = b_.CreatePtrToInt(lanePointer(ld, first, k - first, ty), b_.getInt64Ty());
        // Masked off (or an iteration past the end): 0 bytes read, 16 zero-filled.
        llvm::Value* bytes = copyBytes(ld, s.elemBytes, false, [&](unsigned i) { return slot(ld.operands[1], k + i); });
        cpAsync(dst, src, 16, b_.CreateSelect(live, bytes, b_.getInt32(0)));
      }
    }
  });
}

void Lowerer::cpAsync(llvm::Value* dst, llvm::Value* src, unsigned size, llvm::Value* bytes, llvm::Value* issue) {
  // 16 bytes bypass L1 (.cg); 4-byte copies may only go through it (.ca). Operands from $first.
  auto copy = [&](int first) {
    auto arg = [&](int i) { return "$" + std::to_string(first + i); };
    return std::string(size == 16 ? "cp.async.cg" : "cp.async.ca") + ".shared.global [" + arg(0) + "], [" + arg(1) + "], " +
           std::to_string(size) + ", " + arg(2) + ";";
  };
  if (!issue || isProvenTrue(issue)) {
    asmCall(b_.getVoidTy(), copy(0), "r,l,r,~{memory}", {dst, src, bytes});
    return;
  }
  asmCall(b_.getVoidTy(), "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, $0, 0;\n\t@p " + copy(1) + "\n\t}", "r,r,l,r,~{memory}",
          {b_.CreateZExt(issue, b_.getInt32Ty()), dst, src, bytes});
}

// A K x N tile contiguous along K, copied to its N x K transpose in shared memory (layout s):
// 16-byte chunk c (w = 8 halves, 4 f32 or 16 bytes along K) is thread c % T's, c / T-th; its
// first element is (k, n) = ((w c) % K, (w c) / K), whose address and mask are recomputed from
// their index functions (ringLoadTransposed).
void Lowerer::issueTransposed(const ir::Op& ld, const SharedLayout& s, llvm::Value* base, llvm::Value* live,
                              const ir::Value* pointerInit) {
  const int64_t K = s.cols, N = s.rows, w = 16 / s.elemBytes;
  // Pointers carried and advanced alike (advancedPointerInit): element e's is the initial one
  // at e, moved by what this thread's first carried pointer moved from its initial one.
  const ir::Value* ptr = ld.operands[0];
  llvm::Value* moved = nullptr;
  if (pointerInit) {
    auto address = [&](llvm::Value* p) { return b_.CreatePtrToInt(p, b_.getInt64Ty()); };
    moved = b_.CreateSub(address(slot(ptr, 0)), address(recompute(pointerInit, elementIndex(layoutOf(ptr), 0))));
  }
  forEachChunk(K * N / w, [&](llvm::Value* c, llvm::Value* inRange) {
    llvm::Value* first = b_.CreateMul(c, b_.getInt32(int32_t(w)));
    llvm::Value* n = b_.CreateUDiv(first, b_.getInt32(int32_t(K)));
    llvm::Value* k = b_.CreateURem(first, b_.getInt32(int32_t(K)));
    llvm::Value* e = b_.CreateAdd(b_.CreateMul(k, b_.getInt32(int32_t(N))), n);  // row-major index in K x N
    llvm::Value* on = isProvenTrue(inRange) ? live : b_.CreateAnd(live, inRange);
    e = b_.CreateSelect(on, e, b_.getInt32(0));
    // The copy's elements along K are N apart in the row-major K x N tile.
    llvm::Value* bytes = copyBytes(ld, s.elemBytes, true, [&](unsigned i) {
      return recompute(ld.operands[1], b_.CreateAdd(e, b_.getInt32(int32_t(i * N))));
    });
    llvm::Value* src = b_.CreatePtrToInt(recompute(pointerInit ? pointerInit : ptr, e), b_.getInt64Ty());
    if (moved) src = b_.CreateAdd(src, moved);
    llvm::Value* dst = b_.CreateAdd(base, swizzledOffset(s, n, k));
    // A chunk past the tile (its thread has none this round) copies nothing, not even zeros.
    cpAsync(dst, src, 16, b_.CreateSelect(on, bytes, b_.getInt32(0)), inRange);
  });
}

// An f32 K x N tile in the load's own blocked layout (its pointers may be loop-carried data),
// each element copied alone to (n, k) of the N x K tile s. Within a run of `vec` slots (4
// consecutive n), lane L copies run element (t + L / 2) % vec at step t, so that a warp's 32
// copies of one step spread over all 8 residues of n mod 8, which the swizzle maps to different
// banks (rather than 2 of them: a 16-way conflict on every copy).
void Lowerer::issueScattered(const ir::Op& ld, const SharedLayout& s, llvm::Value* base, llvm::Value* live) {
  const Layout l = layoutOf(ld.result());
  llvm::Type* ty = scalarType(ld.result()->type.elem());
  const int64_t N = s.rows;
  llvm::Value* rot = b_.CreateLShr(b_.CreateAnd(tid_, b_.getInt32(31)), b_.getInt32(1));
  for (unsigned first = 0; first < l.slots(); first += l.vec) {
    std::vector<llvm::Value*> dsts, srcs, ons;
    for (unsigned i = 0; i < l.vec; ++i) {
      llvm::Value* e = elementIndex(l, first + i);
      llvm::Value* k = b_.CreateUDiv(e, b_.getInt32(int32_t(N)));
      llvm::Value* n = b_.CreateURem(e, b_.getInt32(int32_t(N)));
      dsts.push_back(b_.CreateAdd(base, swizzledOffset(s, n, k)));
      srcs.push_back(b_.CreatePtrToInt(lanePointer(ld, first, i, ty), b_.getInt64Ty()));
      llvm::Value* on = b_.CreateAnd(live, inTile(l, first + i));
      if (ld.operands.size() > 1) on = b_.CreateAnd(on, slot(ld.operands[1], first + i));
      ons.push_back(on);
    }
    for (unsigned t = 0; t < l.vec; ++t) {
      llvm::Value* which = b_.CreateURem(b_.CreateAdd(rot, b_.getInt32(int32_t(t))), b_.getInt32(int32_t(l.vec)));
      llvm::Value *dst = dsts[0], *src = srcs[0], *on = ons[0];
      for (unsigned i = 1; i < l.vec; ++i) {
        llvm::Value* is = b_.CreateICmpEQ(which, b_.getInt32(int32_t(i)));
        dst = b_.CreateSelect(is, dsts[i], dst);
        src = b_.CreateSelect(is, srcs[i], src);
        on = b_.CreateSelect(is, ons[i], on);
      }
      cpAsync(dst, src, 4, b_.CreateSelect(on, b_.getInt32(4), b_.getInt32(0)));
    }
  }
}

void Lowerer::lowerRingFor(const ir::Op& op, const RingPlan& ring) {
  const ir::Block& body = op.regions[0]->block;
  ForHeader h = forHeader(op);
  auto& [lb, ub, step, init] = h;
  auto runs = [&](llvm::Value* i) { return iterationRuns(h, i); };
  const ir::Value* ivArg = body.args[0].get();
  llvm::Type* ivTy = scalarType(ivArg->type.elem());
  llvm::Value* ringAddr = sharedAddress(op, ring.offset, ring.bytes());
  auto stageAddr = [&](llvm::Value* s) { return b_.CreateAdd(ringAddr, b_.CreateMul(s, b_.getInt32(int32_t(ring.stageBytes)))); };
  const bool cpAsync = ring.anyCpAsync();
  auto commit = [&] {
    if (cpAsync) asmCall(b_.getVoidTy(), "cp.async.commit_group;", "~{memory}", {});
  };
  // With TMA copies: one mbarrier per stage, armed by each fill, waited on by each read.
  llvm::Value* barriers = ring.tmaBytes ? sharedAddress(op, ring.barrierOffset, 8 * ring.stages) : nullptr;
  auto barrierOf = [&](llvm::Value* s) { return barriers ? b_.CreateAdd(barriers, b_.CreateMul(s, b_.getInt32(8))) : nullptr; };
  if (barriers) initBarriers(barriers, ring.stages);
  // Tensor maps of descriptors made in the kernel: built by each program in its global slots,
  // staged in the mbarrier block past the barriers.
  unsigned staged = 0;
  for (size_t j = 0; j < ring.pipe.loads.size(); ++j)
    if (ring.tma[j] && ring.tma[j]->first.device) {
      llvm::Value* map = deviceMapAddress(ring.tma[j]->second);
      llvm::Value* nonEmpty = buildDeviceMap(ring.tma[j]->first, map, b_.CreateAdd(barriers, b_.getInt32(int32_t(128 * ++staged))));
      builtMaps_[ring.pipe.loads[j]] = {map, nonEmpty};
    }
  if (staged) barrier();
  // Operands defined before the loop, written once (the loop's first barrier, after its first
  // wait, orders these stores before any wgmma reads them); a pinned one only by the first loop
  // that reads it.
  bool writes = false;
  for (bool w : ring.invariantWrites) writes = writes || w;
  if (!ring.invariants.empty()) barrier();
  for (size_t j = 0; j < ring.invariants.size(); ++j) {
    const SharedLayout& s = ring.invariantLayouts[j];
    llvm::Value* addr = sharedAddress(op, ring.invariantOffsets[j], s.bytes());
    if (ring.invariantWrites[j]) writeSwizzled(ring.invariants[j], addr, s, ring.invariantKMajor[j]);
    sharedTiles_[ring.invariants[j]] = {addr, s, ring.invariantKMajor[j]};
  }
  if (writes) fenceProxyAsync();
  // The prologue: iterations 0 .. ahead - 1 into stages 0 .. ahead - 1.
  std::map<const ir::Value*, Values> at;
  for (const ir::Value* a : ring.pipe.carried) at[a] = init[a->index - 1];
  llvm::Value* ivAt = lb;
  for (unsigned s = 0; s < ring.ahead; ++s) {
    at[ivArg] = {b_.CreateTrunc(ivAt, ivTy)};
    issueRing(ring, at, stageAddr(b_.getInt32(int32_t(s))), runs(ivAt), barrierOf(b_.getInt32(int32_t(s))));
    commit();
    std::map<const ir::Value*, Values> next = nextCarried(ring.pipe, body, at);
    at = next;
    ivAt = b_.CreateAdd(ivAt, step);
  }
  std::vector<const ir::Value*> aheadArgs(ring.pipe.carried.begin(), ring.pipe.carried.end());
  std::vector<Values> aheadInit;
  for (const ir::Value* a : aheadArgs) aheadInit.push_back(at.at(a));
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  auto* header = llvm::BasicBlock::Create(ctx_, "ring", fn_);
  auto* bodyBlock = llvm::BasicBlock::Create(ctx_, "ring_body", fn_);
  auto* exit = llvm::BasicBlock::Create(ctx_, "ring_exit", fn_);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  auto* iv = b_.CreatePHI(b_.getInt64Ty(), 2);
  iv->addIncoming(lb, pre);
  auto* readStage = b_.CreatePHI(b_.getInt32Ty(), 2);
  readStage->addIncoming(b_.getInt32(0), pre);
  auto* writeStage = b_.CreatePHI(b_.getInt32Ty(), 2);
  writeStage->addIncoming(b_.getInt32(int32_t(ring.ahead % ring.stages)), pre);
  auto* readPhase = b_.CreatePHI(b_.getInt32Ty(), 2);  // the parity of the read stage's fill
  readPhase->addIncoming(b_.getInt32(0), pre);
  auto phis = phisFor(init, pre);
  auto aheadPhis = phisFor(aheadInit, pre);
  b_.CreateCondBr(runs(iv), bodyBlock, exit);
  b_.SetInsertPoint(bodyBlock);
  values_[ivArg] = {b_.CreateTrunc(iv, ivTy)};
  for (size_t i = 0; i < phis.size(); ++i) values_[body.args[i + 1].get()] = Values(phis[i].begin(), phis[i].end());
  // This iteration's stage: its copies done (the TMA's, by the stage's barrier; this thread's
  // cp.async), visible to the async proxy, and everyone's done (and every warp past the wait
  // that frees the stage to be filled next).
  if (barriers) waitBarrier(barrierOf(readStage), readPhase);
  if (cpAsync) asmCall(b_.getVoidTy(), "cp.async.wait_group " + std::to_string(ring.ahead - 1) + ";", "~{memory}", {});
  llvm::Value* stage = stageAddr(readStage);
  // tf32 tiles arrive as f32: once all have landed, rounded in place as the interpreter rounds.
  bool tf32 = false;
  for (const SharedLayout& s : ring.layouts) tf32 = tf32 || s.elemBytes == 4;
  if (tf32) {
    barrier();
    for (size_t j = 0; j < ring.layouts.size(); ++j)
      if (ring.layouts[j].elemBytes == 4) roundSharedToTf32(b_.CreateAdd(stage, b_.getInt32(int32_t(ring.offsets[j]))), ring.layouts[j].bytes());
  }
  fenceProxyAsync();
  barrier();
  for (size_t j = 0; j < ring.pipe.loads.size(); ++j) {
    for (const auto& [operand, kMajor] : ring.uses[j])
      sharedTiles_[operand] = {b_.CreateAdd(stage, b_.getInt32(int32_t(ring.offsets[j]))), ring.layouts[j], kMajor};
    lowered_.insert(ring.pipe.loads[j]);
  }
  lowerRegionBody(body);
  std::vector<const ir::Value*> carried;
  for (size_t i = 1; i < body.args.size(); ++i) carried.push_back(body.args[i].get());
  std::vector<Values> next = yielded(body, carried);
  // Iteration i + ahead's copies.
  std::map<const ir::Value*, Values> ahead;
  for (size_t i = 0; i < aheadArgs.size(); ++i) ahead[aheadArgs[i]] = Values(aheadPhis[i].begin(), aheadPhis[i].end());
  llvm::Value* ivAhead = b_.CreateAdd(iv, b_.CreateMul(step, b_.getInt64(ring.ahead)));
  ahead[ivArg] = {b_.CreateTrunc(ivAhead, ivTy)};
  issueRing(ring, ahead, stageAddr(writeStage), runs(ivAhead), barrierOf(writeStage));
  commit();
  std::map<const ir::Value*, Values> aheadNext = nextCarried(ring.pipe, body, ahead);
  auto wrap = [&](llvm::Value* s) {
    llvm::Value* n = b_.CreateAdd(s, b_.getInt32(1));
    return b_.CreateSelect(b_.CreateICmpEQ(n, b_.getInt32(int32_t(ring.stages))), b_.getInt32(0), n);
  };
  llvm::BasicBlock* latch = b_.GetInsertBlock();
  iv->addIncoming(b_.CreateAdd(iv, step), latch);
  llvm::Value* nextRead = wrap(readStage);
  readStage->addIncoming(nextRead, latch);
  writeStage->addIncoming(wrap(writeStage), latch);
  readPhase->addIncoming(b_.CreateXor(readPhase, b_.CreateZExt(b_.CreateICmpEQ(nextRead, b_.getInt32(0)), b_.getInt32Ty())), latch);
  for (size_t i = 0; i < phis.size(); ++i)
    for (size_t k = 0; k < phis[i].size(); ++k) phis[i][k]->addIncoming(next[i][k], latch);
  for (size_t i = 0; i < aheadPhis.size(); ++i)
    for (size_t k = 0; k < aheadPhis[i].size(); ++k) aheadPhis[i][k]->addIncoming(aheadNext.at(aheadArgs[i])[k], latch);
  loopBackEdge(op, header);
  b_.SetInsertPoint(exit);
  for (size_t i = 0; i < phis.size(); ++i) {
    Values out(phis[i].begin(), phis[i].end());
    // A wgmma left in flight by the last iteration completes before its accumulator is read.
    if (layoutOf(op.result(unsigned(i))).kind == LayoutKind::Wgmma && out.size() > 1 && out[0]->getType()->isFloatTy())
      out = wgmmaWait(out, 0);
    values_[op.result(unsigned(i))] = out;
  }
  // The copies of iterations past the end (zero-fills) land before the scratch array is reused
  // (the TMA issues none past the end); the barriers are invalidated before it is.
  if (cpAsync) asmCall(b_.getVoidTy(), "cp.async.wait_group 0;", "~{memory}", {});
  barrier();
  if (barriers) invalidateBarriers(barriers, ring.stages);
  for (const auto& uses : ring.uses)
    for (const auto& use : uses) sharedTiles_.erase(use.first);
  for (const ir::Op* l : ring.pipe.loads) builtMaps_.erase(l);
  for (const ir::Value* v : ring.invariants) sharedTiles_.erase(v);
}

}  // namespace tilevm::codegen
