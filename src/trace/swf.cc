// The Standard Workload Format importer (format "swf"): the job logs of the Parallel Workloads
// Archive (Feitelson et al.), one job per line as 18 whitespace-separated numbers, with header
// comments on lines starting with ';'. Processors become GPUs by a fixed ratio; rows of kinds
// listed in the `skip` option (partial executions, cancelled or failed jobs, jobs with no run
// time) are filtered and counted in Notes(), every other unusable row is a bad row.
// docs/trace-formats.md ("Standard Workload Format") lists the 18 fields and their use.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/core/diagnostics.h"
#include "text/csv.h"
#include "text/line_reader.h"
#include "trace/fields.h"
#include "trace/readers.h"

namespace fleetsim {
namespace {

// The 18 fields of a job line, in order; field i + 1 of the SWF definition.
enum SwfField : std::size_t {
  kJobNumber,
  kSubmitTime,
  kWaitTime,
  kRunTime,
  kAllocatedProcessors,
  kAverageCpuTime,
  kUsedMemory,
  kRequestedProcessors,
  kRequestedTime,
  kRequestedMemory,
  kStatus,
  kUserId,
  kGroupId,
  kExecutableNumber,
  kQueueNumber,
  kPartitionNumber,
  kPrecedingJobNumber,
  kThinkTime,
  kSwfFieldCount,
};

constexpr std::array<const char*, kSwfFieldCount> kFieldNames = {
    "job_number",
    "submit_time",
    "wait_time",
    "run_time",
    "allocated_processors",
    "average_cpu_time",
    "used_memory",
    "requested_processors",
    "requested_time",
    "requested_memory",
    "status",
    "user_id",
    "group_id",
    "executable_number",
    "queue_number",
    "partition_number",
    "preceding_job_number",
    "think_time",
};

constexpr std::int64_t kMaxNumber = std::numeric_limits<std::int64_t>::max();

// The kinds of rows the `skip` option can filter, in the order a row is matched against them.
enum SkipKind : std::size_t { kPartial, kCancelled, kFailed, kNoRuntime, kSkipKindCount };

constexpr std::array<const char*, kSkipKindCount> kSkipNames = {"partial", "cancelled", "failed",
                                                                "no-runtime"};

std::vector<std::string> SkipNames() { return {kSkipNames.begin(), kSkipNames.end()}; }

struct SwfOptions {
  std::string id_prefix;
  std::int64_t processors_per_gpu = 1;
  std::array<bool, kSkipKindCount> skip = {};
};

// Reads "partial|no-runtime" (or "none") into `skip`.
Status ParseSkip(std::string_view text, std::array<bool, kSkipKindCount>& skip) {
  if (text == "none") {
    return Status::Ok();
  }
  while (true) {
    const std::size_t end = std::min(text.find('|'), text.size());
    const std::string name(text.substr(0, end));
    const auto* const it = std::find(kSkipNames.begin(), kSkipNames.end(), name);
    if (it == kSkipNames.end()) {
      return Status::InvalidInput(fmt::format(
          "option 'skip': expected 'none' or names from {} separated by '|', found '{}'{}",
          QuotedList(SkipNames()), name, DidYouMean(name, SkipNames())));
    }
    skip[static_cast<std::size_t>(it - kSkipNames.begin())] = true;
    if (end == text.size()) {
      return Status::Ok();
    }
    text.remove_prefix(end + 1);
  }
}

// Fails with what is wrong with the options.
Status ParseOptions(const TraceOptionValues& values, SwfOptions& options) {
  options.id_prefix = values.at("id_prefix");
  if (!options.id_prefix.empty()) {
    if (const Status status = CheckId(options.id_prefix); !status.ok()) {
      return status.Within("option 'id_prefix'");
    }
  }
  Status status;
  const std::optional<std::int64_t> ratio =
      IntOption("processors_per_gpu", values.at("processors_per_gpu"), 1, kMaxJobGpus, status);
  if (!ratio) {
    return status;
  }
  options.processors_per_gpu = *ratio;
  return ParseSkip(values.at("skip"), options.skip);
}

// Splits a line at runs of spaces and tabs.
void SplitWhitespace(std::string_view line, std::vector<std::string>& fields) {
  fields.clear();
  std::size_t i = line.find_first_not_of(" \t");
  while (i != std::string_view::npos) {
    const std::size_t end = std::min(line.find_first_of(" \t", i), line.size());
    fields.emplace_back(line.substr(i, end - i));
    i = line.find_first_not_of(" \t", end);
  }
}

// The text after ';' on a comment line, or nullopt for a job line.
std::optional<std::string_view> CommentText(std::string_view line) {
  const std::size_t start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos || line[start] != ';') {
    return std::nullopt;
  }
  return line.substr(start + 1);
}

class SwfSource : public JobSource {
 public:
  SwfSource(const FileSystem& files, const std::string& path, SwfOptions options)
      : lines_(files, path), options_(std::move(options)) {
    for (std::size_t i = 0; i < kSwfFieldCount; ++i) {
      labels_[i] = fmt::format("{} (field {})", kFieldNames[i], i + 1);
    }
  }

  const LineReader& lines() const { return lines_; }

  RowStatus Next(Job& job, RowError& error) override {
    while (NextJobLine()) {
      FieldError problem;
      SplitRow(problem);
      if (problem.ok() && Filter()) {
        continue;
      }
      job = Job{};
      used_requested_ = false;
      if (problem.ok()) {
        FillJob(job, problem);
      }
      const RowStatus status = FinishRow(job, problem, lines_.path(), lines_.line_number(), error);
      jobs_from_requested_ += status == RowStatus::kJob && used_requested_ ? 1 : 0;
      return status;
    }
    return RowStatus::kEnd;
  }

  std::int64_t line() const override { return lines_.line_number(); }

  std::vector<std::string> Notes() const override {
    std::vector<std::string> notes = {
        fmt::format("GPUs = ceil(processors / {}) (option 'processors_per_gpu'), processors "
                    "being allocated_processors (field 5), or requested_processors (field 8) "
                    "where field 5 is -1",
                    options_.processors_per_gpu)};
    if (jobs_from_requested_ > 0) {
      notes.push_back(
          fmt::format("{} job{} sized by requested_processors (field 8), "
                      "allocated_processors (field 5) being -1",
                      jobs_from_requested_, jobs_from_requested_ == 1 ? "" : "s"));
    }
    if (max_procs_) {
      notes.push_back(fmt::format("header: MaxProcs {} ({} GPUs at processors_per_gpu {})",
                                  *max_procs_, GpusFor(*max_procs_), options_.processors_per_gpu));
    }
    if (const std::string filtered = FilteredSummary(); !filtered.empty()) {
      notes.push_back(filtered);
    }
    return notes;
  }

 private:
  // Reads up to the next job line, taking in the header comments on the way; false at the end.
  bool NextJobLine() {
    while (lines_.Next(line_)) {
      if (const std::optional<std::string_view> comment = CommentText(line_)) {
        ReadHeaderComment(*comment);
      } else if (!IsBlank(line_)) {
        return true;
      }
    }
    return false;
  }

  // "; MaxProcs: 128" is kept for a note; other header comments are not needed.
  void ReadHeaderComment(std::string_view comment) {
    const std::size_t colon = comment.find(':');
    if (colon == std::string_view::npos) {
      return;
    }
    std::vector<std::string> key;
    SplitWhitespace(comment.substr(0, colon), key);
    if (key.size() == 1 && key.front() == "MaxProcs") {
      Status ignored;
      max_procs_ = IntOption("MaxProcs", comment.substr(colon + 1), 1, kMaxNumber, ignored);
    }
  }

  std::int64_t GpusFor(std::int64_t processors) const {
    const std::int64_t ratio = options_.processors_per_gpu;
    return processors / ratio + (processors % ratio != 0 ? 1 : 0);
  }

  // Splits the line into its 18 fields and checks that each is a number.
  void SplitRow(FieldError& problem) {
    SplitWhitespace(line_, fields_);
    if (fields_.size() != kSwfFieldCount) {
      problem.Set(kReasonColumnCount,
                  fmt::format("expected {} fields, found {}", kSwfFieldCount, fields_.size()));
      return;
    }
    for (std::size_t i = 0; i < kSwfFieldCount && problem.ok(); ++i) {
      values_[i] = RealField(fields_[i], labels_[i], std::numeric_limits<double>::lowest(),
                             std::numeric_limits<double>::max(), problem)
                       .value_or(0);
    }
  }

  // Whether the row is of a kind the `skip` option filters (and counts it if so).
  bool Filter() {
    const double status = values_[kStatus];
    const bool partial = status == 2 || status == 3 || status == 4;
    const std::array<bool, kSkipKindCount> kinds = {partial, status == 5, status == 0,
                                                    HasNoRunTime()};
    for (std::size_t kind = 0; kind < kSkipKindCount; ++kind) {
      if (kinds[kind] && options_.skip[kind]) {
        ++filtered_[kind];
        return true;
      }
    }
    return false;
  }

  // Run time -1 (unknown) or 0 (after rounding to the millisecond): the job never ran, or
  // the log does not say for how long.
  bool HasNoRunTime() const {
    const double run_time = values_[kRunTime];
    return run_time == -1 ||
           (run_time >= 0 && run_time <= kMaxScenarioSeconds && SecondsToTime(run_time) == 0);
  }

  void FillJob(Job& job, FieldError& problem) {
    const std::optional<std::int64_t> number =
        IntField(fields_[kJobNumber], labels_[kJobNumber], 0, kMaxNumber, problem);
    const std::optional<SimTime> submit =
        SecondsField(fields_[kSubmitTime], labels_[kSubmitTime], problem);
    const std::optional<SimDuration> duration = RunTime(problem);
    const std::optional<std::int64_t> gpus = Gpus(problem);
    const std::optional<SimDuration> walltime = RequestedTime(problem);
    IntField(fields_[kStatus], labels_[kStatus], -1, 5, problem);  // only checked: see Filter
    const std::optional<std::int64_t> user =
        IntField(fields_[kUserId], labels_[kUserId], -1, kMaxNumber, problem);
    const std::optional<std::int64_t> queue =
        IntField(fields_[kQueueNumber], labels_[kQueueNumber], -1, kMaxNumber, problem);
    if (!problem.ok()) {
      return;
    }
    JobRequest& request = job.request;
    request.id = options_.id_prefix + std::to_string(*number);
    request.submit = *submit;
    request.gpus = *gpus;
    request.walltime_estimate = *walltime;
    if (*user != -1) {
      request.tenant = fmt::format("user-{}", *user);
    }
    if (*queue != -1) {
      request.priority_class = fmt::format("queue-{}", *queue);
    }
    if (*queue == 0) {
      request.kind = JobKind::kInteractive;
    }
    job.truth.duration = *duration;
  }

  std::optional<SimDuration> RunTime(FieldError& problem) const {
    if (HasNoRunTime()) {
      const bool unknown = values_[kRunTime] == -1;
      problem.Set(unknown ? kReasonBadValue : kReasonOutOfRange,
                  fmt::format("column '{}': expected seconds > 0, found {} ({}add 'no-runtime' "
                              "to option 'skip' to filter such rows)",
                              labels_[kRunTime], fields_[kRunTime], unknown ? "unknown; " : ""));
      return std::nullopt;
    }
    return DurationField(fields_[kRunTime], labels_[kRunTime], problem);
  }

  // GPUs from allocated processors, or requested processors when the allocation is -1.
  std::optional<std::int64_t> Gpus(FieldError& problem) {
    const std::int64_t max_processors = kMaxJobGpus * options_.processors_per_gpu;
    SwfField field = kAllocatedProcessors;
    std::optional<std::int64_t> processors =
        IntField(fields_[field], labels_[field], -1, max_processors, problem);
    if (processors == -1) {
      field = kRequestedProcessors;
      used_requested_ = true;
      processors = IntField(fields_[field], labels_[field], -1, max_processors, problem);
    }
    if (!processors) {
      return std::nullopt;
    }
    if (*processors < 1) {
      problem.Set(
          *processors == 0 ? kReasonZeroGpus : kReasonBadValue,
          fmt::format("column '{}': expected a processor count >= 1, found {}{}", labels_[field],
                      fields_[field],
                      *processors == -1 ? " and allocated_processors (field 5) is -1 too" : ""));
      return std::nullopt;
    }
    return GpusFor(*processors);
  }

  // The user's estimate: requested time when given (-1 = none).
  std::optional<SimDuration> RequestedTime(FieldError& problem) const {
    if (values_[kRequestedTime] == -1) {
      return 0;
    }
    return SecondsField(fields_[kRequestedTime], labels_[kRequestedTime], problem);
  }

  std::string FilteredSummary() const {
    std::int64_t total = 0;
    std::vector<std::string> parts;
    for (std::size_t kind = 0; kind < kSkipKindCount; ++kind) {
      if (filtered_[kind] > 0) {
        total += filtered_[kind];
        parts.push_back(fmt::format("{} '{}'", filtered_[kind], kSkipNames[kind]));
      }
    }
    if (total == 0) {
      return "";
    }
    return fmt::format("option 'skip' filtered {} row{}: {}", total, total == 1 ? "" : "s",
                       fmt::join(parts, ", "));
  }

  LineReader lines_;
  SwfOptions options_;
  std::array<std::string, kSwfFieldCount> labels_;  // "run_time (field 4)"
  std::string line_;
  std::vector<std::string> fields_;
  std::array<double, kSwfFieldCount> values_ = {};
  bool used_requested_ = false;  // the current row was sized by requested processors
  std::int64_t jobs_from_requested_ = 0;
  std::array<std::int64_t, kSkipKindCount> filtered_ = {};
  std::optional<std::int64_t> max_procs_;
};

OpenResult OpenSwf(const FileSystem& files, const std::string& path,
                   const TraceOptionValues& values) {
  SwfOptions options;
  if (const Status status = ParseOptions(values, options); !status.ok()) {
    return {nullptr, status.Within(path)};
  }
  auto source = std::make_unique<SwfSource>(files, path, std::move(options));
  if (!source->lines().ok()) {
    return {nullptr, source->lines().status()};
  }
  return {std::move(source), Status::Ok()};
}

}  // namespace

TraceFormat SwfFormat() {
  return TraceFormat{
      .name = "swf",
      .summary =
          "Standard Workload Format (Parallel Workloads Archive): 18 numbers per job, "
          "processors mapped to GPUs",
      .options =
          {
              {.name = "id_prefix",
               .default_value = "swf-",
               .doc = "job ids are this prefix followed by the job number (field 1)"},
              {.name = "processors_per_gpu",
               .default_value = "1",
               .doc = "processors per GPU: a job gets ceil(processors / processors_per_gpu) "
                      "GPUs"},
              {.name = "skip",
               .default_value = "partial|no-runtime",
               .doc = "rows to filter (counted in the notes) instead of importing or reporting, "
                      "'|'-separated: 'partial' (status 2, 3, 4: partial executions, whose job "
                      "has its own summary line), 'cancelled' (status 5), 'failed' (status 0), "
                      "'no-runtime' (run time -1 or 0: real logs have many such rows, jobs that "
                      "never ran or were not timed); 'none' filters nothing, and a list without "
                      "'no-runtime' makes such rows bad rows"},
          },
      .open = OpenSwf,
  };
}

}  // namespace fleetsim
