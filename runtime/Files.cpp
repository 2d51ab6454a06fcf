// Files.cpp - bounded reads of regular files, and checked writes.
#include "runtime/Files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

namespace tilevm::rt {

namespace {

// What a non-regular file is, for the message.
const char* kindOf(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a file";
}

Diagnostic notRegular(const std::string& path, mode_t m) {
  return Diagnostic{path, 0, 0, std::string("file is not a regular file (") + kindOf(m) + "); tilevm reads only regular files"};
}

Diagnostic tooLarge(const std::string& path, uint64_t size, uint64_t maxBytes) {
  uint64_t mib = (size + (uint64_t(1) << 20) - 1) >> 20;  // rounded up: 16.5 MiB is "17 MiB"
  return Diagnostic{path, 0, 0, "file is " + std::to_string(mib) + " MiB; at most " + std::to_string(maxBytes >> 20) +
                                    " MiB are read (see docs/limits.md)"};
}

}  // namespace

Result<std::string> readFile(const std::string& path, uint64_t maxBytes) {
  if (path.size() >= 3 && path.compare(path.size() - 3, 3, ".py") == 0) maxBytes = std::min(maxBytes, kMaxPythonSourceBytes);
  // Checked before opening (opening a device can act on it), and again on what was opened (the
  // path may have changed in between); O_NONBLOCK: opening a FIFO never waits for a writer.
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return Diagnostic{path, 0, 0, std::string("cannot open file: ") + std::strerror(errno)};
  if (!S_ISREG(st.st_mode)) return notRegular(path, st.st_mode);
  if (uint64_t(st.st_size) > maxBytes) return tooLarge(path, uint64_t(st.st_size), maxBytes);
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return Diagnostic{path, 0, 0, std::string("cannot open file: ") + std::strerror(errno)};
  struct Close {
    int fd;
    ~Close() { ::close(fd); }
  } closeAtEnd{fd};
  if (::fstat(fd, &st) != 0) return Diagnostic{path, 0, 0, "cannot read file"};
  if (!S_ISREG(st.st_mode)) return notRegular(path, st.st_mode);
  if (uint64_t(st.st_size) > maxBytes) return tooLarge(path, uint64_t(st.st_size), maxBytes);
  std::string out(size_t(st.st_size), '\0');
  size_t got = 0;
  char extra;
  for (;;) {  // to the end of the file: a file that grew while read is still held to the bound
    char* at = got < out.size() ? out.data() + got : &extra;
    ssize_t n = ::read(fd, at, got < out.size() ? out.size() - got : 1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Diagnostic{path, 0, 0, std::string("cannot read file: ") + std::strerror(errno)};
    if (n == 0) break;
    if (at == &extra) {
      if (out.size() >= maxBytes) return tooLarge(path, out.size() + 1, maxBytes);
      out.push_back(extra);
    }
    got += size_t(n);
  }
  out.resize(got);
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
