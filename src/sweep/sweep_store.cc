// A sweep's state on disk: its layout (points.json) and the journals of finished runs.
#include "fleetsim/sweep/sweep_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "json/json_text.h"

namespace fleetsim {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr int kLayoutFormatVersion = 1;

std::optional<SweepRunStatus> ParseStatus(const std::string& name) {
  for (const SweepRunStatus s : {SweepRunStatus::kOk, SweepRunStatus::kInvalid,
                                 SweepRunStatus::kIllegalDecision, SweepRunStatus::kError}) {
    if (SweepRunStatusName(s) == name) {
      return s;
    }
  }
  return std::nullopt;
}

// A record's metrics, put in SweepMetricNames() order by name: one it lacks has no value. A
// metric over a group of jobs ("name{labels}") goes to group_metrics; another name this version
// does not know is left out.
void ReadMetrics(const json& listed, SweepRecord& record) {
  const std::vector<std::string>& names = SweepMetricNames();
  record.metrics.assign(names.size(), {});
  for (const json& m : listed) {
    const std::string name = m.at(0).get<std::string>();
    const json& value = m.at(1);
    const std::optional<double> number =
        value.is_null() ? std::nullopt : std::optional(value.get<double>());
    const auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end()) {
      const auto index = static_cast<std::size_t>(it - names.begin());
      record.metrics[index] = {.value = number, .text = MetricText(IsCountMetric(index), number)};
    } else if (name.find('{') != std::string::npos) {
      record.group_metrics.emplace_back(
          name, SweepMetric{.value = number, .text = MetricText(false, number)});
    }
  }
}

// Adds to `record` the group metrics it lacks.
void AddGroupMetrics(std::vector<std::pair<std::string, SweepMetric>> metrics,
                     SweepRecord& record) {
  for (auto& metric : metrics) {
    const bool known = std::any_of(record.group_metrics.begin(), record.group_metrics.end(),
                                   [&](const auto& m) { return m.first == metric.first; });
    if (!known) {
      record.group_metrics.push_back(std::move(metric));
    }
  }
}

std::optional<SweepRecord> ParseRecord(const std::string& line) {
  json row;
  if (!ParseJsonText(line, "", row).ok() || !row.is_object()) {
    return std::nullopt;
  }
  try {
    SweepRecord record;
    record.id = row.at("id").get<std::string>();
    const auto status = ParseStatus(row.at("status").get<std::string>());
    if (!status) {
      return std::nullopt;
    }
    record.status = *status;
    record.error = row.at("error").get<std::string>();
    const json& metrics = row.at("metrics");
    if (record.status == SweepRunStatus::kOk) {
      ReadMetrics(metrics, record);
    }
    return record;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

LayoutPoint ParsePoint(const json& p) {
  return {.index = p.at("index").get<std::size_t>(),
          .id = p.at("id").get<std::string>(),
          .scenario = p.at("scenario").get<std::string>(),
          .policy = p.at("policy").get<std::string>(),
          .seed = p.at("seed").get<std::uint64_t>(),
          .labels = p.at("labels").get<std::vector<std::string>>(),
          .error = p.at("error").get<std::string>()};
}

}  // namespace

std::string SweepRunStatusName(SweepRunStatus status) {
  switch (status) {
    case SweepRunStatus::kOk:
      return "ok";
    case SweepRunStatus::kInvalid:
      return "invalid";
    case SweepRunStatus::kIllegalDecision:
      return "illegal-decision";
    case SweepRunStatus::kError:
      return "error";
  }
  return "error";
}

int SweepRunStatusExit(SweepRunStatus status) {
  switch (status) {
    case SweepRunStatus::kOk:
      return 0;
    case SweepRunStatus::kIllegalDecision:
      return 3;
    case SweepRunStatus::kInvalid:
    case SweepRunStatus::kError:
      return 1;
  }
  return 1;
}

SweepLayout MakeLayout(const SweepSpec& spec, const SweepExpansion& expansion) {
  SweepLayout layout{.name = spec.name,
                     .baseline_policy = spec.baseline_policy,
                     .report_metrics = spec.report_metrics};
  std::vector<std::size_t> columns;
  for (std::size_t a = 0; a < spec.axes.size(); ++a) {
    const AxisTarget target = spec.axes[a].target;
    if (target != AxisTarget::kPolicy && target != AxisTarget::kSeed) {
      columns.push_back(a);
      layout.axes.push_back(spec.axes[a].name);
      layout.pairing_ignores.push_back(target == AxisTarget::kPolicyParam);
    }
  }
  for (const SweepPoint& p : expansion.points) {
    LayoutPoint point{.index = p.index,
                      .id = p.id,
                      .scenario = p.scenario,
                      .policy = p.policy,
                      .seed = p.seed,
                      .error = p.error};
    for (const std::size_t a : columns) {
      point.labels.push_back(p.labels[a]);
    }
    layout.points.push_back(std::move(point));
  }
  return layout;
}

std::string LayoutJson(const SweepLayout& layout) {
  json points = json::array();
  for (const LayoutPoint& p : layout.points) {
    points.push_back({{"index", p.index},
                      {"id", p.id},
                      {"scenario", p.scenario},
                      {"policy", p.policy},
                      {"seed", p.seed},
                      {"labels", p.labels},
                      {"error", p.error}});
  }
  const json root = {{"format_version", kLayoutFormatVersion},
                     {"name", layout.name},
                     {"axes", layout.axes},
                     {"pairing_ignores", layout.pairing_ignores},
                     {"baseline_policy", layout.baseline_policy},
                     {"report_metrics", layout.report_metrics},
                     {"points", points}};
  return root.dump(1) + "\n";
}

std::optional<SweepLayout> ReadLayout(const std::string& dir, Status& status) {
  const std::string path = (fs::path(dir) / kSweepStateDir / "points.json").string();
  std::string text;
  json root;
  status = DiskFileSystem().ReadFile(path, text);
  if (status.ok()) {
    status = ParseJsonText(text, path, root);
  }
  if (!status.ok()) {
    return std::nullopt;
  }
  try {
    if (root.at("format_version").get<int>() != kLayoutFormatVersion) {
      status = Status::InvalidInput(
          fmt::format("{}: written by another version of fleetsim (format_version {})", path,
                      root.at("format_version").dump()));
      return std::nullopt;
    }
    SweepLayout layout{.name = root.at("name").get<std::string>(),
                       .axes = root.at("axes").get<std::vector<std::string>>(),
                       .pairing_ignores = root.at("pairing_ignores").get<std::vector<bool>>(),
                       .baseline_policy = root.at("baseline_policy").get<std::string>(),
                       .report_metrics = root.at("report_metrics").get<std::vector<std::string>>()};
    for (const json& p : root.at("points")) {
      layout.points.push_back(ParsePoint(p));
    }
    return layout;
  } catch (const json::exception& e) {
    status = Status::InvalidInput(
        fmt::format("{}: not a sweep layout ({})", path, SplitJsonError(e.what()).what));
    return std::nullopt;
  }
}

void FormatMetricTexts(SweepRecord& record) {
  for (std::size_t i = 0; i < record.metrics.size(); ++i) {
    SweepMetric& m = record.metrics[i];
    if (m.text.empty()) {
      m.text = MetricText(IsCountMetric(i), m.value);
    }
  }
  for (auto& [name, m] : record.group_metrics) {
    if (m.text.empty()) {
      m.text = MetricText(false, m.value);
    }
  }
}

std::string RecordLine(const SweepRecord& record) {
  // Written directly (one line per run, flushed as runs end): cheaper than a JSON tree.
  std::string line = fmt::format("{{\"id\":{},\"status\":\"{}\",\"error\":{},\"metrics\":[",
                                 json(record.id).dump(), SweepRunStatusName(record.status),
                                 json(record.error).dump());
  const std::vector<std::string>& names = SweepMetricNames();
  for (std::size_t i = 0; i < std::min(record.metrics.size(), names.size()); ++i) {
    line += i == 0 ? "[\"" : ",[\"";
    line += names[i];
    line += "\",";
    AppendMetricText(line, IsCountMetric(i), record.metrics[i], "null");
    line += ']';
  }
  for (const auto& [name, m] : record.group_metrics) {
    line += fmt::format("{}[{},", line.back() == '[' ? "" : ",", json(name).dump());
    AppendMetricText(line, false, m, "null");
    line += ']';
  }
  line += "]}\n";
  return line;
}

std::map<std::string, SweepRecord> ReadRecords(const std::string& dir,
                                               std::vector<std::string>& warnings) {
  std::map<std::string, SweepRecord> records;
  const fs::path state = fs::path(dir) / kSweepStateDir;
  std::error_code ec;
  std::vector<fs::path> journals;
  for (const auto& entry : fs::directory_iterator(state, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("runs-", 0) == 0 && entry.path().extension() == ".jsonl") {
      journals.push_back(entry.path());
    }
  }
  std::sort(journals.begin(), journals.end());
  for (const fs::path& journal : journals) {
    std::ifstream in(journal);
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
      std::optional<SweepRecord> record = ParseRecord(line);
      if (!record) {
        warnings.push_back(
            fmt::format("{}:{}: not a run record (a run cut short?); the run "
                        "will be run again",
                        journal.string(), number));
        continue;
      }
      auto [it, inserted] = records.try_emplace(record->id, *record);
      if (!inserted && record->status == SweepRunStatus::kOk) {
        if (it->second.status != SweepRunStatus::kOk) {
          it->second = std::move(*record);
        } else {  // the same run again (a plan with other targets): keep every group metric
          AddGroupMetrics(std::move(record->group_metrics), it->second);
        }
      }
    }
  }
  return records;
}

std::string JournalName(std::size_t shard, std::size_t shards) {
  return fmt::format("runs-{}-of-{}.jsonl", shard, shards);
}

namespace {

// Where the last line of the file `in` reads (`size` bytes) starts: just after its last newline,
// or 0; `size` when the file ends with a newline.
std::optional<std::uintmax_t> LastLineStart(std::ifstream& in, std::uintmax_t size) {
  constexpr std::uintmax_t kBlock = 4096;
  std::string block;
  for (std::uintmax_t end = size; end > 0;) {
    const std::uintmax_t start = end > kBlock ? end - kBlock : 0;
    block.resize(static_cast<std::size_t>(end - start));
    in.seekg(static_cast<std::streamoff>(start));
    if (!in.read(block.data(), static_cast<std::streamsize>(block.size()))) {
      return std::nullopt;
    }
    if (const std::size_t newline = block.rfind('\n'); newline != std::string::npos) {
      return start + newline + 1;
    }
    end = start;
  }
  return 0;
}

// A journal whose last line has no newline was stopped during a write (a kill, a full disk).
// If that line is a whole record (only the newline was lost), ReadRecords took it and the
// newline is added; otherwise ReadRecords skipped it, its run runs again, and the line is cut
// off. Either way the next record appended starts a line of its own.
Status EndJournalWithWholeLine(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec || size == 0) {
    return Status::Ok();  // no journal yet (opening it says why when it cannot be created)
  }
  std::ifstream in(path, std::ios::binary);
  const std::optional<std::uintmax_t> start = LastLineStart(in, size);
  if (!start) {
    return Status::IoError(fmt::format("{}: cannot read", path));
  }
  if (*start == size) {
    return Status::Ok();
  }
  std::string last(static_cast<std::size_t>(size - *start), '\0');
  in.clear();
  in.seekg(static_cast<std::streamoff>(*start));
  in.read(last.data(), static_cast<std::streamsize>(last.size()));
  if (in && ParseRecord(last)) {
    std::ofstream out(path, std::ios::app | std::ios::binary);
    if (!(out << '\n' << std::flush)) {
      return Status::IoError(fmt::format("{}: cannot end its last record's line", path));
    }
    return Status::Ok();
  }
  fs::resize_file(path, *start, ec);
  if (ec) {
    return Status::IoError(
        fmt::format("{}: cannot cut off a run record cut short: {}", path, ec.message()));
  }
  return Status::Ok();
}

}  // namespace

JournalWriter::JournalWriter(const std::string& dir, const std::string& name,
                             std::chrono::milliseconds flush_period)
    : flush_period_(flush_period) {
  const fs::path state = fs::path(dir) / kSweepStateDir;
  std::error_code ec;
  fs::create_directories(state, ec);
  path_ = (state / name).string();
  if (ec) {
    status_ = Status::IoError(fmt::format("{}: cannot create: {}", state.string(), ec.message()));
    return;
  }
  if (status_ = EndJournalWithWholeLine(path_); !ok()) {
    return;
  }
  file_.open(path_, std::ios::app | std::ios::binary);
  if (!file_) {
    status_ = Status::IoError(fmt::format("{}: cannot open for appending", path_));
  }
}

bool JournalWriter::Append(SweepRecord& record) {
  if (std::find(waiting_.begin(), waiting_.end(), &record) == waiting_.end()) {
    waiting_.push_back(&record);  // a record run again before the flush is written once
  }
  const auto now = std::chrono::steady_clock::now();
  if (now - last_flush_ >= flush_period_ || waiting_.size() >= kJournalBatchRecords) {
    last_flush_ = now;
    return Flush();
  }
  return ok();
}

bool JournalWriter::Flush() {
  std::string lines;
  for (SweepRecord* record : waiting_) {
    FormatMetricTexts(*record);
    lines += RecordLine(*record);
  }
  waiting_.clear();
  file_.write(lines.data(), static_cast<std::streamsize>(lines.size()));
  file_.flush();
  if (!file_ && status_.ok()) {
    status_ = Status::IoError(fmt::format("{}: cannot append a run record (disk full?)", path_));
  }
  return ok();
}

}  // namespace fleetsim
