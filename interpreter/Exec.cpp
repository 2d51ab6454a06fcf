// Exec.cpp - the instruction dispatch (one switch over the op families of ops.def) and structured
// control flow. Loop iterations release their arena memory, keeping only carried values.
#include "interpreter/Exec.h"

#include "interpreter/Affine.h"
#include "interpreter/Views.h"
#include "interpreter/WriteSet.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace tilevm::interp {

using ir::OpFamily;
using ir::Opcode;
using ir::ScalarKind;

// ---- compilation to slots ----------------------------------------------------------------

namespace {

class Compiler {
 public:
  Compiler(const ir::Module& m, CompiledKernel& out) : m_(m), out_(out) {}

  void block(const ir::Block& b, CBlock& cb) {
    for (const auto& a : b.args) cb.args.push_back(slot(a.get()));
    for (const auto& op : b.ops) {
      Instr ins;
      ins.op = op.get();
      for (const ir::Value* v : op->operands) ins.in.push_back(slots_.at(v));
      for (const auto& r : op->regions) {
        ins.regions.emplace_back();
        block(r->block, ins.regions.back());
      }
      for (const auto& r : op->results) ins.out.push_back(slot(r.get()));
      ins.memId = uint32_t(out_.opLocs.size());
      out_.opLocs.push_back(m_.locStr(op->loc));
      cb.instrs.push_back(std::move(ins));
    }
  }

  uint32_t slot(const ir::Value* v) {
    uint32_t s = out_.numSlots++;
    slots_[v] = s;
    return s;
  }

  std::unordered_map<const ir::Value*, uint32_t> slots_;

 private:
  const ir::Module& m_;
  CompiledKernel& out_;
};

// Which operands an op takes lazy: control flow passes tiles on as they are; memory ops read
// a symbolic pointer (and a uniform symbolic mask) directly; elementwise float ops read views.
uint32_t symbolicOperands(Opcode code) {
  switch (code) {
    case Opcode::For: case Opcode::If: case Opcode::While: case Opcode::Yield: case Opcode::Condition:
      return ~0u;
    case Opcode::Load: return 0b111;                              // pointers, mask, other
    case Opcode::Store: case Opcode::AtomicRmw: return 0b101;     // pointers, (value), mask
    case Opcode::AtomicCas: return 0b001;                         // pointers
    case Opcode::AddF: case Opcode::SubF: case Opcode::MulF: case Opcode::DivF: case Opcode::PreciseDiv:
    case Opcode::MinimumF: case Opcode::MaximumF: case Opcode::MinNumF: case Opcode::MaxNumF:
      return 0b11;                                                 // views (broadcast operands)
    default: return 0;
  }
}

// Which atomic results are never read (fire-and-forget atomics can be deferred), and how ops
// treat symbolic tiles.
void markOps(CBlock& b, const std::vector<size_t>& uses, bool symbolic) {
  for (Instr& ins : b.instrs) {
    if (ins.op->code == Opcode::AtomicRmw) ins.resultUnused = uses[ins.out[0]] == 0;
    ins.symbolicRule = symbolic && hasAffineRule(ins.op->code);
    ins.viewRule = symbolic && hasViewRule(ins.op->code);
    ins.symbolicOperands = symbolicOperands(ins.op->code);
    for (CBlock& r : ins.regions) markOps(r, uses, symbolic);
  }
}

// Fills every Constant op's value once, for all programs and launches to share.
void precomputeConstants(CBlock& b, CompiledKernel& ck) {
  for (Instr& ins : b.instrs) {
    if (ins.op->code == Opcode::Constant) {
      auto t = std::make_unique<Tile>(allocTile(ck.constantData, ins.op->result()->type));
      fillConstant(*t, *ins.op->attr("value"));
      ins.constant = t.get();
      ck.constants.push_back(std::move(t));
    }
    for (CBlock& r : ins.regions) precomputeConstants(r, ck);
  }
}
void countUses(const CBlock& b, std::vector<size_t>& uses) {
  for (const Instr& ins : b.instrs) {
    for (uint32_t s : ins.in) ++uses[s];
    for (const CBlock& r : ins.regions) countUses(r, uses);
  }
}

}  // namespace

CompiledKernel compileKernel(const ir::Module& m, const ir::Kernel& k, bool symbolic) {
  CompiledKernel ck;
  Compiler c(m, ck);
  c.block(k.body.block, ck.body);
  std::vector<size_t> uses(ck.numSlots, 0);
  countUses(ck.body, uses);
  markOps(ck.body, uses, symbolic);
  precomputeConstants(ck.body, ck);
  if (symbolic) markReuse(ck);
  ck.writtenParams = writtenParams(k);
  ck.accessBytes = accessBytes(k);
  return ck;
}

// ---- vector clocks -----------------------------------------------------------------------

uint32_t VectorClock::get(uint32_t pid) const {
  auto it = std::lower_bound(entries.begin(), entries.end(), std::make_pair(pid, 0u));
  return it != entries.end() && it->first == pid ? it->second : 0;
}

void VectorClock::set(uint32_t pid, uint32_t epoch) {
  auto it = std::lower_bound(entries.begin(), entries.end(), std::make_pair(pid, 0u));
  if (it != entries.end() && it->first == pid) it->second = epoch;
  else entries.insert(it, {pid, epoch});
}

void VectorClock::join(const VectorClock& o) {
  for (const auto& [pid, e] : o.entries)
    if (get(pid) < e) set(pid, e);
}

// ---- findings ----------------------------------------------------------------------------

void Program::report(Finding f) {
  f.pid = pid;
  // The identity: what canonicalize() merges per program, less the element (Report.h).
  std::string key;
  key.reserve(f.loc.size() + f.buffer.size() + f.otherLoc.size() + f.access.size() + f.otherAccess.size() + 64);
  key += std::to_string(int(f.kind)) + '/' + std::to_string(int(f.severity)) + '/' + (f.hasOther ? '1' : '0');
  for (const std::string* part : {&f.loc, &f.buffer, &f.otherLoc, &f.access, &f.otherAccess}) key += '\0' + *part;
  for (int64_t d : f.otherPid) key += '/' + std::to_string(d);
  auto [it, fresh] = findingIndex.emplace(std::move(key), findings.size());
  if (fresh) {
    findings.push_back(std::move(f));
    return;
  }
  Finding& o = findings[it->second];
  if (f.element < o.element) {
    o.element = f.element;
    o.detail = std::move(f.detail);
  }
  o.count += f.count;
}

// ---- element access ----------------------------------------------------------------------

double elementAsDouble(const Tile& t, int64_t i) {
  switch (t.type.elem().kind) {
    case ScalarKind::I1: return t.as<uint8_t>()[i];
    case ScalarKind::I8: return t.as<int8_t>()[i];
    case ScalarKind::I16: return t.as<int16_t>()[i];
    case ScalarKind::I32: return t.as<int32_t>()[i];
    case ScalarKind::I64: return double(t.as<int64_t>()[i]);
    case ScalarKind::F16: return halfToFloat(t.as<uint16_t>()[i]);
    case ScalarKind::BF16: return bf16ToFloat(t.as<uint16_t>()[i]);
    case ScalarKind::F32: return t.as<float>()[i];
    case ScalarKind::F64: return t.as<double>()[i];
    case ScalarKind::Ptr: return double(t.as<uint64_t>()[i]);
    case ScalarKind::F8E5:
    case ScalarKind::F8E4NV:
    case ScalarKind::F8E4B15:
    case ScalarKind::F8E5B16:
    case ScalarKind::F8E4B8: return ir::fp8ToDouble(t.as<uint8_t>()[i], t.type.elem().kind);
  }
  return 0;
}

int64_t elementAsInt(const Tile& t, int64_t i) {
  switch (t.type.elem().kind) {
    case ScalarKind::I1: return t.as<uint8_t>()[i];
    case ScalarKind::I8: return t.as<int8_t>()[i];
    case ScalarKind::I16: return t.as<int16_t>()[i];
    case ScalarKind::I32: return t.as<int32_t>()[i];
    case ScalarKind::I64: return t.as<int64_t>()[i];
    case ScalarKind::Ptr: return int64_t(t.as<uint64_t>()[i]);
    case ScalarKind::F16:
    case ScalarKind::BF16:
    case ScalarKind::F32:
    case ScalarKind::F64:
    case ScalarKind::F8E5:
    case ScalarKind::F8E4NV:
    case ScalarKind::F8E4B15:
    case ScalarKind::F8E5B16:
    case ScalarKind::F8E4B8: return int64_t(elementAsDouble(t, i));
  }
  return 0;
}

void storeDouble(Tile& t, int64_t i, double v) {
  switch (t.type.elem().kind) {
    case ScalarKind::F16: t.as<uint16_t>()[i] = floatToHalf(float(v)); return;
    case ScalarKind::BF16: t.as<uint16_t>()[i] = floatToBf16(float(v)); return;
    case ScalarKind::F32: t.as<float>()[i] = float(v); return;
    case ScalarKind::F64: t.as<double>()[i] = v; return;
    case ScalarKind::F8E5:
    case ScalarKind::F8E4NV:
    case ScalarKind::F8E4B15:
    case ScalarKind::F8E5B16:
    case ScalarKind::F8E4B8: t.as<uint8_t>()[i] = ir::fp8FromDouble(v, t.type.elem().kind); return;
    case ScalarKind::I1:
    case ScalarKind::I8:
    case ScalarKind::I16:
    case ScalarKind::I32:
    case ScalarKind::I64:
    case ScalarKind::Ptr: storeInt(t, i, int64_t(v)); return;
  }
}

void storeInt(Tile& t, int64_t i, int64_t v) {
  switch (t.type.elem().kind) {
    case ScalarKind::I1: t.as<uint8_t>()[i] = uint8_t(v & 1); return;
    case ScalarKind::I8: t.as<int8_t>()[i] = int8_t(v); return;
    case ScalarKind::I16: t.as<int16_t>()[i] = int16_t(v); return;
    case ScalarKind::I32: t.as<int32_t>()[i] = int32_t(v); return;
    case ScalarKind::I64: t.as<int64_t>()[i] = v; return;
    case ScalarKind::Ptr: t.as<uint64_t>()[i] = uint64_t(v); return;
    case ScalarKind::F16:
    case ScalarKind::BF16:
    case ScalarKind::F32:
    case ScalarKind::F64:
    case ScalarKind::F8E5:
    case ScalarKind::F8E4NV:
    case ScalarKind::F8E4B15:
    case ScalarKind::F8E5B16:
    case ScalarKind::F8E4B8: storeDouble(t, i, double(v)); return;
  }
}

void propagatePoison(Program& p, const std::vector<const Tile*>& in, Tile& out) {
  out.poison = nullptr;
  for (const Tile* t : in) {
    if (!t->poison) continue;
    int64_t n = out.size();
    if (!out.poison) {
      out.poison = static_cast<uint8_t*>(p.arena.allocate(size_t(n)));
      std::memset(out.poison, 0, size_t(n));
    }
    if (t->size() == n) {
      for (int64_t i = 0; i < n; ++i) out.poison[i] |= t->poison[i];
    } else {
      // A scalar operand poisons every lane.
      if (t->poison[0]) std::memset(out.poison, 1, size_t(n));
    }
  }
}

// ---- control flow ------------------------------------------------------------------------

namespace {

// Two buffers per loop-carried value, allocated before the loop: a value is copied into the
// buffer its previous value is not in, so each iteration's arena memory can be released. A
// value already in one of its own buffers (computed in place over the block argument, see
// Reuse.cpp, or yielded unchanged) stays where it is.
struct CarrySlots {
  std::vector<Tile> a, b;
  std::vector<uint8_t> inB;  // per value: its current value is in b (else a, or none yet)
  CarrySlots(Program& p, const std::vector<const ir::Type*>& types) : inB(types.size(), 1) {
    for (const ir::Type* t : types) {
      for (auto* v : {&a, &b}) {
        Tile x = allocTile(p.arena, *t);
        x.poison = static_cast<uint8_t*>(p.arena.allocate(size_t(t->numElements())));
        v->push_back(x);
      }
    }
  }
  // Moves `src` values into carry buffers and returns them (poison only where src had some).
  std::vector<Tile> store(const std::vector<Tile>& src) {
    std::vector<Tile> out;
    for (size_t k = 0; k < src.size(); ++k) {
      if (src[k].symbolic) {  // the form lives in the tile itself: nothing to copy out of the arena
        out.push_back(src[k]);
        continue;
      }
      // (A view is always copied, into the buffer its source is not in.)
      const bool stays = !src[k].view && (src[k].data == a[k].data || src[k].data == b[k].data);
      inB[k] = stays ? src[k].data == b[k].data : !inB[k];
      Tile t = inB[k] ? b[k] : a[k];
      if (src[k].view) {  // its elements may live in the arena being released: copy them out
        copyViewElements(src[k], t.data);
      } else if (!stays) {
        std::memcpy(t.data, src[k].data, size_t(src[k].size()) * storageBytes(src[k].type.elem().kind));
      }
      t.provenance = src[k].provenance;
      if (!src[k].poison) t.poison = nullptr;
      else if (src[k].poison != t.poison) std::memmove(t.poison, src[k].poison, size_t(src[k].size()));
      out.push_back(t);
    }
    return out;
  }
};

std::vector<Tile> gather(Program& p, const std::vector<uint32_t>& slots, size_t from = 0) {
  std::vector<Tile> v;
  for (size_t i = from; i < slots.size(); ++i) v.push_back(p.slots[slots[i]]);
  return v;
}

bool burnFuel(Program& p, const Instr& ins) {
  // The deadline and cancel: each iteration counts as an op (execBlock checks its ops).
  if (p.stopNow()) return false;
  if (p.fuel == 0) {
    Finding f;
    f.kind = Finding::Kind::NoTermination;
    f.loc = p.loc(ins);
    f.detail = "loop still running after " + std::to_string(p.launch.options.fuel) +
               " iterations (the program was stopped)";
    p.report(std::move(f));
    p.aborted = true;
    return false;
  }
  --p.fuel;
  return true;
}

bool execFor(Program& p, const Instr& ins) {
  int64_t lb = elementAsInt(p.slots[ins.in[0]], 0), ub = elementAsInt(p.slots[ins.in[1]], 0),
          step = elementAsInt(p.slots[ins.in[2]], 0);
  const CBlock& body = ins.regions[0];
  std::vector<const ir::Type*> types;
  for (size_t i = 3; i < ins.in.size(); ++i) types.push_back(&p.slots[ins.in[i]].type);
  CarrySlots carry(p, types);
  std::vector<Tile> carried = carry.store(gather(p, ins.in, 3));
  const ir::Type& ivType = ins.op->regions[0]->block.args[0]->type;
  Arena::Mark mark = p.arena.mark();
  for (int64_t iv = lb; step > 0 ? iv < ub : step < 0 ? iv > ub : false; iv += step) {
    if (!burnFuel(p, ins)) return false;
    Tile ivTile = allocTile(p.arena, ivType);
    storeInt(ivTile, 0, iv);
    p.slots[body.args[0]] = ivTile;
    for (size_t k = 0; k < carried.size(); ++k) p.slots[body.args[k + 1]] = carried[k];
    if (!execBlock(p, body)) return false;
    carried = carry.store(gather(p, body.instrs.back().in));
    p.arena.release(mark);
  }
  for (size_t k = 0; k < carried.size(); ++k) p.slots[ins.out[k]] = carried[k];
  return true;
}

bool execWhile(Program& p, const Instr& ins) {
  const CBlock& before = ins.regions[0];
  const CBlock& after = ins.regions[1];
  std::vector<const ir::Type*> types;
  for (uint32_t s : ins.in) types.push_back(&p.slots[s].type);
  CarrySlots carry(p, types);
  std::vector<const ir::Type*> passTypes;
  for (const auto& a : ins.op->regions[1]->block.args) passTypes.push_back(&a->type);
  CarrySlots pass(p, passTypes);
  std::vector<Tile> carried = carry.store(gather(p, ins.in));
  Arena::Mark mark = p.arena.mark();
  for (;;) {
    if (!burnFuel(p, ins)) return false;
    for (size_t k = 0; k < carried.size(); ++k) p.slots[before.args[k]] = carried[k];
    if (!execBlock(p, before)) return false;
    const Instr& cond = before.instrs.back();
    bool go = p.slots[cond.in[0]].scalar<uint8_t>() != 0;
    std::vector<Tile> values = pass.store(gather(p, cond.in, 1));
    p.arena.release(mark);
    if (!go) {
      for (size_t k = 0; k < values.size(); ++k) p.slots[ins.out[k]] = values[k];
      return true;
    }
    for (size_t k = 0; k < values.size(); ++k) p.slots[after.args[k]] = values[k];
    if (!execBlock(p, after)) return false;
    carried = carry.store(gather(p, after.instrs.back().in));
    p.arena.release(mark);
  }
}

void traceOp(Program& p, const Instr& ins) {
  char buf[256];
  for (uint32_t s : ins.out) {
    const Tile t = p.slots[s].lazy() ? materialize(p.arena, p.slots[s]) : p.slots[s];
    int64_t n = t.size();
    double lo = 0, hi = 0;
    for (int64_t i = 0; i < n; ++i) {
      double v = elementAsDouble(t, i);
      if (i == 0 || v < lo) lo = v;
      if (i == 0 || v > hi) hi = v;
    }
    std::string first;
    for (int64_t i = 0; i < std::min<int64_t>(n, 4); ++i) {
      std::snprintf(buf, sizeof buf, "%s%g", i ? ", " : "", elementAsDouble(t, i));
      first += buf;
    }
    std::snprintf(buf, sizeof buf, "%-40s %-12s %-22s min %-12g max %-12g [%s%s]\n", p.loc(ins).c_str(),
                  std::string(ins.op->mnemonic()).c_str(), t.type.str().c_str(), lo, hi, first.c_str(), n > 4 ? ", ..." : "");
    p.trace += buf;
  }
}

void execGrid(Program& p, const Instr& ins, Tile& out) {
  size_t axis = size_t(*ins.op->intAttr("axis"));
  out = allocTile(p.arena, ins.op->result()->type);
  switch (ins.op->code) {
    case Opcode::ProgramId: out.as<int32_t>()[0] = int32_t(p.pid[axis]); return;
    case Opcode::NumPrograms: out.as<int32_t>()[0] = int32_t(p.launch.grid[axis]); return;
#define TILEVM_CASES_NOT_OF Grid
#include "ir/FamilyCases.inc"
      ir::opNotInFamily("interp::execGrid", ins.op->code);
  }
}

void execMemory(Program& p, const Instr& ins, const std::vector<const Tile*>& in, Tile* out) {
  switch (ins.op->code) {
    case Opcode::Load: execLoad(p, ins, in, *out); return;
    case Opcode::Store: execStore(p, ins, in); return;
#define TILEVM_CASES_NOT_OF Memory
#include "ir/FamilyCases.inc"
      ir::opNotInFamily("interp::execMemory", ins.op->code);
  }
}

void execReduceFamily(Program& p, const Instr& ins, const std::vector<const Tile*>& in, std::vector<Tile*>& outs) {
  switch (ins.op->code) {
    case Opcode::Reduce: execReduce(p, ins, in, outs); return;
    case Opcode::Scan: execScan(p, ins, in, outs); return;
    case Opcode::Map: execMap(p, ins, in, outs); return;
    case Opcode::Histogram: execHistogram(p, ins, in, outs); return;
#define TILEVM_CASES_NOT_OF Reduce
#include "ir/FamilyCases.inc"
      ir::opNotInFamily("interp::execReduceFamily", ins.op->code);
  }
}

// for, if, while; false when the program stopped inside.
bool execControl(Program& p, const Instr& ins, const std::vector<const Tile*>& in) {
  switch (ins.op->code) {
    case Opcode::For: return execFor(p, ins);
    case Opcode::While: return execWhile(p, ins);
    case Opcode::If: {
      bool c = in[0]->scalar<uint8_t>() != 0;
      const CBlock& r = ins.regions[c ? 0 : 1];
      if (!execBlock(p, r)) return false;
      const Instr& y = r.instrs.back();
      for (size_t k = 0; k < ins.out.size(); ++k) p.slots[ins.out[k]] = p.slots[y.in[k]];
      return true;
    }
#define TILEVM_CASES_NOT_OF Control
#include "ir/FamilyCases.inc"
      ir::opNotInFamily("interp::execControl", ins.op->code);
  }
  return false;
}

}  // namespace

bool execBlock(Program& p, const CBlock& b) {
  // This level's operand lists (nested blocks use the next level's).
  if (!p.scratch) {
    static thread_local std::deque<OperandScratch> perThread;
    p.scratch = &perThread;
  }
  std::deque<OperandScratch>& levels = *p.scratch;
  if (p.depth >= levels.size()) levels.emplace_back();
  OperandScratch& s = levels[p.depth];
  struct Nest {
    size_t& depth;
    explicit Nest(size_t& d) : depth(++d) {}
    ~Nest() { --depth; }
  } nest(p.depth);
  std::vector<const Tile*>& in = s.in;
  std::vector<Tile*>& outs = s.outs;
  std::vector<Tile>& dense = s.dense;  // materialized operands of the current op
  OpProfile* profile = p.launch.options.profile;
  for (const Instr& ins : b.instrs) {
    if (p.stopNow()) return false;  // straight-line code too: an unrolled body has no iterations
    if (profile) profile->ops.at(ins.op).executions.fetch_add(1, std::memory_order_relaxed);
    in.clear();
    bool anySymbolic = false;
    for (uint32_t s : ins.in) {
      in.push_back(&p.slots[s]);
      anySymbolic = anySymbolic || p.slots[s].lazy();
    }
    Tile* out = ins.out.empty() ? nullptr : &p.slots[ins.out[0]];
    if ((ins.symbolicRule && tryAffine(p, ins, in, *out)) || (ins.viewRule && tryView(ins, in, *out))) {
      if (p.launch.options.trace) traceOp(p, ins);
      continue;
    }
    if (anySymbolic) {
      dense.clear();
      dense.reserve(in.size());  // no reallocation: `in` points into it
      for (size_t k = 0; k < in.size(); ++k)
        if (in[k]->lazy() && !ins.takesSymbolic(k)) {
          dense.push_back(materialize(p.arena, *in[k]));
          in[k] = &dense.back();
        }
    }
    // One handler per family of ops.def; each switches over its ops (FamilyCases.inc).
    switch (ir::opFamily(ins.op->code)) {
      case OpFamily::Grid:
        execGrid(p, ins, *out);
        break;
      case OpFamily::Shape:
        if (ins.op->code == Opcode::Constant && ins.constant) {
          *out = *ins.constant;
          break;
        }
        outs.clear();
        for (uint32_t s : ins.out) outs.push_back(&p.slots[s]);
        execShape(p, ins, in, outs);
        break;
      case OpFamily::Select:
        execSelect(p, in, *out, ins.op->result()->type);
        break;
      case OpFamily::Pointer:
      case OpFamily::IntBinary:
      case OpFamily::IntUnary:
      case OpFamily::Compare:
      case OpFamily::FloatBinary:
      case OpFamily::FloatUnary:
      case OpFamily::FloatTernary:
        execArith(p, ins, in, *out);
        break;
      case OpFamily::Cast:
        execCast(p, ins, *in[0], *out);
        break;
      case OpFamily::Memory:
        execMemory(p, ins, in, out);
        break;
      case OpFamily::Atomic:
        execAtomic(p, ins, in, *out);
        break;
      case OpFamily::Reduce:
        outs.clear();
        for (uint32_t s : ins.out) outs.push_back(&p.slots[s]);
        execReduceFamily(p, ins, in, outs);
        break;
      case OpFamily::Dot:
        execDot(p, ins, in, *out);
        break;
      case OpFamily::Control:
        if (!execControl(p, ins, in)) return false;
        break;
      case OpFamily::Terminator:
        break;  // the owner of the region reads the operands
      case OpFamily::Debug:
        execDebug(p, ins, in);
        break;
      case OpFamily::Target:  // interp::prepare refuses kernels with target assembly
        ir::opNotInFamily("interp::execBlock (target assembly is refused by prepare)", ins.op->code);
    }
    if (p.launch.options.trace && !ins.out.empty()) traceOp(p, ins);
  }
  return true;
}

}  // namespace tilevm::interp
