// OpsDebug.cpp - device_print (collected per program, printed in program order after the
// launch) and device_assert (a finding with the program id and the first failing lane).
#include <cinttypes>
#include <cstdio>

#include "interpreter/Exec.h"

namespace tilevm::interp {

namespace {
std::string formatElement(const Tile& t, int64_t i, bool hex) {
  char buf[64];
  ir::ScalarKind k = t.type.elem().kind;
  if (t.type.isFloat()) {
    std::snprintf(buf, sizeof buf, "%.9g", elementAsDouble(t, i));
  } else if (hex || k == ir::ScalarKind::Ptr) {
    std::snprintf(buf, sizeof buf, "0x%" PRIx64, uint64_t(elementAsInt(t, i)));
  } else {
    std::snprintf(buf, sizeof buf, "%" PRId64, elementAsInt(t, i));
  }
  return buf;
}

std::string indexOf(const ir::Type& t, int64_t i) {
  std::string s;
  for (unsigned d = t.rank(); d-- > 0;) {
    s = std::to_string(i % t.dim(d)) + (s.empty() ? "" : ", ") + s;
    i /= t.dim(d);
  }
  return "(" + s + ")";
}
}  // namespace

void execPrint(Program& p, const Instr& ins, const std::vector<const Tile*>& in) {
  const std::string* prefixAttr = ins.op->strAttr("prefix");
  std::string prefix = prefixAttr ? *prefixAttr : "";
  bool hex = ins.op->intAttr("hex") && *ins.op->intAttr("hex");
  std::string pid = "pid (" + std::to_string(p.pid[0]) + ", " + std::to_string(p.pid[1]) + ", " + std::to_string(p.pid[2]) + ")";
  if (in.empty()) {
    p.printed += pid + " " + prefix + "\n";
    return;
  }
  int64_t n = 1;
  for (const Tile* t : in) n = std::max(n, t->size());
  for (int64_t i = 0; i < n; ++i) {
    std::string line = pid + " idx " + indexOf(in[0]->type, i) + " " + prefix;
    for (size_t k = 0; k < in.size(); ++k)
      line += (k ? ", " : "") + formatElement(*in[k], in[k]->size() == n ? i : 0, hex);
    p.printed += line + "\n";
  }
}

void execAssert(Program& p, const Instr& ins, const Tile& cond) {
  int64_t failed = 0, first = -1;
  for (int64_t i = 0; i < cond.size(); ++i)
    if (!cond.data[i]) {
      if (first < 0) first = i;
      ++failed;
    }
  if (!failed) return;
  const std::string* msg = ins.op->strAttr("message");
  Finding f;
  f.kind = Finding::Kind::AssertFailed;
  f.loc = p.loc(ins);
  f.count = failed;
  f.element = first;
  const std::string lane = cond.type.isScalar() ? "" : " (lane " + indexOf(cond.type, first) + ")";
  // An assumption the frontend made for a contract (a tensor descriptor's) says which.
  const bool said = msg && !msg->empty();
  f.detail = ins.op->strAttr("assume") ? (said ? *msg : std::string("tl.assume condition is false")) + lane
                                         : "device-side assert failed" + (said ? ": " + *msg : std::string()) + lane;
  p.report(std::move(f));
}

void execDebug(Program& p, const Instr& ins, const std::vector<const Tile*>& in) {
  switch (ins.op->code) {
    case ir::Opcode::Print: execPrint(p, ins, in); return;
    case ir::Opcode::Assert: execAssert(p, ins, *in[0]); return;
    case ir::Opcode::Barrier: return;  // programs run their ops in order: nothing to wait for
#define TILEVM_CASES_NOT_OF Debug
#include "ir/FamilyCases.inc"
      ir::opNotInFamily("interp::execDebug", ins.op->code);
  }
}

}  // namespace tilevm::interp
