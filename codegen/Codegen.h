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
  /// Whether a kernel may build tensor maps on the GPU (descriptors made in the kernel, read by
  /// the TMA): `tensormap.replace` takes a stride in bytes from CUDA 12.8's compiler on (the
  /// driver's JIT; earlier ones took it in 16-byte units). False: such descriptors' loads take
  /// cp.async.
  bool deviceTensorMaps = true;
};

/// A tensor map (the TMA's descriptor of a 2-D global array) the kernel reads through
/// `cp.async.bulk.tensor`: the launch encodes it from the values of a host tensor descriptor's
/// parameters (cuTensorMapEncodeTiled) and passes its 128 bytes as a hidden kernel parameter,
/// after the kernel's own, in the order of LaunchInfo::tensorMaps (TensorMaps.cpp).
struct TensorMap {
  unsigned base = 0;                  ///< the parameter holding the array's address (16-byte aligned)
  std::vector<unsigned> shape;        ///< per dim (dim 0 first), the parameter holding its size
  std::vector<unsigned> stride;       ///< per dim, the parameter holding its stride in elements (the last is 1)
  std::string dtype;                  ///< the element type as the IR spells it: f16, bf16, f32, or u8 (any 1-byte type)
  std::vector<uint32_t> box;          ///< the box one copy moves, dim 0 first
  unsigned swizzleBytes = 128;        ///< 32, 64 or 128: the shared layout's swizzle (codegen/Layout.h)
  bool nanFill = false;               ///< reads outside the array give NaN (else zero)
  bool operator==(const TensorMap&) const = default;
};

/// Whether `dtype` is one a TensorMap carries (TensorMap::dtype).
inline bool isTensorMapDtype(const std::string& dtype) {
  return dtype == "f16" || dtype == "bf16" || dtype == "f32" || dtype == "u8";
}

/// The bytes of one element of a TensorMap's dtype.
inline unsigned tensorMapElementBytes(const std::string& dtype) { return dtype == "f32" ? 4 : dtype == "u8" ? 1 : 2; }

/// A swizzle span's mode (32, 64, 128 bytes: 1, 2, 3), as the driver's CUtensorMapSwizzle and
/// PTX's `tensormap.replace ... swizzle_mode` both number it; -1 for another span.
inline int tensorMapSwizzleMode(unsigned bytes) { return bytes == 32 ? 1 : bytes == 64 ? 2 : bytes == 128 ? 3 : -1; }

/// What a launch of compiled PTX needs to know, handed over as data (never read back from the
/// assembly): the runtime sizes and checks the launch with it.
struct LaunchInfo {
  std::string kernel;               ///< the PTX entry's name
  std::string arch;                 ///< the target compiled for
  unsigned threads = 0;             ///< threads per block (32 * num_warps)
  uint64_t dynamicSharedBytes = 0;  ///< dynamic shared memory per block (0: the scratch array is static, 48 KiB or less)
  std::vector<TensorMap> tensorMaps;  ///< the hidden parameters the launch encodes, in order
  /// Tensor maps each program builds in global memory (descriptors made in the kernel): after
  /// the tensor maps, the launch passes a pointer to programs x this x 128 bytes, 128-aligned.
  unsigned deviceTensorMaps = 0;
};

/// The most tensor maps a kernel builds per program (LaunchInfo::deviceTensorMaps); past them,
/// descriptors made in the kernel load by cp.async.
inline constexpr unsigned kMaxDeviceTensorMaps = 64;

/// A kernel compiled to PTX, with its launch metadata.
struct CompiledPtx {
  std::string ptx;
  LaunchInfo launch;
};

/// The divisor Triton specializes an argument on: 16 for an integer divisible by 16 or an address
/// aligned to 16 bytes, 1 otherwise. Kernels compiled for 16 run only on such arguments.
inline uint32_t divisorOf(uint64_t value) { return value % 16 == 0 ? 16 : 1; }

/// The divisor a host tensor descriptor's stride is specialized on: the largest power of two up
/// to 16 dividing it. The TMA takes strides of whole 16 bytes, so an f16 row of 200 elements
/// (8 x 25) qualifies, which divisorOf (1) could not show.
inline uint32_t strideDivisorOf(uint64_t value) {
  uint32_t d = 1;
  while (d < 16 && value % (2 * d) == 0) d *= 2;
  return d;
}

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
