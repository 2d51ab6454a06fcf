// Graphviz.cpp - Graph to cgraph, laid out and rendered by gvc, with both libraries opened by
// dlopen (see Graphviz.h). Styles: loads blue, stores orange, atomics gold (double border),
// dot green, reductions and scans violet, control flow grey; the ops between a load and a store
// and the edges joining them drawn thick and blue, so the data's path reads at a glance; values
// flowing back from a body to its loop dashed; ops with a finding red, the finding as tooltip.
#include "viz/Graphviz.h"

#include <dlfcn.h>
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <sstream>

namespace tilevm::viz {

struct Graphviz::Api {
  void* cgraph = nullptr;
  void* gvc = nullptr;
  Agdesc_t* directed = nullptr;
  Agraph_t* (*agopen)(char*, Agdesc_t, Agdisc_t*) = nullptr;
  int (*agclose)(Agraph_t*) = nullptr;
  Agraph_t* (*agmemread)(const char*) = nullptr;
  int (*agwrite)(Agraph_t*, void*) = nullptr;
  Agnode_t* (*agnode)(Agraph_t*, char*, int) = nullptr;
  Agnode_t* (*agfstnode)(Agraph_t*) = nullptr;
  Agnode_t* (*agnxtnode)(Agraph_t*, Agnode_t*) = nullptr;
  Agedge_t* (*agedge)(Agraph_t*, Agnode_t*, Agnode_t*, char*, int) = nullptr;
  char* (*agnameof)(void*) = nullptr;
  char* (*agget)(void*, char*) = nullptr;
  int (*agsafeset)(void*, char*, char*, char*) = nullptr;
  Agraph_t* (*agsubg)(Agraph_t*, char*, int) = nullptr;
  Agraph_t* (*agfstsubg)(Agraph_t*) = nullptr;
  Agraph_t* (*agnxtsubg)(Agraph_t*) = nullptr;
  int (*agnnodes)(Agraph_t*) = nullptr;
  int (*agnedges)(Agraph_t*) = nullptr;
  GVC_t* (*gvContext)() = nullptr;
  int (*gvLayout)(GVC_t*, graph_t*, const char*) = nullptr;
  int (*gvRenderData)(GVC_t*, graph_t*, const char*, char**, unsigned int*) = nullptr;
  void (*gvFreeRenderData)(char*) = nullptr;
  /// One layout context for the process: Graphviz 2.42's text-size cache outlives a context,
  /// and a second context reads font names the first one freed (AddressSanitizer found it in
  /// the unit tests), so the context is made once and never freed.
  GVC_t* context = nullptr;
};

namespace {

void* openFirst(std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (void* h = dlopen(n, RTLD_NOW | RTLD_GLOBAL)) return h;
  return nullptr;
}

template <typename F>
bool bind(void* lib, F& f, const char* name) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

char* cs(const std::string& s) { return const_cast<char*>(s.c_str()); }

std::mutex& renderMutex() {
  static std::mutex m;
  return m;
}

void set(const Graphviz::Api& a, void* obj, const char* name, const std::string& value) {
  a.agsafeset(obj, const_cast<char*>(name), cs(value), const_cast<char*>(""));
}

// DOT label text: backslashes and quotes are handled by cgraph; a line break is "\n".
std::string label(const Node& n) {
  std::string s = n.title;
  if (!n.type.empty() && n.kind != NodeKind::Control) s += "\\n" + n.type;
  if (!n.where.empty()) s += "\\n" + n.where;
  for (const std::string& note : n.notes) s += "\\n" + note;
  return s;
}

const char* fill(NodeKind k) {
  switch (k) {
    case NodeKind::Param: return "#eeeeee";
    case NodeKind::Load: return "#cfe2ff";
    case NodeKind::Store: return "#ffd8b1";
    case NodeKind::Atomic: return "#ffe699";
    case NodeKind::Dot: return "#c7f0c2";
    case NodeKind::Reduce: return "#e6d5f5";
    case NodeKind::Control: return "#f2f2f2";
    case NodeKind::Debug: return "#fff7cc";
    default: return "#ffffff";
  }
}

// The graph built in cgraph (caller closes it).
Agraph_t* build(const Graphviz::Api& a, const Graph& g) {
  Agraph_t* root = a.agopen(cs(g.name.empty() ? "kernel" : g.name), *a.directed, nullptr);
  set(a, root, "label", "@" + g.name);
  set(a, root, "labelloc", "t");
  set(a, root, "fontname", "Helvetica");
  set(a, root, "rankdir", "TB");
  set(a, root, "nodesep", "0.25");
  set(a, root, "ranksep", "0.35");
  std::vector<Agraph_t*> sub(g.clusters.size(), nullptr);
  std::function<Agraph_t*(int)> clusterGraph = [&](int c) -> Agraph_t* {
    if (c < 0) return root;
    if (!sub[size_t(c)]) {
      const Cluster& cl = g.clusters[size_t(c)];
      sub[size_t(c)] = a.agsubg(clusterGraph(cl.parent), cs(cl.id), 1);
      set(a, sub[size_t(c)], "label", cl.label);
      set(a, sub[size_t(c)], "style", "rounded");
      set(a, sub[size_t(c)], "color", "#999999");
      set(a, sub[size_t(c)], "fontsize", "10");
      set(a, sub[size_t(c)], "fontname", "Helvetica");
    }
    return sub[size_t(c)];
  };
  for (size_t c = 0; c < g.clusters.size(); ++c) clusterGraph(int(c));
  std::map<std::string, Agnode_t*> nodes;
  for (const Node& n : g.nodes) {
    Agnode_t* x = a.agnode(clusterGraph(n.cluster), cs(n.id), 1);
    nodes[n.id] = x;
    set(a, x, "label", label(n));
    set(a, x, "fontname", "Helvetica");
    set(a, x, "fontsize", "10");
    set(a, x, "shape", n.kind == NodeKind::Param ? "ellipse" : n.kind == NodeKind::Control ? "hexagon" : "box");
    set(a, x, "style", n.kind == NodeKind::Param || n.kind == NodeKind::Control ? "filled" : "rounded,filled");
    set(a, x, "fillcolor", fill(n.kind));
    if (n.kind == NodeKind::Atomic) set(a, x, "peripheries", "2");
    if (n.onLoadStorePath) {
      set(a, x, "penwidth", "2");
      set(a, x, "color", "#1f5fbf");
    }
    if (!n.finding.empty()) {
      set(a, x, "color", "red");
      set(a, x, "fontcolor", "red");
      set(a, x, "penwidth", "3");
      set(a, x, "tooltip", n.finding);
    } else {
      set(a, x, "tooltip", n.title + (n.where.empty() ? "" : " at " + n.where));
    }
  }
  for (const Edge& e : g.edges) {
    auto from = nodes.find(e.from), to = nodes.find(e.to);
    if (from == nodes.end() || to == nodes.end()) continue;
    Agedge_t* x = a.agedge(root, from->second, to->second, nullptr, 1);
    set(a, x, "label", e.label);
    set(a, x, "fontsize", "8");
    set(a, x, "fontname", "Helvetica");
    set(a, x, "fontcolor", "#555555");
    set(a, x, "color", e.onLoadStorePath ? "#1f5fbf" : "#8c8c8c");
    set(a, x, "penwidth", e.onLoadStorePath ? "2" : "1");
    if (e.backEdge) {
      set(a, x, "style", "dashed");
      set(a, x, "constraint", "false");
    }
  }
  return root;
}

void clusters(const Graphviz::Api& a, Agraph_t* g, DotSummary& s) {
  for (Agraph_t* sub = a.agfstsubg(g); sub; sub = a.agnxtsubg(sub)) {
    std::string name = a.agnameof(sub);
    if (name.rfind("cluster", 0) == 0) {
      char* l = a.agget(sub, const_cast<char*>("label"));
      s.clusterLabels.push_back(l ? l : "");
    }
    clusters(a, sub, s);
  }
}

}  // namespace

Graphviz::Graphviz(std::unique_ptr<Api> api) : api_(std::move(api)) {}
Graphviz::~Graphviz() = default;

Result<std::shared_ptr<Graphviz>> Graphviz::load() {
  // One instance per process (the libraries stay loaded, the layout context lives on).
  static std::mutex mutex;
  static std::shared_ptr<Graphviz> instance;
  std::lock_guard<std::mutex> lock(mutex);
  if (instance) return instance;
  auto a = std::make_unique<Api>();
  a->cgraph = openFirst({"libcgraph.so.6", "libcgraph.so"});
  a->gvc = openFirst({"libgvc.so.6", "libgvc.so"});
  if (!a->cgraph || !a->gvc)
    return Diagnostic{"<viz>", 0, 0, "Graphviz's libraries (libcgraph.so.6, libgvc.so.6) are not installed: apt-get install libgvc6 (or graphviz)"};
  bool ok = bind(a->cgraph, a->directed, "Agdirected") && bind(a->cgraph, a->agopen, "agopen") && bind(a->cgraph, a->agclose, "agclose") &&
            bind(a->cgraph, a->agmemread, "agmemread") && bind(a->cgraph, a->agwrite, "agwrite") && bind(a->cgraph, a->agnode, "agnode") &&
            bind(a->cgraph, a->agfstnode, "agfstnode") && bind(a->cgraph, a->agnxtnode, "agnxtnode") && bind(a->cgraph, a->agedge, "agedge") &&
            bind(a->cgraph, a->agnameof, "agnameof") && bind(a->cgraph, a->agget, "agget") && bind(a->cgraph, a->agsafeset, "agsafeset") &&
            bind(a->cgraph, a->agsubg, "agsubg") && bind(a->cgraph, a->agfstsubg, "agfstsubg") && bind(a->cgraph, a->agnxtsubg, "agnxtsubg") &&
            bind(a->cgraph, a->agnnodes, "agnnodes") && bind(a->cgraph, a->agnedges, "agnedges") && bind(a->gvc, a->gvContext, "gvContext") &&
            bind(a->gvc, a->gvLayout, "gvLayout") && bind(a->gvc, a->gvRenderData, "gvRenderData") &&
            bind(a->gvc, a->gvFreeRenderData, "gvFreeRenderData");
  if (!ok) return Diagnostic{"<viz>", 0, 0, "Graphviz's libraries lack an entry point tilevm uses (version 2.42 or later is needed)"};
  a->context = a->gvContext();
  if (!a->context) return Diagnostic{"<viz>", 0, 0, "Graphviz could not make a layout context (are its plugins installed?)"};
  instance = std::shared_ptr<Graphviz>(new Graphviz(std::move(a)));
  return instance;
}

std::string Graphviz::dot(const Graph& g) const {
  Agraph_t* root = build(*api_, g);
  char* buf = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  api_->agwrite(root, f);
  std::fclose(f);
  std::string out(buf, len);
  std::free(buf);
  api_->agclose(root);
  return out;
}

namespace {

// The status byte a drawing child writes before its output.
enum : char { kDrawn = 'o', kNoLayout = 'l', kNoFormat = 'f' };

// Writes all of [p, p + n) to fd.
bool writeAll(int fd, const char* p, size_t n) {
  while (n) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w, n -= size_t(w);
  }
  return true;
}

}  // namespace

Result<std::string> Graphviz::render(const Graph& g, const std::string& format, double maxSeconds) const {
  if (auto problem = checkDrawable(g)) return *problem;  // a layout past it may not end (Graph.h)
  // The layout runs in a child process: its time is bounded (the parent stops it), a crash of
  // Graphviz is an error message, and what Graphviz does not free goes with the child.
  std::lock_guard<std::mutex> lock(renderMutex());
  int fds[2];
  if (::pipe(fds) != 0) return Diagnostic{"<viz>", 0, 0, std::string("cannot start the layout: ") + std::strerror(errno)};
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]), ::close(fds[1]);
    return Diagnostic{"<viz>", 0, 0, std::string("cannot start the layout: ") + std::strerror(errno)};
  }
  if (child == 0) {
    ::close(fds[0]);
    Agraph_t* root = build(*api_, g);
    char status = kDrawn;
    char* data = nullptr;
    unsigned len = 0;
    if (api_->gvLayout(api_->context, root, "dot") != 0) status = kNoLayout;
    else if (api_->gvRenderData(api_->context, root, format.c_str(), &data, &len) != 0 || !data) status = kNoFormat;
    const bool ok = writeAll(fds[1], &status, 1) && (status != kDrawn || writeAll(fds[1], data, len));
    ::_exit(ok ? 0 : 1);  // no destructors, no atexit handlers of the parent's
  }
  ::close(fds[1]);
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(maxSeconds);
  bool late = false;
  char buf[65536];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      late = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int r = ::poll(&p, 1, int(std::min<int64_t>(left.count(), 1000)));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, size_t(n));
  }
  ::close(fds[0]);
  if (late) ::kill(child, SIGKILL);
  int wstatus = 0;
  while (::waitpid(child, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (late) {
    std::ostringstream s;
    s << maxSeconds;
    return Diagnostic{"<viz>", 0, 0,
                      "Graphviz's layout of @" + g.name + " (" + std::to_string(g.nodes.size()) + " nodes) ran past " + s.str() +
                          " s and was stopped (draw fewer ops: --collapse, or a smaller kernel; see docs/limits.md)"};
  }
  if (WIFSIGNALED(wstatus) || out.empty())
    return Diagnostic{"<viz>", 0, 0, "Graphviz failed laying out @" + g.name +
                                         (WIFSIGNALED(wstatus) ? " (it crashed: signal " + std::to_string(WTERMSIG(wstatus)) + ")" : "")};
  if (out[0] == kNoLayout) return Diagnostic{"<viz>", 0, 0, "Graphviz could not lay the graph out (is the dot layout plugin installed?)"};
  if (out[0] == kNoFormat) return Diagnostic{"<viz>", 0, 0, "Graphviz cannot render format '" + format + "'"};
  return out.substr(1);
}

Result<DotSummary> Graphviz::read(const std::string& dotText) const {
  Agraph_t* g = api_->agmemread(dotText.c_str());
  if (!g) return Diagnostic{"<viz>", 0, 0, "not a DOT graph Graphviz can read"};
  DotSummary s;
  s.nodes = api_->agnnodes(g);
  s.edges = api_->agnedges(g);
  clusters(*api_, g, s);
  for (Agnode_t* n = api_->agfstnode(g); n; n = api_->agnxtnode(g, n)) {
    auto& attrs = s.nodeAttrs[api_->agnameof(n)];
    for (const char* k : {"label", "color", "tooltip", "fillcolor", "penwidth"}) {
      char* v = api_->agget(n, const_cast<char*>(k));
      if (v && *v) attrs[k] = v;
    }
  }
  api_->agclose(g);
  return s;
}

}  // namespace tilevm::viz
