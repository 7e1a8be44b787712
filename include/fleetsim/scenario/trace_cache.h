// Traces already read, shared by the loads of many scenarios that replay the same trace: a sweep's
// or a plan's points differ in their fleets or policies, not in their trace, and reading a large
// trace (Philly's 100,000 rows) once per point cost most of a plan's time, and holding a copy per
// point most of its memory. The cache reads a trace once and hands every later load the same
// jobs (shared, read-only) and a copy of the report, as ReadTrace would have made them. Keyed by
// format, path, format options, bad-row policy, catalog and file system; a file changed while the
// cache lives is not read again. The catalog and the file system are keyed by address: both must
// outlive the cache. Not thread-safe: one per loading thread.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/import.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

struct CachedTrace {
  TraceReport report{};
  std::shared_ptr<const Workload> jobs{};  // empty when the report has an error
};

class TraceCache {
 public:
  // ReadTrace, remembered.
  CachedTrace Read(const TraceFormat& format, const std::string& path,
                   const TraceOptionValues& format_options, const TraceReadOptions& options);

  // Traces read from disk so far (each once).
  std::size_t reads() const { return entries_.size(); }

 private:
  using Key = std::tuple<std::string, std::string, TraceOptionValues, BadRowPolicy, const Catalog*,
                         const FileSystem*>;
  std::map<Key, CachedTrace> entries_;
};

}  // namespace fleetsim
