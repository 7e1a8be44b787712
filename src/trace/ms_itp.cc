// The Microsoft ITP importer (format "ms-itp"): the per-cluster CSVs published with
// ElasticFlow (ASPLOS'23), `job_id,submission_time,duration,num_gpu`, times in seconds, one job
// per row. docs/trace-formats.md ("Microsoft ITP") gives the mapping.
#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace/csv_job_source.h"
#include "trace/readers.h"

namespace fleetsim {
namespace {

std::vector<std::string> ItpColumns() {
  return {"job_id", "submission_time", "duration", "num_gpu"};
}

class ItpSource final : public CsvJobSource {
 public:
  ItpSource(const FileSystem& files, const std::string& path, std::string tenant)
      : CsvJobSource(files, path, ItpColumns()), tenant_(std::move(tenant)) {}

 private:
  Status OnHeader() override {
    job_id_ = Column("job_id");
    submission_time_ = Column("submission_time");
    duration_ = Column("duration");
    num_gpu_ = Column("num_gpu");
    return Status::Ok();
  }

  void FillJob(Job& job, FieldError& problem) override {
    std::optional<std::string> id = IdField(Field(job_id_), "job_id", problem);
    const std::optional<SimTime> submit =
        SecondsField(Field(submission_time_), "submission_time", problem);
    const std::optional<SimDuration> duration =
        DurationField(Field(duration_), "duration", problem);
    const std::optional<std::int64_t> gpus = GpuCountField(Field(num_gpu_), "num_gpu", problem);
    if (!problem.ok()) {
      return;
    }
    job.request.id = std::move(*id);
    job.request.submit = *submit;
    job.request.tenant = tenant_;
    job.request.gpus = *gpus;
    job.truth.duration = *duration;
  }

  std::string tenant_;
  std::size_t job_id_ = 0;
  std::size_t submission_time_ = 0;
  std::size_t duration_ = 0;
  std::size_t num_gpu_ = 0;
};

OpenResult OpenItp(const FileSystem& files, const std::string& path,
                   const TraceOptionValues& values) {
  const std::string& tenant = values.at("tenant");
  if (tenant.empty()) {
    return {nullptr, Status::InvalidInput(fmt::format(
                         "{}: option 'tenant': expected a non-empty tenant name, found ''", path))};
  }
  return OpenCsvSource<ItpSource>(files, path, tenant);
}

}  // namespace

TraceFormat ItpFormat() {
  return TraceFormat{
      .name = "ms-itp",
      .summary =
          "Microsoft ITP cluster CSV (job_id,submission_time,duration,num_gpu), as "
          "published with ElasticFlow (ASPLOS'23)",
      .options =
          {
              {.name = "tenant",
               .default_value = "default",
               .doc = "the tenant of every job (the trace names no users or teams)"},
          },
      .open = OpenItp,
  };
}

}  // namespace fleetsim
