// VerifierTest.cpp - type, shape, broadcast, dominance and terminator rules.
#include <catch2/catch.hpp>

#include "TestKernels.h"
#include "ir/Verifier.h"
#include "ir/text/Text.h"

using namespace tilevm;
using namespace tilevm::ir;

namespace {
// The first verifier message for a one-kernel body (or the parse error).
std::string verifyBody(const std::string& params, const std::string& body) {
  std::string text = "kernel @k(" + params + ") {\n" + body + "\n  return\n}\n";
  auto m = parse(text, "t.tile");
  if (!m) return "parse: " + m.error().message;
  auto d = verify(**m);
  return d.empty() ? std::string("ok") : d[0].message;
}
}  // namespace

TEST_CASE("elementwise ops need one type and the right element class", "[verifier]") {
  CHECK(verifyBody("%a: i32, %b: i32", "%c = addi %a, %b : i32") == "ok");
  CHECK(verifyBody("%a: f32, %b: f32", "%c = addi %a, %b : f32") == "'addi' expects integer operands, got f32");
  CHECK(verifyBody("%a: i32, %b: i64", "%c = addi %a, %b : i32") == "'addi' operands must have one type, got i32 and i64");
  CHECK(verifyBody("%a: f16, %b: f16", "%c = mulf %a, %b : f32") == "'mulf' result type f32 must equal operand type f16");
  CHECK(verifyBody("%a: i32", "%c = exp %a : i32") == "'exp' expects float operands, got i32");
}

TEST_CASE("shape ops follow the broadcast rules", "[verifier]") {
  CHECK(verifyBody("%a: i32", "%t = splat %a : tile<4x8xi32>\n%r = reshape %t : tile<32xi32>") == "ok");
  CHECK(verifyBody("%a: i32", "%t = splat %a : tile<4x1xi32>\n%r = broadcast %t : tile<4x8xi32>") == "ok");
  CHECK(verifyBody("%a: i32", "%t = splat %a : tile<4x2xi32>\n%r = broadcast %t : tile<4x8xi32>") ==
        "'broadcast' cannot broadcast dim 1 of tile<4x2xi32> to tile<4x8xi32>");
  CHECK(verifyBody("%a: i32", "%t = splat %a : tile<4xi32>\n%r = broadcast %t : tile<4x8xi32>") ==
        "'broadcast' rank must stay the same: tile<4xi32> to tile<4x8xi32>");
  CHECK(verifyBody("%a: i32", "%t = splat %a : tile<4x8xi32>\n%r = reshape %t : tile<30xi32>") ==
        "'reshape' element count changes: tile<4x8xi32> to tile<30xi32>");
  CHECK(verifyBody("%a: i32", "%t = splat %a : tile<4x8xi32>\n%r = permute %t {order = [1, 0]} : tile<8x4xi32>") == "ok");
  CHECK(verifyBody("%a: i32", "%t = splat %a : tile<4x8xi32>\n%r = permute %t {order = [1, 1]} : tile<8x4xi32>") ==
        "'permute' 'order' is not a permutation");
  CHECK(verifyBody("%a: i32", "%t = splat %a : tile<4xi32>\n%r = expand_dims %t {axis = 1} : tile<4x1xi32>") == "ok");
  CHECK(verifyBody("%a: i32", "%t = splat %a : tile<4xi32>\n%r = expand_dims %t {axis = 2} : tile<4x1xi32>") ==
        "'expand_dims' attribute 'axis' = 2 out of range [0, 1]");
  CHECK(verifyBody("%a: i32", "%t = splat %a : tile<4xi32>\n%r = join %t, %t : tile<4x2xi32>\n%x, %y = split %r : tile<4xi32>, tile<4xi32>") == "ok");
  CHECK(verifyBody("%a: i32", "%t = splat %a : tile<4xi32>\n%r = cat %t, %t : tile<8xi32>") == "ok");
}

TEST_CASE("memory ops check pointer, mask and other", "[verifier]") {
  const char* p = "%p: ptr<f32>";
  CHECK(verifyBody(p, "%t = splat %p : tile<8xptr<f32>>\n%v = load %t : tile<8xf32>") == "ok");
  CHECK(verifyBody(p, "%t = splat %p : tile<8xptr<f32>>\n%v = load %t : tile<8xf16>") ==
        "'load' value type tile<8xf16> does not match pointer tile<8xptr<f32>>");
  CHECK(verifyBody(p, "%t = splat %p : tile<8xptr<f32>>\n%m = constant {value = 1} : tile<4xi1>\n%v = load %t, %m : tile<8xf32>") ==
        "'load' mask must be i1 of the pointer's shape, got tile<4xi1>");
  CHECK(verifyBody(p, "%t = splat %p : tile<8xptr<f32>>\n%m = constant {value = 1} : tile<8xi1>\n%o = constant {value = 0} : tile<8xi32>\n%v = load %t, %m, %o : tile<8xf32>") ==
        "'load' 'other' must have the result type tile<8xf32>, got tile<8xi32>");
  CHECK(verifyBody(p, "%v = constant {value = 1.0} : f32\n%r = atomic_rmw %p, %v {kind = add} : f32") ==
        "'atomic_rmw' 'add' needs integer values");
  CHECK(verifyBody(p, "%v = constant {value = 1.0} : f32\n%r = atomic_rmw %p, %v {kind = fadd, sem = acq_rel} : f32") == "ok");
  CHECK(verifyBody(p, "%v = constant {value = 1.0} : f32\n%r = atomic_rmw %p, %v {kind = sub} : f32") ==
        "'atomic_rmw' attribute 'kind' must be one of add, fadd, max, min, umax, umin, and, or, xor, xchg");
}

TEST_CASE("constants must fit their type", "[verifier]") {
  CHECK(verifyBody("", "%c = constant {value = 255} : i8") == "ok");
  CHECK(verifyBody("", "%c = constant {value = 256} : i8") == "'constant' value 256 does not fit i8");
  CHECK(verifyBody("", "%c = constant {value = 1} : f32") == "'constant' float constant needs a float 'value'");
  CHECK(verifyBody("", "%c = constant : f32") == "'constant' requires attribute 'value'");
}

TEST_CASE("dot chains shapes and element types", "[verifier]") {
  std::string pre = "%a = constant {value = 0.0} : tile<16x32xf16>\n%b = constant {value = 0.0} : tile<32x8xf16>\n";
  CHECK(verifyBody("", pre + "%c = constant {value = 0.0} : tile<16x8xf32>\n%d = dot %a, %b, %c : tile<16x8xf32>") == "ok");
  CHECK(verifyBody("", pre + "%c = constant {value = 0.0} : tile<16x9xf32>\n%d = dot %a, %b, %c : tile<16x9xf32>") ==
        "'dot' shapes do not chain: tile<16x32xf16> @ tile<32x8xf16> + tile<16x9xf32>");
  CHECK(verifyBody("", pre + "%c = constant {value = 0} : tile<16x8xi32>\n%d = dot %a, %b, %c : tile<16x8xi32>") ==
        "'dot' unsupported element types tile<16x32xf16> x tile<32x8xf16> -> tile<16x8xi32>");
}

TEST_CASE("regions: combiners, loops, branches", "[verifier]") {
  CHECK(verifyBody("%a: f32", "%t = splat %a : tile<8xf32>\n%s = reduce %t {axis = 0} : f32 (%x: f32, %y: f32) {\n %z = addf %x, %y : f32\n yield %z\n}") == "ok");
  CHECK(verifyBody("%a: f32", "%t = splat %a : tile<8xf32>\n%s = reduce %t {axis = 0} : f32 (%x: f32, %y: f32) {\n %z = addf %x, %a : f32\n yield %z\n}") ==
        "'addf' operand #1 does not dominate its use");
  CHECK(verifyBody("%a: f32", "%t = splat %a : tile<8xf32>\n%s = reduce %t {axis = 0} : f32 (%x: f32, %y: f32) {\n %z = addf %x, %y : f32\n}") ==
        "region must end with 'yield', got 'addf'");
  CHECK(verifyBody("%n: i32", "%z = constant {value = 0} : i32\n%o = constant {value = 1} : i32\n%r = for %z, %n, %o, %z : i32 (%i: i32, %acc: i32) {\n %s = addi %acc, %i : i32\n yield %s\n}") == "ok");
  CHECK(verifyBody("%n: i32", "%z = constant {value = 0} : i32\n%o = constant {value = 1} : i32\n%r = for %z, %n, %o, %z : i32 (%i: i32, %acc: i32) {\n %s = sitofp %acc : f32\n yield %s\n}") ==
        "'for' body yields f32 at #0, expected i32");
  CHECK(verifyBody("%c: i1", "%r = if %c : i32 () {\n %a = constant {value = 1} : i32\n yield %a\n} () {\n %b = constant {value = 2} : i32\n yield %b\n}") == "ok");
  CHECK(verifyBody("%c: i32", "%r = if %c : i32 () {\n %a = constant {value = 1} : i32\n yield %a\n} () {\n %b = constant {value = 2} : i32\n yield %b\n}") ==
        "'if' condition must be an i1 scalar, got i32");
  CHECK(verifyBody("%n: i32", "%z = constant {value = 0} : i32\n%r = while %z : i32 (%i: i32) {\n %c = cmpi %i, %n {pred = slt} : i1\n condition %c, %i\n} (%j: i32) {\n %o = constant {value = 1} : i32\n %k = addi %j, %o : i32\n yield %k\n}") == "ok");
  CHECK(verifyBody("", "return") == "'return' must be the last op of its region");
}

TEST_CASE("loops carry Triton's hints as bounded attributes", "[verifier]") {
  const std::string head = "%z = constant {value = 0} : i32\n%o = constant {value = 1} : i32\n";
  auto loop = [&](const std::string& attrs) {
    return verifyBody("%n: i32", head + "for %z, %n, %o " + attrs + " (%i: i32) {\n yield\n}");
  };
  CHECK(loop("{disable_licm = 1, unroll_factor = 4}") == "ok");
  CHECK(loop("{unroll_factor = 64}") == "ok");
  CHECK(loop("{unroll_factor = 0}") == "'for' attribute 'unroll_factor' = 0 out of range [1, 64]");
  CHECK(loop("{unroll_factor = 65}") == "'for' attribute 'unroll_factor' = 65 out of range [1, 64]");
  CHECK(loop("{disable_licm = 2}") == "'for' attribute 'disable_licm' = 2 out of range [0, 1]");
  CHECK(verifyBody("%n: i32", "%z = constant {value = 0} : i32\n%r = while %z {unroll_factor = 0} : i32 (%i: i32) {\n %c = cmpi %i, %n {pred = slt} : i1\n condition %c, %i\n} (%j: i32) {\n yield %j\n}") ==
        "'while' attribute 'unroll_factor' = 0 out of range [1, 64]");
}

TEST_CASE("verifier errors carry the op's location", "[verifier]") {
  auto m = test::buildVadd();
  // Break the store: make its value operand an i32 tile.
  Block& body = m->kernels[0]->body.block;
  Op& store = *body.ops[body.ops.size() - 2];
  Value* offs = body.ops[4]->result();  // addi: the offsets
  REQUIRE(offs->type.str() == "tile<256xi32>");
  store.operands[1] = offs;
  auto d = verify(*m);
  REQUIRE(d.size() == 1);
  CHECK(d[0].file == "vadd.py");
  CHECK(d[0].line == 8);
  CHECK(d[0].col == 5);
  CHECK(d[0].message == "'store' value type tile<256xi32> does not match pointer tile<256xptr<f32>>");
}

TEST_CASE("every op has type rules (checkOpTypes never says unknown)", "[verifier]") {
  // A zero-operand op of each kind would crash the rules; verify() checks arity first, so use
  // opInfo to ensure arity bounds are consistent with the rules' assumptions.
  for (unsigned i = 0; i < kNumOpcodes; ++i) {
    const OpInfo& info = opInfo(static_cast<Opcode>(i));
    INFO(std::string(info.mnemonic));
    CHECK((info.maxOperands < 0 || info.maxOperands >= info.minOperands));
    CHECK(opcodeFromMnemonic(info.mnemonic) == static_cast<Opcode>(i));
    CHECK(opcodeFromBytecode(info.bytecode) == static_cast<Opcode>(i));
  }
}

TEST_CASE("inline_asm's results take its operands' shape, scalars without operands", "[verifier]") {
  const std::string attrs = R"({asm = "mov.u32 $0, %smid;", constraints = "=r", pack = 1, pure = 1})";
  CHECK(verifyBody("", "%s = inline_asm " + attrs + " : i32") == "ok");
  CHECK(verifyBody("", "%s = inline_asm " + attrs + " : tile<4xi32>") ==
        "'inline_asm' without operands, results must be scalars, got tile<4xi32>");
  CHECK(verifyBody("%a: i32", "%t = splat %a : tile<4xi32>\n%s = inline_asm %t " + attrs + " : tile<8xi32>") ==
        "'inline_asm' results must have the operands' shape tile<4xi32>, got tile<8xi32>");
}

TEST_CASE("histogram counts a 1-D integer tile into a 1-D i32 tile", "[verifier]") {
  const std::string x = "%a: i32, %m: i1", splat = "%t = splat %a : tile<16xi32>\n%k = splat %m : tile<16xi1>\n";
  CHECK(verifyBody(x, splat + "%h = histogram %t, %k : tile<8xi32>") == "ok");
  CHECK(verifyBody(x, splat + "%h = histogram %t : tile<8xi64>") == "'histogram' result must be a 1-D i32 tile of counts, got tile<8xi64>");
  CHECK(verifyBody(x, splat + "%h = histogram %k : tile<8xi32>") == "'histogram' expects a 1-D integer tile, got tile<16xi1>");
  CHECK(verifyBody(x, splat + "%h = histogram %t, %t : tile<8xi32>") ==
        "'histogram' mask must be an i1 tile of the input's shape tile<16xi32>, got tile<16xi32>");
}
