// Overlay.cpp - run counters and findings onto the graph (see Overlay.h).
#include "viz/Overlay.h"

#include <cstdio>
#include <map>

namespace tilevm::viz {

std::string humanBytes(double bytes) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000 && u < 4) bytes /= 1000, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
  return buf;
}

namespace {

std::string count(uint64_t n) {
  char buf[32];
  if (n >= 1000000) std::snprintf(buf, sizeof buf, "%.1fM", double(n) / 1e6);
  else if (n >= 10000) std::snprintf(buf, sizeof buf, "%.1fk", double(n) / 1e3);
  else std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)n);
  return buf;
}

}  // namespace

void annotateLayouts(Graph& g, const std::map<const ir::Value*, std::string>& layouts) {
  for (Node& n : g.nodes) {
    if (n.ops.empty() || n.ops.back()->results.empty()) continue;
    auto it = layouts.find(n.ops.back()->result());
    if (it != layouts.end()) n.notes.push_back(it->second);
  }
}

void annotate(Graph& g, const ir::Module& m, const interp::OpProfile& profile, const interp::Report& report) {
  // Findings by the op location they name ("file:line:col").
  std::map<std::string, std::vector<const interp::Finding*>> byLoc;
  for (const interp::Finding& f : report.findings) {
    byLoc[f.loc].push_back(&f);
    if (f.hasOther && f.otherLoc != f.loc) byLoc[f.otherLoc].push_back(&f);
  }
  for (Node& n : g.nodes) {
    if (n.ops.empty()) continue;
    const ir::Op& first = *n.ops.front();
    auto it = profile.ops.find(&first);
    if (it == profile.ops.end()) continue;
    const auto& c = it->second;
    uint64_t runs = c.executions.load();
    const ir::Op* owner = first.parent && first.parent->parent ? first.parent->parent->parentOp : nullptr;
    if (owner && (owner->code == ir::Opcode::Reduce || owner->code == ir::Opcode::Scan) && runs == 0)
      n.notes.push_back("applied by the " + std::string(owner->mnemonic()));  // folded in bulk, not op by op
    else
      n.notes.push_back(count(runs) + (runs == 1 ? " run" : " runs"));
    if (n.kind == NodeKind::Load || n.kind == NodeKind::Store || n.kind == NodeKind::Atomic) {
      uint64_t lanes = c.lanes.load(), active = c.activeLanes.load();
      n.notes.push_back(humanBytes(double(c.bytes.load())) + (n.kind == NodeKind::Load ? " read" : " written"));
      if (lanes) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.0f%% lanes active", 100.0 * double(active) / double(lanes));
        n.notes.push_back(buf);
      }
    }
    if (n.kind == NodeKind::Dot) {
      const ir::Type& a = first.operands[0]->type;
      double flops = 2.0 * double(a.dim(0)) * double(a.dim(1)) * double(first.operands[1]->type.dim(1)) * double(runs);
      char buf[48];
      std::snprintf(buf, sizeof buf, "%.3g FLOP", flops);
      n.notes.push_back(buf);
    }
    for (const ir::Op* op : n.ops) {
      auto f = byLoc.find(m.locStr(op->loc));
      if (f == byLoc.end()) continue;
      for (const interp::Finding* x : f->second) {
        std::string text = std::string(interp::kindName(x->kind)) + ": " + x->access + (x->buffer.empty() ? "" : " of " + x->buffer) +
                           (x->element >= 0 ? "[" + std::to_string(x->element) + "]" : "") + " by program (" +
                           std::to_string(x->pid[0]) + ", " + std::to_string(x->pid[1]) + ", " + std::to_string(x->pid[2]) + ")" +
                           (x->hasOther ? " and program (" + std::to_string(x->otherPid[0]) + ", " + std::to_string(x->otherPid[1]) +
                                              ", " + std::to_string(x->otherPid[2]) + ")"
                                        : "") +
                           (x->detail.empty() ? "" : ": " + x->detail);
        if (n.finding.find(text) == std::string::npos) n.finding += (n.finding.empty() ? "" : "\n") + text;
      }
    }
  }
}

}  // namespace tilevm::viz
