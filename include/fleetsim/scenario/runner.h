// Running a scenario: build the workload for a seed, wire a Simulation to its policy and the
// standard observers (metrics, capacity accounting, job log, real-time demand, diagnostics log),
// run it, and collect a RunReport (with the run's cost, priced from its accounting). Stateless
// functions; each call owns its own simulation, so calls may run on separate threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/metrics/allocation_timeline.h"
#include "fleetsim/metrics/capacity_accounting.h"
#include "fleetsim/metrics/cost.h"
#include "fleetsim/metrics/job_log.h"
#include "fleetsim/metrics/realtime_demand.h"
#include "fleetsim/metrics/run_metrics.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/scenario.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace fleetsim {

struct RunReport {
  const Scenario* scenario = nullptr;  // the scenario this run came from
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
  std::optional<double> wall_seconds;  // only when timing was asked for
  // Who held which GPUs when, and busy GPU-time: only when RunOptions::record_timeline.
  std::optional<AllocationTimelineData> timeline;
};

struct RunOutcome {
  bool ok = true;
  std::string error;  // an illegal policy decision, when !ok
  RunReport report;
};

// The policy a run uses: the scenario's own choice if `name` is empty or names that same policy,
// otherwise `name` with its default parameters. Precondition: `name` is empty or registered.
PolicyChoice ChoosePolicy(const Scenario& scenario, const PolicyRegistry& registry,
                          const std::string& name);

struct RunOptions {
  std::uint64_t seed = kDefaultSeed;
  bool measure_wall_time = false;          // adds wall_seconds to the report (--timing)
  std::shared_ptr<spdlog::logger> logger;  // engine events are logged here when set
  bool record_timeline = false;            // adds the AllocationTimeline to the report
  bool check_invariants = false;           // the engine's invariants after every event
};

RunOutcome RunScenario(const Scenario& scenario, const PolicyRegistry& registry,
                       const PolicyChoice& policy, const RunOptions& options);

}  // namespace fleetsim
