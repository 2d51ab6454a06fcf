// Hints.h - Triton's value hints (tl.multiple_of, tl.max_contiguous, tl.max_constancy) as
// attributes: per dim of a value, a divisibility, contiguity or constancy the kernel's author
// promises. As in Triton they sit where the value is defined: on its defining op (`divisibility`;
// `divisibility_resN` for result N of an op with several), or for argument N of a for loop's body
// (a loop-carried value) on the loop (`divisibility_argN`). Hints change no value: the
// interpreter ignores them, code generation's axis analysis reads them (codegen/Contiguity.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/IR.h"

namespace tilevm::ir {

/// The three kinds of value hint.
enum class Hint { Divisibility, Contiguity, Constancy };

/// All hint kinds, for iteration.
inline constexpr Hint kHints[] = {Hint::Divisibility, Hint::Contiguity, Hint::Constancy};

/// The attribute stem of a kind: "divisibility", "contiguity", "constancy".
std::string_view hintStem(Hint h);

/// Where a hint on `v` is kept: the op holding it and the attribute's name. Empty for a value
/// that cannot hold one (a kernel parameter, the argument of a while loop or a combiner: Triton
/// ignores those too).
struct HintSite {
  Op* op = nullptr;
  std::string name;
};
std::optional<HintSite> hintSite(const Value& v, Hint h);

/// The hint of kind `h` on `v` (one positive entry per dim, one for a scalar), or null.
const std::vector<int64_t>* hintOf(const Value& v, Hint h);

/// The values whose hints `op` holds: its results, and for a for loop its body's arguments.
std::vector<const Value*> hintedValues(const Op& op);

/// Checks the hint attributes `op` holds (on its results, or on a for loop's body arguments):
/// each names one of those values and is a list of max(1, rank) positive integers. Returns the
/// first problem, or nullopt.
std::optional<std::string> checkHints(const Op& op);

}  // namespace tilevm::ir
