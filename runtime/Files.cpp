// Files.cpp - bounded reads and checked writes.
#include "runtime/Files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace tilevm::rt {

Result<std::string> readFile(const std::string& path, uint64_t maxBytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Diagnostic{path, 0, 0, "is a directory, not a file"};
  // A regular file's size is known before reading; devices and pipes (/dev/zero) are read up
  // to the limit and no further.
  if (std::filesystem::is_regular_file(path, ec)) {
    auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > maxBytes)
      return Diagnostic{path, 0, 0, "file is " + std::to_string(size >> 20) + " MiB; at most " + std::to_string(maxBytes >> 20) +
                                        " MiB are read (see docs/limits.md)"};
  } else {
    maxBytes = std::min(maxBytes, kMaxStreamBytes);
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) return Diagnostic{path, 0, 0, "cannot open file"};
  std::string out;
  char chunk[1 << 16];
  while (f) {
    f.read(chunk, sizeof chunk);
    out.append(chunk, size_t(f.gcount()));
    if (out.size() > maxBytes)
      return Diagnostic{path, 0, 0, "input is larger than " + std::to_string(maxBytes >> 20) + " MiB (see docs/limits.md)"};
  }
  if (f.bad()) return Diagnostic{path, 0, 0, "cannot read file"};
  return out;
}

bool writeFile(const std::string& path, const void* bytes, size_t size) {
  std::ofstream f(path, std::ios::binary);
  if (!f) {
    std::cerr << path << ": error: cannot open file for writing\n";
    return false;
  }
  f.write(static_cast<const char*>(bytes), std::streamsize(size));
  f.close();  // a full disk shows only when the buffer is flushed
  if (f.fail()) {
    std::cerr << path << ": error: cannot write file (disk full or I/O error)\n";
    return false;
  }
  return true;
}

bool writeStdout(const std::string& text) {
  std::cout << text;
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "<stdout>: error: cannot write output\n";
    return false;
  }
  return true;
}

}  // namespace tilevm::rt
