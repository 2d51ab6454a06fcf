// Contiguity.h - Triton's axis analysis, over the flattened tile in two orders (row-major, and
// with the dims reversed, i.e. column-major for 2-D tiles): for each value, split into
// aligned groups of elements, the longest groups that hold consecutive integers (contiguity; for
// pointers, consecutive elements), the longest that hold one value (constancy), and a power of
// two dividing the first element of every contiguous group (divisibility; every element when
// contiguity is 1; bytes for pointers). Loads and stores use it to form vector accesses with no
// run-time check: a run of `vec` slots (Layout.h) is one contiguous, aligned access when
// contiguity >= vec and the divisibility covers its width, and has one mask value when the
// mask's constancy >= vec. Facts about the kernel's parameters come from the launch (Triton's
// specialization: an integer divisible by 16 or equal to 1, a pointer aligned to 16 bytes), and
// from the kernel's hints (`tl.multiple_of` and its kin, ir/Hints.h), which raise what is known.
// The reversed order is what a transposed access needs: `k[d, n]` at `n * HEAD + d` is
// contiguous along d, its dim 0 (a K-major operand, AsyncPipeline.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "ir/IR.h"

namespace tilevm::codegen {

/// What is known of one value's elements (all powers of two).
struct AxisInfo {
  int64_t contiguity = 1;
  int64_t constancy = 1;
  int64_t divisibility = 1;
  bool one = false;       ///< known to be the integer 1 everywhere
  /// A comparison of a contiguous value with a constant one: inside an aligned group of
  /// `monotoneGroup` elements it changes at most once (its two ends decide whether it is uniform).
  int64_t monotoneGroup = 1;
  /// A mask (i1) whose aligned groups of `prefixGroup` elements are true on a prefix and false
  /// after it (`offs < n` with offs contiguous; a uniform group is one too): a 16-byte copy of
  /// such a group reads its first `count` elements and zero-fills the rest (AsyncPipeline.cpp).
  int64_t prefixGroup = 1;
};

/// The groups over which a mask with `a` is true on a prefix: its prefix groups, or its
/// uniform ones.
inline int64_t prefixRun(const AxisInfo& a) { return a.prefixGroup > a.constancy ? a.prefixGroup : a.constancy; }

/// Launch facts for the analysis: per parameter, a power of two dividing it, and whether it is 1.
struct ParamFacts {
  std::vector<uint32_t> divisors;
  std::vector<bool> ones;
};

/// What the analysis knows of every value, in both flat orders; values not in a map know nothing.
struct Axes {
  std::map<const ir::Value*, AxisInfo> rowMajor;   ///< the tile flattened row-major (the blocked layout's order)
  std::map<const ir::Value*, AxisInfo> reversed;   ///< flattened with its dims reversed (column-major in 2-D)
};

/// The analysis of `k`. Contiguity assumes index arithmetic does not wrap inside a group, as
/// Triton does.
Axes analyzeAxes(const ir::Kernel& k, const ParamFacts& facts);

}  // namespace tilevm::codegen
