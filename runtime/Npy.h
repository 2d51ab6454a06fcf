// Npy.h - NumPy .npy files (version 1-3, little-endian, C order), the arrays' lingua franca.
#pragma once

#include <string>
#include <string_view>

#include "interpreter/Interpreter.h"
#include "ir/Diagnostics.h"

namespace tilevm::rt {

/// Reads an .npy file into a buffer (treating the file as hostile: header, dtype, shape and
/// size are all checked). `unsignedOut` reports a uint dtype.
Result<interp::Buffer> readNpy(const std::string& path, bool* unsignedOut = nullptr);

/// The same, from bytes already in memory (`path` names them in errors).
Result<interp::Buffer> parseNpy(std::string_view bytes, const std::string& path, bool* unsignedOut = nullptr);

/// Writes a buffer as .npy (bf16, which NumPy lacks, is written as uint16 bits).
bool writeNpy(const std::string& path, const interp::Buffer& b, bool isUnsigned, std::string& error);

}  // namespace tilevm::rt
