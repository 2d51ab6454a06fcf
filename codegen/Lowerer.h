// Lowerer.h - the state of one kernel's lowering from the tile IR to LLVM IR, shared by the
// files that each lower one family of ops: LowerToLLVM.cpp (entry, dispatch, values and
// layouts), LowerElementwise.cpp (arithmetic, casts, math), LowerMemory.cpp (loads, stores,
// atomics), LowerShape.cpp (shape ops and layout changes), LowerReduce.cpp (reduce, scan),
// LowerDot.cpp (dot), LowerWgmma.cpp (dot on wgmma), LowerControl.cpp (for, if, while, assert),
// Pipeline.cpp (loads issued one iteration ahead), AsyncPipeline.cpp (cp.async rings for wgmma),
// TensorMaps.cpp (the rings' TMA copies). A program is one CTA of 32 * numWarps threads; a
// tile value lives in the blocked layout (Layout.h) as one LLVM value per register slot, or as
// one value when every element is known equal (constants, splats, and elementwise ops of them).
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "codegen/Codegen.h"
#include "codegen/Contiguity.h"
#include "codegen/Layout.h"

namespace tilevm::codegen {

/// The constant op v is, or splats; else null.
const ir::Op* constantOf(const ir::Value* v);
/// Whether v is +0 (or integer 0), or a splat of it: a constant the lowering may leave unwritten.
bool isZeroConstant(const ir::Value* v);

/// What the code generator knows of a tile's values within one run of its layout.
enum class RunShape { Unknown, Uniform, Contiguous, Monotone };

class Lowerer {
 public:
  Lowerer(const ir::Module& m, const ir::Kernel& k, const Options& o, llvm::LLVMContext& ctx);
  /// The kernel as an LLVM module (unverified); throws DiagnosticError at an op not lowered.
  std::unique_ptr<llvm::Module> run();
  /// The tensor maps the kernel reads, its hidden parameters in order (after run).
  const std::vector<TensorMap>& tensorMaps() const { return tensorMaps_; }
  /// The tensor maps each program builds in global memory (LaunchInfo::deviceTensorMaps).
  unsigned deviceTensorMaps() const { return deviceMaps_; }
  /// Every value's layout in words, without lowering (describeLayouts).
  std::map<const ir::Value*, std::string> layoutNames();

  /// Shared memory a kernel holds statically; past it the scratch array is dynamic shared
  /// memory (its size told to the launch: LaunchInfo::dynamicSharedBytes), up to maxDynamicSharedBytes.
  static constexpr uint64_t kMaxStaticSharedBytes = 48 * 1024;
  /// The LLVM module flag that carries the dynamic shared bytes to emitPtx (into LaunchInfo).
  static constexpr const char* kDynamicSharedFlag = "tilevm.dynamic_shared_bytes";
  /// Ops recomputed per element before shared memory is the cheaper way to move a value.
  static constexpr int kRecomputeBudget = 48;

 public:
  /// One LLVM value per register slot of a tile (or one for a value held once).
  using Values = std::vector<llvm::Value*>;

 private:

  // ---- LowerToLLVM.cpp: values, layouts, dispatch ----
  [[noreturn]] void fail(const ir::Op& op, const std::string& msg);
  llvm::Type* scalarType(const ir::ElemType& e);
  Layout layoutOf(const ir::Value* v) const;
  /// The flat element index a thread's slot k holds (i32).
  llvm::Value* elementIndex(const Layout& l, unsigned k);
  /// Slot k of v (a value held once serves every slot).
  llvm::Value* slot(const ir::Value* v, unsigned k);
  /// Every slot of v, a value held once repeated.
  Values allSlots(const ir::Value* v);
  /// Whether slot k holds an element of the tile in this thread.
  llvm::Value* inTile(const Layout& l, unsigned k);
  void lowerBlock(const ir::Block& block);
  void lowerOp(const ir::Op& op);
  void barrier();
  /// What the axis analysis says of v's runs in its layout: contiguous (contiguity >= run
  /// length), uniform (constancy >= run length), monotone, or unknown.
  RunShape runShape(const ir::Value* v) const;
  /// A power of two known to divide the first element of each of v's runs (bytes for pointers).
  int64_t runDivisor(const ir::Value* v) const;
  /// Whether every element of v is known to be the same (scalars, constants, splats, and
  /// elementwise and shape ops of them): such a value is held once. A tile of one slot per
  /// thread is held once too, but its elements differ.
  bool isUniform(const ir::Value* v) const { return v->type.isScalar() || uniform_.count(v) != 0; }

  // ---- LowerLayouts.cpp ----
  /// Decides which values live in an accumulator layout (before lowering).
  void assignLayouts();
  /// The accumulator layout a dot gives its result in: Wgmma (sm_90a, f16/bf16, whole
  /// warpgroups), Mma (mma.sync: f16/bf16, tf32), or Blocked (FMA on CUDA cores).
  LayoutKind dotKind(const ir::Op& op) const;
  /// The layout op needs operand i in (nullopt: any, the op reads it through shared memory).
  std::optional<Layout> expectedLayout(const ir::Op& op, size_t i) const;
  /// v's slots in layout `want` (recomputed, or through shared memory).
  Values inLayout(const ir::Op& user, const ir::Value* v, const Layout& want);
  /// Lowers op with each operand in the layout it expects.
  void lowerWithLayouts(const ir::Op& op);

  // ---- LowerElementwise.cpp ----
  /// An op with the Elementwise trait, slot by slot (once when every operand is held once).
  void elementwise(const ir::Op& op);
  /// map_elementwise and inline_asm: `group(s)` once per group of `pack` slots from slot s
  /// (each group's results, result-major), guarded where the tile is padded.
  void lowerGroups(const ir::Op& op, const char* what, const char* label,
                   const std::function<std::vector<llvm::Value*>(unsigned)>& group);
  /// map_elementwise: its scalar region once per group of `pack` slots.
  void mapElementwise(const ir::Op& op);
  /// inline_asm: the PTX once per group of `pack` slots (LowerInlineAsm.cpp).
  void inlineAsm(const ir::Op& op);
  /// One element of an elementwise op from its operands' elements.
  llvm::Value* elementOp(const ir::Op& op, std::span<llvm::Value* const> args);
  llvm::Value* mathOp(const ir::Op& op, std::span<llvm::Value* const> args);
  llvm::Value* expF32(llvm::Value* x);
  llvm::Value* libdevice(const char* name, llvm::Type* ty, std::span<llvm::Value* const> args);
  llvm::Value* intDivRem(ir::Opcode code, llvm::Value* a, llvm::Value* b);
  llvm::Value* shift(ir::Opcode code, llvm::Value* a, llvm::Value* b);
  llvm::Value* floatToInt(const ir::Op& op, llvm::Value* x);
  /// A float narrowed toward zero (truncf {rounding = rtz}, Triton's fp_downcast_rounding='rtz'):
  /// one cvt.rz, for f32 to f16/bf16 and f64 to f32/f16; f64 to bf16 in two.
  llvm::Value* truncTowardZero(const ir::Op& op, llvm::Value* x, llvm::Type* to);

  // ---- LowerFp8.cpp ----
  /// extf from an fp8 kind (an i8 in registers) and truncf into one: PTX cvt (sm_89+).
  llvm::Value* fp8Ext(const ir::Op& op, llvm::Value* byte, ir::ScalarKind from, llvm::Type* to);
  llvm::Value* fp8Trunc(const ir::Op& op, llvm::Value* x, ir::ScalarKind to);
  /// An fp8 byte as f16 (exact).
  llvm::Value* fp8ToHalf(const ir::Op& op, llvm::Value* byte, ir::ScalarKind from);
  void requireFp8Cvt(const ir::Op& op, ir::ScalarKind k);

  // ---- LowerMemory.cpp ----
  void load(const ir::Op& op);
  void store(const ir::Op& op);
  void atomic(const ir::Op& op);
  llvm::Value* predicate(const ir::Op& op, const Layout& l, unsigned k, size_t maskIndex);
  bool vectorizable(const Layout& l, llvm::Type* ty) const;
  llvm::Value* runIsVector(const ir::Op& op, const Layout& l, unsigned k, unsigned bytes, size_t maskIndex);
  llvm::Value* lanePointer(const ir::Op& op, unsigned k, unsigned i, llvm::Type* elem);
  /// n lanes from ptr (predicated by pred when given: registers hold `fill`'s bits per word where it is false).
  Values vectorLoad(llvm::Value* ptr, llvm::Type* ty, unsigned n, llvm::Value* pred = nullptr, uint64_t fill = 0);
  std::optional<uint64_t> fillWord(const ir::Op& op, unsigned k, llvm::Type* ty, unsigned n);
  void vectorStore(llvm::Value* ptr, const Values& lanes, llvm::Type* ty, llvm::Value* pred = nullptr);
  llvm::Value* scalarLoad(const ir::Op& op, const Layout& l, unsigned k, llvm::Type* ty, llvm::Value* ptr = nullptr);
  void scalarStore(const ir::Op& op, const Layout& l, unsigned k, llvm::Value* ptr = nullptr);
  /// accessHints_ for op (a load or store) while it is lowered: Triton's cache_modifier as the
  /// PTX cache operator, else its eviction_policy as `.L1::evict_*` (PTX takes one or the other).
  struct CacheHints {
    CacheHints(Lowerer& l, const ir::Op& op);
    ~CacheHints() { l.accessHints_.clear(); }
    Lowerer& l;
  };
  static bool isProvenTrue(llvm::Value* v);
  /// Whether a store of an accumulator may go a pair of neighbouring slots at a time: its
  /// pointers proven contiguous and aligned in pairs, its mask one value per pair.
  bool accumulatorPairs(const ir::Op& op, llvm::Type* ty) const;
  /// Whether a store of a 16- or 32-bit accumulator goes through shared memory, 16 bytes a
  /// store: its pointers proven contiguous and 16-byte aligned in runs of 16 bytes along its
  /// rows or (a transposed result) its columns, its mask one value per run, both recomputable
  /// at any element.
  bool accumulatorThroughShared(const ir::Op& op) const;
  /// Whether that store's runs go down the columns (the destination contiguous along dim 0).
  bool epilogueByColumns(const ir::Op& op) const;
  /// Scratch bytes that store stages tile t in, by rows or by columns (each padded by 8 elements).
  static uint64_t epilogueBytes(const ir::Type& t);
  void storeThroughShared(const ir::Op& op);
  /// body(c, inRange) for chunks c = tid, tid + T, ... below `chunks` (T threads): one call per
  /// round, inRange (i1) false for this thread's c past the end in the last round (true otherwise).
  void forEachChunk(int64_t chunks, const std::function<void(llvm::Value*, llvm::Value*)>& body);
  /// Two 16-bit lanes as one 32-bit word (a pair rounded from f32 by one cvt.rn.f16x2.f32).
  llvm::Value* packPair(llvm::Value* lo, llvm::Value* hi, llvm::Type* ty);
  /// The two 16-bit lanes (`ty`: half or bfloat) of a 32-bit word, low first: packPair's inverse.
  std::pair<llvm::Value*, llvm::Value*> unpackPair(llvm::Value* word, llvm::Type* ty);
  Values provenVectorLoad(const ir::Op& op, const Layout& l, unsigned k, llvm::Type* ty);
  void provenVectorStore(const ir::Op& op, const Layout& l, unsigned k, llvm::Type* ty);

  // ---- LowerShape.cpp ----
  void shapeOp(const ir::Op& op);
  /// The element of v at flat index `e` computed again from its definition (aranges,
  /// constants, splats, shape ops and elementwise ops of them; a broadcastLoad's load read
  /// again); recomputableAt(v) must hold.
  llvm::Value* recompute(const ir::Value* v, llvm::Value* e);
  /// Whether recompute can give v's elements within kRecomputeBudget ops.
  bool isIndexFunction(const ir::Value* v) const;
  bool isIndexFunction(const ir::Value* v, int& budget) const;
  /// The load a row or column vector broadcast over a 2-D tile is read from (`m[None, :]` of
  /// `m = tl.load(M + offs)`), when `user` may read it again instead (recompute): its pointers
  /// and mask index functions, `other` absent or a constant, and nothing written to memory
  /// between the load and the user in program order (nor, in a loop around the user that does
  /// not hold the load, anywhere in that loop). Else null.
  const ir::Op* broadcastLoad(const ir::Value* v, const ir::Op& user) const;
  /// Whether `user` can have v in any layout by recomputing it: an index function, or a
  /// broadcastLoad.
  bool recomputableAt(const ir::Value* v, const ir::Op& user) const { return isIndexFunction(v) || broadcastLoad(v, user); }
  /// Program order (a pre-order walk), each value's users, and where memory is written, for
  /// broadcastLoad.
  void orderOps();
  /// Whether op is a broadcastLoad's broadcast that every user recomputes in its own layout:
  /// then it is never lowered (it would go through shared memory for nothing).
  bool onlyRecomputed(const ir::Op& op) const;
  /// The source flat index of a shape op's result element e (expand_dims, reshape, broadcast,
  /// permute).
  llvm::Value* sourceIndex(const ir::Op& op, llvm::Value* e);
  /// v's elements written to shared memory at their flat index (after a barrier), read back
  /// by the caller with readShared after another.
  /// widenFp8: an fp8 tile is written as f16 (exact), 2 bytes per element (dotSharedType).
  llvm::Value* writeShared(const ir::Op& op, const ir::Value* v, uint64_t byteOffset,
                           const std::function<llvm::Value*(llvm::Value*)>& place = nullptr, bool widenFp8 = false);
  /// The type dot operand i takes in shared memory: an fp8 operand of a tensor-core (mma) dot
  /// as f16, which the f16 mma then multiplies (every fp8 value is an f16); otherwise its own.
  ir::Type dotSharedType(const ir::Op& dot, unsigned i) const;
  llvm::Value* readShared(llvm::Value* base, llvm::Type* ty, llvm::Value* e);
  /// Every operand of op written to shared memory one after another, between two barriers:
  /// their bases, for readShared (reduce, scan, gathers).
  std::vector<llvm::Value*> shareOperands(const ir::Op& op);
  /// Element e of every operand from the bases shareOperands gave.
  Values readOperands(const ir::Op& op, const std::vector<llvm::Value*>& bases, llvm::Value* e);
  /// The shared scratch array every layout change goes through, as i8 addrspace(3).
  llvm::Value* scratch(const ir::Op& op, uint64_t bytes);
  uint64_t storageBytes(const ir::Type& t) const;
  /// Bytes of shared memory op moves through (its operands' copies).
  uint64_t sharedNeed(const ir::Op& op) const;

  // ---- LowerReduce.cpp ----
  /// Whether a reduce combines in registers and shuffles alone (into the Rows layout, or a 1-D
  /// tile of 32-bit values to a scalar), needing no scratch memory.
  bool reducesInRegisters(const ir::Op& op) const;
  void reduce(const ir::Op& op);
  void scan(const ir::Op& op);
  void histogram(const ir::Op& op);

  // ---- LowerDot.cpp ----
  void dot(const ir::Op& op);
  void dotByFma(const ir::Op& op);
  void dotByMma(const ir::Op& op);
  /// An f32's bits (i32) rounded to tf32 exactly as the interpreter rounds dot inputs.
  llvm::Value* tf32Bits(llvm::Value* bits);
  Values combine(const ir::Region& region, const Values& a, const Values& b);
  llvm::Value* reduceByShuffles(const ir::Op& op, llvm::Type* ty, llvm::Value* acc);
  /// A reduce along the rows of an accumulator into the Rows layout: each thread combines its
  /// elements of each of its rows, then the row's quad by two shuffles.
  Values reduceRows(const ir::Op& op);
  /// A counted loop: body(i, carried) gives the next carried values; returns the last.
  Values countedLoop(llvm::Value* begin, llvm::Value* end, const Values& init,
                     const std::function<Values(llvm::Value*, const Values&)>& body);

  // ---- Pipeline.cpp ----
  /// Which loads of a `for` body are issued one iteration ahead (Options::numStages >= 2).
  struct PipelinePlan {
    std::vector<const ir::Op*> loads;       ///< the prefetched loads, in body order
    std::vector<const ir::Op*> loadSlice;   ///< body ops their operands need, in body order
    std::vector<const ir::Op*> yieldSlice;  ///< body ops the next values of `carried` need
    std::set<const ir::Value*> carried;     ///< loop-carried block arguments the loads read
  };
  /// Bytes per thread the prefetched tiles of one loop may hold (32 registers), beside the
  /// current ones.
  static constexpr unsigned kPipelineBytes = 128;
  /// With `only`, just those loads are considered, with no register budget (a ring's loads).
  PipelinePlan planPipeline(const ir::Op& forOp, const std::set<const ir::Op*>* only = nullptr) const;
  /// Lowers `ops` with `bindings` in place of those values, calls collect, then forgets what
  /// was lowered and restores the bindings (a slice evaluated for another iteration).
  void lowerWith(const std::map<const ir::Value*, Values>& bindings, const std::vector<const ir::Op*>& ops,
                 const std::function<void()>& collect);
  /// The plan's loads with `bindings` (the induction variable and carried values of the
  /// iteration to fetch), issued only where `live`; zeros elsewhere.
  std::vector<Values> prefetch(const PipelinePlan& plan, const std::map<const ir::Value*, Values>& bindings, llvm::Value* live);
  /// The next values of the plan's carried arguments, from the current ones (or from `bindings`:
  /// the induction variable and carried values of another iteration).
  std::map<const ir::Value*, Values> nextCarried(const PipelinePlan& plan, const ir::Block& body,
                                                 const std::map<const ir::Value*, Values>& bindings = {});

  // ---- LowerWgmma.cpp ----
  /// A tile in shared memory for wgmma: its 1024-aligned shared address (i32) and layout.
  /// kMajor: a B operand (K x N) stored as its transpose, N rows of K contiguous elements,
  /// which wgmma reads K-major (imm-trans-b 0), as it reads A.
  struct SharedTile {
    llvm::Value* addr;
    SharedLayout layout;
    bool kMajor = false;
  };
  SharedLayout sharedLayoutOf(const ir::Type& t) const;
  /// Scratch bytes a wgmma dot stages its register operands in (both, 1024-aligned, and the
  /// alignment slack).
  uint64_t wgmmaStagingBytes(const ir::Op& dot) const;
  /// Whether a wgmma dot's A is fed from registers: a 16-bit A already in the accumulator
  /// layout of the dot's rows (attention's P), never staged.
  bool wgmmaAFromRegisters(const ir::Op& dot) const;
  /// The shared address (i32), aligned to 1024, of `bytes` at `offset` in the scratch array.
  llvm::Value* sharedAddress(const ir::Op& op, uint64_t offset, uint64_t bytes);
  /// The swizzled byte offset (i32) of element (row, col) of a tile in layout s.
  llvm::Value* swizzledOffset(const SharedLayout& s, llvm::Value* row, llvm::Value* col);
  /// v's elements stored at `addr` in layout s (16-byte stores where its runs allow), or its
  /// transpose (`transpose`: element (r, c) at row c, column r of s); f32 rounded to tf32.
  void writeSwizzled(const ir::Value* v, llvm::Value* addr, const SharedLayout& s, bool transpose = false);
  /// The f32 words of `bytes` (a multiple of 16) at shared address `addr` rounded to tf32 in
  /// place by the whole CTA (a ring stage cp.async filled with a tf32 operand).
  void roundSharedToTf32(llvm::Value* addr, uint64_t bytes);
  llvm::Value* wgmmaDescriptor(llvm::Value* addr, const SharedLayout& s, bool kMajor);
  /// acc after `wgmma.wait_group pending` (tied through the asm: read only after the wait).
  Values wgmmaWait(const Values& acc, unsigned pending);
  void fenceProxyAsync();
  void dotByWgmma(const ir::Op& op);
  /// Inline PTX with side effects.
  llvm::Value* asmCall(llvm::Type* ret, const std::string& text, const std::string& constraints,
                       const std::vector<llvm::Value*>& args);

  // ---- AsyncPipeline.cpp ----
  /// How a ring's load reaches its dot (AsyncPipeline.cpp).
  enum class RingFeed {
    Direct,      ///< the loaded tile is the operand, stored as it is loaded
    Transposed,  ///< B (K x N) loaded contiguous along K (`k[d, n]` at `n * D + d`): stored K-major
    Permuted,    ///< B is tl.trans of a loaded N x K tile: stored as loaded, which is K-major
    Scattered,   ///< f32 B (K x N) loaded N-contiguous: stored K-major by 4-byte copies (tf32)
  };
  /// The scalars a descriptor made in the kernel (make_tensor_descriptor) reads, dim 0 first:
  /// each program builds its tensor map from them in global memory.
  struct DeviceMapValues {
    const ir::Value* base = nullptr;           ///< the array's address (16-byte aligned)
    std::vector<const ir::Value*> shape;       ///< i64 sizes
    std::vector<const ir::Value*> stride;      ///< i64 strides in elements (the last is 1)
  };
  /// A load of a tensor descriptor's block (the access frontend/BlockPointers.cpp writes for
  /// `desc.load`), which the TMA copies: the tensor map (a host descriptor's parameters, or the
  /// values of one made in the kernel) and this block's offsets, dim 0 first (TensorMaps.cpp).
  struct TensorMapLoad {
    TensorMap map;                            ///< its box and swizzle set by the ring's layout
    std::vector<const ir::Value*> offsets;    ///< i32 scalars
    std::optional<DeviceMapValues> device;    ///< made in the kernel (map's parameters unused)
  };
  /// The load as a TMA copy of a descriptor's 2-D block, or nullopt: its pointers, mask and
  /// `other` exactly the descriptor access, TMA's alignment known (a 16-byte base and leading
  /// stride, a last stride of 1: a host descriptor's from the launch's facts, one made in the
  /// kernel's from the contract make_tensor_descriptor hints), f16/bf16/f32 or 1-byte tiles of 8
  /// to 256 rows (zero-filled: NaN for floats of 2 and 4 bytes only).
  std::optional<TensorMapLoad> tensorMapLoad(const ir::Op& load) const;
  /// Each program builds the tensor map of `t` (made in the kernel) at global `map` (128 bytes),
  /// through 128 bytes of shared memory at `staging`, and makes it visible to the TMA: warp 0
  /// zero-fills the staging bytes, thread 0 writes each field (tensormap.replace), warp 0 copies
  /// them out with a release fence (tensormap.cp_fenceproxy) and acquires them for the TMA.
  /// Returns whether the array is non-empty (every size at least 1): an empty one's map
  /// describes one element, and its copies start past it (all filled). A leading stride TMA
  /// cannot take (below 1 element, or 2^40 bytes or more) of a non-empty array traps.
  llvm::Value* buildDeviceMap(const TensorMapLoad& t, llvm::Value* map, llvm::Value* staging);
  /// The global address of tensor map `slot` of this program (LaunchInfo::deviceTensorMaps).
  llvm::Value* deviceMapAddress(unsigned slot);
  /// The index in tensorMaps_ of `m` (added when new): one hidden parameter per distinct map.
  unsigned tensorMapIndex(const TensorMap& m);
  /// The generic address of hidden tensor-map parameter i (grid constant: read in place).
  llvm::Value* tensorMapAddress(unsigned i);
  /// mbarrier.init of `count` 8-byte barriers at `addr` by thread 0, made visible to the async
  /// proxy and every thread (between CTA barriers).
  void initBarriers(llvm::Value* addr, unsigned count);
  /// Every thread waits until the barrier at `addr` completes the phase of parity `phase`.
  void waitBarrier(llvm::Value* addr, llvm::Value* phase);
  /// Thread 0 (where `issue`) expects `bytes` on the barrier at `addr` and arrives once.
  void expectBytes(llvm::Value* addr, unsigned bytes, llvm::Value* issue);
  /// Thread 0 (where `issue`) copies a 2-D box of the tensor map at generic address `map` at
  /// (x = inner, y = outer) to shared `dst`, completing on the barrier at `bar`.
  void tensorCopy(llvm::Value* map, llvm::Value* dst, llvm::Value* x, llvm::Value* y, llvm::Value* bar, llvm::Value* issue);
  /// Thread 0 invalidates `count` barriers at `addr` (between CTA barriers).
  void invalidateBarriers(llvm::Value* addr, unsigned count);
  /// A loop whose wgmma operands are loaded by cp.async into a ring of shared buffers.
  struct RingPlan {
    PipelinePlan pipe;                  ///< the ring's loads, their slices and carried values
    std::vector<RingFeed> feeds;        ///< per load, how it reaches its dot
    /// Per load, the values dots read of it (a permute's for Permuted) and whether each is read
    /// as a K-major B (stored transposed, or a tl.trans of the tile stored as loaded).
    std::vector<std::vector<std::pair<const ir::Value*, bool>>> uses;
    std::vector<SharedLayout> layouts;  ///< per load, its tile in shared memory
    std::vector<uint64_t> offsets;      ///< per load, its byte offset within a stage
    std::vector<const ir::Value*> pointerInits;  ///< per Transposed load, advancedPointerInit of its pointers (or null)
    /// Per load, its TMA copy and its map's hidden parameter (a host descriptor's) or slot (one
    /// made in the kernel, built before the loop: deviceMapAddress), where the TMA brings it
    /// (Direct and Permuted feeds: TensorMaps.cpp); the others go by cp.async.
    std::vector<std::optional<std::pair<TensorMapLoad, unsigned>>> tma;
    unsigned tmaBytes = 0;              ///< bytes the TMA brings into one stage
    uint64_t barrierOffset = 0;         ///< the stages' mbarriers (8 bytes each), where tmaBytes > 0
    bool anyCpAsync() const {
      for (const auto& t : tma)
        if (!t) return true;
      return false;
    }
    uint64_t stageBytes = 0;
    /// Dot operands defined before the loop (attention's q): written to shared memory once,
    /// before it, past the ring, at these offsets of the scratch array; or pinned (pinInvariants):
    /// at the pin's offset, written by the first loop that reads it.
    std::vector<const ir::Value*> invariants;
    std::vector<SharedLayout> invariantLayouts;
    std::vector<bool> invariantKMajor;  ///< a tf32 B, stored as its transpose
    std::vector<uint64_t> invariantOffsets;
    std::vector<bool> invariantPinned;  ///< at a pin's offset, outside the loop's own bytes
    std::vector<bool> invariantWrites;  ///< false where an earlier loop wrote the pinned tile
    uint64_t invariantBytes = 0;        ///< of the invariants that are not pinned
    uint64_t pinnedEnd = 0;             ///< the end of the pins the loop reads (with the alignment's 1024)
    unsigned stages = 0;  ///< buffers
    unsigned ahead = 0;   ///< iterations loaded ahead of the one computing
    uint64_t offset = 0;  ///< the ring's offset in the scratch array (past the body's other uses)
    uint64_t bytes() const { return stageBytes * stages; }
    /// Places what lies past the ring: the invariants that are not pinned, then the mbarriers.
    void placeTail();
    /// The scratch array the loop needs: below the ring, the ring, the invariants, the mbarriers
    /// (a 1024-byte block of their own), and 1024 bytes to align the ring's base; the pins it reads.
    uint64_t footprint() const { return std::max(offset + bytes() + invariantBytes + (tmaBytes ? 1024 : 0) + 1024, pinnedEnd); }
  };
  /// What a ring load's mask is over each 16-byte copy (`chunk` elements along the copy's dim;
  /// the reversed-order analysis when `reversed`): one value (the copy reads all or nothing), true
  /// on a prefix (it reads that many bytes and zero-fills the rest), or neither (no copy fits).
  enum class CopyMask { Unfit, Whole, Prefix };
  CopyMask copyMask(const ir::Op& load, int64_t chunk, bool reversed) const;
  /// The bytes a 16-byte copy of a ring load reads: 16, none where its mask is off, or its
  /// prefix's (copyMask); maskAt(i) is the mask at the copy's element i.
  llvm::Value* copyBytes(const ir::Op& load, unsigned elemBytes, bool reversed, const std::function<llvm::Value*(unsigned)>& maskAt);
  /// Whether a load can go global -> shared by 16-byte cp.async: f16/bf16/f32 2-D, runs of 16 bytes
  /// proven contiguous and aligned, its mask whole or a prefix over each copy, `other` absent or +0.
  bool ringLoad(const ir::Op& load) const;
  /// The same for a B operand read contiguous along its dim 0 (the reversed-order axis
  /// analysis), its pointers (or their initial value: advancedPointerInit) and mask recomputable
  /// at any element (RingFeed::Transposed).
  bool ringLoadTransposed(const ir::Op& load, const ir::Op& forOp) const;
  /// The initial value of forOp's carried pointer tile `v` when every iteration moves all its
  /// elements alike (`p += BK * stride`) and that value is an index function: then any element's
  /// pointer is the initial one recomputed there, moved as the carried tile moved. Else null.
  const ir::Value* advancedPointerInit(const ir::Op& forOp, const ir::Value* v) const;
  /// Whether an f32 B operand (K x N) can go by 4-byte cp.async, element by element, to its
  /// K-major place (RingFeed::Scattered): a full blocked layout, `other` absent or +0.
  bool ringLoadScattered(const ir::Op& load) const;
  /// Plans every eligible loop's ring (sm_90a, num_stages >= 2) before lowering.
  void planRings();
  /// A dot operand defined at the kernel's top level and read by two or more of its ring loops
  /// (the causal forward's q; the backward's k and v) is pinned: written to shared memory once,
  /// by the first loop, above every other use of the scratch array from there to the last, and
  /// read in place by the others, so its registers die at the first loop.
  void pinInvariants();
  /// The ring's copies for the iteration of `bindings` into the stage at `stage` (where `live`;
  /// TMA copies complete on the stage's mbarrier at `barrier`).
  void issueRing(const RingPlan& ring, const std::map<const ir::Value*, Values>& bindings, llvm::Value* stage, llvm::Value* live,
                 llvm::Value* barrier);
  /// A RingFeed::Transposed load's copies into its K-major tile at `base` (where `live`).
  void issueTransposed(const ir::Op& ld, const SharedLayout& s, llvm::Value* base, llvm::Value* live, const ir::Value* pointerInit);
  /// A RingFeed::Scattered load's 4-byte copies, each element to its place in the K-major tile.
  void issueScattered(const ir::Op& ld, const SharedLayout& s, llvm::Value* base, llvm::Value* live);
  /// A 16- or 4-byte cp.async of `bytes` (0: zero-filled) from global `src` to shared `dst`,
  /// issued only where `issue` (null: always).
  void cpAsync(llvm::Value* dst, llvm::Value* src, unsigned size, llvm::Value* bytes, llvm::Value* issue = nullptr);
  void lowerRingFor(const ir::Op& op, const RingPlan& ring);

  // ---- LowerControl.cpp ----
  /// A `for` op's bounds in 64 bits (as the interpreter's counter) and its carried values'
  /// initial slots: what both loop lowerings (lowerFor, lowerRingFor) start from.
  struct ForHeader {
    llvm::Value *lb, *ub, *step;
    std::vector<Values> init;
  };
  ForHeader forHeader(const ir::Op& op);
  /// Whether iteration `i` of a loop with header `h` runs (a zero step runs none).
  llvm::Value* iterationRuns(const ForHeader& h, llvm::Value* i);
  void lowerFor(const ir::Op& op);
  void lowerIf(const ir::Op& op);
  void lowerWhile(const ir::Op& op);
  /// The branch back to a loop's header, with the loop's hints (disable_licm, unroll_factor) as
  /// LLVM loop metadata.
  void loopBackEdge(const ir::Op& loop, llvm::BasicBlock* header);
  void lowerAssert(const ir::Op& op);
  void lowerPrint(const ir::Op& op);
  /// Every slot of v in the layout of `like` (a value of the same type), converted for `user`.
  Values allSlotsOf(const ir::Op& user, const ir::Value* v, const ir::Value* like);
  /// The values a region's terminator passes on (from operand `first`), each with every slot
  /// of the layout of the matching target (the block argument or result it becomes).
  std::vector<Values> yielded(const ir::Block& block, const std::vector<const ir::Value*>& targets, size_t first = 0);
  /// A loop or branch body (conversions made inside stay inside).
  void lowerRegionBody(const ir::Block& block);
  /// Phis in the current block, one per slot of each value, entered from `from` with `init`.
  std::vector<std::vector<llvm::PHINode*>> phisFor(const std::vector<Values>& init, llvm::BasicBlock* from);

  const ir::Module& m_;
  const ir::Kernel& k_;
  const Options& o_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  unsigned threads_;
  unsigned maxVec_ = 4;  ///< the kernel's run length (kernelRunLength)
  llvm::Function* fn_ = nullptr;
  llvm::Module* mod_ = nullptr;
  llvm::Value* tid_ = nullptr;
  llvm::GlobalVariable* scratch_ = nullptr;
  uint64_t scratchBytes_ = 0;
  std::map<const ir::Value*, Values> values_;
  std::map<const ir::Value*, AxisInfo> axes_;          ///< the axis analysis, row-major (the blocked layout's order)
  std::map<const ir::Value*, AxisInfo> axesReversed_;  ///< the same with dims reversed (column-major 2-D tiles)
  std::set<const ir::Value*> uniform_;
  std::map<const ir::Op*, size_t> order_;                          ///< program order (orderOps)
  std::map<const ir::Value*, std::vector<const ir::Op*>> users_;   ///< each value's users (orderOps)
  std::vector<size_t> writes_;                                     ///< positions of ops writing memory, ascending
  std::map<const ir::Op*, std::pair<size_t, size_t>> loopSpans_;   ///< per loop, the positions of its body's ops
  /// The cache operator or L1 eviction priority of the load or store being lowered, as PTX
  /// qualifiers (".cg", ".L1::evict_last"; CacheHints); vectorLoad/vectorStore emit them.
  std::string accessHints_;
  std::map<const ir::Value*, Layout> accumulators_;  ///< values in an accumulator layout (assignLayouts)
  std::map<const ir::Value*, Layout> override_;  ///< operands converted for the op being lowered
  std::map<std::pair<const ir::Value*, LayoutKind>, Values> converted_;  ///< conversions at top level, by target kind
  std::map<const ir::Value*, SharedTile> sharedTiles_;  ///< loads in a ring stage (wgmma operands)
  std::map<const ir::Op*, RingPlan> rings_;             ///< loops with a cp.async ring (planRings)
  std::vector<TensorMap> tensorMaps_;                   ///< the hidden parameters, in order (LaunchInfo::tensorMaps)
  unsigned deviceMaps_ = 0;                             ///< tensor maps built per program (LaunchInfo::deviceTensorMaps)
  /// Per ring load of a map made in the kernel, while its loop is lowered: the map's global
  /// address and whether its array is non-empty (buildDeviceMap).
  std::map<const ir::Op*, std::pair<llvm::Value*, llvm::Value*>> builtMaps_;
  std::set<const ir::Op*> asyncDots_;                   ///< dots leaving one wgmma group in flight
  std::set<const ir::Op*> lowered_;  ///< ops whose values were lowered ahead (prefetched loads): skipped in order
  int depth_ = 0;                                ///< nesting of loop and branch bodies being lowered
};

}  // namespace tilevm::codegen
