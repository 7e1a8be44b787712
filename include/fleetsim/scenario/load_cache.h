// What the loads of many scenarios share: a sweep's or a plan's points differ in their fleets or
// policies, not in their trace or their listed jobs. Reading a large trace (Philly's 100,000 rows)
// once per point cost most of a plan's time, and a copy of the trace's or the listed jobs per
// point most of its memory. The cache reads a trace once and hands every later load the same jobs
// (shared, read-only) and a copy of the report, as ReadTrace would have made them; and it keeps
// each "jobs" array parsed without a diagnostic, so that a later load of the same array shares
// those jobs. Traces are keyed by format, path, format options, bad-row policy, catalog and file
// system (a file changed while the cache lives is not read again); listed jobs by the array's
// JSON text and the catalog. The catalog and the file system are keyed by address: both must
// outlive the cache. Not thread-safe: one per loading thread.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/import.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

struct CachedTrace {
  TraceReport report{};
  std::shared_ptr<const Workload> jobs{};  // empty when the report has an error
};

class LoadCache {
 public:
  // ReadTrace, remembered.
  CachedTrace ReadTrace(const TraceFormat& format, const std::string& path,
                        const TraceOptionValues& format_options, const TraceReadOptions& options);

  // Traces read from disk so far (each once).
  std::size_t trace_reads() const { return traces_.size(); }

  // The jobs remembered for a "jobs" array of JSON text `text` (compact) resolved against
  // `catalog`, or null.
  std::shared_ptr<const std::vector<Job>> FindListedJobs(const std::string& text,
                                                         const Catalog* catalog) const;
  // Remembers `jobs` as what the array `text` yields on `catalog`; for arrays that parsed
  // without a diagnostic only, so that a load finding them reports what parsing them would.
  void RememberListedJobs(std::string text, const Catalog* catalog,
                          std::shared_ptr<const std::vector<Job>> jobs);

 private:
  using TraceKey = std::tuple<std::string, std::string, TraceOptionValues, BadRowPolicy,
                              const Catalog*, const FileSystem*>;
  std::map<TraceKey, CachedTrace> traces_;
  // By catalog, then by the array's text (found without a copy of the text).
  std::map<const Catalog*,
           std::map<std::string, std::shared_ptr<const std::vector<Job>>, std::less<>>>
      listed_jobs_;
};

}  // namespace fleetsim
