// Codegen.h - the GPU code generator: a verified kernel of the tile IR to LLVM IR (nvptx64) and
// PTX through LLVM 19's NVPTX backend. It lowers elementwise kernels, casts, math, 1-D reductions
// and masked loads/stores with one blocked layout (Layout.h); any other op is a located error
// naming it (docs/codegen.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "codegen/Targets.h"
#include "ir/Diagnostics.h"
#include "ir/IR.h"

namespace tilevm::codegen {

/// Target and launch shape.
struct Options {
  std::string arch = "sm_90";  ///< a row of kTargets (codegen/Targets.h; validated: LLVM only warns)
  unsigned numWarps = 4;       ///< threads per program = 32 * numWarps
  /// Triton's num_stages: 1 issues each loop's loads where they stand; 2 or more puts a loop's
  /// wgmma operands through a cp.async ring of that many stages on sm_90a (AsyncPipeline.cpp)
  /// and issues its other loads one iteration ahead in registers (Pipeline.cpp). The default
  /// is 1 (docs/codegen.md says why).
  unsigned numStages = 1;
  /// Triton's maxnreg: `.maxnreg` on the kernel's entry, the registers ptxas may give a thread
  /// (1 to 255; 0: ptxas decides).
  unsigned maxRegisters = 0;
  /// Per kernel parameter, a power of two the launch guarantees divides it (an integer's value,
  /// a pointer's address in bytes), or empty for nothing known: Triton's specialization of
  /// arguments divisible by 16 (see divisorOf).
  std::vector<uint32_t> paramDivisors;
  /// Per kernel parameter, whether the launch guarantees it is the integer 1 (or empty).
  std::vector<bool> paramOnes;
  /// Shared memory one block may opt in to on the GPU that will run the kernel, as its driver
  /// reports it; 0: the target's row. The smaller of the two bounds the kernel.
  uint64_t deviceSharedOptInBytes = 0;
};

/// What a launch of compiled PTX needs to know, handed over as data (never read back from the
/// assembly): the runtime sizes and checks the launch with it.
struct LaunchInfo {
  std::string kernel;               ///< the PTX entry's name
  std::string arch;                 ///< the target compiled for
  unsigned threads = 0;             ///< threads per block (32 * num_warps)
  uint64_t dynamicSharedBytes = 0;  ///< dynamic shared memory per block (0: the scratch array is static, 48 KiB or less)
};

/// A kernel compiled to PTX, with its launch metadata.
struct CompiledPtx {
  std::string ptx;
  LaunchInfo launch;
};

/// The divisor Triton specializes an argument on: 16 for an integer divisible by 16 or an address
/// aligned to 16 bytes, 1 otherwise. Kernels compiled for 16 run only on such arguments.
inline uint32_t divisorOf(uint64_t value) { return value % 16 == 0 ? 16 : 1; }

/// Dynamic shared memory a program may use under `o`: its target's opt-in maximum per block
/// (codegen/Targets.h), or the device's where that is smaller, less the static reserve.
uint64_t maxDynamicSharedBytes(const Options& o);

/// Threads per program for `o`.
inline unsigned threadsPerProgram(const Options& o) { return 32 * o.numWarps; }

/// How each value of k is spread over a program's threads on the GPU, in words ("blocked, 4
/// per run", "mma accumulator, 2x2 warps", "scalar"): for `tilevm viz --layouts`.
std::map<const ir::Value*, std::string> describeLayouts(const ir::Module& m, const ir::Kernel& k, const Options& o);

/// The kernel as LLVM IR text (after O3), or a diagnostic naming what cannot be lowered yet.
Result<std::string> emitLlvmIr(const ir::Module& m, const ir::Kernel& k, const Options& o);

/// The kernel as PTX text and its launch metadata.
Result<CompiledPtx> emitPtx(const ir::Module& m, const ir::Kernel& k, const Options& o);

/// `ptx` with `.maxnreg n` on its kernel entry: ptxas schedules for that many registers (a
/// register budget the JIT options do not give: it keeps more loads in flight when allowed).
std::string withRegisterBudget(const std::string& ptx, unsigned n);

}  // namespace tilevm::codegen
