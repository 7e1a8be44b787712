// Running a scenario: build the workload for a seed, wire a Simulation to its policy and the
// standard observers (metrics, capacity accounting, job log, real-time demand, diagnostics log),
// run it, and collect a RunReport (results/run_report.h; with the run's cost, priced from its
// accounting). RunScenario does it in one call; ScenarioRun does it in steps, with the simulation
// to look at between them. Each run owns its own simulation, so runs may go on in separate
// threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/status.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/results/run_report.h"
#include "fleetsim/scenario/scenario.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace fleetsim {

// What a report says of `scenario` (RunScenario fills it in).
ScenarioFacts FactsOf(const Scenario& scenario);

struct RunOutcome {
  Status status;  // an illegal policy decision, when not OK
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
  bool record_series = false;              // adds the FleetSeries (timeseries.csv) to the report
  bool check_invariants = false;           // the engine's invariants after every event
};

// ScenarioRun to the scenario's stop time, then Finish.
RunOutcome RunScenario(const Scenario& scenario, const PolicyRegistry& registry,
                       const PolicyChoice& policy, const RunOptions& options);

class Simulation;

// One run of a scenario under a policy and a seed, in steps: RunUntil as often as wanted, the
// simulation (its clock, queue, running jobs and ledger) to read between the steps, and Finish
// for the report. What it needs of the scenario is copied: the scenario need not outlive it.
// Not thread-safe; not copyable.
class ScenarioRun {
 public:
  // Builds the workload for options.seed and the policy (`policy.name` must be registered).
  ScenarioRun(const Scenario& scenario, const PolicyRegistry& registry, const PolicyChoice& policy,
              const RunOptions& options);
  ~ScenarioRun();
  ScenarioRun(const ScenarioRun&) = delete;
  ScenarioRun& operator=(const ScenarioRun&) = delete;

  // Processes every event up to min(limit, the scenario's stop time) (Simulation::RunUntil).
  // After a failure (an illegal policy decision) the run moves no more and every call returns
  // that failure again.
  Status RunUntil(SimTime limit);
  // Whether the run has reached the scenario's stop time, or the end of its work when it has
  // none (no event is left), or failed: RunUntil can change nothing more.
  bool over() const;
  const Simulation& simulation() const;
  // Ends the run at the current time (the metrics cover [0, now]) and returns its report, with
  // the status of the run so far. Call once; the run can do nothing after it.
  RunOutcome Finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace fleetsim
