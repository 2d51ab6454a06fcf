// OpTableTest.cpp - the per-op facts of ir/ops.def: families and their generated case lists,
// bytecode versions, diff's tolerances, the in-place reuse trait.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

#include "ir/Op.h"

using namespace tilevm::ir;

namespace {
// Through the generated labels: the family of `c` as the int-binary handler's switch sees it.
bool labelledIntBinary(Opcode c) {
  switch (c) {
#define TILEVM_CASES_OF IntBinary
#include "ir/FamilyCases.inc"
    return true;
#define TILEVM_CASES_NOT_OF IntBinary
#include "ir/FamilyCases.inc"
    return false;
  }
  return false;
}

bool labelledFloatArith(Opcode c) {  // a handler of three families
  switch (c) {
#define TILEVM_CASES_NOT_OF FloatBinary
#define TILEVM_CASES_NOT_OF_2 FloatUnary
#define TILEVM_CASES_NOT_OF_3 FloatTernary
#include "ir/FamilyCases.inc"
    return false;
#define TILEVM_CASES_OF FloatBinary
#include "ir/FamilyCases.inc"
#define TILEVM_CASES_OF FloatUnary
#include "ir/FamilyCases.inc"
#define TILEVM_CASES_OF FloatTernary
#include "ir/FamilyCases.inc"
    return true;
  }
  return false;
}
}  // namespace

TEST_CASE("the generated case labels follow the family column", "[optable]") {
  for (unsigned i = 0; i < kNumOpcodes; ++i) {
    Opcode c = Opcode(i);
    INFO(opInfo(c).mnemonic);
    CHECK(labelledIntBinary(c) == (opFamily(c) == OpFamily::IntBinary));
    OpFamily f = opFamily(c);
    CHECK(labelledFloatArith(c) == (f == OpFamily::FloatBinary || f == OpFamily::FloatUnary || f == OpFamily::FloatTernary));
  }
  CHECK(labelledIntBinary(Opcode::MulHiUI));
  CHECK_FALSE(labelledIntBinary(Opcode::AbsI));  // int-unary
  CHECK(labelledFloatArith(Opcode::Fma));
  CHECK_FALSE(labelledFloatArith(Opcode::CmpF));  // compare
}

TEST_CASE("families group the ops the engines dispatch together", "[optable]") {
  std::set<std::string> names;
  for (unsigned i = 0; i < kNumOpcodes; ++i) names.insert(std::string(familyName(opFamily(Opcode(i)))));
  CHECK(names.size() == 19);  // every family has an op
  CHECK(opFamily(Opcode::AddI) == OpFamily::IntBinary);
  CHECK(opFamily(Opcode::CmpI) == OpFamily::Compare);
  CHECK(opFamily(Opcode::CmpF) == OpFamily::Compare);
  CHECK(opFamily(Opcode::ExtF) == OpFamily::Cast);
  CHECK(opFamily(Opcode::Yield) == OpFamily::Terminator);
  CHECK(opFamily(Opcode::InlineAsm) == OpFamily::Target);
  CHECK(opFamily(Opcode::Map) == OpFamily::Reduce);
  for (unsigned i = 0; i < kNumOpcodes; ++i) {
    Opcode c = Opcode(i);
    INFO(opInfo(c).mnemonic);
    CHECK(hasTrait(c, Terminator) == (opFamily(c) == OpFamily::Terminator));
    // Control ops run their regions; the reduce family's a combiner or scalar function, except
    // histogram, which counts.
    CHECK((opInfo(c).numRegions > 0) ==
          (opFamily(c) == OpFamily::Control || (opFamily(c) == OpFamily::Reduce && c != Opcode::Histogram)));
  }
}

TEST_CASE("diff's ulps: the ops the GPU approximates, nothing else", "[optable]") {
  // Triton's choices: f32 exp as ex2.approx(x log2 e) (its error grows with |x|), f32 `/` as
  // div.full.f32 (2 ulp); the transcendentals through ex2.approx or libdevice.
  const std::map<Opcode, uint32_t> approximate = {{Opcode::Exp, 65}, {Opcode::Exp2, 16}, {Opcode::Log, 16}, {Opcode::Log2, 16},
                                                  {Opcode::Sin, 16}, {Opcode::Cos, 16},  {Opcode::Tanh, 16}, {Opcode::Erf, 16},
                                                  {Opcode::Pow, 16}, {Opcode::DivF, 2}, {Opcode::Log10, 16}, {Opcode::Log1p, 16},
                                                  {Opcode::Expm1, 16}, {Opcode::Sinh, 16}, {Opcode::Cosh, 16}, {Opcode::Tan, 16},
                                                  {Opcode::Asin, 16}, {Opcode::Acos, 16}, {Opcode::Atan, 16}, {Opcode::Asinh, 16},
                                                  {Opcode::Acosh, 16}, {Opcode::Atanh, 16}, {Opcode::Erfc, 16}, {Opcode::Cbrt, 16},
                                                  {Opcode::Exp10, 16}, {Opcode::Atan2, 16}, {Opcode::Hypot, 16}, {Opcode::Erfinv, 16},
                                                  {Opcode::Erfcinv, 16}, {Opcode::Normcdf, 16}, {Opcode::Normcdfinv, 16}};
  for (unsigned i = 0; i < kNumOpcodes; ++i) {
    Opcode c = Opcode(i);
    INFO(opInfo(c).mnemonic);
    CHECK(isApproximate(c) == (approximate.count(c) == 1));
    if (isApproximate(c)) CHECK(opInfo(c).ulps == approximate.at(c));
  }
  CHECK_FALSE(isApproximate(Opcode::PreciseSqrt));
  CHECK_FALSE(isApproximate(Opcode::PreciseDiv));
}

TEST_CASE("in-place reuse: elementwise float arithmetic, not compares or selects", "[optable]") {
  for (unsigned i = 0; i < kNumOpcodes; ++i) {
    Opcode c = Opcode(i);
    OpFamily f = opFamily(c);
    INFO(opInfo(c).mnemonic);
    CHECK(hasTrait(c, Reusable) == (f == OpFamily::FloatBinary || f == OpFamily::FloatUnary || f == OpFamily::FloatTernary));
    if (hasTrait(c, Reusable)) CHECK(hasTrait(c, Elementwise));
  }
}

TEST_CASE("every op of bytecode 1.0 says so", "[optable]") {
  CHECK(opInfo(Opcode::AddI).since == 0);
  CHECK(opInfo(Opcode::Barrier).since == 0);
  unsigned newest = 0;
  for (unsigned i = 0; i < kNumOpcodes; ++i) newest = std::max<unsigned>(newest, opInfo(Opcode(i)).since);
  CHECK(newest == kNewestOpSince);
}
