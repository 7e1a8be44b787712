// Plan specs: a capacity planner's question in one JSON file. The runs are described as in a
// sweep spec — a base scenario (the workload and the fleet to start from) and axes, which here
// are the decision variables (node counts by JSON Pointer, variants that swap GPU models or
// tiers, policy parameters, ...) plus an optional seed axis (the seeds each candidate fleet is
// judged on) — and the plan adds the targets every chosen fleet must meet and the objective to
// minimize. docs/planning.md documents the format; scenarios/schema/plan.schema.json is the
// matching JSON Schema. Value types.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/diagnostics.h"
#include "fleetsim/core/file_system.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/sweep/sweep_metrics.h"
#include "fleetsim/sweep/sweep_spec.h"

namespace fleetsim {

inline constexpr std::int64_t kPlanFormatVersion = 1;

// How a target is judged over a candidate's seeds.
enum class SeedRule {
  kMean,     // the mean over the seeds meets the bound
  kWorst,    // every seed meets it
  kAtLeast,  // at least K seeds meet it
};

struct PlanTarget {
  std::string metric{};  // a sweep metric (docs/sweeps.md#metrics) or realtime_unmet_share
  std::optional<JobGroup> group{};  // the metric over these jobs only (a wait metric)
  bool at_most = true;              // the metric must be <= bound; else >= bound
  double bound = 0;
  SeedRule rule = SeedRule::kMean;
  std::size_t at_least = 0;  // K, for kAtLeast
};

// What the plan optimizes. The first three are minimized and are properties of the fleet, known
// before any run; output per dollar is maximized and is measured by the runs.
enum class PlanObjective {
  kCostPerDay,       // USD per day: GPUs x price per GPU-hour x 24, summed over pools
  kGpus,             // GPUs in the fleet
  kPowerPerDay,      // kWh per day at the GPUs' TDP: GPUs x TDP x 24
  kOutputPerDollar,  // priority-weighted output per USD billed, pooled over the seeds
};

// The multi-year view (docs/planning.md#the-multi-year-view): the answer's fleet over a horizon,
// reserved now at fixed prices against rented as planned and re-planned at prices that change
// yearly. GPU models are named as in the catalog ("H100-SXM").
struct HorizonSpec {
  std::int64_t months = 0;
  std::int64_t replan_every_months = 12;
  std::map<std::string, double> yearly_price_change{};  // by model, or "default"; -0.2: 20 % less
  // By model: the reserved price, USD per GPU-hour, where the catalog has none or another is
  // quoted (the catalog's otherwise).
  std::map<std::string, double> reserved_price_per_gpu_hour{};
};

struct PlanSpec {
  SweepSpec runs{};  // base, decision axes, seed axis, zip, exclude (no baseline, no report)
  std::vector<PlanTarget> targets{};
  PlanObjective objective = PlanObjective::kCostPerDay;
  std::size_t runners_up = 2;  // feasible fleets shown after the answer
  std::optional<HorizonSpec> horizon{};
};

struct PlanLoad {
  std::optional<PlanSpec> spec{};  // set when there are no errors
  Diagnostics diagnostics{};
  Status file_status{};  // unreadable file or invalid JSON: "path:line:col: ..."
};

// Reads and checks a plan spec on `files`, every problem at once, each at its JSON pointer.
PlanLoad LoadPlanSpec(const FileSystem& files, const std::string& path,
                      const PolicyRegistry& registry, bool strict);

// The metrics a target may name: the sweep metrics and realtime_unmet_share.
const std::vector<std::string>& PlanMetricNames();

// A target's metric as records and reports name it: the metric, or GroupMetricName's name of it
// over the target's group.
std::string TargetMetricName(const PlanTarget& target);

std::string PlanObjectiveName(PlanObjective objective);  // "cost_per_day", "gpus", ...
std::string PlanObjectiveUnit(PlanObjective objective);  // "USD/day", "GPUs", "kWh/day", ...
// Whether the objective is measured by the runs (and maximized) rather than a property of the
// fleet (and minimized).
bool IsMeasuredObjective(PlanObjective objective);
// The fleet property candidates are ordered by: the objective itself, or for a measured one the
// cost per day.
PlanObjective OrderObjective(PlanObjective objective);

}  // namespace fleetsim
