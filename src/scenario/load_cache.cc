// LoadCache: ReadTrace once per trace, and a "jobs" array parsed once, shared after.
#include "fleetsim/scenario/load_cache.h"

namespace fleetsim {

CachedTrace LoadCache::ReadTrace(const TraceFormat& format, const std::string& path,
                                 const TraceOptionValues& format_options,
                                 const TraceReadOptions& options) {
  const FileSystem* files = options.files != nullptr ? options.files : &DiskFileSystem();
  TraceKey key{format.name, path, format_options, options.on_bad_row, options.catalog, files};
  auto it = traces_.find(key);
  if (it == traces_.end()) {
    Workload jobs;
    CachedTrace read{.report = fleetsim::ReadTrace(format, path, format_options, options, jobs)};
    read.jobs = std::make_shared<const Workload>(std::move(jobs));
    it = traces_.emplace(std::move(key), std::move(read)).first;
  }
  return it->second;
}

std::shared_ptr<const std::vector<Job>> LoadCache::FindListedJobs(const std::string& text,
                                                                  const Catalog* catalog) const {
  const auto by_catalog = listed_jobs_.find(catalog);
  if (by_catalog == listed_jobs_.end()) {
    return nullptr;
  }
  const auto it = by_catalog->second.find(text);
  return it == by_catalog->second.end() ? nullptr : it->second;
}

void LoadCache::RememberListedJobs(std::string text, const Catalog* catalog,
                                   std::shared_ptr<const std::vector<Job>> jobs) {
  listed_jobs_[catalog].emplace(std::move(text), std::move(jobs));
}

}  // namespace fleetsim
