// Graph.cpp - the dataflow graph of a kernel (see Graph.h).
#include "viz/Graph.h"

#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <tuple>
#include <unordered_map>

namespace tilevm::viz {

using ir::Opcode;

const Node* Graph::find(const std::string& id) const {
  for (const Node& n : nodes)
    if (n.id == id) return &n;
  return nullptr;
}

std::string shapeLabel(const ir::Type& t) {
  std::string s = t.str();
  if (s.rfind("tile<", 0) == 0) s = s.substr(5, s.size() - 6);
  return s;
}

namespace {

NodeKind kindOf(const ir::Op& op) {
  switch (op.code) {
    case Opcode::Load: return NodeKind::Load;
    case Opcode::Store: return NodeKind::Store;
    case Opcode::AtomicRmw:
    case Opcode::AtomicCas: return NodeKind::Atomic;
    case Opcode::Dot: return NodeKind::Dot;
    case Opcode::Reduce:
    case Opcode::Scan: return NodeKind::Reduce;
    case Opcode::For:
    case Opcode::If:
    case Opcode::While: return NodeKind::Control;
    case Opcode::Print:
    case Opcode::Assert:
    case Opcode::Barrier: return NodeKind::Debug;
    default: return NodeKind::Op;
  }
}

class Builder {
 public:
  Builder(const ir::Module& m, const ir::Kernel& k, const BuildOptions& o) : m_(m), k_(k), o_(o) {}

  Graph run() {
    g_.name = k_.name;
    for (size_t i = 0; i < k_.params().size(); ++i) {
      Node n;
      n.id = "p" + std::to_string(i);
      n.kind = NodeKind::Param;
      n.title = i < k_.paramNames.size() ? k_.paramNames[i] : "arg" + std::to_string(i);
      n.type = shapeLabel(k_.params()[i]->type);
      source_[k_.params()[i].get()] = n.id;
      g_.nodes.push_back(std::move(n));
    }
    if (o_.collapse) planFolds();
    block(k_.body.block, -1);
    markLoadStorePath();
    return std::move(g_);
  }

 private:
  // Elementwise ops whose one result feeds exactly one elementwise op of the same block fold
  // into that op's node (union-find over the chain).
  void planFolds() {
    std::map<const ir::Value*, std::vector<const ir::Op*>> users;
    ir::walk(k_.body.block, [&](const ir::Op& op) {
      for (const ir::Value* v : op.operands) users[v].push_back(&op);
    });
    ir::walk(k_.body.block, [&](const ir::Op& op) {
      if (!foldable(op)) return;
      const auto& u = users[op.result()];
      if (u.size() == 1 && foldable(*u[0]) && u[0]->parent == op.parent) unite(&op, u[0]);
    });
  }

  // Ops a chain may absorb: elementwise arithmetic and pointer offsets, and the cheap ops that
  // only shape or spread a value (constants, splats, aranges, expand_dims, broadcasts).
  static bool foldable(const ir::Op& op) {
    if (op.results.size() != 1) return false;
    switch (op.code) {
      case Opcode::Constant:
      case Opcode::Splat:
      case Opcode::Arange:
      case Opcode::ExpandDims:
      case Opcode::Broadcast:
      case Opcode::Reshape: return true;
      default: return ir::hasTrait(op.code, ir::Elementwise);
    }
  }

  const ir::Op* root(const ir::Op* op) {
    while (parent_.count(op) && parent_[op] != op) op = parent_[op] = parent_[parent_[op]];
    return op;
  }
  void unite(const ir::Op* a, const ir::Op* b) {
    parent_.emplace(a, a);
    parent_.emplace(b, b);
    parent_[root(a)] = root(b);  // the chain's last op represents it
  }

  std::string where(const ir::Op& op) const {
    std::string file = op.loc.file < m_.files.size() ? m_.files[op.loc.file] : "";
    size_t slash = file.find_last_of('/');
    if (slash != std::string::npos) file = file.substr(slash + 1);
    return op.loc.line ? file + ":" + std::to_string(op.loc.line) : "";
  }

  // The node drawing op (created on first sight).
  Node& nodeFor(const ir::Op& op, int cluster) {
    const ir::Op* r = o_.collapse ? root(&op) : &op;
    auto it = nodeOf_.find(r);
    if (it != nodeOf_.end()) {
      Node& n = g_.nodes[it->second];
      n.ops.push_back(&op);
      // A folded chain: its first and last ops and how many (the chain's last op gives the type).
      n.title = std::string(n.ops.front()->mnemonic()) + (n.ops.size() > 2 ? " → … → " : " → ") + std::string(op.mnemonic()) +
                (n.ops.size() > 2 ? " (" + std::to_string(n.ops.size()) + " ops)" : "");
      if (!op.results.empty()) n.type = shapeLabel(op.result()->type);
      return n;
    }
    Node n;
    n.id = "op" + std::to_string(nextId_++);
    n.kind = kindOf(op);
    n.title = std::string(op.mnemonic());
    if (const std::string* k = op.strAttr("kind"); k && op.code == Opcode::AtomicRmw) n.title += " " + *k;
    if (const std::string* p = op.strAttr("pred")) n.title += " " + *p;
    if (op.code == Opcode::Constant) {  // the value itself: what a reader looks for
      if (const int64_t* v = op.intAttr("value")) n.title += " " + std::to_string(*v);
      else if (const double* d = op.floatAttr("value")) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " %g", *d);
        n.title += buf;
      }
    }
    if (op.code == Opcode::Arange)
      n.title += " " + std::to_string(*op.intAttr("start")) + ".." + std::to_string(*op.intAttr("end"));
    if (const int64_t* axis = op.intAttr("axis"); axis && op.code != Opcode::ProgramId && op.code != Opcode::NumPrograms)
      n.title += " axis " + std::to_string(*axis);
    if (!op.results.empty()) n.type = shapeLabel(op.result()->type);
    n.where = where(op);
    n.ops.push_back(&op);
    n.cluster = cluster;
    nodeOf_[r] = g_.nodes.size();
    g_.nodes.push_back(std::move(n));
    return g_.nodes.back();
  }

  void addEdge(const std::string& from, const std::string& to, const ir::Type& t, bool back = false) {
    if (from == to) return;  // inside a folded chain
    if (!edgeSet_.emplace(from, to, back).second) return;
    g_.edges.push_back(Edge{from, to, shapeLabel(t), false, back});
  }

  int cluster(const std::string& label, int parent) {
    g_.clusters.push_back(Cluster{"cluster_" + std::to_string(g_.clusters.size()), label, parent});
    return int(g_.clusters.size()) - 1;
  }

  std::string regionLabel(const ir::Op& op, size_t r) const {
    std::string line = op.loc.line ? " (line " + std::to_string(op.loc.line) + ")" : "";
    switch (op.code) {
      case Opcode::For: return "for body" + line;
      case Opcode::If: return (r == 0 ? "then" : "else") + line;
      case Opcode::While: return (r == 0 ? "while condition" : "while body") + line;
      default: return std::string(op.mnemonic()) + " combiner" + line;
    }
  }

  void block(const ir::Block& b, int clusterIndex) {
    for (const auto& opPtr : b.ops) {
      const ir::Op& op = *opPtr;
      if (op.code == Opcode::Return) continue;
      if (op.code == Opcode::Yield || op.code == Opcode::Condition) {
        // A region's results flow back to its owner.
        const ir::Op* owner = b.parent ? b.parent->parentOp : nullptr;
        if (!owner) continue;
        auto it = nodeOf_.find(owner);  // control ops never fold
        if (it == nodeOf_.end()) continue;
        std::string to = g_.nodes[it->second].id;
        for (const ir::Value* v : op.operands)
          if (source_.count(v)) addEdge(source_.at(v), to, v->type, true);
        continue;
      }
      Node& n = nodeFor(op, clusterIndex);
      std::string id = n.id;
      for (const ir::Value* v : op.operands)
        if (source_.count(v)) addEdge(source_.at(v), id, v->type);
      for (const auto& r : op.results) source_[r.get()] = id;
      for (size_t ri = 0; ri < op.regions.size(); ++ri) {
        const ir::Block& body = op.regions[ri]->block;
        for (const auto& a : body.args) source_[a.get()] = id;  // block arguments come from the owner
        block(body, cluster(regionLabel(op, ri), clusterIndex));
      }
    }
  }

  // Nodes forward-reachable from a load and backward-reachable from a store (or atomic).
  void markLoadStorePath() {
    // Back edges count: a loop's carried values reach the store through the loop's results.
    std::map<std::string, std::vector<std::string>> out, in;
    for (const Edge& e : g_.edges) {
      out[e.from].push_back(e.to);
      in[e.to].push_back(e.from);
    }
    auto reach = [&](NodeKind start1, NodeKind start2, std::map<std::string, std::vector<std::string>>& adj) {
      std::set<std::string> seen;
      std::vector<std::string> work;
      for (const Node& n : g_.nodes)
        if (n.kind == start1 || n.kind == start2) work.push_back(n.id), seen.insert(n.id);
      while (!work.empty()) {
        std::string x = work.back();
        work.pop_back();
        for (const std::string& y : adj[x])
          if (seen.insert(y).second) work.push_back(y);
      }
      return seen;
    };
    std::set<std::string> fromLoads = reach(NodeKind::Load, NodeKind::Atomic, out);
    std::set<std::string> toStores = reach(NodeKind::Store, NodeKind::Atomic, in);
    std::unordered_map<std::string, bool> onPath;
    for (Node& n : g_.nodes) onPath[n.id] = n.onLoadStorePath = fromLoads.count(n.id) && toStores.count(n.id);
    for (Edge& e : g_.edges) {
      auto a = onPath.find(e.from), b = onPath.find(e.to);
      e.onLoadStorePath = a != onPath.end() && b != onPath.end() && a->second && b->second;
    }
  }

  const ir::Module& m_;
  const ir::Kernel& k_;
  const BuildOptions& o_;
  Graph g_;
  std::map<const ir::Value*, std::string> source_;  ///< value -> id of the node producing it
  std::map<const ir::Op*, size_t> nodeOf_;          ///< (chain root) op -> node index
  std::map<const ir::Op*, const ir::Op*> parent_;   ///< folds
  std::set<std::tuple<std::string, std::string, bool>> edgeSet_;  ///< (from, to, back) drawn
  int nextId_ = 0;
};

}  // namespace

Graph buildGraph(const ir::Module& m, const ir::Kernel& k, const BuildOptions& o) { return Builder(m, k, o).run(); }

std::optional<Diagnostic> checkDrawable(const Graph& g) {
  if (g.nodes.size() <= kMaxDrawnNodes) return std::nullopt;
  return Diagnostic{"<viz>", 0, 0,
                    "the graph of @" + g.name + " has " + std::to_string(g.nodes.size()) +
                        " nodes even with elementwise chains folded; viz draws at most " + std::to_string(kMaxDrawnNodes) +
                        " (Graphviz's layout time grows much faster than the graph; see docs/limits.md)"};
}

Result<Graph> buildDrawableGraph(const ir::Module& m, const ir::Kernel& k, const BuildOptions& o, std::string& note) {
  note.clear();
  Graph g = buildGraph(m, k, o);
  if (!o.collapse && g.nodes.size() > kAutoCollapseNodes) {
    const size_t before = g.nodes.size();
    BuildOptions folded = o;
    folded.collapse = true;
    g = buildGraph(m, k, folded);
    note = "the graph of @" + k.name + " has " + std::to_string(before) + " nodes, more than " +
           std::to_string(kAutoCollapseNodes) + ": elementwise chains are folded (as --collapse does), leaving " +
           std::to_string(g.nodes.size());
  }
  if (auto problem = checkDrawable(g)) return *problem;
  return g;
}

}  // namespace tilevm::viz
