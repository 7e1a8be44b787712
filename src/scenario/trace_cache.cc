// TraceCache: ReadTrace once per trace, shared after.
#include "fleetsim/scenario/trace_cache.h"

namespace fleetsim {

CachedTrace TraceCache::Read(const TraceFormat& format, const std::string& path,
                             const TraceOptionValues& format_options,
                             const TraceReadOptions& options) {
  const FileSystem* files = options.files != nullptr ? options.files : &DiskFileSystem();
  Key key{format.name, path, format_options, options.on_bad_row, options.catalog, files};
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    Workload jobs;
    CachedTrace read{.report = ReadTrace(format, path, format_options, options, jobs)};
    read.jobs = std::make_shared<const Workload>(std::move(jobs));
    it = entries_.emplace(std::move(key), std::move(read)).first;
  }
  return it->second;
}

}  // namespace fleetsim
