// The Microsoft Philly importer (format "philly"): the per-job CSV of the Pollux OSDI'21
// artifact, `timestamp,duration,num_gpus,gpu_time,cluster`, one job per row. The file has no job
// ids, so a job is named after its line; submit times count from a fixed epoch; rows are handed
// out in file order (the file is not sorted by time: sorting is the import driver's job).
// docs/trace-formats.md ("Microsoft Philly") gives the mapping.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/core/diagnostics.h"
#include "text/utc_time.h"
#include "trace/csv_job_source.h"
#include "trace/readers.h"

namespace fleetsim {
namespace {

constexpr const char* kTimestampShape = "YYYY-mm-dd HH:MM:SS";

std::vector<std::string> PhillyColumns() {
  return {"timestamp", "duration", "num_gpus", "gpu_time", "cluster"};
}

struct PhillyOptions {
  std::string epoch_text;
  std::int64_t epoch = 0;  // seconds since 1970 of submit time 0
  std::string id_prefix;
  bool check_gpu_time = true;
};

// Fails with what is wrong with an option.
Status ParseOptions(const TraceOptionValues& values, PhillyOptions& options) {
  options.epoch_text = values.at("epoch");
  const std::optional<std::int64_t> epoch = ParseUtcTimestamp(options.epoch_text);
  if (!epoch) {
    return Status::InvalidInput(fmt::format("option 'epoch': expected a time as {}, found '{}'",
                                            kTimestampShape, options.epoch_text));
  }
  options.epoch = *epoch;
  options.id_prefix = values.at("id_prefix");
  if (!options.id_prefix.empty()) {
    if (const Status status = CheckId(options.id_prefix); !status.ok()) {
      return status.Within("option 'id_prefix'");
    }
  }
  Status status;
  const std::optional<bool> check =
      BoolOption("check_gpu_time", values.at("check_gpu_time"), status);
  options.check_gpu_time = check.value_or(true);
  return status;
}

class PhillySource final : public CsvJobSource {
 public:
  PhillySource(const FileSystem& files, const std::string& path, PhillyOptions options)
      : CsvJobSource(files, path, PhillyColumns()), options_(std::move(options)) {}

 private:
  Status OnHeader() override {
    timestamp_ = Column("timestamp");
    duration_ = Column("duration");
    num_gpus_ = Column("num_gpus");
    gpu_time_ = Column("gpu_time");
    cluster_ = Column("cluster");
    return Status::Ok();
  }

  std::vector<std::string> FormatNotes() const override {
    return {fmt::format(
        "submit times are seconds since {} UTC (option 'epoch'); job ids are '{}' + the line "
        "number",
        options_.epoch_text, options_.id_prefix)};
  }

  void FillJob(Job& job, FieldError& problem) override {
    const std::optional<SimTime> submit = SubmitTime(Field(timestamp_), problem);
    const std::optional<SimDuration> duration =
        DurationField(Field(duration_), "duration", problem);
    const std::optional<std::int64_t> gpus = GpuCountField(Field(num_gpus_), "num_gpus", problem);
    if (options_.check_gpu_time && duration && gpus) {
      CheckGpuTime(*duration, *gpus, problem);
    }
    const std::string& cluster = Field(cluster_);
    if (cluster.empty()) {
      problem.Set(kReasonBadValue, "column 'cluster': expected a virtual cluster id, found ''");
    }
    if (!problem.ok()) {
      return;
    }
    job.request.id = options_.id_prefix + std::to_string(line());
    job.request.submit = *submit;
    job.request.tenant = cluster;
    job.request.gpus = *gpus;
    job.truth.duration = *duration;
  }

  std::optional<SimTime> SubmitTime(const std::string& text, FieldError& problem) const {
    const std::optional<std::int64_t> time = ParseUtcTimestamp(text);
    if (!time) {
      problem.Set(kReasonBadValue, fmt::format("column 'timestamp': expected a time as {}, found "
                                               "'{}'",
                                               kTimestampShape, text));
      return std::nullopt;
    }
    const std::int64_t seconds = *time - options_.epoch;
    if (seconds < 0) {
      problem.Set(kReasonNegativeTime,
                  fmt::format("column 'timestamp': expected a time at or after the epoch {} "
                              "(option 'epoch'), found '{}'",
                              options_.epoch_text, text));
      return std::nullopt;
    }
    if (static_cast<double>(seconds) > kMaxScenarioSeconds) {
      problem.Set(kReasonOutOfRange,
                  fmt::format("column 'timestamp': expected a time within 100 years of the "
                              "epoch {} (option 'epoch'), found '{}'",
                              options_.epoch_text, text));
      return std::nullopt;
    }
    return seconds * kMillisPerSecond;
  }

  // gpu_time is redundant: it must be duration × num_gpus, to within one second per GPU (the
  // rounding of the duration).
  void CheckGpuTime(SimDuration duration, std::int64_t gpus, FieldError& problem) const {
    const double gpu_count = static_cast<double>(gpus);
    const double expected = TimeToSeconds(duration) * gpu_count;
    const std::optional<double> gpu_time =
        RealField(Field(gpu_time_), "gpu_time", -kMaxGpuSeconds, kMaxGpuSeconds, problem);
    if (gpu_time && std::abs(*gpu_time - expected) > gpu_count) {
      problem.Set(kReasonBadValue,
                  fmt::format("column 'gpu_time': expected duration × num_gpus = {} (to within "
                              "num_gpus seconds), found {}",
                              expected, Field(gpu_time_)));
    }
  }

  static constexpr double kMaxGpuSeconds = kMaxScenarioSeconds * kMaxJobGpus;

  PhillyOptions options_;
  std::size_t timestamp_ = 0;
  std::size_t duration_ = 0;
  std::size_t num_gpus_ = 0;
  std::size_t gpu_time_ = 0;
  std::size_t cluster_ = 0;
};

OpenResult OpenPhilly(const FileSystem& files, const std::string& path,
                      const TraceOptionValues& values) {
  PhillyOptions options;
  if (const Status status = ParseOptions(values, options); !status.ok()) {
    return {nullptr, status.Within(path)};
  }
  return OpenCsvSource<PhillySource>(files, path, std::move(options));
}

}  // namespace

TraceFormat PhillyFormat() {
  return TraceFormat{
      .name = "philly",
      .summary =
          "Microsoft Philly per-job CSV (timestamp,duration,num_gpus,gpu_time,cluster), "
          "as in the Pollux OSDI'21 artifact",
      .options =
          {
              {.name = "epoch",
               .default_value = "2017-09-04 00:00:00",
               .doc = "the time (YYYY-mm-dd HH:MM:SS, UTC) that becomes submit time 0; the "
                      "default is midnight of the first day of the published trace (a Monday); "
                      "a row before it is a bad row"},
              {.name = "id_prefix",
               .default_value = "philly-",
               .doc = "job ids are this prefix followed by the row's line number in the file"},
              {.name = "check_gpu_time",
               .default_value = "true",
               .doc = "true: a row whose gpu_time differs from duration × num_gpus by more than "
                      "num_gpus seconds is a bad row; false: the column is not read"},
          },
      .open = OpenPhilly,
  };
}

}  // namespace fleetsim
