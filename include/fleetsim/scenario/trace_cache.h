// Traces already read, shared by the loads of many scenarios that replay the same trace: a sweep's
// or a plan's points differ in their fleets or policies, not in their trace, and reading a large
// trace (Philly's 100,000 rows) once per point cost most of a plan's time. The cache reads a trace
// once and hands every later load a copy of its jobs and report, as ReadTrace would have made
// them. Keyed by format, path, format options, bad-row policy and catalog; a file changed on disk
// while the cache lives is not read again. Not thread-safe: one per loading thread.
#pragma once

#include <map>
#include <string>
#include <tuple>

#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/import.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

class TraceCache {
 public:
  // ReadTrace, remembered: appends the trace's jobs to `workload` and returns its report.
  TraceReport Read(const TraceFormat& format, const std::string& path,
                   const TraceOptionValues& format_options, const TraceReadOptions& options,
                   Workload& workload);

  // Traces read from disk so far (each once).
  std::size_t reads() const { return reads_; }

 private:
  using Key = std::tuple<std::string, std::string, TraceOptionValues, BadRowPolicy, const Catalog*>;
  struct Entry {
    TraceReport report;
    Workload jobs;
  };
  std::map<Key, Entry> entries_;
  std::size_t reads_ = 0;
};

}  // namespace fleetsim
