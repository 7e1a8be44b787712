// The native CSV format: a header naming the columns (any order; only id, submit_s, one of gpus,
// gres or resources, and one of duration_s or work_gpu_hours are required), then one job per row,
// an empty cell meaning the field's default. One table of columns drives both the reader and the
// writer, so the two cannot drift apart.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>

#include "fleetsim/core/diagnostics.h"
#include "fleetsim/trace/native.h"
#include "job_json/job_json.h"
#include "job_json/request_words.h"
#include "text/csv.h"
#include "text/line_reader.h"
#include "trace/fields.h"
#include "trace/readers.h"

namespace fleetsim {

namespace {

constexpr char kListSeparator = '|';

using CellReader = void (*)(std::string_view cell, std::string_view column, Job& job,
                            FieldError& error);
using CellWriter = std::string (*)(const Job& job);

struct Column {
  const char* name;
  CellReader read;   // called for non-empty cells only (an empty cell means the default)
  CellWriter write;  // "" when the field is at its default or absent
};

const JobRequest& Defaults() {
  static const JobRequest defaults;
  return defaults;
}

std::vector<std::string_view> SplitList(std::string_view cell) {
  std::vector<std::string_view> items;
  std::size_t begin = 0;
  while (begin <= cell.size()) {
    const std::size_t end = std::min(cell.find(kListSeparator, begin), cell.size());
    items.push_back(cell.substr(begin, end - begin));
    begin = end + 1;
  }
  return items;
}

template <typename T>
std::string JoinList(const std::vector<T>& items) {
  return fmt::format("{}", fmt::join(items, std::string_view(&kListSeparator, 1)));
}

// --- cell readers ---

template <std::string JobRequest::*field>
void ReadText(std::string_view cell, std::string_view /*column*/, Job& job, FieldError& /*error*/) {
  job.request.*field = std::string(cell);
}

template <std::int64_t JobRequest::*field, std::int64_t min, std::int64_t max>
void ReadInt(std::string_view cell, std::string_view column, Job& job, FieldError& error) {
  if (const auto value = IntField(cell, column, min, max, error)) {
    job.request.*field = *value;
  }
}

template <bool JobRequest::*field>
void ReadBool(std::string_view cell, std::string_view column, Job& job, FieldError& error) {
  if (const auto value = BoolField(cell, column, error)) {
    job.request.*field = *value;
  }
}

template <SimTime JobRequest::*field>
void ReadTime(std::string_view cell, std::string_view column, Job& job, FieldError& error) {
  if (const auto value = SecondsField(cell, column, error)) {
    job.request.*field = *value;
  }
}

template <typename Enum, Enum JobRequest::*field, std::optional<Enum> (*parse)(const std::string&),
          std::vector<std::string> (*names)()>
void ReadName(std::string_view cell, std::string_view column, Job& job, FieldError& error) {
  const std::string name(cell);
  if (const std::optional<Enum> value = parse(name)) {
    job.request.*field = *value;
    return;
  }
  error.Set(kReasonBadValue, fmt::format("column '{}': expected one of {}, found '{}'{}", column,
                                         QuotedList(names()), cell, DidYouMean(name, names())));
}

void ReadModels(std::string_view cell, std::string_view /*column*/, Job& job,
                FieldError& /*error*/) {
  for (const std::string_view model : SplitList(cell)) {
    job.request.gpu_models.emplace_back(model);
  }
}

DemandCurve& DemandOf(Job& job) {
  if (!job.request.demand) {
    job.request.demand.emplace();
  }
  return *job.request.demand;
}

void ReadDemandStep(std::string_view cell, std::string_view column, Job& job, FieldError& error) {
  if (const auto value = DurationField(cell, column, error)) {
    DemandOf(job).step = *value;
  }
}

void ReadDemandGpus(std::string_view cell, std::string_view column, Job& job, FieldError& error) {
  std::vector<std::int64_t>& gpus = DemandOf(job).gpus;
  for (const std::string_view item : SplitList(cell)) {
    const auto value = IntField(item, column, 0, kMaxJobGpus, error);
    if (!value) {
      return;
    }
    gpus.push_back(*value);
  }
}

void ReadDemandSwapCap(std::string_view cell, std::string_view column, Job& job,
                       FieldError& error) {
  if (const auto value = IntField(cell, column, 0, kMaxJobGpus, error)) {
    DemandOf(job).swap_cap = *value;
  }
}

void ReadDuration(std::string_view cell, std::string_view column, Job& job, FieldError& error) {
  if (const auto value = DurationField(cell, column, error)) {
    job.truth.duration = *value;
  }
}

void ReadGpuMemory(std::string_view cell, std::string_view column, Job& job, FieldError& error) {
  if (const auto value = RealField(cell, column, 0, kMaxGpuMemoryGb, error)) {
    job.request.gpu_memory_gb = *value;
  }
}

void ReadWork(std::string_view cell, std::string_view column, Job& job, FieldError& error) {
  const auto value = RealField(cell, column, 0, kMaxWorkGpuHours, error);
  if (value && *value == 0) {
    error.Set(kReasonOutOfRange,
              fmt::format("column '{}': expected a number > 0, found '{}'", column, cell));
    return;
  }
  if (value) {
    job.truth.work_gpu_hours = *value;
  }
}

void ReadRecordedState(std::string_view cell, std::string_view /*column*/, Job& job,
                       FieldError& /*error*/) {
  job.truth.recorded_state = std::string(cell);
}

// --- cell writers ---

std::string Text(const std::string& value) { return value; }
std::string Text(std::int64_t value) { return fmt::format("{}", value); }
std::string Text(bool value) { return value ? "true" : "false"; }
std::string Text(double value) { return fmt::format("{}", value); }
std::string Text(JobKind value) { return JobKindName(value); }
std::string Text(NvlinkLocality value) { return NvlinkLocalityName(value); }
std::string Text(GpuSharing value) { return GpuSharingName(value); }
std::string Text(const std::vector<std::string>& value) { return JoinList(value); }

template <auto field>
std::string Write(const Job& job) {
  const auto& value = job.request.*field;
  return value == Defaults().*field ? "" : Text(value);
}

template <SimTime JobRequest::*field>
std::string WriteTime(const Job& job) {
  const SimTime value = job.request.*field;
  return value == Defaults().*field ? "" : SecondsText(value);
}

std::string WriteId(const Job& job) { return job.request.id; }
std::string WriteSubmit(const Job& job) { return SecondsText(job.request.submit); }
std::string WriteGpus(const Job& job) { return Text(job.request.gpus); }

std::string WriteDemandStep(const Job& job) {
  return job.request.demand ? SecondsText(job.request.demand->step) : "";
}
std::string WriteDemandGpus(const Job& job) {
  return job.request.demand ? JoinList(job.request.demand->gpus) : "";
}
std::string WriteDemandSwapCap(const Job& job) {
  return job.request.demand && job.request.demand->swap_cap != 0
             ? Text(job.request.demand->swap_cap)
             : "";
}

// The duration is written whenever there is no work, so every row has its truth.
std::string WriteDuration(const Job& job) {
  const JobTruth& t = job.truth;
  return t.duration != 0 || t.work_gpu_hours == 0 ? SecondsText(t.duration) : "";
}
std::string WriteWork(const Job& job) {
  return job.truth.work_gpu_hours != 0 ? Text(job.truth.work_gpu_hours) : "";
}
std::string WriteRecordedState(const Job& job) { return job.truth.recorded_state; }

// Every native column in documented order.
const std::vector<Column>& Columns() {
  using R = JobRequest;
  static const std::vector<Column> columns = {
      {"id", &ReadText<&R::id>, &WriteId},
      {"submit_s", &ReadTime<&R::submit>, &WriteSubmit},
      {"tenant", &ReadText<&R::tenant>, &Write<&R::tenant>},
      {"priority_class", &ReadText<&R::priority_class>, &Write<&R::priority_class>},
      {"priority", &ReadInt<&R::priority, 1, kMaxPriority>, &Write<&R::priority>},
      {"kind", &ReadName<JobKind, &R::kind, &ParseJobKind, &JobKindNames>, &Write<&R::kind>},
      {"gres", &ReadText<&R::gres>, &Write<&R::gres>},
      {"resources", &ReadText<&R::resources>, &Write<&R::resources>},
      {"gpus", &ReadInt<&R::gpus, 0, kMaxJobGpus>, &WriteGpus},
      {"max_gpus", &ReadInt<&R::max_gpus, 0, kMaxJobGpus>, &Write<&R::max_gpus>},
      {"pow2_block", &ReadBool<&R::pow2_block>, &Write<&R::pow2_block>},
      {"gpu_models", &ReadModels, &Write<&R::gpu_models>},
      {"nvlink", &ReadName<NvlinkLocality, &R::nvlink, &ParseNvlinkLocality, &NvlinkLocalityNames>,
       &Write<&R::nvlink>},
      {"sharing", &ReadName<GpuSharing, &R::sharing, &ParseGpuSharing, &GpuSharingNames>,
       &Write<&R::sharing>},
      {"gpu_milli", &ReadInt<&R::gpu_milli, 1, kWholeGpuMilli>, &Write<&R::gpu_milli>},
      {"gpu_memory_gb", &ReadGpuMemory, &Write<&R::gpu_memory_gb>},
      {"cpu_milli", &ReadInt<&R::cpu_milli, 0, kMaxHostAmount>, &Write<&R::cpu_milli>},
      {"memory_mib", &ReadInt<&R::memory_mib, 0, kMaxHostAmount>, &Write<&R::memory_mib>},
      {"preemptible", &ReadBool<&R::preemptible>, &Write<&R::preemptible>},
      {"spot_eligible", &ReadBool<&R::spot_eligible>, &Write<&R::spot_eligible>},
      {"checkpoint_interval_s", &ReadTime<&R::checkpoint_interval>,
       &WriteTime<&R::checkpoint_interval>},
      {"checkpoint_cost_s", &ReadTime<&R::checkpoint_cost>, &WriteTime<&R::checkpoint_cost>},
      {"checkpoint_sharded", &ReadBool<&R::checkpoint_sharded>, &Write<&R::checkpoint_sharded>},
      {"restart_cost_s", &ReadTime<&R::restart_cost>, &WriteTime<&R::restart_cost>},
      {"walltime_s", &ReadTime<&R::walltime_estimate>, &WriteTime<&R::walltime_estimate>},
      {"deadline_s", &ReadTime<&R::deadline>, &WriteTime<&R::deadline>},
      {"demand_step_s", &ReadDemandStep, &WriteDemandStep},
      {"demand_gpus", &ReadDemandGpus, &WriteDemandGpus},
      {"demand_swap_cap", &ReadDemandSwapCap, &WriteDemandSwapCap},
      {"duration_s", &ReadDuration, &WriteDuration},
      {"work_gpu_hours", &ReadWork, &WriteWork},
      {"recorded_state", &ReadRecordedState, &WriteRecordedState},
  };
  return columns;
}

const Column* FindColumn(std::string_view name) {
  for (const Column& column : Columns()) {
    if (name == column.name) {
      return &column;
    }
  }
  return nullptr;
}

// "'gpu' (did you mean 'gpus'?)", or just "'foo'" when nothing is close.
std::string DescribeUnknown(const std::string& name) {
  const std::string match = ClosestMatch(name, NativeCsvColumns());
  return match.empty() ? fmt::format("'{}'", ShownName(name))
                       : fmt::format("'{}' (did you mean '{}'?)", ShownName(name), match);
}

class CsvSource final : public JobSource {
 public:
  CsvSource(const FileSystem& files, const std::string& path) : lines_(files, path) {}

  // Reads and checks the header. Fails with the error ("path: ..." or "path:line: ...").
  Status ReadHeader() {
    if (Status status = ReadCsvHeader(lines_, {"id", "submit_s"}, header_); !status.ok()) {
      return status;
    }
    return FindColumns().Within(fmt::format("{}:{}", lines_.path(), lines_.line_number()));
  }

  RowStatus Next(Job& job, RowError& error) override {
    FieldError problem;
    if (!NextCsvRow(lines_, header_, cells_, problem)) {
      return RowStatus::kEnd;
    }
    job = Job();
    for (std::size_t i = 0; i < cells_.size() && problem.ok(); ++i) {
      if (!IsBlank(cells_[i])) {
        columns_[i]->read(cells_[i], columns_[i]->name, job, problem);
      }
    }
    if (problem.ok()) {
      ApplyRequestWords(job.request, problem);
    }
    return FinishRow(job, problem, lines_.path(), lines_.line_number(), error);
  }

  std::int64_t line() const override { return lines_.line_number(); }

 private:
  // Finds the column of each header name; fails with what is wrong (unknown or repeated names,
  // no truth column).
  Status FindColumns() {
    std::vector<std::string> unknown;
    for (const std::string& name : header_.names()) {
      const Column* column = FindColumn(name);
      if (column == nullptr) {
        unknown.push_back(DescribeUnknown(name));
      } else if (std::find(columns_.begin(), columns_.end(), column) != columns_.end()) {
        return Status::InvalidInput(fmt::format("column '{}' appears twice in the header", name));
      }
      columns_.push_back(column);
    }
    if (!unknown.empty()) {
      return Status::InvalidInput(fmt::format("unknown column{} {}", unknown.size() == 1 ? "" : "s",
                                              fmt::join(unknown, ", ")));
    }
    if (!header_.Find("gpus") && !header_.Find("gres") && !header_.Find("resources")) {
      return Status::InvalidInput(
          fmt::format("expected a header with a 'gpus', 'gres' or 'resources' column, found "
                      "columns {}",
                      QuotedInputNames(header_.names())));
    }
    if (!header_.Find("duration_s") && !header_.Find("work_gpu_hours")) {
      return Status::InvalidInput(
          fmt::format("expected a header with a 'duration_s' or 'work_gpu_hours' column, "
                      "found columns {}",
                      QuotedInputNames(header_.names())));
    }
    return Status::Ok();
  }

  // A `gres` or `resources` cell read as the request it is (ApplyRequestWords); the columns it
  // sets must then be empty.
  void ApplyRequestWords(JobRequest& r, FieldError& problem) const {
    if (r.gres.empty() && r.resources.empty()) {
      return;
    }
    GivenRequestWords given;
    if (!r.gres.empty()) {
      given.gres = r.gres;
    }
    if (!r.resources.empty()) {
      given.resources = SplitResources(r.resources);
      if (!given.resources) {
        problem.Set(kReasonBadValue,
                    fmt::format("column 'resources': expected name=value entries separated by "
                                "',', found '{}'",
                                r.resources));
        return;
      }
    }
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      if (!IsBlank(cells_[i])) {
        given.fields.emplace_back(columns_[i]->name, fmt::format("'{}'", cells_[i]));
      }
    }
    r.gres.clear();
    r.resources.clear();
    const std::vector<RequestWordsProblem> problems = fleetsim::ApplyRequestWords(given, r);
    if (!problems.empty()) {
      problem.Set(kReasonBadValue,
                  fmt::format("column '{}': {}", problems.front().field, problems.front().message));
    }
  }

  LineReader lines_;
  CsvHeader header_;
  std::vector<const Column*> columns_;  // the column of each header position
  std::vector<std::string> cells_;
};

OpenResult OpenCsv(const FileSystem& files, const std::string& path,
                   const TraceOptionValues& /*options*/) {
  auto source = std::make_unique<CsvSource>(files, path);
  if (Status status = source->ReadHeader(); !status.ok()) {
    return {nullptr, std::move(status)};
  }
  return {std::move(source), Status::Ok()};
}

}  // namespace

TraceFormat NativeCsvFormat() {
  return {"csv",
          "native CSV: a header naming the columns, then one job per row, every field of the job "
          "model",
          {},
          &OpenCsv};
}

const std::vector<std::string>& NativeCsvColumns() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Column& column : Columns()) {
      out.emplace_back(column.name);
    }
    return out;
  }();
  return names;
}

CsvJobWriter::CsvJobWriter(std::ostream& out) : out_(out) {
  out_ << fmt::format("{}", fmt::join(NativeCsvColumns(), ",")) << '\n';
}

void CsvJobWriter::Write(const Job& job) {
  std::string row;
  for (std::size_t i = 0; i < Columns().size(); ++i) {
    row += i == 0 ? "" : ",";
    const Column& column = Columns()[i];
    row += QuoteCsv(SetByRequestWords(job.request, column.name) ? "" : column.write(job));
  }
  out_ << row << '\n';
}

}  // namespace fleetsim
