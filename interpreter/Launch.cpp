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
#include <random>
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
      x.as<uint64_t>()[0] = reinterpret_cast<uint64_t>(b.bytes.data());
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
  return {&module, &kernel, symbolic, std::make_shared<const CompiledKernel>(compileKernel(module, kernel, symbolic))};
}

Report run(const ir::Module& module, const ir::Kernel& kernel, std::vector<Buffer>& buffers, const std::vector<Arg>& args,
           const LaunchOptions& options) {
  return run(prepare(module, kernel, options.symbolic), buffers, args, options);
}

Report run(const PreparedKernel& prepared, std::vector<Buffer>& buffers, const std::vector<Arg>& args,
           const LaunchOptions& options) {
  auto start = std::chrono::steady_clock::now();
  for (int64_t g : options.grid)
    if (g <= 0) throw std::invalid_argument("grid dimensions must be positive");
  const ir::Module& module = *prepared.module;
  const ir::Kernel& kernel = *prepared.kernel;
  const CompiledKernel& code = *prepared.code;
  LaunchOptions opts = options;
  opts.symbolic = prepared.symbolic;
  uint64_t total = uint64_t(opts.grid[0]) * uint64_t(opts.grid[1]) * uint64_t(opts.grid[2]);
  if (total > kMaxRacePrograms) opts.checks.races = false;  // shadow words cannot name more programs
  // Buffers no store or atomic can reach (WriteSet.h): read in place, no race shadow.
  std::vector<bool> readOnly;
  if (code.writtenParams) {
    readOnly.assign(buffers.size(), true);
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].isBuffer && args[i].buffer < buffers.size() && (i >= code.writtenParams->size() || (*code.writtenParams)[i]))
        readOnly[args[i].buffer] = false;
  }
  AddressSpace memory(buffers, opts.checks, readOnly);
  LaunchState launch{module, code, memory, opts, opts.grid, {}, {}, {}, {}};
  Arena argArena(4096);
  std::vector<Tile> params = bindArgs(kernel, buffers, args, argArena, memory);

  std::vector<uint32_t> order;
  if (opts.onlyPid) {
    const auto& q = *opts.onlyPid;
    for (int d = 0; d < 3; ++d)
      if (q[size_t(d)] < 0 || q[size_t(d)] >= opts.grid[size_t(d)]) throw std::invalid_argument("--pid is outside the grid");
    order.push_back(uint32_t(q[0] + opts.grid[0] * (q[1] + opts.grid[1] * q[2])));
  } else {
    order.resize(total);
    std::iota(order.begin(), order.end(), 0u);
    if (opts.schedule == Schedule::Reverse) std::reverse(order.begin(), order.end());
    if (opts.schedule == Schedule::Random) std::shuffle(order.begin(), order.end(), std::mt19937_64(opts.scheduleSeed));
  }

  // Per-program results, indexed by linear pid, merged in program order afterwards.
  std::vector<std::vector<Finding>> findings(total);
  std::vector<std::string> printed(total), traces(total);
  std::vector<std::vector<DeferredAtomic>> deferred(total);
  std::atomic<size_t> peakArena{0};

  auto runOne = [&](uint32_t linear) {
    // Workers (arena and frame) outlive launches: warm launches reuse their memory.
    static thread_local Worker w;
    Program p(launch, w.arena);
    p.scratch = &w.scratch;
    p.linear = linear;
    p.pid = {int64_t(linear) % opts.grid[0], (int64_t(linear) / opts.grid[0]) % opts.grid[1],
             int64_t(linear) / (opts.grid[0] * opts.grid[1])};
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
    findings[linear] = std::move(p.findings);
    printed[linear] = std::move(p.printed);
    traces[linear] = std::move(p.trace);
    deferred[linear] = std::move(p.deferred);
  };

  if (opts.schedule == Schedule::Parallel && !opts.onlyPid && opts.threads != 1) {
    threadArena(opts.threads).execute([&] {
      // Chunks of programs: about 16 per thread, enough to balance, few enough to cost nothing.
      // (A static split, equal counts per thread, measured no better on the H200 machine.)
      unsigned threads = opts.threads ? opts.threads : unsigned(tbb::this_task_arena::max_concurrency());
      size_t grain = std::max<size_t>(1, order.size() / (size_t(threads) * 16));
      tbb::parallel_for(tbb::blocked_range<size_t>(0, order.size(), grain), [&](const tbb::blocked_range<size_t>& r) {
        for (size_t i = r.begin(); i != r.end(); ++i) runOne(order[i]);
      });
    });
  } else {
    for (uint32_t linear : order) runOne(linear);
  }

  // Deferred float atomics, in program order: the result does not depend on the schedule.
  for (const auto& list : deferred)
    for (const DeferredAtomic& d : list) {
      Tile cell = tileAt(ir::Type(ir::ElemType{d.kind, ir::ScalarKind::I32}), reinterpret_cast<uint8_t*>(d.addr));
      storeDouble(cell, 0, elementAsDouble(cell, 0) + d.value);
    }

  Report report;
  report.programs = order.size();
  for (uint32_t linear = 0; linear < total; ++linear) {
    for (Finding& f : findings[linear]) report.findings.push_back(std::move(f));
    report.printed += printed[linear];
    report.trace += traces[linear];
  }
  canonicalize(report.findings);
  report.arenaBytes = peakArena.load();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace tilevm::interp
