// TestKernels.h - small modules built with the Builder, shared by the unit tests.
#pragma once

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "ir/Builder.h"

namespace tilevm::test {

/// The repository root: $TILEVM_SOURCE_DIR when set (the test binary run on another machine),
/// else the source directory it was built from.
inline std::string repoRoot() {
  const char* env = std::getenv("TILEVM_SOURCE_DIR");
  return env ? env : TILEVM_SOURCE_DIR;
}

/// A file of the repository, by path from its root (for tests that compile checked-in kernels).
inline std::string readRepoFile(const std::string& relative) {
  std::ifstream f(repoRoot() + "/" + relative);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// vadd(x, y, o: ptr<f32>, n: i32) over BLOCK elements per program, built op by op.
inline std::unique_ptr<ir::Module> buildVadd(int64_t block = 256) {
  using namespace ir;
  auto m = std::make_unique<Module>();
  Builder b(*m);
  b.setLoc(Location{m->fileIndex("vadd.py"), 4, 1});
  Type pf32(ElemType::ptrTo(ScalarKind::F32));
  Kernel* k = b.createKernel("vadd", {{"x", pf32}, {"y", pf32}, {"o", pf32}, {"n", Type::scalar(ScalarKind::I32)}});
  b.setLoc(Location{1, 5, 5});
  Value* pid = b.programId(0);
  Value* blk = b.constant(Type::scalar(ScalarKind::I32), block);
  Value* start = b.binary(Opcode::MulI, pid, blk);
  int64_t shape[] = {block};
  Value* offs = b.binary(Opcode::AddI, b.splat(start, shape), b.arange(0, block));
  Value* mask = b.compare(Opcode::CmpI, "slt", offs, b.splat(k->params()[3].get(), shape));
  auto ptrs = [&](unsigned param) {
    Value* base = b.splat(k->params()[param].get(), shape);
    return b.create(Opcode::AddPtr, {base, offs}, {base->type})->result();
  };
  Type f32tile = Type::tile(ScalarKind::F32, shape);
  b.setLoc(Location{1, 7, 9});
  Value* xv = b.create(Opcode::Load, {ptrs(0), mask}, {f32tile})->result();
  Value* yv = b.create(Opcode::Load, {ptrs(1), mask}, {f32tile})->result();
  Value* sum = b.binary(Opcode::AddF, xv, yv);
  b.setLoc(Location{1, 8, 5});
  b.create(Opcode::Store, {ptrs(2), sum, mask}, {});
  b.create(Opcode::Return, {}, {});
  return m;
}

}  // namespace tilevm::test
