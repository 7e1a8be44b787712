// Running one scenario under one policy and collecting its report.
#include "fleetsim/scenario/runner.h"

#include <chrono>

#include "fleetsim/core/check.h"
#include "fleetsim/sim/log_observer.h"
#include "fleetsim/sim/simulation.h"

namespace fleetsim {

PolicyChoice ChoosePolicy(const Scenario& scenario, const PolicyRegistry& registry,
                          const std::string& name) {
  if (name.empty() || name == scenario.policy.name) {
    return scenario.policy;
  }
  const PolicyInfo* info = registry.Find(name);
  FLEETSIM_CHECK(info != nullptr, "ChoosePolicy needs a registered policy name");
  return {name, DefaultParams(*info)};
}

RunOutcome RunScenario(const Scenario& scenario, const PolicyRegistry& registry,
                       const PolicyChoice& policy, const RunOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  const PolicyInfo* info = registry.Find(policy.name);
  FLEETSIM_CHECK(info != nullptr, "RunScenario needs a registered policy");
  const Workload workload = BuildWorkload(scenario, options.seed);

  Simulation simulation(scenario.fleet, workload, info->make(policy.params), policy.name);
  RunMetrics metrics;
  JobLog job_log;
  LogObserver log(options.logger);
  simulation.AddObserver(&metrics);
  simulation.AddObserver(&job_log);
  if (options.logger) {
    simulation.AddObserver(&log);
  }
  const RunStatus status = simulation.RunUntil(scenario.until);
  simulation.Finish();

  RunOutcome outcome;
  outcome.ok = status.ok;
  outcome.error = status.error;
  RunReport& report = outcome.report;
  report.scenario = &scenario;
  report.policy = policy;
  report.seed = options.seed;
  report.jobs_listed = static_cast<std::int64_t>(scenario.listed_jobs.size());
  report.jobs_generated = scenario.generator ? scenario.generator->jobs : 0;
  report.workload_fingerprint = WorkloadFingerprint(workload);
  report.metrics = metrics.summary();
  report.jobs = job_log.rows();
  if (options.measure_wall_time) {
    report.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  }
  return outcome;
}

}  // namespace fleetsim
