// Graphviz.h - draws a Graph with Graphviz's own library (cgraph builds the graph, gvc lays it
// out with `dot` and renders SVG, PNG or DOT), loaded at run time (libcgraph.so.6,
// libgvc.so.6, as the CUDA driver is: the tilevm binary runs where Graphviz is not installed,
// and `viz` alone says it is missing). Also reads DOT back, for tests and tools.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ir/Diagnostics.h"
#include "viz/Graph.h"

namespace tilevm::viz {

/// What a DOT graph holds, read back through cgraph.
struct DotSummary {
  int nodes = 0, edges = 0;
  std::vector<std::string> clusterLabels;                      ///< every cluster, depth first
  std::map<std::string, std::map<std::string, std::string>> nodeAttrs;  ///< node name -> label, color, tooltip, ...
};

/// The longest a layout and rendering may take, in seconds (a 1000-node graph takes about 2).
inline constexpr double kMaxLayoutSeconds = 60;

class Graphviz {
 public:
  /// The library, or why it cannot be loaded.
  static Result<std::shared_ptr<Graphviz>> load();
  ~Graphviz();

  /// The graph as DOT text (styles and labels, not laid out).
  std::string dot(const Graph& g) const;
  /// Laid out by `dot` and rendered in `format` (svg, png, dot, ...), in a child process that
  /// is stopped after `maxSeconds`; an error past kMaxDrawnNodes (Graph.h), past the time, or
  /// when Graphviz crashes.
  Result<std::string> render(const Graph& g, const std::string& format, double maxSeconds = kMaxLayoutSeconds) const;
  /// DOT text read back.
  Result<DotSummary> read(const std::string& dotText) const;

  struct Api;  ///< the entry points (Graphviz.cpp)

 private:
  explicit Graphviz(std::unique_ptr<Api> api);
  std::unique_ptr<Api> api_;
};

}  // namespace tilevm::viz
