// Overlay.h - what an interpreter run did, written onto the graph's nodes: executions of each
// op (summed over programs and iterations), bytes moved and the fraction of lanes the mask left
// active for memory ops, FLOPs of dot; and each finding (race, out-of-bounds, uninitialized
// read, failed assert) on the node of the op it names, which the drawing shows red with the
// finding as its tooltip.
#pragma once

#include <map>
#include <string>

#include "interpreter/Profile.h"
#include "interpreter/Report.h"
#include "viz/Graph.h"

namespace tilevm::viz {

/// Adds the run's counters and findings to g (built from the same kernel `profile` counted).
void annotate(Graph& g, const ir::Module& m, const interp::OpProfile& profile, const interp::Report& report);

/// Adds each node's GPU layout (codegen::describeLayouts, by the node's last op's result).
void annotateLayouts(Graph& g, const std::map<const ir::Value*, std::string>& layouts);

/// "1.2 KB", "3.4 MB" ...
std::string humanBytes(double bytes);

}  // namespace tilevm::viz
