// ExecuteKernel.cpp - runs fuzzed kernels on the interpreter (see ExecuteKernel.h) and checks
// the race invariant against the launch's own record of who touched which element.
#include "test/fuzz/ExecuteKernel.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>

#include "interpreter/Interpreter.h"
#include "interpreter/Numeric.h"
#include "ir/IR.h"
#include "ir/Verifier.h"

namespace tilevm::fuzz {

namespace {

struct Rng {  // splitmix64: the same input always gives the same binding
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  unsigned below(unsigned n) { return unsigned(next() % n); }
  bool chance(unsigned outOf) { return below(outOf) == 0; }
};

struct Pointee {
  const char* name;
  ir::ScalarKind kind;
  unsigned bytes;
};
constexpr Pointee kPointees[] = {{"fp32", ir::ScalarKind::F32, 4}, {"fp32", ir::ScalarKind::F32, 4}, {"fp32", ir::ScalarKind::F32, 4},
                                 {"fp16", ir::ScalarKind::F16, 2}, {"i8", ir::ScalarKind::I8, 1},    {"i32", ir::ScalarKind::I32, 4},
                                 {"fp64", ir::ScalarKind::F64, 8}, {"i16", ir::ScalarKind::I16, 2},  {"bf16", ir::ScalarKind::BF16, 2},
                                 {"i64", ir::ScalarKind::I64, 8}};

// Parameters named like sizes and strides are integer scalars in real kernels.
bool looksScalar(const std::string& n) {
  std::string l;
  for (char c : n) l += char(std::tolower(static_cast<unsigned char>(c)));
  if (l == "n" || l == "m" || l == "k" || l.rfind("n_", 0) == 0 || l.rfind("num", 0) == 0) return true;
  for (const char* part : {"stride", "size", "len", "count", "numel", "elements", "rows", "cols", "seed", "offset", "eps"})
    if (l.find(part) != std::string::npos) return true;
  return false;
}

struct Binding {
  frontend::CompileOptions options;
  std::vector<interp::Buffer> buffers;
  std::vector<interp::Arg> args;  // one per runtime parameter, in order
  std::array<int64_t, 3> grid{1, 1, 1};
};

Binding draw(const std::string& kernel, const std::vector<frontend::ParamInfo>& params, Rng& rng, bool namesOnly) {
  Binding b;
  b.options.kernel = kernel;
  static const char* kConstexprs[] = {"16", "32", "64"};
  for (const auto& p : params) {
    if (p.constexpr_) {
      b.options.defines[p.name] = kConstexprs[rng.below(3)];
      continue;
    }
    std::string type;
    interp::Arg a;
    if (looksScalar(p.name) || (!namesOnly && rng.chance(8))) {
      static const int64_t kScalars[] = {1, 2, 7, 16, 33, 64, 100};
      type = "i32";
      a.i = kScalars[rng.below(7)];
    } else {
      const Pointee* t = namesOnly ? &kPointees[0] : &kPointees[rng.below(std::size(kPointees))];
      a.isBuffer = true;
      if (!b.buffers.empty() && rng.chance(3)) {  // the same array again: in place, or a view into it
        a.buffer = rng.below(unsigned(b.buffers.size()));
        for (const Pointee& same : kPointees)  // a parameter's pointee is its array's dtype (other types: casts in the kernel)
          if (same.kind == b.buffers[a.buffer].elem) t = &same;
        const uint64_t size = b.buffers[a.buffer].bytes.size();
        if (rng.chance(2)) a.byteOffset = std::min<uint64_t>(size, uint64_t(t->bytes) * rng.below(16));
      } else {
        interp::Buffer buf;
        buf.name = p.name;
        const size_t bytes = size_t(8) * (2 + rng.below(128));  // 16 to 1032 bytes
        buf.elem = t->kind;
        buf.shape = {int64_t(bytes / t->bytes)};
        buf.bytes.resize(bytes);
        for (auto& byte : buf.bytes) byte = uint8_t(rng.next());
        buf.initialized = !rng.chance(4);  // `empty`: reads before writes are findings
        a.buffer = b.buffers.size();
        b.buffers.push_back(std::move(buf));
      }
      type = std::string("*") + t->name;
    }
    b.options.signature += (b.options.signature.empty() ? "" : ", ") + p.name + ": " + type;
    b.args.push_back(a);
  }
  b.grid[0] = 1 + rng.below(4);
  if (rng.chance(4)) b.grid[1] = 2;
  return b;
}

bool usesAtomics(const ir::Kernel& k) {
  bool found = false;
  ir::walk(k.body.block, [&](const ir::Op& op) {
    found = found || op.code == ir::Opcode::AtomicRmw || op.code == ir::Opcode::AtomicCas;
  });
  return found;
}

std::string violated(const std::string& what, const Binding& b, const interp::Report& r) {
  return what + "\n  signature: " + b.options.signature + "\n  grid: " + std::to_string(b.grid[0]) + "," + std::to_string(b.grid[1]) +
         "\n  findings:\n" + r.text();
}

// The bytes each program writes when run alone on the launch's initial data, checks off: those
// it leaves changed. A byte two programs change, in a kernel without atomics, means a race in
// the launch: either the programs' footprints are as alone and overlap (a write-write race), or
// a program read another's write and behaved differently (a read-write race). Either way the
// race checker must report one.
std::optional<std::string> checkRaces(const ir::Module& m, const ir::Kernel& k, const Binding& b,
                                      const std::vector<interp::Buffer>& initial, const interp::LaunchOptions& full,
                                      const interp::Report& r) {
  if (usesAtomics(k) || r.droppedFindings || !full.checks.races) return std::nullopt;
  for (const auto& f : r.findings) {
    if (f.kind == interp::Finding::Kind::Timeout || f.kind == interp::Finding::Kind::NoTermination) return std::nullopt;
    if (f.kind == interp::Finding::Kind::Race || f.kind == interp::Finding::Kind::StoreConflict) return std::nullopt;
  }
  std::vector<std::vector<uint32_t>> writer(initial.size());  // per byte: program + 1 that changed it
  for (size_t i = 0; i < initial.size(); ++i) writer[i].assign(initial[i].bytes.size(), 0);
  uint32_t program = 0;
  for (int64_t y = 0; y < b.grid[1]; ++y)
    for (int64_t x = 0; x < b.grid[0]; ++x, ++program) {
      std::vector<interp::Buffer> alone = initial;
      interp::LaunchOptions o = full;
      o.checks = interp::Checks{false, false, false};
      o.onlyPid = std::array<int64_t, 3>{x, y, 0};
      interp::Report ra = interp::run(m, k, alone, b.args, o);
      for (const auto& f : ra.findings)
        if (f.kind == interp::Finding::Kind::Timeout || f.kind == interp::Finding::Kind::NoTermination) return std::nullopt;
      for (size_t i = 0; i < alone.size(); ++i)
        for (size_t j = 0; j < alone[i].bytes.size(); ++j) {
          if (alone[i].bytes[j] == initial[i].bytes[j]) continue;
          if (writer[i][j] && writer[i][j] != program + 1)
            return violated("programs " + std::to_string(writer[i][j] - 1) + " and " + std::to_string(program) + " (linear ids) each write byte " +
                                std::to_string(j) + " of " + initial[i].name + " (no atomics), but no race is reported",
                            b, r);
          writer[i][j] = program + 1;
        }
    }
  return std::nullopt;
}

}  // namespace

uint64_t bindingSeed(std::string_view source) {
  constexpr std::string_view kTag = "# fuzz-bind: ";
  if (size_t at = source.find(kTag); at != std::string_view::npos)
    return std::strtoull(std::string(source.substr(at + kTag.size(), 20)).c_str(), nullptr, 10);
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : source) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::optional<std::string> executeKernel(std::string_view source, const std::string& kernel,
                                         const std::vector<frontend::ParamInfo>& params, uint64_t seed, bool plantShadowBug) {
  Rng rng{seed};
  // The drawn binding; if that does not compile (a pointer drawn for an integer, say), the one
  // parameter names suggest.
  Binding b = draw(kernel, params, rng, false);
  auto m = frontend::compileKernel(source, "fuzz.py", b.options);
  if (!m) {
    b = draw(kernel, params, rng, true);
    m = frontend::compileKernel(source, "fuzz.py", b.options);
  }
  if (!m) {  // the frontend's own contract holds here too: a located message, never an internal error
    const std::string& why = m.error().message;
    if (why.empty() || why.find("internal error") != std::string::npos) return "bad diagnostic for " + b.options.signature + ": " + why;
    if (std::getenv("TILEVM_FUZZ_DEBUG")) std::fprintf(stderr, "tilevm fuzz: %s(%s) does not compile: %s\n", kernel.c_str(), b.options.signature.c_str(), why.c_str());
    return std::nullopt;
  }
  const ir::Kernel* k = (*m)->findKernel(kernel);
  if (!k || k->params().size() != b.args.size() || !ir::verify(**m).empty()) return std::nullopt;
  interp::LaunchOptions o;
  o.grid = b.grid;
  o.threads = 1;
  o.schedule = interp::Schedule::Serial;
  o.fuel = uint64_t(1) << 14;
  o.timeoutSeconds = 2;
  o.testPlantShadowBug = plantShadowBug;
  const std::vector<interp::Buffer> initial = b.buffers;
  interp::Report r;
  try {
    r = interp::run(**m, *k, b.buffers, b.args, o);
  } catch (const std::invalid_argument& e) {
    if (std::getenv("TILEVM_FUZZ_DEBUG")) std::fprintf(stderr, "tilevm fuzz: %s(%s) refused: %s\n", kernel.c_str(), b.options.signature.c_str(), e.what());
    return std::nullopt;  // arguments the interpreter refuses (it says why): not a launch
  }
  if (std::getenv("TILEVM_FUZZ_DEBUG")) {  // what ran: the binding and the findings
    std::fprintf(stderr, "tilevm fuzz: %s(%s) grid %lld,%lld\n%s", kernel.c_str(), b.options.signature.c_str(), (long long)b.grid[0],
                 (long long)b.grid[1], r.text().c_str());
  }
  return checkRaces(**m, *k, b, initial, o, r);
}

}  // namespace tilevm::fuzz
