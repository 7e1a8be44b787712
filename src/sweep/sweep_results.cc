// results.csv, results.json and summary.csv of a sweep.
#include "fleetsim/sweep/sweep_results.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "fleetsim/core/version.h"
#include "fleetsim/report/outputs.h"

namespace fleetsim {

namespace {

using json = nlohmann::json;

constexpr int kResultsFormatVersion = 1;

// A point's outcome: its record, or the invalid-document failure the layout carries; its
// record's metrics (in SweepMetricNames() order) when ok, else null.
struct Outcome {
  SweepRunStatus status = SweepRunStatus::kOk;
  std::string error{};
  const std::vector<SweepMetric>* metrics = nullptr;
};

Outcome OutcomeOf(const LayoutPoint& point, const SweepRecords& records) {
  if (!point.error.empty()) {
    return {.status = SweepRunStatus::kInvalid, .error = point.error, .metrics = nullptr};
  }
  const auto it = records.find(point.id);
  if (it == records.end()) {
    return {.status = SweepRunStatus::kError, .error = "not run", .metrics = nullptr};
  }
  const SweepRecord& r = it->second;
  return {.status = r.status,
          .error = r.error,
          .metrics = r.status == SweepRunStatus::kOk ? &r.metrics : nullptr};
}

// Every point's outcome, in point order (a point's index is its position).
std::vector<Outcome> Outcomes(const SweepLayout& layout, const SweepRecords& records) {
  std::vector<Outcome> outcomes;
  outcomes.reserve(layout.points.size());
  for (const LayoutPoint& p : layout.points) {
    outcomes.push_back(OutcomeOf(p, records));
  }
  return outcomes;
}

// `text` as a JSON string: quoted as is when nothing in it needs escaping (the common case,
// and the fast one), else through nlohmann.
std::string JsonString(const std::string& text) {
  const bool plain = std::none_of(text.begin(), text.end(), [](char c) {
    return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
  });
  return plain ? '"' + text + '"' : json(text).dump();
}

std::optional<double> MetricValue(const Outcome& outcome, std::size_t metric) {
  return outcome.metrics == nullptr || metric >= outcome.metrics->size()
             ? std::nullopt
             : (*outcome.metrics)[metric].value;
}

// Appends the metric as result files write it (AppendMetricText), `none` for none.
void AppendMetricTextOf(std::string& out, const Outcome& outcome, std::size_t metric,
                        std::string_view none) {
  if (outcome.metrics != nullptr && metric < outcome.metrics->size()) {
    AppendMetricText(out, IsCountMetric(metric), (*outcome.metrics)[metric], none);
  } else {
    out += none;
  }
}

// Reserves room in `out` for `rows` more rows of the size of the one that starts at `row_start`
// and ends at out's end, plus an eighth. A result file of a large sweep then grows in one
// allocation rather than by doubling: every doubling copies the text into fresh pages, and on a
// sweep of short runs faulting those pages in costs more than rendering the rows. Callers size
// from a row without an error (an invalid document's diagnostics can be long; the rows are not
// like it).
void ReserveRows(std::string& out, std::size_t row_start, std::size_t rows) {
  const std::size_t row = out.size() - row_start;
  out.reserve(out.size() + rows * (row + row / 8));
}

std::string OptionalText(std::optional<double> value) {
  return value ? fmt::format("{}", *value) : "";
}

std::string CellKey(const LayoutPoint& p) {
  json key = {p.scenario, p.policy, p.labels};
  return key.dump();
}

// The cells, each with its points (in point order), in order of first appearance.
std::vector<SweepCell> Cells(const SweepLayout& layout) {
  std::vector<SweepCell> cells;
  std::map<std::string, std::size_t> by_key;
  for (const LayoutPoint& p : layout.points) {
    const auto [it, inserted] = by_key.try_emplace(CellKey(p), cells.size());
    if (inserted) {
      cells.push_back({.first = &p});
    }
    cells[it->second].points.push_back(&p);
  }
  return cells;
}

// Each point's baseline: the baseline policy's point with the same scenario, seed and axes, the
// policy parameters aside (they belong to the policy, and the baseline may not have them).
// Null for the baseline's own points and where there is none.
std::vector<const LayoutPoint*> Baselines(const SweepLayout& layout) {
  std::vector<const LayoutPoint*> baselines(layout.points.size(), nullptr);
  if (layout.baseline_policy.empty()) {
    return baselines;
  }
  std::map<std::pair<std::string, std::uint64_t>, std::vector<const LayoutPoint*>> candidates;
  for (const LayoutPoint& b : layout.points) {
    if (b.policy == layout.baseline_policy) {
      candidates[{b.scenario, b.seed}].push_back(&b);
    }
  }
  for (const LayoutPoint& p : layout.points) {
    if (p.policy == layout.baseline_policy) {
      continue;
    }
    for (const LayoutPoint* b : candidates[{p.scenario, p.seed}]) {
      bool same = true;
      for (std::size_t a = 0; a < layout.axes.size() && same; ++a) {
        same = b->labels[a] == p.labels[a] ||
               (layout.pairing_ignores[a] && (b->labels[a].empty() || p.labels[a].empty()));
      }
      if (same) {
        baselines[p.index] = b;
        break;
      }
    }
  }
  return baselines;
}

std::string StatsCells(const SweepStats& s) {
  return fmt::format("{},{},{},{},{},{},{}", s.n, OptionalText(s.mean), OptionalText(s.sd),
                     OptionalText(s.ci_low), OptionalText(s.ci_high), OptionalText(s.min),
                     OptionalText(s.max));
}

void Summarize(const SweepLayout& layout, const std::vector<Outcome>& outcomes,
               const std::vector<const LayoutPoint*>& baselines, SweepCell& cell) {
  for (const LayoutPoint* p : cell.points) {
    cell.failed += outcomes[p->index].status == SweepRunStatus::kOk ? 0U : 1U;
  }
  cell.paired = !layout.baseline_policy.empty() && cell.first->policy != layout.baseline_policy;
  for (std::size_t metric = 0; metric < SweepMetricNames().size(); ++metric) {
    std::vector<double> values;
    std::vector<double> differences;
    for (const LayoutPoint* p : cell.points) {
      const std::optional<double> v = MetricValue(outcomes[p->index], metric);
      if (!v) {
        continue;
      }
      values.push_back(*v);
      const LayoutPoint* base = baselines[p->index];
      const std::optional<double> b =
          base != nullptr ? MetricValue(outcomes[base->index], metric) : std::nullopt;
      if (b) {
        differences.push_back(*v - *b);
      }
    }
    cell.metrics.push_back(StatsOf(values));
    cell.differences.push_back(StatsOf(differences));
  }
}

std::string SummaryRows(const SweepLayout& layout, const SweepCell& cell) {
  std::string prefix =
      fmt::format("{},{}", CsvField(cell.first->scenario), CsvField(cell.first->policy));
  for (const std::string& label : cell.first->labels) {
    prefix += "," + CsvField(label);
  }
  std::string rows;
  const std::vector<std::string>& names = SweepMetricNames();
  for (std::size_t metric = 0; metric < names.size(); ++metric) {
    const SweepStats& d = cell.differences[metric];
    rows += fmt::format("{},{},{},{},{},{},{},{},{}\n", prefix, names[metric], cell.failed,
                        StatsCells(cell.metrics[metric]), cell.paired ? layout.baseline_policy : "",
                        d.n, OptionalText(d.mean), OptionalText(d.ci_low), OptionalText(d.ci_high));
  }
  return rows;
}

}  // namespace

std::vector<SweepCell> SummarizeCells(const SweepLayout& layout, const SweepRecords& records) {
  const std::vector<Outcome> outcomes = Outcomes(layout, records);
  const std::vector<const LayoutPoint*> baselines = Baselines(layout);
  std::vector<SweepCell> cells = Cells(layout);
  for (SweepCell& cell : cells) {
    Summarize(layout, outcomes, baselines, cell);
  }
  return cells;
}

std::vector<std::size_t> MissingRuns(const SweepLayout& layout, const SweepRecords& records) {
  std::vector<std::size_t> missing;
  for (const LayoutPoint& p : layout.points) {
    if (p.error.empty() && records.find(p.id) == records.end()) {
      missing.push_back(p.index);
    }
  }
  return missing;
}

std::vector<std::size_t> FailedRuns(const SweepLayout& layout, const SweepRecords& records) {
  std::vector<std::size_t> failed;
  for (const LayoutPoint& p : layout.points) {
    if (OutcomeOf(p, records).status != SweepRunStatus::kOk) {
      failed.push_back(p.index);
    }
  }
  return failed;
}

std::string ResultsCsv(const SweepLayout& layout, const SweepRecords& records) {
  const std::vector<std::string>& names = SweepMetricNames();
  std::string out = "point,run_id,scenario,policy,seed";
  for (const std::string& axis : layout.axes) {
    out += "," + CsvField(axis);
  }
  out += ",status,exit_status,error";
  for (const std::string& metric : names) {
    out += "," + metric;
  }
  out += "\n";
  bool reserved = false;
  for (const LayoutPoint& p : layout.points) {
    const Outcome outcome = OutcomeOf(p, records);
    const std::size_t row_start = out.size();
    out += fmt::format("{},{},{},{},{}", p.index, p.id, CsvField(p.scenario), CsvField(p.policy),
                       p.seed);
    for (const std::string& label : p.labels) {
      out += "," + CsvField(label);
    }
    out += fmt::format(",{},{},{}", SweepRunStatusName(outcome.status),
                       SweepRunStatusExit(outcome.status), CsvField(outcome.error));
    for (std::size_t m = 0; m < names.size(); ++m) {
      out += ',';
      AppendMetricTextOf(out, outcome, m, "");
    }
    out += "\n";
    if (!reserved && outcome.error.empty()) {
      ReserveRows(out, row_start, layout.points.size() - p.index - 1);
      reserved = true;
    }
  }
  return out;
}

std::string ResultsJson(const SweepLayout& layout, const SweepRecords& records) {
  const std::vector<std::string>& names = SweepMetricNames();
  std::string out = fmt::format(
      "{{\n \"format_version\": {},\n \"fleetsim_version\": {},\n \"sweep\": {},\n \"axes\": {},\n "
      "\"metrics\": {},\n \"runs\": [",
      kResultsFormatVersion, json(kVersion).dump(), json(layout.name).dump(),
      json(layout.axes).dump(), json(names).dump());
  // One run per line, written directly: nlohmann's tree would cost more than the runs' own
  // bookkeeping on a sweep of short runs.
  bool reserved = false;
  for (const LayoutPoint& p : layout.points) {
    const Outcome outcome = OutcomeOf(p, records);
    const std::size_t row_start = out.size();
    out += p.index == 0 ? "\n  {\"point\": " : ",\n  {\"point\": ";
    out += fmt::format(
        "{}, \"run_id\": \"{}\", \"scenario\": {}, \"policy\": {}, \"seed\": {}, "
        "\"axes\": {{",
        p.index, p.id, JsonString(p.scenario), JsonString(p.policy), p.seed);
    for (std::size_t a = 0; a < layout.axes.size(); ++a) {
      out += a == 0 ? "" : ", ";
      out += JsonString(layout.axes[a]);
      out += ": ";
      out += JsonString(p.labels[a]);
    }
    out += fmt::format(
        "}}, \"status\": \"{}\", \"exit_status\": {}, \"error\": {}, "
        "\"metrics\": {{",
        SweepRunStatusName(outcome.status), SweepRunStatusExit(outcome.status),
        JsonString(outcome.error));
    for (std::size_t m = 0; m < names.size(); ++m) {
      out += m == 0 ? "\"" : ", \"";
      out += names[m];
      out += "\": ";
      AppendMetricTextOf(out, outcome, m, "null");
    }
    out += "}}";
    if (!reserved && outcome.error.empty()) {
      ReserveRows(out, row_start, layout.points.size() - p.index - 1);
      reserved = true;
    }
  }
  out += "\n ]\n}\n";
  return out;
}

std::string SummaryCsv(const SweepLayout& layout, const std::vector<SweepCell>& cells) {
  std::string out = "scenario,policy";
  for (const std::string& axis : layout.axes) {
    out += "," + CsvField(axis);
  }
  out +=
      ",metric,failed_runs,runs,mean,sd,ci95_low,ci95_high,min,max,baseline_policy,pairs,"
      "diff_mean,diff_ci95_low,diff_ci95_high\n";
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const std::size_t rows_start = out.size();
    out += SummaryRows(layout, cells[c]);
    if (c == 0) {
      ReserveRows(out, rows_start, cells.size() - 1);
    }
  }
  return out;
}

}  // namespace fleetsim
