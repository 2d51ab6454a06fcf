// AddressResolverTest.cpp - memory reached only through addresses (interp::AddressResolver): a
// pointer table's entries turned into pointers with int_to_ptr resolve to arrays no parameter
// names, mapped once per launch and checked (bounds, races, undefined reads) as an argument's
// buffer is; an address nothing holds is a finding naming it.
#include "InterpHarness.h"

using namespace tilevm;
using namespace tilevm::test;
using ir::ScalarKind;
using Kind = interp::Finding::Kind;

namespace {

const char* kTables = R"(
import triton
import triton.language as tl

@triton.jit
def gather(tab, out, n, BLOCK: tl.constexpr):
    # Program g copies n elements of the array at address tab[g] into out[g * BLOCK:].
    g = tl.program_id(0)
    src = tl.load(tab + g).to(tl.pointer_type(tl.float32))
    offs = tl.arange(0, BLOCK)
    tl.store(out + g * BLOCK + offs, tl.load(src + offs, mask=offs < n, other=-1.0))

@triton.jit
def scatter(tab, BLOCK: tl.constexpr):
    # Every program writes the first BLOCK elements of the array at tab[0]: a race.
    g = tl.program_id(0)
    dst = tl.load(tab).to(tl.pointer_type(tl.float32))
    offs = tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.full([BLOCK], 1.0, tl.float32) + g)
)";

// Host arrays the kernel's parameters do not name; resolve() answers for them as the Python
// door does for live NumPy arrays.
struct TestResolver : interp::AddressResolver {
  std::vector<std::vector<float>> arrays;
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> undefined;  // carried in, per array
  int calls = 0;
  std::vector<std::string> finishedNames;
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> finishedUndefined;
  std::optional<interp::Buffer> resolve(uint64_t addr, bool, std::string& why) override {
    ++calls;
    for (size_t i = 0; i < arrays.size(); ++i) {
      auto* base = reinterpret_cast<uint8_t*>(arrays[i].data());
      const uint64_t b = reinterpret_cast<uint64_t>(base);
      if (addr < b || addr >= b + arrays[i].size() * 4) continue;
      interp::Buffer out;
      out.name = "h" + std::to_string(i);
      out.elem = ScalarKind::F32;
      out.shape = {int64_t(arrays[i].size())};
      out.external = base;
      out.externalBytes = arrays[i].size() * 4;
      if (i < undefined.size()) out.undefined = undefined[i];
      return out;
    }
    why = "no test array holds it";
    return std::nullopt;
  }
  void finished(std::vector<interp::Buffer>& mapped) override {
    for (interp::Buffer& b : mapped) finishedNames.push_back(b.name), finishedUndefined.push_back(b.undefined);
  }
};

interp::Buffer table(const std::vector<uint64_t>& addresses) {
  interp::Buffer t = buffer("tab", ScalarKind::I64, int64_t(addresses.size()));
  std::memcpy(t.bytes.data(), addresses.data(), addresses.size() * 8);
  return t;
}

uint64_t addressOf(const std::vector<float>& v, size_t i = 0) { return reinterpret_cast<uint64_t>(v.data() + i); }

const interp::Finding* findingOf(const interp::Report& r, Kind k) {
  for (const interp::Finding& f : r.findings)
    if (f.kind == k) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("a pointer table's entries resolve to arrays no parameter names, mapped once", "[interp][resolver]") {
  auto m = compilePython(kTables, "gather", {{"BLOCK", "8"}}, "tab: *i64, out: *fp32, n: i32");
  for (bool symbolic : {true, false}) {
    TestResolver res;
    res.arrays = {{1, 2, 3, 4, 5, 6, 7, 8}, {10, 20, 30, 40, 50, 60, 70, 80}};
    // Programs 0 and 2 read h0 (the second from its element 2), 1 and 3 read h1.
    std::vector<interp::Buffer> b{table({addressOf(res.arrays[0]), addressOf(res.arrays[1]), addressOf(res.arrays[0], 2),
                                         addressOf(res.arrays[1])}),
                                  buffer("out", ScalarKind::F32, 32)};
    interp::LaunchOptions o;
    o.grid = {4, 1, 1};
    o.symbolic = symbolic;
    o.resolver = &res;
    interp::Report r = interp::run(*m, *m->kernels[0], b, {bufArg(0), bufArg(1), intArg(6)}, o);
    INFO(r.text());
    CHECK(r.findings.empty());
    const float* out = as<float>(b[1]);
    for (int k = 0; k < 6; ++k) {
      CHECK(out[k] == res.arrays[0][size_t(k)]);
      CHECK(out[8 + k] == res.arrays[1][size_t(k)]);
      CHECK(out[16 + k] == res.arrays[0][size_t(k) + 2]);
      CHECK(out[24 + k] == res.arrays[1][size_t(k)]);
    }
    CHECK(out[6] == -1.0f);
    CHECK(res.calls == 2);  // one call per array, whatever the number of programs using it
    std::sort(res.finishedNames.begin(), res.finishedNames.end());
    CHECK(res.finishedNames == std::vector<std::string>{"h0", "h1"});
  }
}

TEST_CASE("bounds through a pointer table are the resolved array's", "[interp][resolver]") {
  auto m = compilePython(kTables, "gather", {{"BLOCK", "8"}}, "tab: *i64, out: *fp32, n: i32");
  TestResolver res;
  // h1 right after h0 in one vector's memory would hide an overrun; separate vectors of 4.
  res.arrays = {{1, 2, 3, 4}, {5, 6, 7, 8}};
  std::vector<interp::Buffer> b{table({addressOf(res.arrays[0]), addressOf(res.arrays[1])}), buffer("out", ScalarKind::F32, 16)};
  interp::LaunchOptions o;
  o.grid = {2, 1, 1};
  o.resolver = &res;
  interp::Report r = runBothWays(*m, b, {bufArg(0), bufArg(1), intArg(6)}, o);
  const interp::Finding* f = findingOf(r, Kind::OutOfBounds);
  REQUIRE(f);
  CHECK(f->buffer == "h0");  // program 0 reads h0[4] and h0[5] first (the merged finding keeps the smallest)
  CHECK(f->detail.find("load of h0[4] is 1 element past the end of h0 (4 elements)") != std::string::npos);
  CHECK(f->count == 2);
}

TEST_CASE("an address that no memory holds is a finding naming it", "[interp][resolver]") {
  auto m = compilePython(kTables, "gather", {{"BLOCK", "8"}}, "tab: *i64, out: *fp32, n: i32");
  std::vector<float> stray(8, 1.0f);  // host memory the resolver does not know
  char hex[24];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(addressOf(stray)));
  for (bool withResolver : {true, false}) {
    TestResolver res;
    std::vector<interp::Buffer> b{table({addressOf(stray)}), buffer("out", ScalarKind::F32, 8)};
    interp::LaunchOptions o;
    if (withResolver) o.resolver = &res;
    interp::Report r = interp::run(*m, *m->kernels[0], b, {bufArg(0), bufArg(1), intArg(8)}, o);
    INFO(r.text());
    const interp::Finding* f = findingOf(r, Kind::OutOfBounds);
    REQUIRE(f);
    CHECK(f->detail.find(std::string("load at address ") + hex + ", which no buffer of the launch holds") != std::string::npos);
    CHECK((f->detail.find("no test array holds it") != std::string::npos) == withResolver);
    CHECK(f->count == 8);
    CHECK(as<float>(b[1])[0] == -1.0f);  // the lane got `other`: nothing was read
    CHECK(res.calls == (withResolver ? 8 : 0));  // once per address (the lanes hold 8)
  }
}

TEST_CASE("races and undefined reads in resolved arrays are found", "[interp][resolver]") {
  SECTION("a race between programs writing through the table") {
    auto m = compilePython(kTables, "scatter", {{"BLOCK", "8"}}, "tab: *i64");
    TestResolver res;
    res.arrays = {std::vector<float>(8, 0.0f)};
    std::vector<interp::Buffer> b{table({addressOf(res.arrays[0])})};
    interp::LaunchOptions o;
    o.grid = {2, 1, 1};
    o.schedule = interp::Schedule::Serial;
    o.resolver = &res;
    interp::Report r = interp::run(*m, *m->kernels[0], b, {bufArg(0)}, o);
    INFO(r.text());
    const interp::Finding* f = findingOf(r, Kind::Race);
    REQUIRE(f);
    CHECK(f->buffer == "h0");
  }
  SECTION("undefined elements carried in, and the ones a launch leaves carried out") {
    auto m = compilePython(kTables, "gather", {{"BLOCK", "8"}}, "tab: *i64, out: *fp32, n: i32");
    TestResolver res;
    res.arrays = {{1, 2, 3, 4, 5, 6, 7, 8}};
    res.undefined = {{{12, 16}}};  // bytes of element 3
    std::vector<interp::Buffer> b{table({addressOf(res.arrays[0])}), buffer("out", ScalarKind::F32, 8)};
    interp::LaunchOptions o;
    o.resolver = &res;
    interp::Report r = interp::run(*m, *m->kernels[0], b, {bufArg(0), bufArg(1), intArg(8)}, o);
    INFO(r.text());
    const interp::Finding* f = findingOf(r, Kind::Uninitialized);
    REQUIRE(f);
    CHECK(f->buffer == "h0");
    CHECK(f->element == 3);
    REQUIRE(res.finishedUndefined.size() == 1);
    CHECK(res.finishedUndefined[0] == std::vector<std::pair<uint64_t, uint64_t>>{{12, 16}});
  }
}

TEST_CASE("a resolved allocation overlapping a launch buffer in part is refused", "[interp][resolver]") {
  auto m = compilePython(kTables, "gather", {{"BLOCK", "8"}}, "tab: *i64, out: *fp32, n: i32");
  TestResolver res;
  res.arrays = {std::vector<float>(16, 2.0f)};
  // `out` is the second half of h0's memory, passed as an argument: h0 overlaps it in part.
  interp::Buffer out;
  out.name = "out";
  out.elem = ScalarKind::F32;
  out.shape = {8};
  out.external = reinterpret_cast<uint8_t*>(res.arrays[0].data() + 8);
  out.externalBytes = 32;
  std::vector<interp::Buffer> b{table({addressOf(res.arrays[0])}), out};
  interp::LaunchOptions o;
  o.resolver = &res;
  interp::Report r = interp::run(*m, *m->kernels[0], b, {bufArg(0), bufArg(1), intArg(8)}, o);
  INFO(r.text());
  const interp::Finding* f = findingOf(r, Kind::OutOfBounds);
  REQUIRE(f);
  CHECK(f->detail.find("overlaps other memory of the launch only in part") != std::string::npos);
}
