// Interpreter.h - runs a verified kernel on the CPU: a grid of programs over host buffers,
// in parallel (oneTBB) or in a chosen order, checking every access.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "interpreter/Report.h"
#include "interpreter/Profile.h"
#include "ir/Diagnostics.h"
#include "ir/IR.h"

namespace tilevm::interp {

/// A launch buffer: host memory the kernel's pointers may address.
struct Buffer {
  std::string name;
  ir::ScalarKind elem = ir::ScalarKind::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;  ///< numel * storageBytes(elem), unless the memory is external
  bool initialized = true;     ///< false for `empty` buffers: reads before writes are reported
  /// Memory owned by the caller (a NumPy array or torch tensor, used in place: no copy); null
  /// when the buffer owns `bytes`.
  uint8_t* external = nullptr;
  size_t externalBytes = 0;
  /// Byte ranges [first, second) of data() holding undefined values (stored from poison lanes).
  /// In: those an earlier launch left in this memory (with the uninit check, reading them is an
  /// error). Out: those this launch leaves (empty without the uninit check).
  std::vector<std::pair<uint64_t, uint64_t>> undefined;
  int64_t numel() const;
  uint8_t* data() { return external ? external : bytes.data(); }
  const uint8_t* data() const { return external ? external : bytes.data(); }
  size_t byteSize() const { return external ? externalBytes : bytes.size(); }
};

/// Memory a kernel reaches only through an address (a pointer table's entry, int_to_ptr of an
/// integer), outside the launch's buffers: the caller's other live arrays (the Python door's
/// NumPy arrays and torch tensors). The interpreter asks it when no buffer of the launch holds
/// an address, maps what it returns for the rest of the launch (a region of its own allocation,
/// checked exactly as an argument's buffer), and hands the mapped buffers back at the end.
class AddressResolver {
 public:
  virtual ~AddressResolver() = default;
  /// The whole allocation holding byte address `addr`, as a Buffer over external memory (name,
  /// elem, shape, external, externalBytes; `undefined` as an earlier launch left it), or
  /// nullopt with `why` saying what was searched (or why the memory holding it cannot be used:
  /// `mayStore`, the kernel may store through pointers of unknown origin, refuses read-only
  /// memory). Called from worker threads, one call at a time.
  virtual std::optional<Buffer> resolve(uint64_t addr, bool mayStore, std::string& why) = 0;
  /// After the launch: the buffers it mapped, their `undefined` set to what the launch left.
  virtual void finished(std::vector<Buffer>& mapped) { (void)mapped; }
};

/// One kernel argument: a buffer (for a pointer parameter) or a scalar.
struct Arg {
  bool isBuffer = false;
  size_t buffer = 0;  ///< index into the launch's buffers
  uint64_t byteOffset = 0;  ///< the pointer points this far into the buffer (a view of an array)
  int64_t i = 0;      ///< integer scalars (and i1)
  double f = 0;       ///< float scalars
};

/// Which checks run.
struct Checks {
  bool bounds = true, races = true, uninit = true;
  /// Benign races (identical bits written by unordered programs) are errors, not notes.
  bool strict = false;
  bool any() const { return bounds || races || uninit; }
};

/// The largest grid extent per axis (program_id is int32) and the most programs in a launch.
inline constexpr int64_t kMaxGridAxis = (int64_t(1) << 31) - 1;
inline constexpr uint64_t kMaxGridPrograms = (uint64_t(1) << 32) - 1;
/// The grid limits in words, for every message about a grid (rt::checkGrid, run()).
inline constexpr const char* kGridLimits =
    "each dimension must be at most 2147483647 (program_id is int32), and at most 4294967295 programs in a launch (see "
    "docs/limits.md)";
/// kGridLimits when `grid` is outside them (an axis below 1 or past kMaxGridAxis, more than
/// kMaxGridPrograms programs), else "": the one check of a grid's limits.
std::string gridProblem(const std::array<int64_t, 3>& grid);

/// Order programs run in.
enum class Schedule { Parallel, Serial, Reverse, Random };

struct LaunchOptions {
  std::array<int64_t, 3> grid{1, 1, 1};
  Checks checks;
  unsigned threads = 0;  ///< 0: all hardware threads (Parallel only)
  Schedule schedule = Schedule::Parallel;
  uint64_t scheduleSeed = 0;
  std::optional<std::array<int64_t, 3>> onlyPid;  ///< run just this program
  /// Run just these programs (linear ids, ascending, each inside the grid): a sample of the
  /// grid (`--diff triton`'s budget). Races and reads of never-written elements are judged
  /// among them alone. Empty: the whole grid (or onlyPid).
  std::vector<uint64_t> programs;
  bool trace = false;                             ///< op-by-op summaries (with onlyPid)
  uint64_t fuel = uint64_t(1) << 24;              ///< loop iterations per program before giving up
  /// Wall-clock budget of the launch in seconds (0: none). Past it, no more programs are
  /// scheduled, running ones stop within kStopCheckOps ops (Exec.h; loop iterations and
  /// straight-line code alike), and the report holds a `timeout` finding.
  double timeoutSeconds = 0;
  /// Set (by another thread, a signal handler) to cancel the launch: it then stops as at the
  /// deadline and the report holds an `interrupted` finding. Null: not cancellable.
  std::atomic<bool>* cancel = nullptr;
  /// Apply fire-and-forget float atomics (result unused) after all programs, in program
  /// order, so their effect does not depend on the schedule.
  bool deterministicAtomics = true;
  /// Keep index and pointer tiles symbolic (affine in the element index) until an op needs
  /// their elements, broadcast float operands as views, and compute results in the memory of
  /// dead operands. Results are identical either way; off runs every op densely into fresh
  /// memory: the plain reference path (for tests).
  bool symbolic = true;
  /// Resolves addresses no buffer of the launch holds (AddressResolver), or null: such an
  /// address is then outside every buffer.
  AddressResolver* resolver = nullptr;
  /// Per-op counters to fill (tilevm viz --run; Profile.h), or null.
  OpProfile* profile = nullptr;
  /// One buffer's per-element readers and writers to record (tilevm viz --access), or null.
  AccessMap* access = nullptr;
  /// Test only: plants a shadow-indexing bug (shadows indexed in elements of the pointer's
  /// type instead of the allocation's granules), for showing that the executing fuzzer finds it.
  bool testPlantShadowBug = false;
};

struct CompiledKernel;  // Exec.h

/// A kernel compiled for the interpreter once and launched any number of times: warm
/// launches skip compilation, as a JIT's kernel cache does.
struct PreparedKernel {
  const ir::Module* module = nullptr;
  const ir::Kernel* kernel = nullptr;
  bool symbolic = true;  ///< LaunchOptions::symbolic it was compiled for
  std::shared_ptr<const CompiledKernel> code;
};

/// What prepare() throws for a kernel the interpreter cannot run, located at the op: target
/// assembly (inline_asm, which only the GPU engine runs). An std::invalid_argument, as every
/// input the interpreter refuses.
struct UnsupportedKernel : std::invalid_argument {
  explicit UnsupportedKernel(Diagnostic d) : std::invalid_argument(d.message), diag(std::move(d)) {}
  Diagnostic diag;
};

/// Compiles `kernel` (from a verified module, which must outlive the result); throws
/// UnsupportedKernel for a kernel with an op the interpreter cannot run.
PreparedKernel prepare(const ir::Module& module, const ir::Kernel& kernel, bool symbolic = true);

/// Runs a prepared kernel over `buffers` with `args` (one per parameter); options.symbolic is
/// the prepared kernel's. Kernel faults come back in the report; invalid arguments throw
/// std::invalid_argument.
Report run(const PreparedKernel& prepared, std::vector<Buffer>& buffers, const std::vector<Arg>& args,
           const LaunchOptions& options);

/// prepare() then run(): one launch.
Report run(const ir::Module& module, const ir::Kernel& kernel, std::vector<Buffer>& buffers,
           const std::vector<Arg>& args, const LaunchOptions& options);

}  // namespace tilevm::interp
