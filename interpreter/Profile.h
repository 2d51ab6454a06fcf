// Profile.h - what one launch did, op by op and element by element, for `tilevm viz --run` and
// `--access`: executions of each op, lanes and active lanes of each memory op (the mask's
// effect), bytes moved; and, for one chosen buffer, which program read and wrote each element.
// Off unless LaunchOptions asks for it; counters are atomic (programs run in parallel).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ir/IR.h"

namespace tilevm::interp {

/// Per-op counters of a launch. `ops` holds every op of the kernel before the launch (no
/// insertion while programs run).
struct OpProfile {
  struct Counters {
    std::atomic<uint64_t> executions{0};
    std::atomic<uint64_t> lanes{0};        ///< memory ops: lanes presented
    std::atomic<uint64_t> activeLanes{0};  ///< memory ops: lanes the mask left on
    std::atomic<uint64_t> bytes{0};        ///< memory ops: bytes read or written
  };
  std::map<const ir::Op*, Counters> ops;
  /// A profile with a zeroed entry for every op of k.
  static std::unique_ptr<OpProfile> forKernel(const ir::Kernel& k);
};

/// Who touched each element of one buffer: the first program (linear id + 1; 0 for none) that
/// read and that wrote it, and whether a second program did too.
struct AccessMap {
  std::string buffer;  ///< the argument's name
  int64_t numel = 0;
  uint64_t base = 0;      ///< the buffer's address during the launch (set by run())
  unsigned elemBytes = 1;
  std::unique_ptr<std::atomic<uint32_t>[]> firstReader, firstWriter;
  std::unique_ptr<std::atomic<uint8_t>[]> otherReader, otherWriter;
  /// Per element, the memory op of its first write: its index into opLocs + 1 (0: not written).
  std::unique_ptr<std::atomic<uint32_t>[]> firstWriteOp;
  std::vector<std::string> opLocs;  ///< set by run(): "file:line:col" of each memory op
  explicit AccessMap(std::string name) : buffer(std::move(name)) {}
  /// Sizes the arrays for a buffer of n elements (done by run() once the buffer is known).
  void resize(int64_t n);
  /// An access of `element` by `program` through memory op `op` (an index into opLocs).
  void record(int64_t element, uint32_t program, bool write, uint32_t op);
};

}  // namespace tilevm::interp
