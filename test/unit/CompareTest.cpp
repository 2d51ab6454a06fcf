// CompareTest.cpp - tilevm diff's comparison rules: exact integers, ULP distance for floats,
// NaN positions, torch.testing.assert_close's relative rule for kernels that reduce, and which
// kernels those are.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "TestKernels.h"
#include "frontend/Compile.h"
#include "runtime/Compare.h"

using namespace tilevm;

namespace {

interp::Buffer floats(std::vector<float> v) {
  interp::Buffer b;
  b.name = "out";
  b.elem = ir::ScalarKind::F32;
  b.shape = {int64_t(v.size())};
  b.bytes.resize(v.size() * 4);
  std::memcpy(b.bytes.data(), v.data(), b.bytes.size());
  return b;
}

uint64_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace

TEST_CASE("ulpDistance counts representable floats between two values, across zero and for NaN") {
  CHECK(rt::ulpDistance(bits(1.0f), bits(std::nextafter(1.0f, 2.0f)), ir::ScalarKind::F32) == 1);
  CHECK(rt::ulpDistance(bits(-0.0f), bits(0.0f), ir::ScalarKind::F32) == 0);
  CHECK(rt::ulpDistance(bits(-1e-45f), bits(1e-45f), ir::ScalarKind::F32) == 2);
  CHECK(rt::ulpDistance(bits(NAN), bits(NAN), ir::ScalarKind::F32) == 0);
  CHECK(rt::ulpDistance(bits(NAN), bits(1.0f), ir::ScalarKind::F32) == UINT64_MAX);
  CHECK(rt::ulpDistance(0x3c00, 0x3c01, ir::ScalarKind::F16) == 1);  // 1.0 and the next half
}

TEST_CASE("exact comparison locates the first divergence; --ulps admits near values") {
  float next = std::nextafter(2.0f, 3.0f);
  auto expected = floats({1, 2, 3, 4}), actual = floats({1, next, 3, 5});
  rt::BufferDiff d = rt::compareBuffers(expected, actual, rt::Tolerance{});
  CHECK(d.mismatches == 2);
  REQUIRE(d.first);
  CHECK(d.first->flat == 1);
  CHECK(d.first->ulps == 1);
  CHECK(d.maxAbsError == 1.0);
  rt::Tolerance oneUlp{1};
  CHECK(rt::compareBuffers(expected, actual, oneUlp).mismatches == 1);
}

TEST_CASE("relative tolerance follows assert_close: atol + rtol * |expected|; NaN positions still must match") {
  // 6.08115079e-05 against a value 17 ulp away: what a reduction summed in another order gives.
  float x = 6.08115079e-05f, y = x;
  for (int i = 0; i < 17; ++i) y = std::nextafter(y, 1.0f);
  auto expected = floats({x, 1000.0f, NAN}), actual = floats({y, 1000.01f, NAN});
  CHECK(rt::compareBuffers(expected, actual, rt::Tolerance{16}).mismatches == 2);
  rt::Tolerance rel{0, true, -1, -1};  // f32 defaults: rtol 1.3e-6, atol 1e-5
  rt::BufferDiff d = rt::compareBuffers(expected, actual, rel);
  CHECK(d.mismatches == 1);  // 1000 vs 1000.01: 1e-5 relative, past 1.3e-6
  REQUIRE(d.first);
  CHECK(d.first->flat == 1);
  rt::Tolerance loose{0, true, 1e-4, 0};
  CHECK(rt::compareBuffers(expected, actual, loose).mismatches == 0);
  rt::Tolerance strict{0, true, 1e-7, 0};  // atol 0: the small element fails too
  CHECK(rt::compareBuffers(expected, actual, strict).mismatches == 2);
  auto nanOnOneSide = floats({x, 1000.0f, 1.0f});
  CHECK(rt::compareBuffers(expected, nanOnOneSide, rel).mismatches == 1);
  auto [rtol16, atol16] = rt::defaultRelativeTolerance(ir::ScalarKind::F16);
  CHECK(rtol16 == 1e-3);
  CHECK(atol16 == 1e-5);
}

TEST_CASE("scaled relative tolerance holds elements near zero by cancellation to the buffer's rms") {
  // A dot product of random data that cancels to 0.0066 (the H200's f16 matmul at K=512 gave
  // 0.00654 against the interpreter's 0.00657: 6 ulp, past atol + rtol * |x| = 1.6e-5), beside
  // elements of the buffer's usual size (rms 20).
  auto expected = floats({0.00656509399f, 20.0f, -20.0f, 20.0f}), actual = floats({0.00654220581f, 20.001f, -20.0f, 25.0f});
  rt::Tolerance rel{0, true, 1e-3, 1e-5};
  CHECK(rt::compareBuffers(expected, actual, rel).mismatches == 2);  // the small element and the wrong one
  rt::Tolerance scaled = rel;
  scaled.scaleByRms = true;  // bound 1e-5 + 1e-3 * (|x| + 17.3)
  rt::BufferDiff d = rt::compareBuffers(expected, actual, scaled);
  CHECK(d.mismatches == 1);  // 25 vs 20 is still wrong
  REQUIRE(d.first);
  CHECK(d.first->flat == 3);
}

TEST_CASE("kernels that reduce or use approximate math are recognised; exact elementwise ones are not") {
  auto vadd = test::buildVadd();
  CHECK_FALSE(rt::reducesInAnyOrder(*vadd->kernels[0]));
  CHECK(rt::defaultUlps(*vadd->kernels[0]) == 0);  // every op correctly rounded on both engines
  frontend::CompileOptions o;
  o.kernel = "softmax_k";
  o.defines["BLOCK"] = "128";
  o.signature = "out: *fp32, inp: *fp32, in_stride: i32, out_stride: i32, n_cols: i32";
  auto softmax = frontend::compileKernel(test::readRepoFile("bench/anchors/triton_gpu_kernels.py"), "anchors.py", o);
  REQUIRE(softmax.ok());
  CHECK(rt::reducesInAnyOrder(*(*softmax)->kernels[0]));
  CHECK(rt::defaultUlps(*(*softmax)->kernels[0]) == ir::opInfo(ir::Opcode::Exp).ulps);  // tl.exp
  CHECK(ir::opInfo(ir::Opcode::Exp).ulps > 0);
}

TEST_CASE("f32 dots at tf32 precision are recognised and their f32 results held to 2^-13") {
  frontend::CompileOptions o;
  o.defines["N"] = "16";
  o.signature = "a: *fp32, b: *fp32, c: *fp32";
  std::string src = test::readRepoFile("test/lit/codegen/Inputs/tf32x3.py");
  o.kernel = "dot_tf32";
  auto tf32 = frontend::compileKernel(src, "tf32x3.py", o);
  REQUIRE(tf32.ok());
  CHECK(rt::dotsInTf32(*(*tf32)->kernels[0]));
  o.kernel = "dot3";  // input_precision="tf32x3": three tf32 dots (the frontend's split)
  auto x3 = frontend::compileKernel(src, "tf32x3.py", o);
  REQUIRE(x3.ok());
  CHECK(rt::dotsInTf32(*(*x3)->kernels[0]));
  o.kernel = "dot_ieee";  // input_precision="ieee": FMA on the GPU, f32's own tolerance
  auto ieee = frontend::compileKernel(src, "tf32x3.py", o);
  REQUIRE(ieee.ok());
  CHECK_FALSE(rt::dotsInTf32(*(*ieee)->kernels[0]));
  // 35.656 vs 35.6559 (the H200's tf32 mma against the interpreter at K = 256: 23 ulp).
  auto expected = floats({35.6560135f, 1.0f}), actual = floats({35.6559258f - 0.0001f, 1.0f});
  rt::Tolerance rel{0, true, -1, -1, true};
  CHECK(rt::compareBuffers(expected, actual, rel).mismatches == 1);
  rel.tf32Dot = true;
  CHECK(rt::compareBuffers(expected, actual, rel).mismatches == 0);
  auto wrong = floats({36.0f, 1.0f});  // a wrong fragment is off by far more
  CHECK(rt::compareBuffers(expected, wrong, rel).mismatches == 1);
}

TEST_CASE("a computed dot operand rounded to a narrower float holds results to that type's rtol") {
  frontend::CompileOptions o;
  o.kernel = "attn_bwd_dkdv_kernel";
  o.defines = {{"HEAD", "64"}, {"BLOCK_M", "32"}, {"BLOCK_N", "128"}};
  o.signature = "Q: *fp16, K: *fp16, V: *fp16, DO: *fp16, M: *fp32, Di: *fp32, DK: *fp32, DV: *fp32, N_CTX: i32";
  auto bwd = frontend::compileKernel(test::readRepoFile("test/corpus/attention_bwd_dkdv.py"), "attention_bwd_dkdv.py", o);
  REQUIRE(bwd.ok());
  rt::Tolerance t = rt::defaultTolerance(*(*bwd)->kernels[0]);
  CHECK(t.roundedRtol == 1e-3);  // p.to(f16) and ds.to(f16): f16's rtol
  CHECK(rt::roundedDotOperands(**bwd, *(*bwd)->kernels[0]).size() == 2);
  o.kernel = "fp8_attention_chain_kernel";
  o.defines = {{"M", "64"}, {"N", "64"}, {"D", "64"}};
  o.signature = "Q: *fp16, K: *fp16, VT: *fp16, O: *fp32";
  auto fp8 = frontend::compileKernel(test::readRepoFile("test/corpus/fp8_attention_chain.py"), "fp8_attention_chain.py", o);
  REQUIRE(fp8.ok());
  CHECK(rt::defaultTolerance(*(*fp8)->kernels[0]).roundedRtol == 0.25);  // e5m2: one ulp relative
  auto vadd = test::buildVadd();
  CHECK(rt::defaultTolerance(*vadd->kernels[0]).roundedRtol == 0);
  // The H200 against the interpreter, dV of the backward: 9.69212723 vs 9.69246387 (353 ulp of
  // f32, some P rounded to f16 the other way), beside elements of the buffer's usual size.
  auto expected = floats({9.69246387f, 40.0f, -40.0f, 40.0f}), actual = floats({9.69212723f, 40.0f, -40.0f, 44.0f});
  t.orderDependent.clear();
  t.roundedRtol = 0;
  CHECK(rt::compareBuffers(expected, actual, t).mismatches == 2);  // f32's rtol: both differ
  t.roundedRtol = 1e-3;
  rt::BufferDiff d = rt::compareBuffers(expected, actual, t);
  CHECK(d.mismatches == 1);  // 44 vs 40 is still wrong
  REQUIRE(d.first);
  CHECK(d.first->flat == 3);
}

TEST_CASE("diff --self: floats summed under a lock may differ by summation order, nothing else may") {
  frontend::CompileOptions o;
  o.kernel = "_ln_bwd_dx_fused";
  o.defines = {{"GROUP_SIZE_M", "3"}, {"BLOCK_SIZE_N", "64"}};
  o.signature = "DX: *fp32, DY: *fp32, DW: *fp32, X: *fp32, W: *fp32, Mean: *fp32, Rstd: *fp32, Lock: *i32, stride: i32, N: i32";
  auto lock = frontend::compileKernel(test::readRepoFile("test/corpus/layernorm_lock.py"), "layernorm_lock.py", o);
  REQUIRE(lock.ok());
  CHECK(rt::orderDependence(*(*lock)->kernels[0]) == "lock-ordered accumulation");
  CHECK(rt::orderDependence(*test::buildVadd()->kernels[0]).empty());
  // 2 ulp (a sum of four terms in another order) is order dependence; 0.01 off is a mismatch.
  float x = 0.373598397f, y = std::nextafter(std::nextafter(x, 1.0f), 1.0f);
  auto expected = floats({x, 1.5f, -2.0f, 7.0f}), actual = floats({y, 1.5f, -2.0f, 7.0f});
  rt::Tolerance exact{};
  CHECK(rt::compareBuffers(expected, actual, exact).mismatches == 1);
  rt::Tolerance ordered{};
  ordered.orderDependent = "lock-ordered accumulation";
  rt::BufferDiff d = rt::compareBuffers(expected, actual, ordered);
  CHECK(d.mismatches == 0);
  CHECK(d.orderDependent == 1);
  CHECK(d.orderMaxUlps == 2);
  CHECK(rt::describe(d) == "  out: order-dependent (lock-ordered accumulation): max 2 ulp; 1 of 4 elements differ within the summation-order tolerance\n");
  auto wrong = floats({x, 1.51f, -2.0f, 7.0f});
  d = rt::compareBuffers(expected, wrong, ordered);
  CHECK(d.mismatches == 1);
  CHECK(rt::describe(d).find("FAIL") != std::string::npos);
  auto nan = floats({x, NAN, -2.0f, 7.0f});  // NaN positions stay exact
  CHECK(rt::compareBuffers(expected, nan, ordered).mismatches == 1);
  interp::Buffer ints = floats({1, 2, 3, 4}), other = floats({1, 2, 3, 4});  // integers stay exact
  ints.elem = other.elem = ir::ScalarKind::I32;
  other.bytes[0] ^= 1;
  CHECK(rt::compareBuffers(ints, other, ordered).mismatches == 1);
}
