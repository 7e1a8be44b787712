// The metrics a sweep records for each run: the benchmark's flat metrics (utilization,
// priority-weighted output, waits, JCTs, real-time demand, lost work, cost...) and the cost per
// price tier, named with their units (docs/sweeps.md#metrics). Pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fleetsim/scenario/runner.h"

namespace fleetsim {

struct SweepMetric {
  std::string name{};
  std::optional<double> value{};  // none when the run has none (an unpriced fleet's cost)
  bool count = false;           // written as an integer
  std::string text{};           // as result files write it (MetricText), formatted once
};

// A metric value as result files write it: a count as an integer, another value in its shortest
// exact form, "" for none.
std::string MetricText(bool count, std::optional<double> value);

// The metrics of one run, in the order results.csv lists them.
std::vector<SweepMetric> SweepMetrics(const RunReport& report);

// Their names, in the same order.
const std::vector<std::string>& SweepMetricNames();

// Whether the metric is a count (written as an integer).
bool IsCountMetric(const std::string& name);

// The metrics report.html plots when the spec names none.
const std::vector<std::string>& DefaultReportMetrics();

}  // namespace fleetsim
