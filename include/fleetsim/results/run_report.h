// RunReport: what one run of a scenario under a policy and a seed gave (the summaries of its
// metrics, capacity accounting, cost and real-time demand, its job rows, optionally its
// allocation timeline) and what was run, by value: the scenario's name and description and the
// sources of its workload (ScenarioFacts). Renderers (report), sweeps and plans read reports and
// need nothing of the scenario that produced them; scenario/runner.h produces them. Value types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/time.h"
#include "fleetsim/metrics/allocation_timeline.h"
#include "fleetsim/metrics/fleet_series.h"
#include "fleetsim/metrics/capacity_accounting.h"
#include "fleetsim/metrics/cost.h"
#include "fleetsim/metrics/job_log.h"
#include "fleetsim/metrics/realtime_demand.h"
#include "fleetsim/metrics/run_metrics.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/import.h"
#include "fleetsim/workload/generator.h"

namespace fleetsim {

// A trace the scenario replayed: what was asked and what reading it gave.
struct TraceFacts {
  std::string format;  // a TraceFormats() name
  std::string path;    // as written in the scenario
  TraceOptionValues options;
  BadRowPolicy on_bad_row = BadRowPolicy::kFail;
  TraceReport report;  // counts, skipped rows by reason, notes
};

// What a report says of the scenario it came from (summary.json's "scenario" and "config").
struct ScenarioFacts {
  std::string name;
  std::string description;
  std::int64_t fleet_gpus = 0;
  SimTime until = kTimeNever;  // the stop time; kTimeNever: until idle
  std::optional<TraceFacts> trace;
  std::size_t generator_blocks = 0;
  std::optional<GeneratorSpec> generator;  // generator block 0
};

struct RunReport {
  ScenarioFacts scenario;  // the scenario this run came from
  PolicyChoice policy;
  std::uint64_t seed = 0;
  std::int64_t jobs_listed = 0;
  std::int64_t jobs_traced = 0;
  std::int64_t jobs_generated = 0;          // over every generator block
  std::vector<std::string> workload_notes;  // what the transforms did
  std::string workload_fingerprint;
  MetricsSummary metrics;
  AccountingSummary accounting;  // where the fleet's GPU-hours went
  CostSummary cost;              // what they cost
  RealtimeSummary realtime;      // real-time demand, served and unmet
  std::vector<RealtimeStepRow> realtime_steps;
  std::vector<JobRecordRow> jobs;
  std::optional<double> tenant_fairness;  // Jain's index over tenants (metrics/tenant_fairness.h)
  std::optional<double> wall_seconds;     // only when timing was asked for
  // Who held which GPUs when, and busy GPU-time: only when the run was asked to record it.
  std::optional<AllocationTimelineData> timeline;
  std::optional<FleetSeriesData> series;  // only when asked for (RunOptions::record_series)
};

// Whether two reports are runs of one scenario: the same name (the commands that run several
// scenarios refuse two of one name, whose results would mix).
bool SameScenario(const RunReport& a, const RunReport& b);

}  // namespace fleetsim
