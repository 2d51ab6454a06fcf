// AccessSvg.cpp - the access heat map (see AccessSvg.h). Written as SVG text directly: it is a
// grid of rectangles, not a graph, so Graphviz has nothing to lay out.
#include "viz/AccessSvg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace tilevm::viz {

namespace {

constexpr int64_t kMaxCells = 128;  // per side; larger buffers are drawn in blocks

std::string programColor(uint32_t program) {
  // Golden-ratio hues, neighbouring programs far apart; kept off red (36 degrees either side),
  // which marks conflicts.
  double h = (0.1 + 0.8 * std::fmod(double(program) * 0.618033988749895, 1.0)) * 6.0, s = 0.55, l = 0.62;
  double c = (1 - std::fabs(2 * l - 1)) * s, x = c * (1 - std::fabs(std::fmod(h, 2.0) - 1)), m = l - c / 2;
  double r = 0, g = 0, b = 0;
  switch (int(h)) {
    case 0: r = c, g = x; break;
    case 1: r = x, g = c; break;
    case 2: g = c, b = x; break;
    case 3: g = x, b = c; break;
    case 4: r = x, b = c; break;
    default: r = c, b = x; break;
  }
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", int((r + m) * 255), int((g + m) * 255), int((b + m) * 255));
  return buf;
}

std::string pidText(uint32_t linear, const std::array<int64_t, 3>& grid) {
  int64_t x = int64_t(linear) % grid[0], y = (int64_t(linear) / grid[0]) % grid[1], z = int64_t(linear) / (grid[0] * grid[1]);
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")";
}

bool conflicted(const interp::AccessMap& m, int64_t e) {
  uint32_t w = m.firstWriter[size_t(e)].load(), r = m.firstReader[size_t(e)].load();
  if (!w) return false;
  return m.otherWriter[size_t(e)].load() || m.otherReader[size_t(e)].load() || (r && r != w);
}

}  // namespace

int64_t conflictedElements(const interp::AccessMap& m) {
  int64_t n = 0;
  for (int64_t e = 0; e < m.numel; ++e) n += conflicted(m, e);
  return n;
}

std::string accessSvg(const interp::AccessMap& m, const std::vector<int64_t>& shape, const std::array<int64_t, 3>& grid) {
  // Rows x cols of elements: the last dim as columns (1-D: wrapped at 64).
  int64_t cols = shape.empty() ? 1 : shape.back(), rows = cols ? m.numel / std::max<int64_t>(1, cols) : 0;
  if (shape.size() <= 1) {
    cols = std::min<int64_t>(64, std::max<int64_t>(1, m.numel));
    rows = (m.numel + cols - 1) / cols;
  }
  int64_t bh = (rows + kMaxCells - 1) / kMaxCells, bw = (cols + kMaxCells - 1) / kMaxCells;  // elements per cell
  int64_t cellRows = (rows + bh - 1) / bh, cellCols = (cols + bw - 1) / bw;
  double cell = std::clamp(560.0 / double(std::max(cellRows, cellCols)), 3.0, 24.0);
  double panelW = double(cellCols) * cell, panelH = double(cellRows) * cell, gap = 40, top = 64;
  double width = 2 * panelW + gap + 40, height = top + panelH + 70;
  bool tooltips = cellRows * cellCols <= 4096;
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height << "\" font-family=\"Helvetica\" font-size=\"12\">\n";
  o << "<title>access map of " << m.buffer << "</title>\n";
  o << "<text x=\"20\" y=\"22\" font-size=\"15\">" << m.buffer << ": which program read and wrote each element";
  if (bh * bw > 1) o << " (a cell is " << bh << "x" << bw << " elements)";
  o << "</text>\n";
  int64_t red = conflictedElements(m);
  o << "<text x=\"20\" y=\"42\" fill=\"" << (red ? "#d00000" : "#333333") << "\">" << red
    << (red == 1 ? " element" : " elements") << " touched by more than one program with a write among them (red)</text>\n";
  for (int panel = 0; panel < 2; ++panel) {
    bool write = panel == 1;
    double x0 = 20 + panel * (panelW + gap);
    o << "<text x=\"" << x0 << "\" y=\"" << top - 6 << "\">" << (write ? "writes" : "reads") << "</text>\n";
    o << "<rect x=\"" << x0 << "\" y=\"" << top << "\" width=\"" << panelW << "\" height=\"" << panelH << "\" fill=\"#f4f4f4\" stroke=\"#bbbbbb\"/>\n";
    for (int64_t cr = 0; cr < cellRows; ++cr)
      for (int64_t cc = 0; cc < cellCols; ++cc) {
        // The cell's colour: its first touched element's program; red if any element conflicts.
        uint32_t who = 0;
        bool bad = false, several = false;
        int64_t firstElem = -1;
        for (int64_t r = cr * bh; r < std::min(rows, (cr + 1) * bh); ++r)
          for (int64_t c = cc * bw; c < std::min(cols, (cc + 1) * bw); ++c) {
            int64_t e = r * cols + c;
            if (e >= m.numel) continue;
            uint32_t p = (write ? m.firstWriter : m.firstReader)[size_t(e)].load();
            several = several || (write ? m.otherWriter : m.otherReader)[size_t(e)].load();
            if (p && !who) who = p, firstElem = e;
            bad = bad || conflicted(m, e);
          }
        if (!who) continue;
        o << "<rect x=\"" << x0 + double(cc) * cell << "\" y=\"" << top + double(cr) * cell << "\" width=\"" << cell
          << "\" height=\"" << cell << "\" fill=\"" << (bad ? "#d00000" : programColor(who - 1)) << "\"";
        if (bad) o << " stroke=\"#700000\" stroke-width=\"0.5\"";
        else if (cell >= 6) o << " stroke=\"#ffffff\" stroke-width=\"0.5\"";
        if (tooltips)
          o << "><title>" << m.buffer << "[" << firstElem << "]: " << (write ? "written" : "read") << " by program "
            << pidText(who - 1, grid) << (several ? " and others" : "") << (bad ? " (conflict)" : "") << "</title></rect>\n";
        else
          o << "/>\n";
      }
  }
  o << "<text x=\"20\" y=\"" << top + panelH + 24 << "\" fill=\"#555555\">colour: the program (one hue per program id); grey: "
    << "not touched; red: several programs, one writing</text>\n";
  o << "</svg>\n";
  return o.str();
}

}  // namespace tilevm::viz
