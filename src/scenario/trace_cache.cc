// TraceCache: ReadTrace once per trace, copies after.
#include "fleetsim/scenario/trace_cache.h"

namespace fleetsim {

TraceReport TraceCache::Read(const TraceFormat& format, const std::string& path,
                             const TraceOptionValues& format_options,
                             const TraceReadOptions& options, Workload& workload) {
  Key key{format.name, path, format_options, options.on_bad_row, options.catalog};
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    Entry entry;
    entry.report = ReadTrace(format, path, format_options, options, entry.jobs);
    ++reads_;
    it = entries_.emplace(std::move(key), std::move(entry)).first;
  }
  workload.jobs.insert(workload.jobs.end(), it->second.jobs.jobs.begin(),
                       it->second.jobs.jobs.end());
  return it->second.report;
}

}  // namespace fleetsim
