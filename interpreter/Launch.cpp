// Launch.cpp - runs a grid of programs: argument binding, the schedule (oneTBB in parallel,
// or serial / reverse / random order), per-worker arenas, deferred atomics in program order,
// and the merged report.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "interpreter/Exec.h"
#include "interpreter/Races.h"

namespace tilevm::interp {

namespace {

// Kernel parameters as tiles of the first program's frame.
std::vector<Tile> bindArgs(const ir::Kernel& k, std::vector<Buffer>& buffers, const std::vector<Arg>& args, Arena& arena,
                           AddressSpace& memory) {
  if (args.size() != k.params().size())
    throw std::invalid_argument("kernel @" + k.name + " takes " + std::to_string(k.params().size()) + " arguments, got " +
                                std::to_string(args.size()));
  std::vector<Tile> tiles;
  for (size_t i = 0; i < args.size(); ++i) {
    const ir::Type& t = k.params()[i]->type;
    Tile x = allocTile(arena, t);
    if (t.isPtr()) {
      if (!args[i].isBuffer) throw std::invalid_argument("argument '" + k.paramNames[i] + "' must be a buffer");
      const Buffer& b = buffers.at(args[i].buffer);
      if (b.elem != t.elem().pointee)
        throw std::invalid_argument("argument '" + k.paramNames[i] + "' is a buffer of " +
                                    std::string(ir::scalarName(b.elem)) + " but the kernel expects " + t.str());
      x.as<uint64_t>()[0] = reinterpret_cast<uint64_t>(b.data()) + args[i].byteOffset;
      for (const MemRegion& r : memory.regions())
        if (r.buffer == &b) x.provenance = &r;
    } else {
      if (args[i].isBuffer) throw std::invalid_argument("argument '" + k.paramNames[i] + "' must be a scalar " + t.str());
      if (t.isFloat()) storeDouble(x, 0, args[i].f);
      else storeInt(x, 0, args[i].i);
    }
    tiles.push_back(x);
  }
  return tiles;
}

struct Worker {
  Arena arena;
  std::vector<Tile> slots;              // reused by each program the worker runs
  std::deque<OperandScratch> scratch;   // execBlock's operand lists
};

// One task arena per thread count, kept for the process: a fresh arena per launch costs its
// workers' start-up every time, which dominates short launches.
tbb::task_arena& threadArena(unsigned threads) {
  static std::mutex mutex;
  static std::map<unsigned, std::unique_ptr<tbb::task_arena>> arenas;
  std::lock_guard<std::mutex> lock(mutex);
  auto& a = arenas[threads];
  if (!a) a = std::make_unique<tbb::task_arena>(threads == 0 ? tbb::task_arena::automatic : int(threads));
  return *a;
}

}  // namespace

PreparedKernel prepare(const ir::Module& module, const ir::Kernel& kernel, bool symbolic) {
  ir::walk(kernel.body.block, [&](const ir::Op& op) {
    if (ir::opFamily(op.code) != ir::OpFamily::Target) return;
    const std::string file = op.loc.file < module.files.size() ? module.files[op.loc.file] : "";
    throw UnsupportedKernel(Diagnostic{file, op.loc.line, op.loc.col,
                                       "inline_asm_elementwise runs only on the GPU engine (--device cuda): the interpreter "
                                       "cannot run PTX"});
  });
  return {&module, &kernel, symbolic, std::make_shared<const CompiledKernel>(compileKernel(module, kernel, symbolic))};
}

Report run(const ir::Module& module, const ir::Kernel& kernel, std::vector<Buffer>& buffers, const std::vector<Arg>& args,
           const LaunchOptions& options) {
  return run(prepare(module, kernel, options.symbolic), buffers, args, options);
}

namespace {

/// Programs run in batches of consecutive program ids, so the per-program bookkeeping is
/// bounded by the batch, not by the grid. Batches run in ascending order and are merged as they
/// end (deferred atomics applied, prints appended, findings merged), so a launch's memory
/// grows with what its programs produce, not with the grid. Schedules permute programs within
/// a batch.
constexpr uint64_t kBatchPrograms = uint64_t(1) << 16;
/// device_print output kept for the report; past it the rest is dropped with a note.
constexpr size_t kMaxPrintedBytes = size_t(64) << 20;

/// A seeded permutation of [0, n) computed per position (a Feistel network on the next power of
/// two, walking cycles back into range), so a random schedule needs no array of the programs.
class RandomOrder {
 public:
  RandomOrder(uint64_t n, uint64_t seed) : n_(n) {
    while ((uint64_t(1) << bits_) < n) ++bits_;
    bits_ += bits_ & 1;  // even, to split into two halves
    std::mt19937_64 rng(seed);
    for (auto& k : keys_) k = rng();
  }
  uint64_t operator()(uint64_t i) const {
    do i = permute(i);
    while (i >= n_);
    return i;
  }

 private:
  uint64_t permute(uint64_t x) const {
    unsigned half = bits_ / 2;
    uint64_t mask = half == 0 ? 0 : (uint64_t(1) << half) - 1;
    uint64_t l = x >> half, r = x & mask;
    for (uint64_t k : keys_) {
      uint64_t f = (r * 0x9E3779B97F4A7C15ull ^ k) >> 17;
      uint64_t nl = r;
      r = (l ^ f) & mask;
      l = nl;
    }
    return (l << half) | r;
  }
  uint64_t n_;
  unsigned bits_ = 0;
  std::array<uint64_t, 4> keys_{};
};

/// What one program produced.
struct ProgramOutput {
  uint32_t linear = 0;
  std::vector<Finding> findings;
  std::string printed, trace;
  std::vector<DeferredAtomic> deferred;
};

}  // namespace

std::string gridProblem(const std::array<int64_t, 3>& grid) {
  for (int64_t g : grid)
    if (g <= 0 || g > kMaxGridAxis) return kGridLimits;
  if ((unsigned __int128)uint64_t(grid[0]) * uint64_t(grid[1]) * uint64_t(grid[2]) > kMaxGridPrograms) return kGridLimits;
  return "";
}

Report run(const PreparedKernel& prepared, std::vector<Buffer>& buffers, const std::vector<Arg>& args,
           const LaunchOptions& options) {
  auto start = std::chrono::steady_clock::now();
  if (std::string problem = gridProblem(options.grid); !problem.empty())
    throw std::invalid_argument("grid " + std::to_string(options.grid[0]) + "," + std::to_string(options.grid[1]) + "," +
                                std::to_string(options.grid[2]) + ": " + problem);
  const ir::Module& module = *prepared.module;
  const ir::Kernel& kernel = *prepared.kernel;
  const CompiledKernel& code = *prepared.code;
  LaunchOptions opts = options;
  opts.symbolic = prepared.symbolic;
  uint64_t total = uint64_t(opts.grid[0]) * uint64_t(opts.grid[1]) * uint64_t(opts.grid[2]);  // checked above
  if (total > kMaxRacePrograms) opts.checks.races = false;  // shadow words cannot name more programs
  // Buffers no store or atomic can reach (WriteSet.h): read in place, no race shadow (per
  // allocation: a buffer overlapping a written one is written). The smallest access reaching
  // each buffer sets its allocation's shadow granule; buffers no parameter names (pointer
  // tables' targets) may be reached by any access.
  std::vector<bool> readOnly;
  if (code.writtenParams) {
    readOnly.assign(buffers.size(), true);
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].isBuffer && args[i].buffer < buffers.size() && (i >= code.writtenParams->size() || (*code.writtenParams)[i]))
        readOnly[args[i].buffer] = false;
  }
  std::vector<unsigned> accessBytes(buffers.size(), 0);
  unsigned smallest = 0;  // the smallest access of the kernel
  {
    for (unsigned b : code.accessBytes)
      if (b) smallest = smallest ? std::min(smallest, b) : b;
    std::vector<bool> named(buffers.size(), false);
    for (size_t i = 0; i < args.size(); ++i) {
      if (!args[i].isBuffer || args[i].buffer >= buffers.size()) continue;
      named[args[i].buffer] = true;
      const unsigned b = i < code.accessBytes.size() ? code.accessBytes[i] : smallest;
      unsigned& cur = accessBytes[args[i].buffer];
      if (b) cur = cur ? std::min(cur, b) : b;
    }
    for (size_t k = 0; k < buffers.size(); ++k)
      if (!named[k]) accessBytes[k] = smallest;
  }
  AddressSpace memory(buffers, opts.checks, readOnly, accessBytes);
  // Memory reached only through addresses: any access may reach it, and it is written only
  // where a store may go through a pointer of unknown origin.
  if (opts.resolver) memory.setResolver(opts.resolver, !code.writtenParams.has_value(), smallest);
  if (opts.access) {
    bool found = false;
    for (Buffer& b : buffers)
      if (b.name == opts.access->buffer) {
        found = true;
        opts.access->base = reinterpret_cast<uint64_t>(b.data());
        opts.access->elemBytes = storageBytes(b.elem);
        if (opts.access->numel != b.numel()) opts.access->resize(b.numel());
      }
    if (!found) throw std::invalid_argument("--access " + opts.access->buffer + ": no array argument of that name");
    opts.access->opLocs = code.opLocs;
  }
  LaunchState launch{module, code, memory, opts, opts.grid, {}, {}, {}, {}, {}, {}};
  if (opts.timeoutSeconds > 0)
    launch.deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                  std::chrono::duration<double>(opts.timeoutSeconds));
  launch.cancel = opts.cancel;
  Arena argArena(4096);
  std::vector<Tile> params = bindArgs(kernel, buffers, args, argArena, memory);

  // What runs, batch by batch: the programs selected (one, --pid; a sample,
  // LaunchOptions::programs) as linear ids, or (none selected) the whole grid.
  std::vector<uint64_t> onePid;
  const std::vector<uint64_t>* selected = opts.programs.empty() ? nullptr : &opts.programs;
  for (size_t i = 0; selected && i < selected->size(); ++i)
    if ((*selected)[i] >= total || (i && (*selected)[i] <= (*selected)[i - 1]))
      throw std::invalid_argument("the programs to run must be ascending linear ids inside the grid of " +
                                  std::to_string(total) + " programs");
  if (opts.onlyPid) {
    if (selected) throw std::invalid_argument("a program sample and --pid exclude each other");
    const auto& q = *opts.onlyPid;
    for (int d = 0; d < 3; ++d)
      if (q[size_t(d)] < 0 || q[size_t(d)] >= opts.grid[size_t(d)]) throw std::invalid_argument("--pid is outside the grid");
    onePid = {uint64_t(q[0]) + uint64_t(opts.grid[0]) * (uint64_t(q[1]) + uint64_t(opts.grid[1]) * uint64_t(q[2]))};
    selected = &onePid;
  }
  const uint64_t programs = selected ? selected->size() : total;

  std::vector<ProgramOutput> batch(size_t(std::min(programs, kBatchPrograms)));
  std::atomic<size_t> peakArena{0};
  std::atomic<uint64_t> started{0};  // programs that ran (the others were never scheduled)
  Report report;
  size_t droppedFindings = 0;
  bool printTruncated = false;

  // Runs one program unless the launch is stopping (deadline or cancel); false if it did not run.
  auto runOne = [&](uint64_t linear, ProgramOutput& out) -> bool {
    if (launch.shouldStop()) return false;
    // Workers (arena and frame) outlive launches: warm launches reuse their memory.
    static thread_local Worker w;
    Program p(launch, w.arena);
    p.scratch = &w.scratch;
    p.linear = uint32_t(linear);
    p.pid = {int64_t(linear % uint64_t(opts.grid[0])), int64_t((linear / uint64_t(opts.grid[0])) % uint64_t(opts.grid[1])),
             int64_t(linear / (uint64_t(opts.grid[0]) * uint64_t(opts.grid[1])))};
    p.fuel = opts.fuel;
    p.slots.swap(w.slots);
    p.slots.resize(code.numSlots);
    for (size_t i = 0; i < params.size(); ++i) p.slots[code.body.args[i]] = params[i];
    execBlock(p, code.body);
    size_t reserved = w.arena.reserved(), seen = peakArena.load();
    while (reserved > seen && !peakArena.compare_exchange_weak(seen, reserved)) {
    }
    w.arena.reset();
    p.slots.swap(w.slots);
    out.linear = uint32_t(linear);
    out.findings = std::move(p.findings);
    out.printed = std::move(p.printed);
    out.trace = std::move(p.trace);
    out.deferred = std::move(p.deferred);
    return true;
  };

  bool parallel = opts.schedule == Schedule::Parallel && !opts.onlyPid && opts.threads != 1;
  for (uint64_t first = 0; first < programs; first += kBatchPrograms) {
    size_t count = size_t(std::min(kBatchPrograms, programs - first));
    std::optional<RandomOrder> random;
    if (opts.schedule == Schedule::Random) random.emplace(count, opts.scheduleSeed ^ (first * 0x9E3779B97F4A7C15ull));
    auto slotAt = [&](size_t i) -> size_t {  // the batch slot the i-th scheduled program fills
      if (opts.schedule == Schedule::Reverse) return count - 1 - i;
      if (random) return size_t((*random)(i));
      return i;
    };
    auto runItem = [&](size_t i) {
      size_t slot = slotAt(i);
      const uint64_t at = first + slot;
      return runOne(selected ? (*selected)[size_t(at)] : at, batch[slot]);
    };
    // A stopping launch schedules nothing more: the first program that sees it cancels the
    // batch's remaining chunks, and no later batch starts.
    if (parallel) {
      threadArena(opts.threads).execute([&] {
        // Chunks of programs: about 16 per thread, enough to balance, few enough to cost nothing.
        // (A static split, equal counts per thread, measured no better on the H200 machine.)
        unsigned threads = opts.threads ? opts.threads : unsigned(tbb::this_task_arena::max_concurrency());
        size_t grain = std::max<size_t>(1, count / (size_t(threads) * 16));
        tbb::task_group_context group;
        tbb::parallel_for(
            tbb::blocked_range<size_t>(0, count, grain),
            [&](const tbb::blocked_range<size_t>& r) {
              uint64_t ran = 0;
              for (size_t i = r.begin(); i != r.end(); ++i) {
                if (!runItem(i)) {
                  group.cancel_group_execution();
                  break;
                }
                ++ran;
              }
              started.fetch_add(ran, std::memory_order_relaxed);
            },
            group);
      });
    } else {
      uint64_t ran = 0;
      for (size_t i = 0; i < count && runItem(i); ++i) ++ran;
      started.fetch_add(ran, std::memory_order_relaxed);
    }
    // Merge the batch in program order: deferred float atomics (so their effect does not
    // depend on the schedule), prints, findings.
    for (size_t i = 0; i < count; ++i) {
      ProgramOutput& o = batch[i];
      for (const DeferredAtomic& d : o.deferred) {
        Tile cell = tileAt(ir::Type(ir::ElemType{d.kind, ir::ScalarKind::I32}), reinterpret_cast<uint8_t*>(d.addr));
        storeDouble(cell, 0, elementAsDouble(cell, 0) + d.value);
      }
      if (report.printed.size() + o.printed.size() <= kMaxPrintedBytes) report.printed += o.printed;
      else printTruncated = true;
      if (report.trace.size() + o.trace.size() <= kMaxPrintedBytes) report.trace += o.trace;
      for (Finding& f : o.findings) report.findings.push_back(std::move(f));
      o = ProgramOutput{};
    }
    if (report.findings.size() > 2 * kMaxFindings) droppedFindings += canonicalize(report.findings, kMaxFindings);
    if (launch.stopped.load()) break;
  }
  const uint64_t skipped = programs - started.load();
  report.programs = size_t(started.load());
  if (printTruncated) report.printed += "[tilevm: device_print output past " + std::to_string(kMaxPrintedBytes >> 20) +
                                        " MiB was dropped]\n";
  droppedFindings += canonicalize(report.findings, kMaxFindings);
  if (launch.stopped.load()) {  // after the cap: never dropped
    Finding f;
    const std::string what = std::to_string(skipped) + " of " + std::to_string(programs) +
                             " programs did not run and running ones were stopped";
    if (launch.interrupted.load()) {
      f.kind = Finding::Kind::Interrupted;
      f.detail = "the launch was cancelled: " + what;
    } else {
      f.kind = Finding::Kind::Timeout;
      std::ostringstream seconds;
      seconds << opts.timeoutSeconds;
      f.detail = "the launch ran past --timeout " + seconds.str() + " s: " + what;
    }
    report.findings.push_back(std::move(f));
  }
  memory.collectUndefined();
  memory.finishMapped();
  report.droppedFindings = droppedFindings;
  report.arenaBytes = peakArena.load();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace tilevm::interp
