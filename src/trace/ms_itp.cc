// The Microsoft ITP importer (format "ms-itp"): the per-cluster CSVs published with
// ElasticFlow (ASPLOS'23), `job_id,submission_time,duration,num_gpu`, times in seconds, one job
// per row. docs/trace-formats.md ("Microsoft ITP") gives the mapping.
#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/diagnostics.h"
#include "text/csv.h"
#include "trace/fields.h"
#include "text/line_reader.h"
#include "trace/readers.h"

namespace fleetsim {
namespace {

std::vector<std::string> ItpColumns() {
  return {"job_id", "submission_time", "duration", "num_gpu"};
}

class ItpSource : public JobSource {
 public:
  ItpSource(const std::string& path, std::string tenant)
      : lines_(path), tenant_(std::move(tenant)) {}

  // Reads the header; "" or the open error.
  std::string Open() {
    if (std::string error = ReadCsvHeader(lines_, ItpColumns(), header_); !error.empty()) {
      return error;
    }
    job_id_ = *header_.Find("job_id");
    submission_time_ = *header_.Find("submission_time");
    duration_ = *header_.Find("duration");
    num_gpu_ = *header_.Find("num_gpu");
    return "";
  }

  Status Next(Job& job, RowError& error) override {
    FieldError problem;
    if (!NextCsvRow(lines_, header_, fields_, problem)) {
      return Status::kEnd;
    }
    job = Job{};
    if (problem.ok()) {
      FillJob(job, problem);
    }
    return FinishRow(job, problem, lines_.path(), lines_.line_number(), error);
  }

  std::int64_t line() const override { return lines_.line_number(); }

  std::vector<std::string> Notes() const override {
    const std::vector<std::string> unused = UnusedColumns(header_, ItpColumns());
    if (unused.empty()) {
      return {};
    }
    return {fmt::format("columns not used: {}", QuotedList(unused))};
  }

 private:
  void FillJob(Job& job, FieldError& problem) const {
    std::optional<std::string> id = IdField(fields_[job_id_], "job_id", problem);
    const std::optional<SimTime> submit =
        SecondsField(fields_[submission_time_], "submission_time", problem);
    const std::optional<SimDuration> duration =
        DurationField(fields_[duration_], "duration", problem);
    const std::optional<std::int64_t> gpus = GpuCountField(fields_[num_gpu_], "num_gpu", problem);
    if (!problem.ok()) {
      return;
    }
    job.request.id = std::move(*id);
    job.request.submit = *submit;
    job.request.tenant = tenant_;
    job.request.gpus = *gpus;
    job.truth.duration = *duration;
  }

  LineReader lines_;
  std::string tenant_;
  CsvHeader header_;
  std::vector<std::string> fields_;
  std::size_t job_id_ = 0;
  std::size_t submission_time_ = 0;
  std::size_t duration_ = 0;
  std::size_t num_gpu_ = 0;
};

OpenResult OpenItp(const std::string& path, const TraceOptionValues& values) {
  const std::string& tenant = values.at("tenant");
  if (tenant.empty()) {
    return {nullptr,
            fmt::format("{}: option 'tenant': expected a non-empty tenant name, found ''", path)};
  }
  auto source = std::make_unique<ItpSource>(path, tenant);
  if (std::string error = source->Open(); !error.empty()) {
    return {nullptr, std::move(error)};
  }
  return {std::move(source), ""};
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
