// The benchmark report: per-scenario tables with deltas against fifo and the published figures,
// and the --json results file.
#include "fleetsim/report/bench_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "fleetsim/core/version.h"
#include "json/json_checker.h"
#include "json/json_text.h"

namespace fleetsim {

namespace {

using nlohmann::ordered_json;

std::string Hours(double seconds) { return fmt::format("{:.2f} h", seconds / 3600.0); }

std::string Dollars(const std::optional<double>& value) {
  return value ? fmt::format("${:.2f}", *value) : "n/a";
}

// Reads one string member of a published scenario entry into `field`; notes a problem.
void ReadText(const nlohmann::json& entry, const std::string& key, const std::string& path,
              std::string& field, std::vector<std::string>& problems) {
  if (!entry.contains(key)) {
    return;
  }
  const nlohmann::json& value = entry.at(key);
  if (!value.is_string()) {
    problems.push_back(fmt::format("{}/{}: expected a string, found {}", path, key, Shown(value)));
    return;
  }
  field = value.get<std::string>();
}

std::optional<PublishedSet> ParsePublished(const nlohmann::json& root,
                                           std::vector<std::string>& problems) {
  if (!root.is_object() || !root.contains("scenarios") || !root.at("scenarios").is_object()) {
    problems.emplace_back("/scenarios: expected an object of scenario name -> figures");
    return std::nullopt;
  }
  PublishedSet set;
  for (const auto& [key, value] : root.items()) {
    if (key != "source" && key != "scenarios") {
      problems.push_back(fmt::format("/{}: unknown key (expected source, scenarios)", key));
    }
  }
  ReadText(root, "source", "", set.source, problems);
  for (const auto& [name, entry] : root.at("scenarios").items()) {
    const std::string path = "/scenarios/" + name;
    if (!entry.is_object()) {
      problems.push_back(fmt::format("{}: expected an object, found {}", path, Shown(entry)));
      continue;
    }
    for (const auto& [key, value] : entry.items()) {
      if (key != "fifo_utilization" && key != "allocator_utilization" && key != "output_gain") {
        problems.push_back(fmt::format(
            "{}/{}: unknown key (expected fifo_utilization, allocator_utilization, output_gain)",
            path, key));
      }
    }
    PublishedFigures& figures = set.scenarios[name];
    ReadText(entry, "fifo_utilization", path, figures.fifo_utilization, problems);
    ReadText(entry, "allocator_utilization", path, figures.allocator_utilization, problems);
    ReadText(entry, "output_gain", path, figures.output_gain, problems);
  }
  return set;
}

double UtilizationDeltaPoints(const RunReport& r, const RunReport& base) {
  return 100.0 * (r.accounting.utilization - base.accounting.utilization);
}

std::optional<double> OutputGainPercent(const RunReport& r, const RunReport& base) {
  const double base_output = base.accounting.priority_weighted_output;
  if (base_output <= 0) {
    return std::nullopt;
  }
  return 100.0 * (r.accounting.priority_weighted_output / base_output - 1.0);
}

// Output / bound as a percentage, "*" when the bound is not proven optimal.
std::string ShareOfBound(const RunReport& r, const BoundFigure& bound) {
  if (bound.bound <= 0) {
    return "n/a";
  }
  return fmt::format("{:.1f}%{}", 100.0 * r.accounting.priority_weighted_output / bound.bound,
                     bound.proven_optimal ? "" : "*");
}

std::string PolicyRow(const RunReport& r, const RunReport* base, const BoundFigure* bound) {
  std::string delta_util = "";
  std::string delta_output = "";
  if (base != nullptr && base != &r) {
    delta_util = fmt::format("{:+.1f}", UtilizationDeltaPoints(r, *base));
    const std::optional<double> gain = OutputGainPercent(r, *base);
    delta_output = gain ? fmt::format("{:+.1f}%", *gain) : "n/a";
  }
  const MetricsSummary& m = r.metrics;
  const std::string share = bound != nullptr ? fmt::format("  {:>8}", ShareOfBound(r, *bound)) : "";
  return fmt::format(
      "  {:<17} {:>6.1f}%  {:>6}  {:>9.1f}  {:>8}{}  {:>9}  {:>10}  {:>10.2f}  {:>10}\n",
      r.policy.name, 100.0 * r.accounting.utilization, delta_util,
      r.accounting.priority_weighted_output, delta_output, share,
      fmt::format("{}/{}", m.jobs_completed, m.jobs_total), Hours(m.wait_p99_s),
      r.realtime.unmet_gpu_hours, Dollars(r.cost.total_usd));
}

// "bound (clairvoyant, fleetsim bound): 748.9, proven optimal".
std::string BoundLine(const BoundFigure& bound) {
  if (bound.proven_optimal) {
    return fmt::format("  bound (clairvoyant, fleetsim bound): {:.1f}, proven optimal\n",
                       bound.bound);
  }
  return fmt::format(
      "  bound (clairvoyant, fleetsim bound): {:.1f}, not proven optimal (gap {:.2f} % to its "
      "best solution): * shares are of this bound\n",
      bound.bound, 100.0 * bound.gap);
}

// "post: fifo 53.6 % -> allocator 87.0 % (+33.4 pp); priority-weighted output +105.1 %".
std::string PublishedLine(const PublishedFigures& f) {
  auto or_unknown = [](const std::string& text) { return text.empty() ? "?" : text; };
  return fmt::format(
      "  post (fifo -> its allocator): utilization {} -> {}; priority-weighted output {}\n",
      or_unknown(f.fifo_utilization), or_unknown(f.allocator_utilization),
      or_unknown(f.output_gain));
}

std::string ScenarioTable(const std::vector<const RunReport*>& runs,
                          const std::vector<RunReport>& reports, const PublishedSet* published,
                          const BoundFigures* bounds) {
  const ScenarioFacts& scenario = runs.front()->scenario;
  const BoundFigure* bound = BoundFor(*runs.front(), bounds);
  std::string out = fmt::format("{}\n", scenario.name);
  out += fmt::format("  {:<17} {:>7}  {:>6}  {:>9}  {:>8}{}  {:>9}  {:>10}  {:>10}  {:>10}\n",
                     "policy", "util", "Δ pp", "p-w output", "Δ %",
                     bound != nullptr ? fmt::format("  {:>8}", "of bound") : "", "completed",
                     "p99 wait", "unmet RT h", "cost");
  for (const RunReport* r : runs) {
    out += PolicyRow(*r, BaselineFor(*r, reports), bound);
  }
  if (bound != nullptr) {
    out += BoundLine(*bound);
  }
  if (published != nullptr) {
    if (const auto it = published->scenarios.find(scenario.name);
        it != published->scenarios.end()) {
      out += PublishedLine(it->second);
    }
  }
  return out;
}

}  // namespace

PublishedLoad LoadPublishedFigures(const std::string& path) {
  std::string text;
  if (!DiskFileSystem().ReadFile(path, text).ok()) {
    return {.figures = std::nullopt,
            .status = Status::IoError(fmt::format("{}: cannot open the file", path))};
  }
  nlohmann::json root;
  if (Status status = ParseJsonText(text, path, root); !status.ok()) {
    return {.figures = std::nullopt, .status = std::move(status)};
  }
  std::vector<std::string> problems;
  std::optional<PublishedSet> set = ParsePublished(root, problems);
  if (!problems.empty()) {
    std::string error;
    for (const std::string& problem : problems) {
      error += fmt::format("{}{}: {}", error.empty() ? "" : "\n", path, problem);
    }
    return {.figures = std::nullopt, .status = Status::InvalidInput(error)};
  }
  return {.figures = std::move(set), .status = Status::Ok()};
}

std::vector<BenchMetric> BenchMetrics(const RunReport& r, const BoundFigure* bound) {
  const MetricsSummary& m = r.metrics;
  const AccountingSummary& a = r.accounting;
  auto count = [](std::int64_t n) { return static_cast<double>(n); };
  return {
      {"utilization", a.utilization},
      {"priority_weighted_output", a.priority_weighted_output},
      {"goodput", a.goodput},
      {"allocated_share", m.allocated_share},
      {"jobs_total", count(m.jobs_total), true},
      {"jobs_completed", count(m.jobs_completed), true},
      {"jobs_rejected", count(m.jobs_rejected), true},
      {"wait_mean_s", m.wait_mean_s},
      {"wait_p50_s", m.wait_p50_s},
      {"wait_p90_s", m.wait_p90_s},
      {"wait_p99_s", m.wait_p99_s},
      {"jct_mean_s", m.jct_mean_s},
      {"jct_p50_s", m.jct_p50_s},
      {"jct_p90_s", m.jct_p90_s},
      {"jct_p99_s", m.jct_p99_s},
      {"bounded_slowdown_mean", m.bounded_slowdown_mean},
      {"makespan_s", m.makespan_s},
      {"deadline_misses", count(m.deadline_misses), true},
      {"realtime_demand_gpu_hours", r.realtime.demand_gpu_hours},
      {"realtime_unmet_gpu_hours", r.realtime.unmet_gpu_hours},
      {"idle_while_queued", a.idle_while_queued},
      {"tenant_fairness", r.tenant_fairness},
      {"lost_gpu_hours", a.total.lost},
      {"overhead_gpu_hours", a.total.overhead},
      {"preemptions", count(m.preemptions), true},
      {"jobs_interrupted", count(a.counts.jobs_interrupted), true},
      {"cost_usd", r.cost.total_usd},
      {"cost_per_useful_gpu_hour_usd", r.cost.per_useful_gpu_hour_usd},
      {"bound", bound != nullptr ? std::optional(bound->bound) : std::nullopt},
      {"bound_gap", bound != nullptr ? std::optional(bound->gap) : std::nullopt},
      {"share_of_bound", bound != nullptr && bound->bound > 0
                             ? std::optional(a.priority_weighted_output / bound->bound)
                             : std::nullopt},
  };
}

const BoundFigure* BoundFor(const RunReport& report, const BoundFigures* bounds) {
  if (bounds == nullptr) {
    return nullptr;
  }
  const auto it = bounds->scenarios.find(report.scenario.name);
  return it == bounds->scenarios.end() ? nullptr : &it->second;
}

const RunReport* BaselineFor(const RunReport& report, const std::vector<RunReport>& reports) {
  for (const RunReport& r : reports) {
    if (SameScenario(r, report) && r.policy.name == kBaselinePolicy) {
      return &r;
    }
  }
  return nullptr;
}

std::string BenchTables(const std::vector<RunReport>& reports, const PublishedSet* published,
                        const BoundFigures* bounds) {
  std::vector<std::vector<const RunReport*>> by_scenario;
  for (const RunReport& r : reports) {
    if (by_scenario.empty() || !SameScenario(*by_scenario.back().front(), r)) {
      by_scenario.emplace_back();
    }
    by_scenario.back().push_back(&r);
  }
  std::string out;
  for (const auto& runs : by_scenario) {
    out += (out.empty() ? "" : "\n") + ScenarioTable(runs, reports, published, bounds);
  }
  return out;
}

std::string BenchJson(const std::vector<RunReport>& reports, const BoundFigures* bounds) {
  ordered_json results = ordered_json::array();
  for (const RunReport& r : reports) {
    ordered_json metrics = ordered_json::object();
    for (const BenchMetric& metric : BenchMetrics(r, BoundFor(r, bounds))) {
      ordered_json& value = metrics[std::string(metric.name)];
      if (!metric.value) {
        value = nullptr;
      } else if (metric.count) {
        value = static_cast<std::int64_t>(*metric.value);
      } else {
        value = *metric.value;
      }
    }
    results.push_back({{"scenario", r.scenario.name},
                       {"policy", r.policy.name},
                       {"seed", r.seed},
                       {"metrics", std::move(metrics)}});
  }
  const ordered_json root = {{"format_version", kBenchFormatVersion},
                             {"fleetsim_version", kVersion},
                             {"results", std::move(results)}};
  return root.dump(1) + "\n";
}

}  // namespace fleetsim
