// Exec.h - the interpreter's internals: the kernel compiled to slot-numbered instructions, the
// state shared by a launch, the state of one program, and the op families (one file each).
#pragma once

#include <array>
#include <atomic>
#include <deque>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "interpreter/Elements.h"
#include "interpreter/Interpreter.h"
#include "interpreter/Memory.h"
#include "interpreter/Tile.h"

namespace tilevm::interp {

struct CBlock;

/// One op with its operand and result slots resolved.
struct Instr {
  const ir::Op* op = nullptr;
  std::vector<uint32_t> in, out;
  std::vector<CBlock> regions;
  uint32_t memId = 0;        ///< index of this memory op in CompiledKernel::memLocs
  bool resultUnused = false; ///< atomics whose old value nobody reads
  bool symbolicRule = false; ///< try the op's symbolic rule first (Affine.h)
  bool viewRule = false;     ///< try making the result a view (Views.h)
  /// Operands taken as they are when lazy (symbolic or a view), bit k for operand k (all ones:
  /// every operand, for control flow); the others are materialized before the op runs.
  uint32_t symbolicOperands = 0;
  bool takesSymbolic(size_t k) const { return k < 32 ? (symbolicOperands >> k) & 1 : symbolicOperands == ~0u; }
  /// Elementwise float ops and dot: the operand whose memory the result may take over (its
  /// last use, a fresh tile nothing else aliases; Reuse.cpp), or -1.
  int8_t reuseOperand = -1;
  /// Constant ops: the value, filled once at compile time (CompiledKernel::constants owns it).
  /// Tiles are never written after the op that made them, so every program can share it.
  const Tile* constant = nullptr;
};

/// A block: its argument slots and instructions.
struct CBlock {
  std::vector<uint32_t> args;
  std::vector<Instr> instrs;
};

/// A kernel ready to run: every value has a slot in a program's frame.
struct CompiledKernel {
  CBlock body;
  uint32_t numSlots = 0;
  std::vector<std::string> opLocs;  ///< by memId: "file:line:col" of memory and debug ops
  std::optional<std::vector<bool>> writtenParams;  ///< WriteSet.h
  std::vector<unsigned> accessBytes;               ///< WriteSet.h
  std::vector<std::unique_ptr<Tile>> constants;    ///< the values of Constant ops
  Arena constantData{4096};                        ///< their elements
};

/// Sets Instr::reuseOperand over the kernel (Reuse.cpp).
void markReuse(CompiledKernel& ck);

/// Slots, op locations and per-op flags; `symbolic` enables symbolic index tiles (Affine.h).
CompiledKernel compileKernel(const ir::Module& m, const ir::Kernel& k, bool symbolic);

/// A vector clock over programs (sparse; only programs that synchronize carry one).
struct VectorClock {
  std::vector<std::pair<uint32_t, uint32_t>> entries;  ///< (linear pid, epoch), sorted by pid
  uint32_t get(uint32_t pid) const;
  void set(uint32_t pid, uint32_t epoch);
  void join(const VectorClock& o);
};

/// An atomic whose effect is applied after all programs (deterministic float atomics).
struct DeferredAtomic {
  uint64_t addr;
  ir::ScalarKind kind;
  double value;
};

/// State shared by every program of a launch.
struct LaunchState {
  const ir::Module& module;
  const CompiledKernel& code;
  AddressSpace& memory;
  const LaunchOptions& options;
  std::array<int64_t, 3> grid;
  std::mutex atomicMutex;                          ///< serializes atomics when checking races
  std::map<uint64_t, VectorClock> syncClocks;      ///< per atomic address (under atomicMutex)
  std::mutex epochMutex;                           ///< guards lateEpochs
  std::map<std::pair<const void*, int64_t>, uint32_t> lateEpochs;  ///< race shadow epochs > 1
  /// Spin locks, each held by one plain write to one race-shadow chunk while it compares, writes
  /// and records (Races.cpp); a chunk's lock is chosen by hashing its allocation and index.
  std::array<std::atomic<uint8_t>, 1024> writeLocks{};
  std::optional<std::chrono::steady_clock::time_point> deadline;   ///< --timeout
  const std::atomic<bool>* cancel = nullptr;                       ///< LaunchOptions::cancel
  std::atomic<bool> stopped{false};      ///< the launch is ending: no program starts, running ones stop
  std::atomic<bool> timedOut{false};     ///< ... because the deadline passed
  std::atomic<bool> interrupted{false};  ///< ... because `cancel` was set

  /// True once the deadline has passed or the launch was cancelled (then for good: later
  /// programs do not start, running ones stop at their next check). Costs a clock read.
  bool shouldStop() {
    if (stopped.load(std::memory_order_relaxed)) return true;
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      interrupted.store(true);
      stopped.store(true);
      return true;
    }
    if (deadline && std::chrono::steady_clock::now() >= *deadline) {
      timedOut.store(true);
      stopped.store(true);
      return true;
    }
    return false;
  }
};

/// A running program asks LaunchState::shouldStop() once per this many ops (straight-line code
/// included) and once per loop iteration: the launch ends within that many ops of the deadline
/// or a cancel, and the clock read costs well under 1% of the cheapest ops.
inline constexpr uint32_t kStopCheckOps = 32;

/// Operand lists of one nesting level of execBlock, kept between programs (no allocation per
/// op or per block once warm).
struct OperandScratch {
  std::vector<const Tile*> in;
  std::vector<Tile*> outs;
  std::vector<Tile> dense;  ///< materialized symbolic operands
};

/// State of one program while it runs.
struct Program {
  LaunchState& launch;
  Arena& arena;
  std::deque<OperandScratch>* scratch = nullptr;  ///< by nesting depth (a deque: stable references)
  size_t depth = 0;
  std::array<int64_t, 3> pid{};
  uint32_t linear = 0;
  std::vector<Tile> slots;
  VectorClock clock;        ///< empty until the program first synchronizes
  uint32_t epoch = 1;
  uint64_t fuel = 0;
  uint32_t opsToCheck = kStopCheckOps;  ///< ops left until the next LaunchState::shouldStop()
  bool aborted = false;
  std::vector<Finding> findings;        ///< distinct ones, merged as reported (report())
  std::unordered_map<std::string, size_t> findingIndex;  ///< identity -> index in findings
  std::string printed;
  std::string trace;
  std::vector<DeferredAtomic> deferred;
  std::vector<__int128> wild;  ///< true addresses of wild pointer lanes (Memory.h)

  Program(LaunchState& l, Arena& a) : launch(l), arena(a) {}
  const std::string& loc(const Instr& in) const { return launch.code.opLocs[in.memId]; }
  /// Adds a finding of this program, merged with an earlier one of the same identity (kind,
  /// severity, op locations, buffer, accesses, other program): the smallest element's detail
  /// is kept and the counts add up, so a fault in a loop costs memory once, not per iteration.
  void report(Finding f);
  /// True when the program must stop now (deadline or cancel; checked every kStopCheckOps
  /// calls); sets `aborted`.
  bool stopNow() {
    if (--opsToCheck != 0) return false;
    opsToCheck = kStopCheckOps;
    if (!launch.shouldStop()) return false;
    aborted = true;
    return true;
  }
};

/// Runs a block; returns false if the program must stop (fuel exhausted).
bool execBlock(Program& p, const CBlock& b);

// Op families (each in its own file). `in` are operand tiles, `out` the result tile(s).
void execArith(Program& p, const Instr& ins, const std::vector<const Tile*>& in, Tile& out);
void execCast(Program& p, const Instr& ins, const Tile& in, Tile& out);
void execShape(Program& p, const Instr& ins, const std::vector<const Tile*>& in, std::vector<Tile*>& out);
void execSelect(Program& p, const std::vector<const Tile*>& in, Tile& out, const ir::Type& type);
void execLoad(Program& p, const Instr& ins, const std::vector<const Tile*>& in, Tile& out);
void execStore(Program& p, const Instr& ins, const std::vector<const Tile*>& in);
void execAtomic(Program& p, const Instr& ins, const std::vector<const Tile*>& in, Tile& out);
void execReduce(Program& p, const Instr& ins, const std::vector<const Tile*>& in, std::vector<Tile*>& out);
void execScan(Program& p, const Instr& ins, const std::vector<const Tile*>& in, std::vector<Tile*>& out);
void execMap(Program& p, const Instr& ins, const std::vector<const Tile*>& in, std::vector<Tile*>& out);
void execHistogram(Program& p, const Instr& ins, const std::vector<const Tile*>& in, std::vector<Tile*>& out);
void execDot(Program& p, const Instr& ins, const std::vector<const Tile*>& in, Tile& out);
void execPrint(Program& p, const Instr& ins, const std::vector<const Tile*>& in);
void execAssert(Program& p, const Instr& ins, const Tile& cond);
void execDebug(Program& p, const Instr& ins, const std::vector<const Tile*>& in);  ///< print, assert, barrier

/// dst[idx] = src[sum_d idx[d] * srcStride[d]] over `shape`, row-major (strides in elements
/// of eb bytes; a stride of 0 repeats an element).
void gatherStrided(const uint8_t* src, uint8_t* dst, unsigned eb, std::span<const int64_t> shape,
                   std::span<const int64_t> srcStride);

/// Fills `t` (allocated, of the constant's type) with a Constant op's value.
void fillConstant(Tile& t, const ir::AttrValue& value);

/// ORs the poison masks of `in` into `out` (allocating it only when some input has one).
void propagatePoison(Program& p, const std::vector<const Tile*>& in, Tile& out);

}  // namespace tilevm::interp
