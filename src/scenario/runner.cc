// Running one scenario under one policy and collecting its report.
#include "fleetsim/scenario/runner.h"

#include <chrono>

#include "fleetsim/core/check.h"
#include "fleetsim/metrics/tenant_fairness.h"
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

namespace {

std::int64_t GeneratedJobCount(const Scenario& scenario) {
  std::int64_t jobs = scenario.generator ? scenario.generator->jobs : 0;
  for (const GeneratorSpec& block : scenario.generators) {
    jobs += block.jobs;
  }
  return jobs;
}

}  // namespace

ScenarioFacts FactsOf(const Scenario& scenario) {
  ScenarioFacts facts{
      .name = scenario.name,
      .description = scenario.description,
      .fleet_gpus = scenario.fleet.gpus,
      .until = scenario.until,
      .trace = std::nullopt,
      .generator_blocks = (scenario.generator ? 1U : 0U) + scenario.generators.size(),
      .generator = scenario.generator};
  if (scenario.trace) {
    const TraceSource& trace = *scenario.trace;
    facts.trace = TraceFacts{.format = trace.format,
                             .path = trace.path,
                             .options = trace.options,
                             .on_bad_row = trace.on_bad_row,
                             .report = trace.report};
  }
  return facts;
}

RunOutcome RunScenario(const Scenario& scenario, const PolicyRegistry& registry,
                       const PolicyChoice& policy, const RunOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  const PolicyInfo* info = registry.Find(policy.name);
  FLEETSIM_CHECK(info != nullptr, "RunScenario needs a registered policy");
  BuiltWorkload built = BuildWorkloadWithNotes(scenario, options.seed);
  const Workload& workload = built.workload;

  Simulation simulation(scenario.fleet, workload, info->make(policy.params), policy.name,
                        SimulationOptions{.reference_gpu = scenario.reference_gpu,
                                          .speed = {},
                                          .organization = scenario.tenants,
                                          .seed = options.seed,
                                          .check_invariants = options.check_invariants});
  RunMetrics metrics;
  CapacityAccounting accounting;
  JobLog job_log;
  RealtimeDemand realtime;
  LogObserver log(options.logger);
  AllocationTimeline timeline;
  simulation.AddObserver(&metrics);
  simulation.AddObserver(&accounting);
  simulation.AddObserver(&job_log);
  simulation.AddObserver(&realtime);
  if (options.logger) {
    simulation.AddObserver(&log);
  }
  if (options.record_timeline) {
    simulation.AddObserver(&timeline);
  }
  RunOutcome outcome;
  outcome.status = simulation.RunUntil(scenario.until);
  simulation.Finish();

  RunReport& report = outcome.report;
  report.scenario = FactsOf(scenario);
  report.policy = policy;
  report.seed = options.seed;
  report.jobs_listed = static_cast<std::int64_t>(scenario.listed_jobs.size());
  report.jobs_traced = scenario.trace ? scenario.trace->report.jobs : 0;
  report.jobs_generated = GeneratedJobCount(scenario);
  report.workload_notes = std::move(built.notes);
  report.workload_fingerprint = WorkloadFingerprint(workload);
  report.metrics = metrics.summary();
  report.accounting = accounting.summary();
  report.cost = PriceAccounting(report.accounting, simulation.ledger().pools());
  report.realtime = realtime.summary();
  report.realtime_steps = realtime.rows();
  report.jobs = job_log.TakeRows();
  for (JobIndex job = 0; job < report.jobs.size(); ++job) {
    report.jobs[job].useful_gpu_hours = accounting.UsefulGpuHours(job);
    report.jobs[job].useful_work_gpu_hours = accounting.UsefulWorkGpuHours(job);
  }
  report.tenant_fairness = TenantFairness(report.jobs, scenario.tenants);
  if (options.record_timeline) {
    report.timeline = timeline.TakeData();
  }
  if (options.measure_wall_time) {
    report.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  }
  return outcome;
}

}  // namespace fleetsim
