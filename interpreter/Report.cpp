// Report.cpp - ordering, merging and printing of findings.
#include "interpreter/Report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>

namespace tilevm::interp {

const char* kindName(Finding::Kind k) {
  switch (k) {
    case Finding::Kind::OutOfBounds: return "out-of-bounds";
    case Finding::Kind::Misaligned: return "misaligned";
    case Finding::Kind::Race: return "data-race";
    case Finding::Kind::StoreConflict: return "store-conflict";
    case Finding::Kind::Uninitialized: return "uninitialized-read";
    case Finding::Kind::Poison: return "poison-store";
    case Finding::Kind::AssertFailed: return "assert-failed";
    case Finding::Kind::NoTermination: return "no-termination";
    case Finding::Kind::Timeout: return "timeout";
    case Finding::Kind::Interrupted: return "interrupted";
  }
  return "?";
}

const char* severityName(Finding::Severity s) {
  switch (s) {
    case Finding::Severity::Error: return "error";
    case Finding::Severity::Warning: return "warning";
    case Finding::Severity::Note: return "note";
  }
  return "?";
}

size_t Report::errors() const {
  size_t n = 0;
  for (const Finding& f : findings) n += f.severity == Finding::Severity::Error;
  return n;
}

namespace {
// (Appended piece by piece: GCC 12 at -O3 warns falsely about "(" + std::string&&.)
std::string joinPid(const std::array<int64_t, 3>& p, const char* open, const char* close) {
  std::string s = open;
  for (size_t d = 0; d < 3; ++d) {
    if (d) s += ", ";
    s += std::to_string(p[d]);
  }
  return s += close;
}
std::string pidStr(const std::array<int64_t, 3>& p) { return joinPid(p, "(", ")"); }
auto key(const Finding& f) {
  return std::make_tuple(int(f.kind), int(f.severity), f.loc, f.buffer, f.otherLoc, f.pid, f.otherPid, f.element);
}
std::string jsonPid(const std::array<int64_t, 3>& p) { return joinPid(p, "[", "]"); }
}  // namespace

std::string jsonString(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (c == '\n') o += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
    } else o += c;
  }
  return o + "\"";
}

size_t canonicalize(std::vector<Finding>& fs, size_t keep) {
  // Races are symmetric: order the two sides so the smaller program id comes first.
  for (Finding& f : fs) {
    if (f.hasOther && f.kind == Finding::Kind::Race && f.otherPid < f.pid) {
      std::swap(f.pid, f.otherPid);
      std::swap(f.loc, f.otherLoc);
      std::swap(f.access, f.otherAccess);
    }
  }
  std::sort(fs.begin(), fs.end(), [](const Finding& a, const Finding& b) { return key(a) < key(b); });
  // One finding per place: races merge over program pairs (which pairs a shadow word sees
  // when three or more programs collide depends on the schedule; the places do not), keeping
  // the smallest pair and element; other kinds merge per program.
  using Place = std::tuple<int, int, std::string, std::string, std::string, std::string, std::string,
                           std::array<int64_t, 3>, std::array<int64_t, 3>>;
  std::map<Place, size_t> where;
  std::vector<Finding> out;
  for (Finding& f : fs) {
    bool race = f.kind == Finding::Kind::Race;
    Place place{int(f.kind), int(f.severity), f.loc, f.buffer, f.otherLoc, f.access, f.otherAccess,
                race ? std::array<int64_t, 3>{} : f.pid, race ? std::array<int64_t, 3>{} : f.otherPid};
    auto [it, fresh] = where.emplace(std::move(place), out.size());
    if (fresh) {
      out.push_back(std::move(f));
      continue;
    }
    Finding& o = out[it->second];
    if (std::tie(f.pid, f.otherPid, f.element) < std::tie(o.pid, o.otherPid, o.element)) {
      o.pid = f.pid;
      o.otherPid = f.otherPid;
      o.element = f.element;
      o.detail = f.detail;
    }
    o.count += f.count;
  }
  size_t dropped = out.size() > keep ? out.size() - keep : 0;
  if (dropped) out.resize(keep);
  fs = std::move(out);
  return dropped;
}

std::string Report::identity() const {
  std::vector<std::string> lines;
  for (const Finding& f : findings) {
    const bool pair = f.kind == Finding::Kind::Race || f.kind == Finding::Kind::StoreConflict;
    std::string a = f.loc, b = f.hasOther ? f.otherLoc : "";
    if (pair && b < a) std::swap(a, b);
    std::ostringstream line;
    line << severityName(f.severity) << ' ' << kindName(f.kind) << ' ' << a << ' ' << b << ' ' << f.buffer << '['
         << f.element << ']';
    if (!pair) line << " x" << f.count << " by " << pidStr(f.pid);
    lines.push_back(line.str());
  }
  std::sort(lines.begin(), lines.end());
  std::string all;
  for (const std::string& l : lines) all += l + '\n';
  return all;
}

std::string Report::text() const {
  std::ostringstream o;
  for (const Finding& f : findings) {
    // Errors read `loc: kind: ...`; warnings and notes say so: `loc: warning: kind: ...`.
    o << (f.loc.empty() ? std::string("<launch>") : f.loc) << ": ";
    if (f.severity != Finding::Severity::Error) o << severityName(f.severity) << ": ";
    o << kindName(f.kind) << ": ";
    switch (f.kind) {
      case Finding::Kind::Timeout:
      case Finding::Kind::Interrupted:
        o << f.detail;
        break;
      case Finding::Kind::Race:
        o << f.access << " of " << f.buffer << "[" << f.element << "] by program " << pidStr(f.pid) << " races with "
          << f.otherAccess << " by program " << pidStr(f.otherPid) << " at " << f.otherLoc;
        if (!f.detail.empty()) o << "; " << f.detail;
        break;
      case Finding::Kind::StoreConflict:
        o << "lanes of one store write different values to " << f.buffer << "[" << f.element << "] in program "
          << pidStr(f.pid);
        break;
      case Finding::Kind::AssertFailed:
      case Finding::Kind::NoTermination:
        o << f.detail << " in program " << pidStr(f.pid);
        break;
      case Finding::Kind::OutOfBounds:
      case Finding::Kind::Misaligned:
      case Finding::Kind::Uninitialized:
      case Finding::Kind::Poison:
        o << f.detail << " in program " << pidStr(f.pid);
        break;
    }
    if (f.count > 1) o << " (" << f.count << (f.kind == Finding::Kind::Race ? " conflicting accesses)" : " elements)");
    o << "\n";
  }
  if (droppedFindings)
    o << "... and " << droppedFindings << " more distinct findings not listed (a report keeps the first " << kMaxFindings
      << ")\n";
  return o.str();
}

std::string Report::json(const std::string& fields) const {
  std::ostringstream o;
  o << "{\n  \"programs\": " << programs << ",\n  \"seconds\": " << seconds << fields;
  o << ",\n  \"dropped_findings\": " << droppedFindings << ",\n  \"findings\": [";
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    o << (i ? "," : "") << "\n    {\"kind\": " << jsonString(kindName(f.kind)) << ", \"loc\": " << jsonString(f.loc)
      << ", \"pid\": " << jsonPid(f.pid) << ", \"buffer\": " << jsonString(f.buffer) << ", \"element\": " << f.element
      << ", \"count\": " << f.count << ", \"severity\": " << jsonString(severityName(f.severity)) << ", \"detail\": " << jsonString(f.detail);
    if (f.hasOther)
      o << ", \"access\": " << jsonString(f.access) << ", \"other_pid\": " << jsonPid(f.otherPid)
        << ", \"other_loc\": " << jsonString(f.otherLoc) << ", \"other_access\": " << jsonString(f.otherAccess);
    o << "}";
  }
  o << "\n  ]\n}\n";
  return o.str();
}

}  // namespace tilevm::interp
