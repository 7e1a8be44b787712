// The Pollux workload importer (format "pollux"): the workload CSVs of the Pollux OSDI'21
// artifact, `name,time,application,num_replicas,batch_size`, one job per row. They give
// arrivals and sizes only: run times come from the format's options, because the files hold
// none. docs/trace-formats.md ("Pollux workloads") gives the mapping.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/core/diagnostics.h"
#include "trace/csv_job_source.h"
#include "trace/readers.h"

namespace fleetsim {
namespace {

std::vector<std::string> PolluxColumns() { return {"name", "time", "application", "num_replicas"}; }

struct PolluxOptions {
  std::string duration_text;
  std::string table_text;
  std::optional<SimDuration> duration;                // for applications not in the table
  std::map<std::string, SimDuration> by_application;  // from application_duration_s
};

// Reads "bert=7200|ncf=600" into `table`.
Status ParseDurationTable(std::string_view text, std::map<std::string, SimDuration>& table) {
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('|'), text.size());
    const std::string_view entry = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    const std::size_t equals = entry.find('=');
    if (equals == std::string_view::npos || equals == 0) {
      return Status::InvalidInput(
          fmt::format("option 'application_duration_s': expected 'application=seconds' "
                      "entries separated by '|', found '{}'",
                      entry));
    }
    const std::string application(entry.substr(0, equals));
    Status status;
    const std::optional<SimDuration> duration =
        DurationOption("application_duration_s", entry.substr(equals + 1), status);
    if (!duration) {
      return status;
    }
    if (!table.emplace(application, *duration).second) {
      return Status::InvalidInput(
          fmt::format("option 'application_duration_s': expected each application once, "
                      "found '{}' twice",
                      application));
    }
  }
  return Status::Ok();
}

// Fails with what is wrong with the options.
Status ParseOptions(const TraceOptionValues& values, PolluxOptions& options) {
  options.duration_text = values.at("duration_s");
  options.table_text = values.at("application_duration_s");
  if (options.duration_text.empty() && options.table_text.empty()) {
    return Status::InvalidInput(
        "option 'duration_s': Pollux workloads hold no job durations: expected duration_s "
        "(seconds for every job) or application_duration_s ('application=seconds|...'), "
        "found neither");
  }
  Status status;
  if (!options.duration_text.empty()) {
    options.duration = DurationOption("duration_s", options.duration_text, status);
    if (!options.duration) {
      return status;
    }
  }
  return ParseDurationTable(options.table_text, options.by_application);
}

class PolluxSource final : public CsvJobSource {
 public:
  PolluxSource(const FileSystem& files, const std::string& path, PolluxOptions options)
      : CsvJobSource(files, path, PolluxColumns()), options_(std::move(options)) {}

 private:
  Status OnHeader() override {
    name_ = Column("name");
    time_ = Column("time");
    application_ = Column("application");
    num_replicas_ = Column("num_replicas");
    return Status::Ok();
  }

  std::vector<std::string> FormatNotes() const override {
    return {
        fmt::format("run times are not in Pollux workloads; they come from the options: "
                    "duration_s '{}', application_duration_s '{}'",
                    options_.duration_text, options_.table_text)};
  }

  void FillJob(Job& job, FieldError& problem) override {
    std::optional<std::string> id = IdField(Field(name_), "name", problem);
    const std::optional<SimTime> submit = SecondsField(Field(time_), "time", problem);
    const std::string& application = Field(application_);
    const std::optional<SimDuration> duration = DurationOf(application, problem);
    const std::optional<std::int64_t> gpus =
        GpuCountField(Field(num_replicas_), "num_replicas", problem);
    if (!problem.ok()) {
      return;
    }
    job.request.id = std::move(*id);
    job.request.submit = *submit;
    job.request.tenant = application;
    job.request.gpus = *gpus;
    job.truth.duration = *duration;
  }

  // The run time of a job of `application`: its entry in application_duration_s, else
  // duration_s.
  std::optional<SimDuration> DurationOf(const std::string& application, FieldError& problem) const {
    if (application.empty()) {
      problem.Set(kReasonBadValue, "column 'application': expected an application name, found ''");
      return std::nullopt;
    }
    if (const auto it = options_.by_application.find(application);
        it != options_.by_application.end()) {
      return it->second;
    }
    if (!options_.duration) {
      problem.Set(kReasonBadValue,
                  fmt::format("column 'application': expected an application listed in option "
                              "'application_duration_s' (option 'duration_s' is not set), "
                              "found '{}'",
                              application));
    }
    return options_.duration;
  }

  PolluxOptions options_;
  std::size_t name_ = 0;
  std::size_t time_ = 0;
  std::size_t application_ = 0;
  std::size_t num_replicas_ = 0;
};

OpenResult OpenPollux(const FileSystem& files, const std::string& path,
                      const TraceOptionValues& values) {
  PolluxOptions options;
  if (const Status status = ParseOptions(values, options); !status.ok()) {
    return {nullptr, status.Within(path)};
  }
  return OpenCsvSource<PolluxSource>(files, path, std::move(options));
}

}  // namespace

TraceFormat PolluxFormat() {
  return TraceFormat{
      .name = "pollux",
      .summary =
          "Pollux OSDI'21 workload CSV (name,time,application,num_replicas,batch_size): "
          "arrivals and sizes; run times from options",
      .options =
          {
              {.name = "duration_s",
               .default_value = "",
               .doc = "run time in seconds of every job whose application is not in "
                      "application_duration_s; Pollux workloads hold no durations, so this or "
                      "application_duration_s must be given"},
              {.name = "application_duration_s",
               .default_value = "",
               .doc = "run times per application, 'application=seconds' entries separated by "
                      "'|' (e.g. 'bert=7200|ncf=600'); they override duration_s"},
          },
      .open = OpenPollux,
  };
}

}  // namespace fleetsim
