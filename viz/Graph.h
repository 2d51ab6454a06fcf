// Graph.h - a kernel as a tile dataflow graph, independent of how it is drawn: one node per op
// (or per folded chain of elementwise ops), an edge per use of a value labelled with its tile
// shape, clusters for loop and branch bodies and reduce/scan combiners, node kinds for styling,
// and the ops on a path from a load to a store marked so the drawing can make that path easy to
// follow. Overlay.h adds what an interpreter run did; Graphviz.h draws it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ir/Diagnostics.h"
#include "ir/IR.h"

namespace tilevm::viz {

enum class NodeKind { Param, Op, Load, Store, Atomic, Dot, Reduce, Control, Debug };

struct Node {
  std::string id;                  ///< unique, stable ("p0", "op12", "g3")
  NodeKind kind = NodeKind::Op;
  std::string title;               ///< mnemonic(s) or parameter name
  std::string type;                ///< result type ("64x64xf16"), empty for none
  std::string where;               ///< "file.py:12" of the (first) op
  std::vector<const ir::Op*> ops;  ///< the ops drawn as this node (several when folded)
  int cluster = -1;                ///< index into Graph::clusters, -1: top level
  bool onLoadStorePath = false;    ///< between a load and a store
  std::vector<std::string> notes;  ///< overlay lines (executions, bytes, lanes, FLOPs)
  std::string finding;             ///< a finding of the run at this op (drawn red; tooltip)
};

struct Edge {
  std::string from, to;
  std::string label;               ///< the value's shape ("64x64xf32"; scalars: their type)
  bool onLoadStorePath = false;
  bool backEdge = false;           ///< a region's result flowing back to its owner (yield)
};

struct Cluster {
  std::string id;                  ///< "cluster_3" (Graphviz draws subgraphs named cluster*)
  std::string label;               ///< "for body (line 12)", "reduce combiner", ...
  int parent = -1;
};

struct Graph {
  std::string name;
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::vector<Cluster> clusters;
  const Node* find(const std::string& id) const;
};

struct BuildOptions {
  /// Fold chains of elementwise ops (each feeding only the next) into one node.
  bool collapse = false;
};

/// The graph of kernel k of module m (linear in the kernel's size).
Graph buildGraph(const ir::Module& m, const ir::Kernel& k, const BuildOptions& o = {});

/// Nodes past which buildDrawableGraph() folds chains of elementwise ops itself (--collapse).
inline constexpr size_t kAutoCollapseNodes = 300;
/// Nodes past which a graph is not drawn, folded or not: Graphviz's `dot` layout grows much
/// faster than the graph (measured: 460 nodes of an unrolled loop took 8 s of CPU, 900 took
/// 400 s; a folded 1,030-node graph took 8 s), and 256 unrolled iterations ran out of memory.
inline constexpr size_t kMaxDrawnNodes = 1000;

/// The graph of kernel k to draw: folded when it has more than kAutoCollapseNodes nodes (then
/// `note` says so, for stderr; otherwise it is left empty), or an error naming kMaxDrawnNodes
/// and the node count when even the folded graph is larger.
Result<Graph> buildDrawableGraph(const ir::Module& m, const ir::Kernel& k, const BuildOptions& o, std::string& note);

/// The error naming kMaxDrawnNodes and the node count for a graph past it, or nullopt
/// (Graphviz::render checks it too).
std::optional<Diagnostic> checkDrawable(const Graph& g);

/// "64x64xf16" for a tile, "i32" for a scalar.
std::string shapeLabel(const ir::Type& t);

}  // namespace tilevm::viz
