// Compare.h - two runs' buffers compared element by element: exact for integers and booleans,
// ULP distance for floats (NaN positions must match), with the first divergence located by its
// multi-dimensional index; float sums whose order locks decide told apart from mismatches.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/Interpreter.h"

namespace tilevm::rt {

/// How far apart two float elements may be.
/// A float element passes when it is within maxUlps of the expected one, or (when `relative`)
/// when |actual - expected| <= atol + rtol * |expected|, torch.testing.assert_close's rule. NaN
/// positions must match either way.
struct Tolerance {
  uint64_t maxUlps = 0;  ///< 0: bit-identical (NaNs of any payload are equal)
  bool relative = false;
  double rtol = 0, atol = 0;  ///< used when `relative`; negative: the dtype's default
  /// With `relative`: the bound is atol + rtol * (|expected| + rms), rms the root mean square of
  /// the expected buffer. Summation-order error scales with the magnitude of what is summed, not
  /// of the sum: an element near zero by cancellation (a dot product of random data) is held to
  /// the buffer's scale.
  bool scaleByRms = false;
  /// The kernel multiplies f32 matrices at tf32 precision (Triton's default): the GPU sums them
  /// on tensor cores, whose accumulation does not round like an f32 FMA chain, so f32 results
  /// get kTf32Rtol instead of f32's default rtol (inputs are rounded alike on both engines).
  bool tf32Dot = false;
  /// With `relative`, scaleByRms and the dtype's default rtol: the kernel rounds computed dot
  /// operands to a narrower float (roundedDotOperands; attention's `p.to(f16)`). Where the two
  /// engines' wider values straddle a rounding boundary such an operand moves by one ulp of its
  /// type, and every result it feeds by that ulp times the other operand, so float results are
  /// held to that type's rtol (roundedRtol) where it is looser than their own. 0: none.
  double roundedRtol = 0;
  /// Why float results may depend on the order programs ran in (orderDependence(); "" for
  /// none). When set, a float element off by more than maxUlps but within the summation-order
  /// tolerance (defaultRelativeTolerance of the dtype, scaled by the buffer's rms) is counted
  /// in BufferDiff::orderDependent, not as a mismatch; ints and NaN positions stay exact.
  std::string orderDependent = {};
};

/// Why `k`'s float results may depend on the order its programs run in: "lock-ordered
/// accumulation" when programs synchronize through acquire/release atomics (atomic_cas or
/// atomic_xchg, any sem but relaxed: a lock, whose order decides the order of a sum); "" when
/// nothing does (schedules must then agree bit for bit).
std::string orderDependence(const ir::Kernel& k);

/// The dot operands of `k` that are computed floats rounded to a narrower float just before the
/// dot (attention's `p.to(f16)`), each as "f16 at FILE:LINE:COL" (the rounding's location).
/// Where two engines' wider values straddle a rounding boundary, such an operand differs by one
/// ulp of its type, and so do, scaled by the other operand, the few results it feeds: what a
/// report names when a handful of elements diverge.
std::vector<std::string> roundedDotOperands(const ir::Module& m, const ir::Kernel& k);

/// The relative tolerance of f32 results of a tf32 tensor-core dot: 2^-13, an eighth of tf32's
/// own precision (2^-10). Measured: 5.6e-6 at K = 256; a wrong fragment is off by O(1).
inline constexpr double kTf32Rtol = 1.0 / 8192;

/// Whether k has a dot of f32 matrices at tf32 precision (no input_precision, or "tf32").
bool dotsInTf32(const ir::Kernel& k);

/// torch.testing.assert_close's default (rtol, atol) for a float dtype: f16 (1e-3, 1e-5), bf16
/// (1.6e-2, 1e-5), f32 (1.3e-6, 1e-5), f64 (1e-7, 1e-7): what results of reductions and dot,
/// summed in another order, are held to. fp8, which assert_close has no default for: one ulp
/// relative, 2^-2 with two mantissa bits (e5m2), 2^-3 with three (e4m3).
std::pair<double, double> defaultRelativeTolerance(ir::ScalarKind kind);

/// The ULP distance `diff` allows by default for `k`'s float results: the largest ulps column
/// (ir/ops.def) of the ops it uses; 0 when every one is exact or correctly rounded on both engines.
uint64_t defaultUlps(const ir::Kernel& k);

/// Whether `k` reduces, scans or multiplies matrices: ops whose float results depend on the order
/// of summation, which engines choose differently (diff compares them by relative error).
bool reducesInAnyOrder(const ir::Kernel& k);

/// The tolerance `diff` holds `k` to when given none: defaultUlps; for kernels that reduce
/// (reducesInAnyOrder) relative error scaled by the buffer's rms, with kTf32Rtol for tf32 dots.
Tolerance defaultTolerance(const ir::Kernel& k);

/// The outcome of comparing one buffer.
struct BufferDiff {
  std::string buffer;
  int64_t elements = 0;
  int64_t mismatches = 0;
  double maxAbsError = 0;
  uint64_t maxUlps = 0;
  /// The first element that differs: its flat and multi-dimensional index, both values.
  struct Element {
    int64_t flat = 0;
    std::vector<int64_t> index;
    std::string expected, actual;
    uint64_t ulps = 0;
  };
  std::optional<Element> first;
  std::string shapeError;  ///< set when the buffers cannot be compared at all
  bool isFloat = false;
  /// Elements that differ only as a sum in another order may (Tolerance::orderDependent), the
  /// most ulp among them, and why.
  int64_t orderDependent = 0;
  uint64_t orderMaxUlps = 0;
  std::string orderReason;
};

/// Compares `actual` with `expected` (same name, dtype and shape expected).
BufferDiff compareBuffers(const interp::Buffer& expected, const interp::Buffer& actual, const Tolerance& tol);

/// Distance in units in the last place between two floats of `kind` (f16, bf16, f32, f64),
/// given as their bit patterns; 0 for equal values and for two NaNs.
uint64_t ulpDistance(uint64_t a, uint64_t b, ir::ScalarKind kind);

/// "diff" report lines for one buffer (same, order-dependent, or FAIL with the first divergence
/// and counts).
std::string describe(const BufferDiff& d);

}  // namespace tilevm::rt
