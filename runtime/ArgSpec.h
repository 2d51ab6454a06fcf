// ArgSpec.h - kernel arguments from the command line (`--arg NAME=SPEC`): numbers, generated
// arrays (`randn:f32:1823x781`, `zeros:i32:64`, `full=2.5:f16:8x8`, ...) and `@file.npy`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/Value.h"
#include "interpreter/Interpreter.h"
#include "ir/Diagnostics.h"

namespace tilevm::rt {

/// One parsed argument.
struct ArgValue {
  std::string name;
  bool isBuffer = false;
  interp::Buffer buffer;      ///< when isBuffer (data generated or loaded)
  frontend::DType dtype;      ///< element dtype of a buffer, or the scalar's dtype
  int64_t i = 0;
  double f = 0;
  bool isFloat = false;       ///< a floating-point scalar
  std::string spec;           ///< the text given
  /// `ptrs:A,B,...`: an int64 buffer filled at launch with the addresses of arguments A, B, ...
  /// `desc:A:BMxBN`: a tensor descriptor over argument A (its shape, row-major strides) with
  /// block shape BMxBN. `refs` names the arguments; `isDescriptor` tells the second form.
  std::vector<std::string> refs;
  bool isDescriptor = false;
  std::vector<int64_t> block;  ///< a descriptor's block shape
  bool isUnsignedLiteral = false;  ///< an integer above INT64_MAX, held in `i` as uint64
  /// A generated array not allocated yet (KIND of KIND:DTYPE:SHAPE; empty once materialized).
  std::string generate;
  double fullValue = 0;
  uint64_t genSeed = 0;
};

/// Allocates and fills a generated array (a no-op for others), charging its bytes to
/// `budgetBytes`. Returns an error message (empty on success): too large for the budget, or out
/// of memory.
std::string materialize(ArgValue& a, uint64_t& budgetBytes);

/// The bytes of arrays one run may allocate: three quarters of physical memory.
uint64_t arrayMemoryBudget();

/// Empty if integer `v` fits `dt` (an int1 must be 0 or 1), else why not. `isUnsignedLiteral`:
/// `v` holds a uint64 above INT64_MAX.
std::string checkIntFits(int64_t v, bool isUnsignedLiteral, const frontend::DType& dt);

/// Empty if `v` is exactly representable in integer type `dt` (any float fits a float type).
std::string checkValueFits(double v, const frontend::DType& dt);

/// One IR parameter of tensor descriptor `d` (a `.tile` kernel's NAME.base, NAME.shapeK or
/// NAME.strideK; `field` is the part after the dot) of type `t`, over `array`.
/// Sets `isBase` (the parameter is the array itself) or `value` (the extent or row-major
/// stride of dimension K). Returns the error (empty on success): an unknown field, a dimension
/// the descriptor does not have, a rank that differs from the array's, or a parameter type
/// that cannot hold the field (a base pointing to another element type than the array's).
std::string descriptorField(const ArgValue& d, const std::string& field, const ir::Type& t,
                            const interp::Buffer& array, bool& isBase, int64_t& value);

/// Parses `NAME=SPEC`. `seed` and `index` make generated data reproducible per argument.
/// Errors read "--arg NAME=SPEC: ..." and say what was expected.
Result<ArgValue> parseArg(const std::string& text, uint64_t seed, unsigned index);

/// Triton's signature spelling of an argument: `*fp32`, `i32`, `fp32`, ...; a descriptor's is
/// `tensordesc<*fp32:64x64>` (its dtype is the described buffer's, set by the caller).
std::string signatureType(const ArgValue& a);

}  // namespace tilevm::rt
