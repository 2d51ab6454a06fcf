// ArgSpec.h - kernel arguments from the command line (`--arg NAME=SPEC`): numbers, generated
// arrays (`randn:f32:1823x781`, `zeros:i32:64`, `full=2.5:f16:8x8`, ...) and `@file.npy`.
#pragma once

#include <cstdint>
#include <string>

#include "frontend/Value.h"
#include "interpreter/Interpreter.h"
#include "ir/Diagnostics.h"

namespace tilevm::tools {

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
};

/// Parses `NAME=SPEC`. `seed` and `index` make generated data reproducible per argument.
/// Errors read "--arg NAME=SPEC: ..." and say what was expected.
Result<ArgValue> parseArg(const std::string& text, uint64_t seed, unsigned index);

/// Triton's signature spelling of an argument: `*fp32`, `i32`, `fp32`, ...
std::string signatureType(const ArgValue& a);

}  // namespace tilevm::tools
