// Running a scenario: build the workload for a seed, wire a Simulation to its policy and the
// standard observers (metrics, capacity accounting, job log, real-time demand, diagnostics log),
// run it, and collect a RunReport (results/run_report.h; with the run's cost, priced from its
// accounting). Stateless functions; each call owns its own simulation, so calls may run on
// separate threads.
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
  bool check_invariants = false;           // the engine's invariants after every event
};

RunOutcome RunScenario(const Scenario& scenario, const PolicyRegistry& registry,
                       const PolicyChoice& policy, const RunOptions& options);

}  // namespace fleetsim
