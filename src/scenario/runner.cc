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

// What a ScenarioRun keeps: the report's facts, taken when it starts, the observers and the
// simulation they watch (declared after them, so it goes first).
struct ScenarioRun::State {
  State(const Scenario& scenario, const PolicyRegistry& registry, const PolicyChoice& policy,
        const RunOptions& run_options)
      : wall_start(std::chrono::steady_clock::now()),
        built(BuildWorkloadWithNotes(scenario, run_options.seed)),
        until(scenario.until),
        tenants(scenario.tenants),
        options(run_options),
        log(run_options.logger),
        simulation(scenario.fleet, built.workload, MakePolicy(registry, policy), policy.name,
                   SimulationOptions{.reference_gpu = scenario.reference_gpu,
                                     .speed = {},
                                     .organization = scenario.tenants,
                                     .seed = run_options.seed,
                                     .check_invariants = run_options.check_invariants}) {
    report.scenario = FactsOf(scenario);
    report.policy = policy;
    report.seed = run_options.seed;
    report.jobs_listed = static_cast<std::int64_t>(scenario.listed_jobs->size());
    report.jobs_traced = scenario.trace ? scenario.trace->report.jobs : 0;
    report.jobs_generated = GeneratedJobCount(scenario);
    report.workload_fingerprint = WorkloadFingerprint(built.workload);
    report.workload_notes = std::move(built.notes);
    recorded_states = RecordedStates(built.workload);
    built = {};  // the simulation has its own copy of the jobs
    simulation.AddObserver(&metrics);
    simulation.AddObserver(&accounting);
    simulation.AddObserver(&job_log);
    simulation.AddObserver(&realtime);
    if (run_options.logger) {
      simulation.AddObserver(&log);
    }
    if (run_options.record_timeline) {
      simulation.AddObserver(&timeline);
    }
    if (run_options.record_series) {
      simulation.AddObserver(&series);
    }
  }

  // Each job's recorded state, or nothing when no job has one.
  static std::vector<std::string> RecordedStates(const Workload& workload) {
    std::vector<std::string> states;
    for (std::size_t i = 0; i < workload.jobs.size(); ++i) {
      const std::string& state = workload.jobs[i].truth.recorded_state;
      if (!state.empty()) {
        states.resize(workload.jobs.size());
        states[i] = state;
      }
    }
    return states;
  }

  static std::unique_ptr<Policy> MakePolicy(const PolicyRegistry& registry,
                                            const PolicyChoice& policy) {
    const PolicyInfo* info = registry.Find(policy.name);
    FLEETSIM_CHECK(info != nullptr, "a scenario run needs a registered policy");
    return info->make(policy.params);
  }

  std::chrono::steady_clock::time_point wall_start;
  BuiltWorkload built;
  SimTime until;
  Organization tenants;
  RunOptions options;
  RunReport report;
  std::vector<std::string> recorded_states;  // by job; empty when no job has one
  Status status;
  bool finished = false;
  RunMetrics metrics;
  CapacityAccounting accounting;
  JobLog job_log;
  RealtimeDemand realtime;
  LogObserver log;
  AllocationTimeline timeline;
  FleetSeries series;
  Simulation simulation;
};

ScenarioRun::ScenarioRun(const Scenario& scenario, const PolicyRegistry& registry,
                         const PolicyChoice& policy, const RunOptions& options)
    : state_(std::make_unique<State>(scenario, registry, policy, options)) {}

ScenarioRun::~ScenarioRun() = default;

const Simulation& ScenarioRun::simulation() const { return state_->simulation; }

Status ScenarioRun::RunUntil(SimTime limit) {
  State& s = *state_;
  FLEETSIM_CHECK(!s.finished, "a scenario run was stepped after Finish");
  if (s.status.ok()) {
    // Without a stop time the run ends with its work, wherever the steps fall.
    s.status = s.until == kTimeNever ? s.simulation.RunUntilOrIdle(limit)
                                     : s.simulation.RunUntil(std::min(limit, s.until));
  }
  return s.status;
}

bool ScenarioRun::over() const {
  const State& s = *state_;
  if (!s.status.ok() || s.finished) {
    return true;
  }
  return s.until == kTimeNever ? !s.simulation.jobs_left() : s.simulation.now() >= s.until;
}

RunOutcome ScenarioRun::Finish() {
  State& s = *state_;
  FLEETSIM_CHECK(!s.finished, "a scenario run was finished twice");
  s.finished = true;
  s.simulation.Finish();
  RunReport& report = s.report;
  report.metrics = s.metrics.summary();
  report.accounting = s.accounting.summary();
  report.cost = PriceAccounting(report.accounting, s.simulation.ledger().pools());
  report.realtime = s.realtime.summary();
  report.realtime_steps = s.realtime.rows();
  report.jobs = s.job_log.TakeRows();
  for (JobIndex job = 0; job < report.jobs.size(); ++job) {
    report.jobs[job].useful_gpu_hours = s.accounting.UsefulGpuHours(job);
    report.jobs[job].useful_work_gpu_hours = s.accounting.UsefulWorkGpuHours(job);
    if (job < s.recorded_states.size()) {
      report.jobs[job].recorded_state = std::move(s.recorded_states[job]);
    }
  }
  report.tenant_fairness = TenantFairness(report.jobs, s.tenants);
  if (s.options.record_timeline) {
    report.timeline = s.timeline.TakeData();
  }
  if (s.options.record_series) {
    report.series = s.series.TakeData();
  }
  if (s.options.measure_wall_time) {
    report.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - s.wall_start).count();
  }
  return {.status = s.status, .report = std::move(report)};
}

RunOutcome RunScenario(const Scenario& scenario, const PolicyRegistry& registry,
                       const PolicyChoice& policy, const RunOptions& options) {
  ScenarioRun run(scenario, registry, policy, options);
  (void)run.RunUntil(kTimeNever);
  return run.Finish();
}

}  // namespace fleetsim
