// Whole-run timing: the generated 100k-job scenario (bench/macro/generated-100k.json), loaded
// once, then per iteration: jobs generated, simulated under one built-in policy, and jobs.csv
// rendered in memory. Reports time per run and simulated jobs per second.
#include <benchmark/benchmark.h>

#include <string>

#include "fleetsim/policy/registry.h"
#include "fleetsim/report/outputs.h"
#include "fleetsim/scenario/runner.h"
#include "fleetsim/scenario/scenario.h"

namespace fleetsim {
namespace {

const std::string kScenario = std::string(FLEETSIM_SOURCE_DIR) + "/bench/macro/generated-100k.json";

void BM_WholeRun100k(benchmark::State& state, const std::string& policy_name) {
  const PolicyRegistry registry = BuiltinPolicies();
  const LoadResult loaded = LoadScenarioFile(kScenario, registry, {.strict = true});
  if (!loaded.scenario) {
    state.SkipWithError(
        (kScenario + ": " + loaded.file_error + loaded.diagnostics.Format("")).c_str());
    return;
  }
  const Scenario& scenario = *loaded.scenario;
  const PolicyChoice policy = ChoosePolicy(scenario, registry, policy_name);
  std::int64_t jobs = 0;
  for (auto _ : state) {
    const RunOutcome outcome =
        RunScenario(scenario, registry, policy,
                    {.seed = scenario.seed, .measure_wall_time = false, .logger = nullptr});
    const std::string csv = JobsCsv(outcome.report);
    benchmark::DoNotOptimize(csv.data());
    jobs += outcome.report.metrics.jobs_total;
    state.counters["utilization"] = outcome.report.accounting.utilization;
  }
  state.counters["jobs_per_s"] =
      benchmark::Counter(static_cast<double>(jobs), benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_WholeRun100k, fifo, std::string("fifo"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_WholeRun100k, first_fit, std::string("first-fit"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

}  // namespace
}  // namespace fleetsim
