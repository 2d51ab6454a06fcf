// TritonSemanticsTest.cpp - rules of Triton's language (its semantic.py and core.py) that the
// frontend follows where C or NumPy would differ: unsigned pointer offsets, the signedness of
// >>, promotion with Python scalars, range()'s keywords, compile-time ==, one-element tuples
// from reduce and scan. Each kernel runs on the interpreter against values computed here.
#include "InterpHarness.h"

using namespace tilevm;
using namespace tilevm::test;
using ir::ScalarKind;

namespace {

const char* kSemantics = R"(
import triton
import triton.language as tl

@triton.jit
def table(codes, lut, out, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out + offs, tl.load(lut + tl.load(codes + offs)))

@triton.jit
def shr(a, b, out, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out + offs, tl.load(a + offs) >> tl.load(b + offs))

@triton.jit
def rshift_scalar(a, out, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out + offs, 1024 >> tl.load(a + offs))

@triton.jit
def umod(a, out, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(a + offs)
    tl.store(out + offs, x % 7 + x // 3)

@triton.jit
def ranges(out, KIND: tl.constexpr):
    acc = 0
    if KIND == 0:
        for i in tl.static_range(0, 100, step=7):
            acc += i
    elif KIND == 1:
        for i in tl.static_range(3, step=1, arg2=11):
            acc += i
    elif KIND == 2:
        for i in tl.range(0, 100, step=7, num_stages=2):
            acc += i
    else:
        for i in tl.range(20, step=-3, arg2=1):
            acc += i
    tl.store(out, acc)

@triton.jit
def shape_eq(out):
    x = tl.zeros([4, 8], tl.float32)
    r = 0
    if x.shape == (4, 8):
        r += 1
    if x.shape != [4, 8]:
        r += 10
    if (1, 2.0, None) == (1, 2, None):
        r += 100
    if (1, 2) == (1, 2, 3):
        r += 1000
    tl.store(out, r)

@triton.jit
def numel(out):
    x = tl.zeros([4, 8], tl.float32)
    tl.store(out, x.numel + tl.arange(0, 16).numel * 1000)

@triton.jit
def interleave(a, b, out, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(a + offs)
    y = tl.load(b + offs)
    tl.store(out + tl.arange(0, 2 * N), tl.interleave(x, y))
    z = x[:, None] + tl.zeros([N, 2], tl.float32)
    w = z.interleave(z * 10)
    tl.store(out + 2 * N + tl.arange(0, 4 * N), tl.reshape(w, [4 * N]))

@triton.jit
def add_fn(a, b):
    return a + b

@triton.jit
def one_tuple(a, s, t, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(a + offs)
    r, = tl.associative_scan((x,), 0, add_fn)
    tl.store(s + offs, r)
    total, = tl.reduce((x,), 0, add_fn)
    tl.store(t, total)
)";

template <typename T>
std::vector<T> values(interp::Buffer& b) {
  return std::vector<T>(as<T>(b), as<T>(b) + b.numel());
}

}  // namespace

TEST_CASE("unsigned pointer offsets are zero-extended", "[frontend][semantics]") {
  auto m = compilePython(kSemantics, "table", {{"N", "4"}}, "codes: *u8, lut: *fp32, out: *fp32");
  std::vector<interp::Buffer> b{buffer("codes", ScalarKind::I8, 4), buffer("lut", ScalarKind::F32, 256), buffer("out", ScalarKind::F32, 4)};
  const uint8_t codes[4] = {200, 1, 255, 128};
  std::memcpy(b[0].bytes.data(), codes, 4);
  for (int i = 0; i < 256; ++i) as<float>(b[1])[i] = float(i) * 0.5f;
  auto r = runBothWays(*m, b, {bufArg(0), bufArg(1), bufArg(2)}, {});
  INFO(r.text());
  CHECK(r.findings.empty());
  CHECK(values<float>(b[2]) == std::vector<float>{100.0f, 0.5f, 127.5f, 64.0f});
}

TEST_CASE(">> is arithmetic or logical by the tensor operand's own dtype", "[frontend][semantics]") {
  auto m = compilePython(kSemantics, "shr", {{"N", "4"}}, "a: *i8, b: *u8, out: *i8");
  std::vector<interp::Buffer> b{buffer("a", ScalarKind::I8, 4), buffer("b", ScalarKind::I8, 4), buffer("out", ScalarKind::I8, 4)};
  const int8_t a[4] = {-128, -4, -1, 100};
  std::memcpy(b[0].bytes.data(), a, 4);
  std::memset(b[1].bytes.data(), 1, 4);
  runChecked(*m, b, {bufArg(0), bufArg(1), bufArg(2)});
  CHECK(values<int8_t>(b[2]) == std::vector<int8_t>{-64, -2, -1, 50});
  // The unsigned operand decides when it is the tensor: 1024 >> u32 is logical.
  auto s = compilePython(kSemantics, "rshift_scalar", {{"N", "2"}}, "a: *u32, out: *u32");
  std::vector<interp::Buffer> c{buffer("a", ScalarKind::I32, 2), buffer("out", ScalarKind::I32, 2)};
  as<uint32_t>(c[0])[0] = 3, as<uint32_t>(c[0])[1] = 10;
  runChecked(*s, c, {bufArg(0), bufArg(1)});
  CHECK(values<uint32_t>(c[1]) == std::vector<uint32_t>{128, 1});
}

TEST_CASE("a Python int meets an unsigned tensor as one kind: x_u8 % 7 stays uint8", "[frontend][semantics]") {
  auto m = compilePython(kSemantics, "umod", {{"N", "4"}}, "a: *u8, out: *u8");
  std::vector<interp::Buffer> b{buffer("a", ScalarKind::I8, 4), buffer("out", ScalarKind::I8, 4)};
  const uint8_t a[4] = {250, 13, 7, 255};
  std::memcpy(b[0].bytes.data(), a, 4);
  runChecked(*m, b, {bufArg(0), bufArg(1)});
  std::vector<uint8_t> want;
  for (uint8_t x : a) want.push_back(uint8_t(x % 7 + x / 3));
  CHECK(values<uint8_t>(b[1]) == want);
}

TEST_CASE("range() and static_range() bind arg1, arg2 and step as Triton's signatures", "[frontend][semantics]") {
  auto sum = [](int64_t lo, int64_t hi, int64_t step) {
    int64_t s = 0;
    for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) s += i;
    return int32_t(s);
  };
  const int32_t want[4] = {sum(0, 100, 7), sum(3, 11, 1), sum(0, 100, 7), sum(20, 1, -3)};
  for (int kind = 0; kind < 4; ++kind) {
    INFO("kind " << kind);
    auto m = compilePython(kSemantics, "ranges", {{"KIND", std::to_string(kind)}}, "out: *i32");
    std::vector<interp::Buffer> b{buffer("out", ScalarKind::I32, 1)};
    runChecked(*m, b, {bufArg(0)});
    CHECK(as<int32_t>(b[0])[0] == want[kind]);
  }
  // Unknown and repeated keywords are errors, located at the call.
  auto bad = [](const std::string& call) {
    std::string src = "import triton\nimport triton.language as tl\n@triton.jit\ndef k(out):\n    for i in " + call +
                      ":\n        tl.store(out, i)\n";
    frontend::CompileOptions o;
    o.kernel = "k";
    o.signature = "out: *i32";
    auto m = frontend::compileKernel(src, "bad.py", o);
    REQUIRE(!m);
    return m.error().message;
  };
  CHECK(bad("tl.static_range(0, 4, stride=2)") == "unexpected keyword argument 'stride' to static_range()");
  CHECK(bad("tl.static_range(0, 4, 1, step=2)") == "static_range() got multiple values for argument 'step'");
  CHECK(bad("range(0, 4, step=2)") == "unexpected keyword argument 'step' to range()");
}

TEST_CASE("== on compile-time tuples and shapes compares elements, as Python does", "[frontend][semantics]") {
  auto m = compilePython(kSemantics, "shape_eq", {}, "out: *i32");
  std::vector<interp::Buffer> b{buffer("out", ScalarKind::I32, 1)};
  runChecked(*m, b, {bufArg(0)});
  CHECK(as<int32_t>(b[0])[0] == 101);
}

TEST_CASE("reduce and associative_scan of a one-element tuple give a one-element tuple", "[frontend][semantics]") {
  auto m = compilePython(kSemantics, "one_tuple", {{"N", "8"}}, "a: *fp32, s: *fp32, t: *fp32");
  std::vector<interp::Buffer> b{buffer("a", ScalarKind::F32, 8), buffer("s", ScalarKind::F32, 8), buffer("t", ScalarKind::F32, 1)};
  for (int i = 0; i < 8; ++i) as<float>(b[0])[i] = float(i + 1);
  runChecked(*m, b, {bufArg(0), bufArg(1), bufArg(2)});
  CHECK(values<float>(b[1]) == std::vector<float>{1, 3, 6, 10, 15, 21, 28, 36});
  CHECK(as<float>(b[2])[0] == 36.0f);
}

TEST_CASE("tensor.numel is a compile-time element count", "[frontend][semantics]") {
  auto m = compilePython(kSemantics, "numel", {}, "out: *i32");
  std::vector<interp::Buffer> b{buffer("out", ScalarKind::I32, 1)};
  runChecked(*m, b, {bufArg(0)});
  CHECK(as<int32_t>(b[0])[0] == 16032);
}

TEST_CASE("tl.interleave joins and merges the last two dimensions", "[frontend][semantics]") {
  auto m = compilePython(kSemantics, "interleave", {{"N", "4"}}, "a: *fp32, b: *fp32, out: *fp32");
  std::vector<interp::Buffer> b{buffer("a", ScalarKind::F32, 4), buffer("b", ScalarKind::F32, 4), buffer("out", ScalarKind::F32, 24)};
  for (int i = 0; i < 4; ++i) as<float>(b[0])[i] = float(i + 1), as<float>(b[1])[i] = float(-(i + 1));
  runChecked(*m, b, {bufArg(0), bufArg(1), bufArg(2)});
  std::vector<float> want{1, -1, 2, -2, 3, -3, 4, -4};
  for (int r = 0; r < 4; ++r)  // each row of z is [a_r, a_r]; interleaved with 10x: a, 10a, a, 10a
    for (float v : {1.0f, 10.0f, 1.0f, 10.0f}) want.push_back(float(r + 1) * v);
  CHECK(values<float>(b[2]) == want);
}
