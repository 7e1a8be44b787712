// The metrics a sweep records for each run: the benchmark's flat metrics (utilization,
// priority-weighted output, waits, JCTs, real-time demand, lost work, cost...) and the cost per
// price tier, named with their units (docs/sweeps.md#metrics); and the waits over a group of a
// run's jobs (one tenant's, one kind's), which a plan's targets may ask for. Pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/results/run_report.h"

namespace fleetsim {

// One metric of one run. A run's metrics are listed in SweepMetricNames() order, so a metric's
// name is its position's (kept once, not per run: a sweep holds thousands of runs).
struct SweepMetric {
  std::optional<double> value{};  // none when the run has none (an unpriced fleet's cost)
  // As result files write it (MetricText), formatted once; empty until then (and for none). A
  // cache of `value`: set the value before the text is formatted, never after.
  std::string text{};
};

// A metric value as result files write it: a count as an integer, another value in its shortest
// exact form, "" for none.
std::string MetricText(bool count, std::optional<double> value);

// Appends the metric as result files and the journal write it: its text if formatted, else
// MetricText; `none` when that is empty (no value, or one that is not finite): "" in CSV, "null"
// in JSON.
void AppendMetricText(std::string& out, bool count, const SweepMetric& metric,
                      std::string_view none);

// The metrics of one run, in SweepMetricNames() order (the order results.csv lists them), their
// texts not formatted yet: a sweep formats them in batches, between runs of a few hundred
// (FormatMetricTexts, JournalWriter), since formatting 32 numbers between two short runs costs the
// next run its warm caches (docs/performance.md, "Sweeps").
std::vector<SweepMetric> SweepMetrics(const RunReport& report);

// Their names.
const std::vector<std::string>& SweepMetricNames();

// Whether the metric at this position of SweepMetricNames() is a count (written as an integer).
bool IsCountMetric(std::size_t metric);

// The metrics report.html plots when the spec names none.
const std::vector<std::string>& DefaultReportMetrics();

// Some of a run's jobs: one tenant's, one kind's, or one tenant's jobs of one kind.
struct JobGroup {
  std::string tenant{};           // empty: every tenant
  std::optional<JobKind> kind{};  // none: every kind
  bool operator==(const JobGroup&) const = default;
  // Whether a job of this tenant and kind is in the group.
  bool Holds(const std::string& job_tenant, JobKind job_kind) const {
    return (tenant.empty() || job_tenant == tenant) && (!kind || job_kind == *kind);
  }
};

// The metrics that can be taken over a group: the waits (wait_mean_s, wait_p50_s, ...).
const std::vector<std::string>& GroupMetricNames();

// How records and reports name a metric over a group: `wait_p99_s{tenant="research"}`,
// `wait_p90_s{kind="training"}`, `wait_p50_s{tenant="a",kind="training"}`.
std::string GroupMetricName(const std::string& metric, const JobGroup& group);

// A group metric of a run, defined as the fleet-wide metric is but over the group's jobs that
// started; none when none of them started.
std::optional<double> GroupMetric(const RunReport& report, const std::string& metric,
                                  const JobGroup& group);

}  // namespace fleetsim
