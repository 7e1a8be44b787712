// Whole-run timing with interruptions: the spot-heavy example (a week, 700 jobs, 128 GPUs with
// spot reclaims, reclaim waves and hardware failures) under each built-in policy, and the same
// scenario with every interruption process switched off, so the cost of the processes and of the
// accounting shows as the difference. Reports time per run and spot reclaims per run.
#include <benchmark/benchmark.h>

#include <string>

#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/runner.h"
#include "fleetsim/scenario/scenario.h"

namespace fleetsim {
namespace {

const std::string kScenario =
    std::string(FLEETSIM_SOURCE_DIR) + "/scenarios/examples/spot-heavy.json";

void BM_SpotHeavyWeek(benchmark::State& state, const std::string& policy_name, bool calm) {
  const PolicyRegistry registry = BuiltinPolicies();
  LoadResult loaded = LoadScenarioFile(kScenario, registry, {.strict = true});
  if (!loaded.scenario) {
    state.SkipWithError((kScenario + ": " + loaded.file_status.message()).c_str());
    return;
  }
  Scenario& scenario = *loaded.scenario;
  if (calm) {
    for (PoolSpec& pool : scenario.fleet.pools) {
      pool.spot = {};
      pool.failures = {};
    }
  }
  const PolicyChoice policy = ChoosePolicy(scenario, registry, policy_name);
  for (auto _ : state) {
    const RunOutcome outcome =
        RunScenario(scenario, registry, policy,
                    {.seed = scenario.seed, .measure_wall_time = false, .logger = nullptr});
    benchmark::DoNotOptimize(outcome.report.accounting.utilization);
    state.counters["reclaims"] =
        static_cast<double>(outcome.report.accounting.counts.spot_reclaims);
  }
}

#define FLEETSIM_SPOT_BENCH(name, policy)                                                 \
  BENCHMARK_CAPTURE(BM_SpotHeavyWeek, name, std::string(policy), false)                   \
      ->Unit(benchmark::kMillisecond);                                                    \
  BENCHMARK_CAPTURE(BM_SpotHeavyWeek, name##_no_interruptions, std::string(policy), true) \
      ->Unit(benchmark::kMillisecond)

FLEETSIM_SPOT_BENCH(fifo, "fifo");
FLEETSIM_SPOT_BENCH(backfill, "backfill");
FLEETSIM_SPOT_BENCH(fair_share, "fair-share");
FLEETSIM_SPOT_BENCH(constraint_aware, "constraint-aware");

}  // namespace
}  // namespace fleetsim
