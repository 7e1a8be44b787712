// The metrics a sweep records per run: the benchmark's, less the bound columns, plus cost by tier;
// and the waits over a group of jobs.
#include "fleetsim/sweep/sweep_metrics.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string_view>

#include "fleetsim/metrics/run_metrics.h"
#include "fleetsim/report/bench_report.h"

namespace fleetsim {

namespace {

// The bench metrics that describe a scenario's bound, not a run: a sweep has no bounds file.
bool IsBoundMetric(std::string_view name) {
  return name == "bound" || name == "bound_gap" || name == "share_of_bound";
}

}  // namespace

std::string MetricText(bool count, std::optional<double> value) {
  if (!value || !std::isfinite(*value)) {
    return "";
  }
  if (count) {
    return fmt::to_string(static_cast<std::int64_t>(std::llround(*value)));
  }
  return fmt::to_string(*value);  // as fmt::format("{}") writes it, without parsing a format
}

void AppendMetricText(std::string& out, bool count, const SweepMetric& metric,
                      std::string_view none) {
  const std::size_t before = out.size();
  if (metric.text.empty()) {
    out += MetricText(count, metric.value);
  } else {
    out += metric.text;
  }
  if (out.size() == before) {
    out += none;
  }
}

namespace {

// The metrics' names and kinds, in order: the bench metrics (bounds aside), then cost by tier.
struct MetricColumns {
  std::vector<std::string> names;
  std::vector<bool> counts;
};

const MetricColumns& Columns() {
  static const MetricColumns columns = [] {
    MetricColumns all;
    for (const BenchMetric& m : BenchMetrics(RunReport{})) {
      if (!IsBoundMetric(m.name)) {
        all.names.emplace_back(m.name);
        all.counts.push_back(m.count);
      }
    }
    for (const char* name :
         {"cost_on_demand_usd", "cost_reserved_usd", "cost_spot_usd", "lost_work_usd"}) {
      all.names.emplace_back(name);
      all.counts.push_back(false);
    }
    return all;
  }();
  return columns;
}

}  // namespace

std::vector<SweepMetric> SweepMetrics(const RunReport& report) {
  std::vector<SweepMetric> metrics;
  metrics.reserve(Columns().names.size());
  const auto add = [&metrics](std::optional<double> value) { metrics.push_back({.value = value}); };
  for (const BenchMetric& m : BenchMetrics(report)) {
    if (!IsBoundMetric(m.name)) {
      add(m.value);
    }
  }
  const CostSummary& cost = report.cost;
  add(cost.on_demand_usd);
  add(cost.reserved_usd);
  add(cost.spot_usd);
  add(cost.lost_work_usd);
  return metrics;
}

const std::vector<std::string>& SweepMetricNames() { return Columns().names; }

bool IsCountMetric(std::size_t metric) {
  return metric < Columns().counts.size() && Columns().counts[metric];
}

const std::vector<std::string>& DefaultReportMetrics() {
  static const std::vector<std::string> names = {"utilization", "priority_weighted_output",
                                                 "wait_p99_s", "cost_usd"};
  return names;
}

const std::vector<std::string>& GroupMetricNames() {
  static const std::vector<std::string> names = {"wait_mean_s", "wait_p50_s", "wait_p90_s",
                                                 "wait_p99_s"};
  return names;
}

std::string GroupMetricName(const std::string& metric, const JobGroup& group) {
  std::vector<std::string> labels;
  if (!group.tenant.empty()) {
    labels.push_back(fmt::format("tenant={}", nlohmann::json(group.tenant).dump()));
  }
  if (group.kind) {
    labels.push_back(fmt::format("kind=\"{}\"", JobKindName(*group.kind)));
  }
  return fmt::format("{}{{{}}}", metric, fmt::join(labels, ","));
}

std::optional<double> GroupMetric(const RunReport& report, const std::string& metric,
                                  const JobGroup& group) {
  std::vector<SimDuration> waits;  // as RunMetrics keeps them: first start less submit
  for (const JobRecordRow& job : report.jobs) {
    if (job.started && group.Holds(job.tenant, job.kind)) {
      waits.push_back(job.start - job.submit);
    }
  }
  if (waits.empty()) {
    return std::nullopt;
  }
  const DurationSummary summary = SummarizeDurations(waits);
  const std::vector<std::pair<std::string, double>> values = {{"wait_mean_s", summary.mean_s},
                                                              {"wait_p50_s", summary.p50_s},
                                                              {"wait_p90_s", summary.p90_s},
                                                              {"wait_p99_s", summary.p99_s}};
  for (const auto& [name, value] : values) {
    if (name == metric) {
      return value;
    }
  }
  return std::nullopt;
}

}  // namespace fleetsim
