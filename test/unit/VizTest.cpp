// VizTest.cpp - tilevm viz: the dataflow graph of real kernels (node and edge counts derived from
// the IR, clusters for loop bodies and combiners, the load-to-store path, folding), drawn by
// Graphviz and read back through cgraph (the same counts, labels, the red node of a planted
// race with the finding as tooltip), and the access map of a racing buffer.
#include <catch2/catch.hpp>

#include <set>

#include "frontend/Compile.h"
#include "interpreter/Interpreter.h"
#include "ir/text/Text.h"
#include "TestKernels.h"
#include "viz/AccessSvg.h"
#include "viz/Graph.h"
#include "viz/Graphviz.h"
#include "viz/Overlay.h"

using namespace tilevm;

namespace {

std::unique_ptr<ir::Module> parseExample(const std::string& name) {
  auto m = ir::parse(test::readRepoFile("examples/" + name), name);
  REQUIRE(m);
  return std::move(*m);
}

std::unique_ptr<ir::Module> compilePy(const std::string& file, const std::string& kernel, const std::string& signature,
                                      std::map<std::string, std::string> defines) {
  frontend::CompileOptions o;
  o.kernel = kernel;
  o.signature = signature;
  o.defines = std::move(defines);
  auto m = frontend::compileKernel(test::readRepoFile(file), file, o);
  REQUIRE(m);
  return std::move(*m);
}

// Ops a graph draws (every op but return, yield and condition) and uses of values among them.
std::pair<size_t, size_t> expectedCounts(const ir::Kernel& k) {
  size_t ops = 0;
  ir::walk(k.body.block, [&](const ir::Op& op) {
    ops += op.code != ir::Opcode::Return && op.code != ir::Opcode::Yield && op.code != ir::Opcode::Condition;
  });
  return {ops + k.params().size(), 0};
}

std::shared_ptr<viz::Graphviz> graphviz() {
  auto g = viz::Graphviz::load();
  INFO((g ? "" : g.error().message));
  REQUIRE(g);
  return *g;
}

}  // namespace

TEST_CASE("viz: vadd's graph has one node per op and parameter, shapes on edges, the load-store path marked") {
  auto m = parseExample("vadd.tile");
  const ir::Kernel& k = *m->kernels[0];
  viz::Graph g = viz::buildGraph(*m, k);
  CHECK(g.nodes.size() == expectedCounts(k).first);
  CHECK(g.clusters.empty());
  size_t loads = 0, stores = 0, onPath = 0;
  for (const viz::Node& n : g.nodes) {
    loads += n.kind == viz::NodeKind::Load;
    stores += n.kind == viz::NodeKind::Store;
    onPath += n.onLoadStorePath;
  }
  CHECK(loads == 2);
  CHECK(stores == 1);
  CHECK(onPath == 4);  // load, load, addf, store: the data's path
  bool shapeLabel = false;
  for (const viz::Edge& e : g.edges) shapeLabel = shapeLabel || e.label == "1024xf32";
  CHECK(shapeLabel);
  // Every use of a value is one edge (vadd has no value used twice by one op).
  size_t uses = 0;
  ir::walk(k.body.block, [&](const ir::Op& op) { uses += op.code == ir::Opcode::Return ? 0 : op.operands.size(); });
  CHECK(g.edges.size() == uses);
}

TEST_CASE("viz: loop bodies and reduce combiners are clusters; folding shrinks the graph") {
  auto mm = parseExample("matmul.tile");
  viz::Graph g = viz::buildGraph(*mm, *mm->kernels[0]);
  REQUIRE(g.clusters.size() == 1);
  CHECK(g.clusters[0].label.rfind("for body", 0) == 0);
  bool dotInBody = false;
  for (const viz::Node& n : g.nodes) dotInBody = dotInBody || (n.kind == viz::NodeKind::Dot && n.cluster == 0);
  CHECK(dotInBody);
  bool backEdge = false;
  for (const viz::Edge& e : g.edges) backEdge = backEdge || e.backEdge;
  CHECK(backEdge);  // the accumulator flows back to the loop

  auto sm = compilePy("bench/anchors/triton_gpu_kernels.py", "softmax_k", "out: *fp32, inp: *fp32, in_stride: i32, out_stride: i32, n_cols: i32",
                      {{"BLOCK", "1024"}});
  viz::Graph s = viz::buildGraph(*sm, *sm->kernels[0]);
  std::set<std::string> labels;
  for (const viz::Cluster& c : s.clusters) labels.insert(c.label.substr(0, c.label.find(" (")));
  CHECK(labels == std::set<std::string>{"reduce combiner"});
  CHECK(s.clusters.size() == 2);  // max and sum
  viz::Graph folded = viz::buildGraph(*sm, *sm->kernels[0], viz::BuildOptions{true});
  CHECK(folded.nodes.size() < s.nodes.size() * 2 / 3);
  bool chain = false;
  for (const viz::Node& n : folded.nodes) chain = chain || (n.ops.size() > 1 && n.title.find("→") != std::string::npos);
  CHECK(chain);
}

TEST_CASE("viz: Graphviz draws the graph, and reading the DOT back gives the same graph") {
  auto gv = graphviz();
  auto mm = parseExample("matmul.tile");
  viz::Graph g = viz::buildGraph(*mm, *mm->kernels[0]);
  auto back = gv->read(gv->dot(g));
  REQUIRE(back);
  CHECK(size_t(back->nodes) == g.nodes.size());
  CHECK(size_t(back->edges) == g.edges.size());
  REQUIRE(back->clusterLabels.size() == 1);
  CHECK(back->clusterLabels[0].rfind("for body", 0) == 0);
  bool dotLabel = false;
  for (auto& [name, attrs] : back->nodeAttrs) dotLabel = dotLabel || attrs["label"].rfind("dot\\n64x64xf32", 0) == 0;
  CHECK(dotLabel);
  auto svg = gv->render(g, "svg");
  REQUIRE(svg);
  CHECK(svg->find("<svg") != std::string::npos);
  CHECK(svg->find("for body") != std::string::npos);
  CHECK(!gv->render(g, "no-such-format"));
}

TEST_CASE("viz: the layout is stopped past its time, with a message naming the kernel and the limit") {
  auto gv = graphviz();
  // A chain of 900 nodes: far past a microsecond's layout, well within the node limit.
  viz::Graph g;
  g.name = "long_chain";
  for (int i = 0; i < 900; ++i) {
    viz::Node n;
    n.id = "n" + std::to_string(i);
    n.title = "op " + std::to_string(i);
    g.nodes.push_back(n);
    if (i) g.edges.push_back(viz::Edge{"n" + std::to_string(i - 1), n.id});
  }
  auto late = gv->render(g, "svg", 1e-6);
  REQUIRE(!late);
  CHECK(late.error().message.find("Graphviz's layout of @long_chain (900 nodes) ran past 1e-06 s and was stopped") == 0);
  // The process is unharmed: the next drawing works.
  auto mm = parseExample("matmul.tile");
  auto svg = gv->render(viz::buildGraph(*mm, *mm->kernels[0]), "svg");
  REQUIRE(svg);
  CHECK(svg->find("<svg") != std::string::npos);
}

TEST_CASE("viz: a run's counters land on their ops; a planted race turns its store red, the finding as tooltip") {
  auto gv = graphviz();
  auto m = compilePy("test/checks/planted.py", "same_row", "x: *fp32, y: *fp32, stride: i32", {{"BLOCK", "8"}});
  const ir::Kernel& k = *m->kernels[0];
  std::vector<interp::Buffer> buffers(2);
  buffers[0].name = "x";
  buffers[0].shape = {4, 8};
  buffers[0].bytes.assign(4 * 8 * 4, 0);
  buffers[1].name = "y";
  buffers[1].shape = {4, 8};
  buffers[1].bytes.assign(4 * 8 * 4, 0);
  std::vector<interp::Arg> args(3);
  args[0].isBuffer = true, args[0].buffer = 0;
  args[1].isBuffer = true, args[1].buffer = 1;
  args[2].i = 8;
  auto profile = interp::OpProfile::forKernel(k);
  interp::AccessMap access("y");
  interp::LaunchOptions o;
  o.grid = {4, 1, 1};
  o.profile = profile.get();
  o.access = &access;
  interp::Report r = interp::run(*m, k, buffers, args, o);
  REQUIRE(r.findings.size() == 1);
  viz::Graph g = viz::buildGraph(*m, k);
  viz::annotate(g, *m, *profile, r);
  const viz::Node* store = nullptr;
  for (const viz::Node& n : g.nodes)
    if (n.kind == viz::NodeKind::Store) store = &n;
  REQUIRE(store);
  CHECK(store->finding.find("data-race") != std::string::npos);
  CHECK(std::find(store->notes.begin(), store->notes.end(), "4 runs") != store->notes.end());
  CHECK(std::find(store->notes.begin(), store->notes.end(), "128 B written") != store->notes.end());
  auto back = gv->read(gv->dot(g));
  REQUIRE(back);
  int red = 0;
  for (auto& [name, attrs] : back->nodeAttrs)
    if (attrs["color"] == "red") {
      ++red;
      CHECK(attrs["tooltip"].find("data-race") != std::string::npos);
      CHECK(attrs["label"].rfind("store", 0) == 0);
    }
  CHECK(red == 1);
  // The access map: rows 0 and 1 of y written by programs 0 and 1, row 2 by programs 2 and 3
  // (the race), row 3 by nobody.
  CHECK(viz::conflictedElements(access) == 8);
  for (int64_t e = 0; e < 32; ++e) {
    CHECK((access.firstWriter[size_t(e)].load() != 0) == (e < 24));
    CHECK(bool(access.otherWriter[size_t(e)].load()) == (e >= 16 && e < 24));
  }
  CHECK(access.firstWriter[0].load() == 1);  // program 0 (ids are stored + 1)
  CHECK(access.firstWriter[8].load() == 2);
  std::string svg = viz::accessSvg(access, {4, 8}, o.grid);
  CHECK(svg.find("8 elements touched by more than one program") != std::string::npos);
  CHECK(svg.find("#d00000") != std::string::npos);
}
