// Report.h - what a launch found: kernel faults as data (bounds, races, uninitialized reads,
// poison, failed device asserts, runaway loops), with severities, source locations and
// program ids.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tilevm::interp {

/// `s` as a JSON string literal (quotes, backslashes and control characters escaped).
std::string jsonString(const std::string& s);

/// One problem in the kernel (not in tilevm).
struct Finding {
  /// Timeout: past LaunchOptions::timeoutSeconds; Interrupted: LaunchOptions::cancel was set.
  enum class Kind { OutOfBounds, Misaligned, Race, StoreConflict, Uninitialized, Poison, AssertFailed, NoTermination, Timeout,
                    Interrupted };
  Kind kind;
  /// Errors make a launch fail (exit code 3); warnings and notes are reported only (the
  /// findings policy, docs/interpreter.md).
  enum class Severity { Error, Warning, Note };
  Severity severity = Severity::Error;
  std::string loc;                 ///< file:line:col of the op
  std::array<int64_t, 3> pid{};    ///< program that did it
  std::string buffer;              ///< buffer name (memory findings)
  int64_t element = -1;            ///< element index in the buffer (may be outside it)
  int64_t count = 1;               ///< how many elements/lanes this finding covers
  std::string detail;              ///< the rest of the message
  // The other side of a race or conflict.
  bool hasOther = false;
  std::array<int64_t, 3> otherPid{};
  std::string otherLoc;
  std::string access, otherAccess;  ///< "read", "write", "atomic"
};

/// Name of a finding kind, as in reports ("out-of-bounds", "data-race", ...).
const char* kindName(Finding::Kind k);

/// Name of a severity, as in reports ("error", "warning", "note").
const char* severityName(Finding::Severity s);

/// The result of a launch.
struct Report {
  std::vector<Finding> findings;
  std::string printed;   ///< device_print output, grouped and ordered by program id
  std::string trace;     ///< --trace output
  double seconds = 0;
  size_t programs = 0;
  size_t arenaBytes = 0; ///< peak arena bytes over all workers
  size_t droppedFindings = 0;  ///< distinct findings past kMaxFindings, not listed

  /// Findings of severity Error (a launch with none passes the checks: exit code 0).
  size_t errors() const;
  /// Human-readable findings, one paragraph each.
  std::string text() const;
  /// JSON document of the findings; `fields` (",\n  \"name\": value" each) go after the
  /// timing (rt::LaunchResult adds the compile time and the GPU's statistics).
  std::string json(const std::string& fields = "") const;
  /// The findings as runs of one kernel under different schedules must agree on them: each
  /// one's severity, kind, source lines, buffer and element, and program and count for findings
  /// one program makes alone, sorted. Which two programs a race or store conflict names, and how
  /// many later accesses conflict, depend on the order programs ran in, so those are left out.
  std::string identity() const;
};

/// The most distinct findings a report lists (the first ones in canonical order); the rest are
/// counted. A kernel faulting in every program of a huge grid must not exhaust memory.
inline constexpr size_t kMaxFindings = 10000;

/// Sorts findings into a schedule-independent order and merges duplicates (same kind, op
/// locations, buffer, programs), adding up their element counts; keeps at most `keep` and
/// returns how many distinct findings it dropped.
size_t canonicalize(std::vector<Finding>& findings, size_t keep = SIZE_MAX);

}  // namespace tilevm::interp
