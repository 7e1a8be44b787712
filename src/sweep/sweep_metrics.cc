// The metrics a sweep records per run: the benchmark's, less the bound columns, plus cost by tier.
#include "fleetsim/sweep/sweep_metrics.h"

#include <algorithm>

#include "fleetsim/report/bench_report.h"

namespace fleetsim {

namespace {

// The bench metrics that describe a scenario's bound, not a run: a sweep has no bounds file.
bool IsBoundMetric(const std::string& name) {
  return name == "bound" || name == "bound_gap" || name == "share_of_bound";
}

}  // namespace

std::vector<SweepMetric> SweepMetrics(const RunReport& report) {
  std::vector<SweepMetric> metrics;
  for (const BenchMetric& m : BenchMetrics(report)) {
    if (!IsBoundMetric(m.name)) {
      metrics.push_back({.name = m.name, .value = m.value, .count = m.count});
    }
  }
  const CostSummary& cost = report.cost;
  metrics.push_back({.name = "cost_on_demand_usd", .value = cost.on_demand_usd});
  metrics.push_back({.name = "cost_reserved_usd", .value = cost.reserved_usd});
  metrics.push_back({.name = "cost_spot_usd", .value = cost.spot_usd});
  metrics.push_back({.name = "lost_work_usd", .value = cost.lost_work_usd});
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
