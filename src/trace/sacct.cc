// The Slurm accounting importer (format "sacct"): the rows `sacct --parsable2 --allocations`
// prints (or `--parsable`, whose rows end with the delimiter), one job allocation per row, with a
// header line or with the column list given as an option (accounting archives are often dumped
// without one). Columns are found by name in any order. A job's GPUs and their type come from
// its TRES strings (`gres/gpu=2`, `gres/gpu:a100=2`), its walltime estimate from Timelimit, its
// run time from Start and End. Rows that are not jobs that ran to an end (steps, pending array
// records, running or pending jobs, jobs cancelled before they started) are passed over and
// counted in the notes; so are CPU-only jobs unless asked for. docs/trace-formats.md ("Slurm
// sacct") gives the mapping.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/core/diagnostics.h"
#include "job_json/request_words.h"
#include "text/line_reader.h"
#include "text/utc_time.h"
#include "trace/fields.h"
#include "trace/readers.h"

namespace fleetsim {
namespace {

constexpr std::string_view kSnowman = "\xE2\x98\x83";  // U+2603, a delimiter seen in the wild

// The column lists of the headerless dumps this importer knows by name.
const std::map<std::string, std::vector<std::string>>& ColumnPresets() {
  static const std::map<std::string, std::vector<std::string>> presets = {
      // XDMoD's Slurm shredder (docs/resource-manager-slurm.md of ubccr/xdmod).
      {"xdmod", {"JobID",   "JobIDRaw",  "Cluster",   "Partition", "QOS",      "Account", "Group",
                 "GID",     "User",      "UID",       "Submit",    "Eligible", "Start",   "End",
                 "Elapsed", "ExitCode",  "State",     "NNodes",    "NCPUS",    "ReqCPUS", "ReqMem",
                 "ReqTRES", "AllocTRES", "Timelimit", "NodeList",  "JobName"}},
      // rug-cit-hpc/hb-jobinfo's test dump (its test/data/README.md).
      {"hb-jobinfo",
       {"JobID",
        "JobName",
        "User",
        "Partition",
        "NodeList",
        "NNodes",
        "NCPUS",
        "NTasks",
        "State",
        "Submit",
        "Start",
        "End",
        "Timelimit",
        "Elapsed",
        "TotalCPU",
        "CPUTime",
        "UserCPU",
        "SystemCPU",
        "ReqMem",
        "MaxRSS",
        "MaxVMSize",
        "ReqTRES",
        "AllocTRES",
        "TRESUsageInMax",
        "TRESUsageInTot",
        "TRESUsageOutTot",
        "MaxDiskRead",
        "MaxDiskWrite",
        "MaxRSSNode",
        "MaxRSSTask",
        "MaxVMSizeNode",
        "MaxVMSizeTask",
        "MaxDiskReadNode",
        "MaxDiskReadTask",
        "MaxDiskWriteNode",
        "MaxDiskWriteTask",
        "Comment"}},
  };
  return presets;
}

// Splits `line` at every `delimiter` (sacct neither quotes nor escapes).
void SplitFields(std::string_view line, std::string_view delimiter,
                 std::vector<std::string>& fields) {
  fields.clear();
  while (true) {
    const std::size_t at = line.find(delimiter);
    fields.emplace_back(line.substr(0, at));
    if (at == std::string_view::npos) {
      return;
    }
    line.remove_prefix(at + delimiter.size());
  }
}

// A timestamp as sacct prints it: "2023-09-01T05:51:10".
std::optional<std::int64_t> SacctTime(std::string_view text) {
  return ParseUtcTimestamp(text, 'T');
}

struct SacctOptions {
  std::string columns;                // "auto", a preset, or a comma-separated list
  std::string delimiter;              // "auto" or the text
  std::optional<std::int64_t> epoch;  // nullopt: "auto"
  bool tenant_is_user = false;
  bool keep_cpu_only = false;
};

Status ParseOptions(const TraceOptionValues& values, SacctOptions& options) {
  options.columns = values.at("columns");
  options.delimiter = values.at("delimiter");
  if (options.delimiter.empty()) {
    return Status::InvalidInput(
        "option 'delimiter': expected 'auto' or a non-empty text, found ''");
  }
  if (const std::string& epoch = values.at("epoch"); epoch != "auto") {
    options.epoch = SacctTime(epoch);
    if (!options.epoch) {
      return Status::InvalidInput(fmt::format(
          "option 'epoch': expected 'auto' or a time as YYYY-mm-ddTHH:MM:SS, found '{}'", epoch));
    }
  }
  const std::string& tenant = values.at("tenant");
  if (tenant != "account" && tenant != "user") {
    return Status::InvalidInput(
        fmt::format("option 'tenant': expected 'account' or 'user', found '{}'", tenant));
  }
  options.tenant_is_user = tenant == "user";
  const std::string& cpu_only = values.at("cpu_only");
  if (cpu_only != "skip" && cpu_only != "keep") {
    return Status::InvalidInput(
        fmt::format("option 'cpu_only': expected 'skip' or 'keep', found '{}'", cpu_only));
  }
  options.keep_cpu_only = cpu_only == "keep";
  return Status::Ok();
}

// What one TRES string asks for: "billing=24,cpu=8,mem=199G,node=1,gres/gpu:a100=2".
struct Tres {
  std::optional<std::int64_t> gpus;  // gres/gpu, else the sum of gres/gpu:TYPE
  std::vector<std::string> gpu_types;
  std::int64_t cpus = 0;
  std::int64_t memory_mib = 0;
};

class SacctSource final : public JobSource {
 public:
  SacctSource(const FileSystem& files, const std::string& path, SacctOptions options)
      : files_(files), lines_(files, path), options_(std::move(options)) {}

  Status Open() {
    if (!lines_.ok()) {
      return lines_.status();
    }
    std::string first;
    while (lines_.Next(first) && IsBlankLine(first)) {
    }
    if (lines_.line_number() == 0 || IsBlankLine(first)) {
      return Status::InvalidInput(fmt::format("{}: empty file: expected sacct rows", path()));
    }
    if (Status status = ChooseDelimiter(first); !status.ok()) {
      return status;
    }
    if (Status status = ChooseColumns(first); !status.ok()) {
      return status;
    }
    if (Status status = FindColumns(); !status.ok()) {
      return status;
    }
    return ChooseEpoch();
  }

  RowStatus Next(Job& job, RowError& error) override {
    while (true) {
      std::string text;
      if (pending_first_row_) {
        pending_first_row_ = false;
        text = std::move(first_row_);
        row_line_ = first_row_line_;
      } else {
        if (!lines_.Next(text)) {
          return RowStatus::kEnd;
        }
        row_line_ = lines_.line_number();
      }
      if (IsBlankLine(text)) {
        continue;
      }
      job = Job{};
      FieldError problem;
      if (!ReadRow(text, job, problem)) {
        continue;  // a row that is not a finished job: counted, not an error
      }
      const RowStatus status = FinishRow(job, problem, path(), row_line_, error);
      if (status == RowStatus::kJob && state_column_) {
        ++states_[state_];
      }
      if (status == RowStatus::kJob) {
        zero_run_ += ran_zero_ ? 1 : 0;
      }
      return status;
    }
  }

  std::int64_t line() const override { return row_line_; }

  std::vector<std::string> Notes() const override {
    std::vector<std::string> notes = {fmt::format(
        "submit times are seconds since {} UTC (option 'epoch'); GPUs from {}, tenants from {}",
        FormatUtcTimestamp(epoch_), TresSource(),
        options_.tenant_is_user || !account_ ? "User" : "Account (User when Account is empty)")};
    if (!states_.empty()) {
      std::vector<std::string> counts;
      for (const auto& [state, count] : states_) {
        counts.push_back(fmt::format("{} {}", state, count));
      }
      notes.push_back(fmt::format("jobs by final state: {}", fmt::join(counts, ", ")));
    }
    for (const auto& [what, count] : passed_over_) {
      notes.push_back(fmt::format("{} rows passed over: {}", count, what));
    }
    if (zero_run_ > 0) {
      notes.push_back(fmt::format(
          "{} jobs ran 0 s (Start = End) and are given 1 s, the job model's least run time",
          zero_run_));
    }
    return notes;
  }

 private:
  std::string TresSource() const {
    if (alloc_tres_ && req_tres_) {
      return "AllocTRES (ReqTRES when AllocTRES is empty)";
    }
    return alloc_tres_ ? "AllocTRES" : "ReqTRES";
  }

  static bool IsBlankLine(std::string_view line) {
    return line.find_first_not_of(" \t") == std::string_view::npos;
  }

  const std::string& path() const { return lines_.path(); }

  Status ChooseDelimiter(const std::string& first) {
    if (options_.delimiter != "auto") {
      delimiter_ = options_.delimiter;
    } else if (first.find('|') != std::string::npos) {
      delimiter_ = "|";
    } else if (first.find(kSnowman) != std::string::npos) {
      delimiter_ = std::string(kSnowman);
    } else {
      return Status::InvalidInput(
          fmt::format("{}:{}: cannot tell the delimiter: the line has neither '|' nor '{}' (option "
                      "'delimiter')",
                      path(), lines_.line_number(), kSnowman));
    }
    return Status::Ok();
  }

  // The header is the first line when its first field is JobID (any case); otherwise the
  // `columns` option must say what the columns are, and the first line is a row.
  Status ChooseColumns(std::string& first) {
    std::vector<std::string> fields;
    SplitFields(first, delimiter_, fields);
    const bool has_header = std::any_of(fields.begin(), fields.end(), [](const std::string& f) {
      return AsciiLower(f) == "jobid";
    });
    if (options_.columns == "auto") {
      if (!has_header) {
        return Status::InvalidInput(fmt::format(
            "{}:{}: expected a header line naming JobID, found '{}'; for a dump without "
            "one give option 'columns' ({} or the field list, comma-separated)",
            path(), lines_.line_number(), fields.front(), QuotedList(PresetNames())));
      }
      columns_ = fields;
      DropTrailingEmpty(columns_);
      return Status::Ok();
    }
    if (const auto preset = ColumnPresets().find(options_.columns);
        preset != ColumnPresets().end()) {
      columns_ = preset->second;
    } else {
      SplitFields(options_.columns, ",", columns_);
      for (std::string& column : columns_) {
        column = Trimmed(column);
      }
    }
    if (!has_header) {
      pending_first_row_ = true;
      first_row_ = std::move(first);
      first_row_line_ = lines_.line_number();
    }
    return Status::Ok();
  }

  static std::string Trimmed(const std::string& text) {
    const std::size_t first = text.find_first_not_of(' ');
    return first == std::string::npos ? ""
                                      : text.substr(first, text.find_last_not_of(' ') + 1 - first);
  }

  static std::vector<std::string> PresetNames() {
    std::vector<std::string> names;
    for (const auto& [name, columns] : ColumnPresets()) {
      names.push_back(name);
    }
    return names;
  }

  static void DropTrailingEmpty(std::vector<std::string>& fields) {
    if (fields.size() > 1 && fields.back().empty()) {
      fields.pop_back();
    }
  }

  std::optional<std::size_t> Find(std::string_view name) const {
    const std::string wanted = AsciiLower(name);
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      if (AsciiLower(columns_[i]) == wanted) {
        return i;
      }
    }
    return std::nullopt;
  }

  Status FindColumns() {
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      for (std::size_t k = 0; k < i; ++k) {
        if (AsciiLower(columns_[k]) == AsciiLower(columns_[i])) {
          return Status::InvalidInput(
              fmt::format("{}: the column '{}' is named twice", path(), columns_[i]));
        }
      }
    }
    std::vector<std::string> missing;
    const auto required = [&](std::string_view name) {
      const std::optional<std::size_t> index = Find(name);
      if (!index) {
        missing.emplace_back(name);
      }
      return index.value_or(0);
    };
    job_id_ = required("JobID");
    submit_ = required("Submit");
    start_ = required("Start");
    end_ = required("End");
    alloc_tres_ = Find("AllocTRES");
    req_tres_ = Find("ReqTRES");
    if (!alloc_tres_ && !req_tres_) {
      missing.emplace_back("AllocTRES or ReqTRES");
    }
    timelimit_ = Find("Timelimit");
    state_column_ = Find("State");
    account_ = Find("Account");
    user_ = Find("User");
    qos_ = Find("QOS");
    ncpus_ = Find("NCPUS");
    if (!missing.empty()) {
      return Status::InvalidInput(
          fmt::format("{}: expected the columns {} (sacct --format), "
                      "found {}",
                      path(), QuotedList(missing), QuotedInputNames(columns_)));
    }
    return Status::Ok();
  }

  // "auto": midnight UTC of the day of the earliest Submit (a first pass over the file).
  Status ChooseEpoch() {
    if (options_.epoch) {
      epoch_ = *options_.epoch;
      return Status::Ok();
    }
    LineReader scan(files_, path());
    std::string text;
    std::vector<std::string> fields;
    std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
    while (scan.Next(text)) {
      SplitFields(text, delimiter_, fields);
      if (fields.size() > submit_) {
        if (const std::optional<std::int64_t> submit = SacctTime(fields[submit_])) {
          earliest = std::min(earliest, *submit);
        }
      }
    }
    if (!scan.ok()) {
      return scan.status();
    }
    epoch_ = earliest == std::numeric_limits<std::int64_t>::max() ? 0 : MidnightUtc(earliest);
    return Status::Ok();
  }

  void PassOver(const std::string& what) { ++passed_over_[what]; }

  // Reads one row: false for a row that is not a finished job (counted); true with `job` filled
  // or `problem` set.
  bool ReadRow(const std::string& text, Job& job, FieldError& problem) {
    SplitFields(text, delimiter_, fields_);
    if (fields_.size() == columns_.size() + 1 && fields_.back().empty()) {
      fields_.pop_back();  // --parsable: every row ends with the delimiter
    }
    if (fields_.size() != columns_.size()) {
      problem.Set(kReasonColumnCount,
                  fmt::format("expected {} fields, found {}", columns_.size(), fields_.size()));
      return true;
    }
    const std::string& id = fields_[job_id_];
    if (id.find('.') != std::string::npos) {
      PassOver(
          "job steps (JobID with '.', e.g. 123.batch): their job's row carries the "
          "allocation");
      return false;
    }
    if (id.find('[') != std::string::npos) {
      PassOver("array records of tasks that never started (JobID like 123_[1-3])");
      return false;
    }
    if (id.find('+') != std::string::npos) {
      PassOver("components of heterogeneous jobs (JobID like 123+0): not modelled");
      return false;
    }
    state_ = state_column_ ? BaseState(fields_[*state_column_]) : "";
    if (state_ == "RUNNING" || state_ == "PENDING" || state_ == "REQUEUED" ||
        state_ == "SUSPENDED" || state_ == "RESIZING") {
      PassOver(fmt::format("jobs still {} when the dump was made", state_));
      return false;
    }
    const std::string& start_text = fields_[start_];
    if (start_text == "None" || start_text == "Unknown" || start_text.empty()) {
      PassOver("jobs that never started (Start None or Unknown)");
      return false;
    }
    const std::string& end_text = fields_[end_];
    if (end_text == "None" || end_text == "Unknown" || end_text.empty()) {
      PassOver("jobs without an End");
      return false;
    }
    const bool allocated = alloc_tres_ && !fields_[*alloc_tres_].empty();
    const std::size_t tres_column = allocated || !req_tres_ ? *alloc_tres_ : *req_tres_;
    const std::optional<Tres> tres =
        ParseTres(fields_[tres_column], columns_[tres_column], problem);
    if (tres && tres->gpus.value_or(0) == 0 && !options_.keep_cpu_only) {
      PassOver("jobs without GPUs (option cpu_only=keep keeps them)");
      return false;  // passed over before its other fields are read
    }
    ran_zero_ = false;
    FillJob(tres, job, problem);
    job.truth.recorded_state = state_;
    return true;
  }

  // "CANCELLED by 10304007" -> "CANCELLED".
  static std::string BaseState(const std::string& state) {
    return state.substr(0, state.find(' '));
  }

  // Fills `job` from the row, its TRES read already (nullopt: the problem is recorded).
  void FillJob(const std::optional<Tres>& tres, Job& job, FieldError& problem) {
    JobRequest& r = job.request;
    if (const std::optional<std::string> id = IdField(fields_[job_id_], "JobID", problem)) {
      r.id = *id;
    }
    const std::optional<std::int64_t> submit = Time(submit_, problem);
    const std::optional<std::int64_t> start = Time(start_, problem);
    const std::optional<std::int64_t> end = Time(end_, problem);
    if (submit) {
      SetSubmit(*submit, r, problem);
    }
    if (start && end) {
      SetDuration(*start, *end, job, problem);
    }
    if (tres) {
      SetGpus(*tres, r, problem);
      r.cpu_milli = tres->cpus * 1000;
      r.memory_mib = tres->memory_mib;
    }
    if (r.cpu_milli == 0 && ncpus_) {  // no TRES string: the allocation's CPU count
      const std::optional<std::int64_t> cpus =
          IntField(fields_[*ncpus_], columns_[*ncpus_], 0, 1'000'000, problem);
      r.cpu_milli = cpus.value_or(0) * 1000;
    }
    if (timelimit_) {
      SetWalltime(fields_[*timelimit_], r, problem);
    }
    r.tenant = Tenant();
    if (qos_) {
      r.priority_class = fields_[*qos_];
    }
  }

  // GPUs, and their types as the models the job accepts; a MIG type (gres/gpu:a100_1g.10gb)
  // makes a MIG job of one instance with the profile's memory (SetGpusOfTypes).
  static void SetGpus(const Tres& tres, JobRequest& r, FieldError& problem) {
    if (const auto failure = SetGpusOfTypes(tres.gpus.value_or(0), tres.gpu_types, r)) {
      problem.Set(kReasonBadValue, fmt::format("gres/gpu: {}", *failure));
    }
  }

  std::optional<std::int64_t> Time(std::size_t column, FieldError& problem) const {
    const std::optional<std::int64_t> time = SacctTime(fields_[column]);
    if (!time) {
      problem.Set(kReasonBadValue,
                  fmt::format("column '{}': expected a time as YYYY-mm-ddTHH:MM:SS, found '{}'",
                              columns_[column], fields_[column]));
    }
    return time;
  }

  void SetSubmit(std::int64_t submit, JobRequest& r, FieldError& problem) const {
    const std::int64_t seconds = submit - epoch_;
    if (seconds < 0 || static_cast<double>(seconds) > kMaxScenarioSeconds) {
      problem.Set(
          seconds < 0 ? kReasonNegativeTime : kReasonOutOfRange,
          fmt::format("column '{}': expected a time from the epoch {} (option 'epoch') to "
                      "100 years after it, found '{}'",
                      columns_[submit_], FormatUtcTimestamp(epoch_, 'T'), fields_[submit_]));
      return;
    }
    r.submit = seconds * kMillisPerSecond;
  }

  void SetDuration(std::int64_t start, std::int64_t end, Job& job, FieldError& problem) {
    if (end < start) {
      problem.Set(kReasonNegativeTime,
                  fmt::format("column '{}': expected a time at or after Start ({}), found '{}'",
                              columns_[end_], fields_[start_], fields_[end_]));
      return;
    }
    ran_zero_ = end == start;
    job.truth.duration = std::max<std::int64_t>(end - start, 1) * kMillisPerSecond;
  }

  void SetWalltime(const std::string& text, JobRequest& r, FieldError& problem) const {
    if (text.empty() || text == "UNLIMITED" || text == "Partition_Limit") {
      return;  // no estimate of the job's own
    }
    const std::optional<std::int64_t> seconds = ParseSlurmDuration(text);
    if (!seconds || static_cast<double>(*seconds) > kMaxScenarioSeconds) {
      problem.Set(kReasonBadValue,
                  fmt::format("column '{}': expected a time limit as [D-]HH:MM:SS, UNLIMITED or "
                              "Partition_Limit, found '{}'",
                              columns_[*timelimit_], text));
      return;
    }
    r.walltime_estimate = *seconds * kMillisPerSecond;
  }

  std::string Tenant() const {
    const std::string account = account_ ? fields_[*account_] : "";
    const std::string user = user_ ? fields_[*user_] : "";
    if (options_.tenant_is_user) {
      return user.empty() ? "default" : user;
    }
    return !account.empty() ? account : (!user.empty() ? user : "default");
  }

  static std::optional<Tres> ParseTres(const std::string& text, const std::string& column,
                                       FieldError& problem) {
    Tres tres;
    std::int64_t typed_gpus = 0;
    std::vector<std::string> entries;
    SplitFields(text, ",", entries);
    for (const std::string& entry : entries) {
      if (entry.empty()) {
        continue;
      }
      const std::size_t eq = entry.find('=');
      const std::string key = entry.substr(0, eq);
      const std::string value = eq == std::string::npos ? "" : entry.substr(eq + 1);
      const auto bad = [&](std::string_view expected) {
        problem.Set(kReasonBadValue, fmt::format("column '{}': expected {} in '{}', found '{}'",
                                                 column, expected, key, value));
      };
      if (eq == std::string::npos) {
        problem.Set(kReasonBadValue, fmt::format("column '{}': expected TYPE=COUNT entries, "
                                                 "found '{}'",
                                                 column, entry));
        return std::nullopt;
      }
      FieldError count_problem;
      if (key == "gres/gpu" || key.starts_with("gres/gpu:")) {
        const std::optional<std::int64_t> count =
            IntField(value, key, 0, kMaxJobGpus, count_problem);
        if (!count) {
          bad("a GPU count in [0, 1000000]");
          return std::nullopt;
        }
        if (key == "gres/gpu") {
          tres.gpus = *count;
        } else {
          typed_gpus += *count;
          tres.gpu_types.push_back(key.substr(std::string_view("gres/gpu:").size()));
        }
      } else if (key == "cpu") {
        const std::optional<std::int64_t> cpus = IntField(value, key, 0, 1'000'000, count_problem);
        if (!cpus) {
          bad("a CPU count");
          return std::nullopt;
        }
        tres.cpus = *cpus;
      } else if (key == "mem") {
        const std::optional<std::int64_t> mib = SizeMib(value);
        if (!mib) {
          bad("a size with K, M, G or T");
          return std::nullopt;
        }
        tres.memory_mib = *mib;
      }
    }
    if (!tres.gpus && !tres.gpu_types.empty()) {
      tres.gpus = typed_gpus;
    }
    return tres;
  }

  const FileSystem& files_;
  LineReader lines_;
  SacctOptions options_;
  std::string delimiter_;
  std::vector<std::string> columns_;
  std::vector<std::string> fields_;
  bool pending_first_row_ = false;  // a headerless file's first line, read while opening
  std::string first_row_;
  std::int64_t first_row_line_ = 0;
  std::int64_t row_line_ = 0;
  std::int64_t epoch_ = 0;
  std::size_t job_id_ = 0;
  std::size_t submit_ = 0;
  std::size_t start_ = 0;
  std::size_t end_ = 0;
  std::optional<std::size_t> alloc_tres_;
  std::optional<std::size_t> req_tres_;
  std::optional<std::size_t> timelimit_;
  std::optional<std::size_t> state_column_;
  std::optional<std::size_t> account_;
  std::optional<std::size_t> user_;
  std::optional<std::size_t> qos_;
  std::optional<std::size_t> ncpus_;
  std::string state_;                           // of the row being read
  std::map<std::string, std::int64_t> states_;  // final states of the jobs handed out
  std::map<std::string, std::int64_t> passed_over_;
  bool ran_zero_ = false;  // the row being read ran 0 s
  std::int64_t zero_run_ = 0;
};

OpenResult OpenSacct(const FileSystem& files, const std::string& path,
                     const TraceOptionValues& values) {
  SacctOptions options;
  if (const Status status = ParseOptions(values, options); !status.ok()) {
    return {nullptr, status.Within(path)};
  }
  auto source = std::make_unique<SacctSource>(files, path, std::move(options));
  if (Status status = source->Open(); !status.ok()) {
    return {nullptr, std::move(status)};
  }
  return {std::move(source), Status::Ok()};
}

}  // namespace

TraceFormat SacctFormat() {
  return TraceFormat{
      .name = "sacct",
      .summary =
          "Slurm accounting rows (sacct --parsable2 --allocations, with or without a "
          "header; any column order)",
      .options =
          {
              {.name = "columns",
               .default_value = "auto",
               .doc = "auto: the first line is the header (one field is JobID); 'xdmod' or "
                      "'hb-jobinfo': the field lists of those headerless dumps; or the sacct "
                      "--format field list, comma-separated"},
              {.name = "delimiter",
               .default_value = "auto",
               .doc = "auto: '|' when the first line has one, else U+2603 (☃); or the text "
                      "that separates fields"},
              {.name = "epoch",
               .default_value = "auto",
               .doc = "the time (YYYY-mm-ddTHH:MM:SS, UTC) that becomes submit time 0; auto: "
                      "midnight UTC of the earliest Submit in the file"},
              {.name = "tenant",
               .default_value = "account",
               .doc = "account: a job's tenant is its Account (its User when that is empty); "
                      "user: its User"},
              {.name = "cpu_only",
               .default_value = "skip",
               .doc = "skip: jobs without GPUs are passed over and counted; keep: they are "
                      "imported as CPU-only jobs"},
          },
      .open = OpenSacct,
  };
}

}  // namespace fleetsim
