// SourceEncoding.h - Python source bytes to UTF-8 text: the BOM, the PEP 263 coding cookie
// (`# -*- coding: latin-1 -*-` on line 1 or 2, converted with iconv) and UTF-8 validation.
#pragma once

#include <string>
#include <string_view>

namespace tilevm::frontend {

/// The source as UTF-8 without a BOM. Throws DiagnosticError (with the line and column) for an
/// unknown encoding, bytes invalid in the declared encoding, or a BOM that contradicts a cookie.
std::string sourceToUtf8(std::string_view bytes, const std::string& fileName);

}  // namespace tilevm::frontend
