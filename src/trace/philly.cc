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
#include "trace/csv_job_source.h"
#include "trace/readers.h"

namespace fleetsim {
namespace {

constexpr const char* kTimestampShape = "YYYY-mm-dd HH:MM:SS";
constexpr std::int64_t kSecondsPerDay = 86'400;

std::vector<std::string> PhillyColumns() {
  return {"timestamp", "duration", "num_gpus", "gpu_time", "cluster"};
}

bool IsLeapYear(std::int64_t year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

std::int64_t DaysInMonth(std::int64_t year, std::int64_t month) {
  constexpr std::int64_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
// days_from_civil).
std::int64_t DaysFromCivil(std::int64_t year, std::int64_t month, std::int64_t day) {
  year -= month <= 2 ? 1 : 0;
  const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
  const std::int64_t year_of_era = year - era * 400;
  const std::int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const std::int64_t day_of_era =
      year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

// The number written in text[pos, pos + digits), which holds only digits.
std::int64_t DigitsAt(std::string_view text, std::size_t pos, std::size_t digits) {
  std::int64_t value = 0;
  for (std::size_t i = pos; i < pos + digits; ++i) {
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

// Exactly "YYYY-mm-dd HH:MM:SS", a real date and time of day, read as UTC: seconds since
// 1970-01-01 00:00:00.
std::optional<std::int64_t> ParseTimestamp(std::string_view text) {
  const std::string_view shape = "dddd-dd-dd dd:dd:dd";
  if (text.size() != shape.size()) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    if (shape[i] == 'd' ? !digit : text[i] != shape[i]) {
      return std::nullopt;
    }
  }
  const std::int64_t year = DigitsAt(text, 0, 4);
  const std::int64_t month = DigitsAt(text, 5, 2);
  const std::int64_t day = DigitsAt(text, 8, 2);
  const std::int64_t hour = DigitsAt(text, 11, 2);
  const std::int64_t minute = DigitsAt(text, 14, 2);
  const std::int64_t second = DigitsAt(text, 17, 2);
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month) || hour > 23 ||
      minute > 59 || second > 59) {
    return std::nullopt;
  }
  return DaysFromCivil(year, month, day) * kSecondsPerDay + hour * 3600 + minute * 60 + second;
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
  const std::optional<std::int64_t> epoch = ParseTimestamp(options.epoch_text);
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
    const std::optional<std::int64_t> time = ParseTimestamp(text);
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
