// The metrics a sweep records per run: the benchmark's, less the bound columns, plus cost by tier.
#include "fleetsim/sweep/sweep_metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "fleetsim/report/bench_report.h"

namespace fleetsim {

namespace {

// The bench metrics that describe a scenario's bound, not a run: a sweep has no bounds file.
bool IsBoundMetric(const std::string& name) {
  return name == "bound" || name == "bound_gap" || name == "share_of_bound";
}

}  // namespace

std::string MetricText(bool count, std::optional<double> value) {
  if (!value || !std::isfinite(*value)) {
    return "";
  }
  if (count) {
    return fmt::format("{}", static_cast<std::int64_t>(std::llround(*value)));
  }
  return fmt::format("{}", *value);
}

std::vector<SweepMetric> SweepMetrics(const RunReport& report) {
  std::vector<SweepMetric> metrics;
  const auto add = [&metrics](std::string name, std::optional<double> value, bool count) {
    std::string text = MetricText(count, value);
    metrics.push_back(
        {.name = std::move(name), .value = value, .count = count, .text = std::move(text)});
  };
  for (const BenchMetric& m : BenchMetrics(report)) {
    if (!IsBoundMetric(m.name)) {
      add(m.name, m.value, m.count);
    }
  }
  const CostSummary& cost = report.cost;
  add("cost_on_demand_usd", cost.on_demand_usd, false);
  add("cost_reserved_usd", cost.reserved_usd, false);
  add("cost_spot_usd", cost.spot_usd, false);
  add("lost_work_usd", cost.lost_work_usd, false);
  return metrics;
}

const std::vector<std::string>& SweepMetricNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const SweepMetric& m : SweepMetrics(RunReport{})) {
      all.push_back(m.name);
    }
    return all;
  }();
  return names;
}

bool IsCountMetric(const std::string& name) {
  static const std::vector<std::string> counts = [] {
    std::vector<std::string> all;
    for (const SweepMetric& m : SweepMetrics(RunReport{})) {
      if (m.count) {
        all.push_back(m.name);
      }
    }
    return all;
  }();
  return std::find(counts.begin(), counts.end(), name) != counts.end();
}

const std::vector<std::string>& DefaultReportMetrics() {
  static const std::vector<std::string> names = {"utilization", "priority_weighted_output",
                                                 "wait_p99_s", "cost_usd"};
  return names;
}

}  // namespace fleetsim
