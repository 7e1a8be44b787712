// Whole-run timing: a scenario loaded once, then per iteration: jobs generated (or the trace's
// jobs taken), simulated under one built-in policy, and jobs.csv rendered in memory. Reports time
// per run and simulated jobs per second.
//  - BM_WholeRun100k: bench/macro/generated-100k.json (1,024 GPUs, ~85 % offered load);
//  - BM_ItpSaturated: bench/macro/itp-saturated.json, the ITP cluster-4 trace on 256 GPUs kept
//    96-98 % busy (constraint-aware's target: within 3x of backfill); fails when
//    ../shared/traces is absent;
//  - BM_Scale100k: bench/macro/hgx-20k-100k.json, 100,000 jobs on 20,000 GPUs at ~95 % offered
//    load, under fifo and constraint-aware (the 1M version, hgx-20k-1m.json, is timed with
//    `fleetsim run --timing`: see docs/performance.md);
//  - BM_IdenticalSubmit100k: bench/macro/identical-submit-100k.json, 100,000 jobs submitted at
//    time 0 on 64 GPUs, under every policy (issue 19's degenerate input; the 1M version is
//    timed with `fleetsim run`).
#include <benchmark/benchmark.h>

#include <string>

#include "fleetsim/policy/registry.h"
#include "fleetsim/report/outputs.h"
#include "fleetsim/scenario/runner.h"
#include "fleetsim/scenario/scenario.h"

namespace fleetsim {
namespace {

std::string ScenarioPath(const std::string& file) {
  return std::string(FLEETSIM_SOURCE_DIR) + "/bench/macro/" + file;
}

void BM_WholeRun(benchmark::State& state, const std::string& file, const std::string& policy_name) {
  const PolicyRegistry registry = BuiltinPolicies();
  const std::string path = ScenarioPath(file);
  const LoadResult loaded = LoadScenarioFile(path, registry, {.strict = true});
  if (!loaded.scenario) {
    state.SkipWithError(
        (path + ": " + loaded.file_status.message() + loaded.diagnostics.Format("")).c_str());
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
void BM_WholeRun100k(benchmark::State& state, const std::string& policy) {
  BM_WholeRun(state, "generated-100k.json", policy);
}
void BM_ItpSaturated(benchmark::State& state, const std::string& policy) {
  BM_WholeRun(state, "itp-saturated.json", policy);
}
void BM_Scale100k(benchmark::State& state, const std::string& policy) {
  BM_WholeRun(state, "hgx-20k-100k.json", policy);
}
void BM_IdenticalSubmit100k(benchmark::State& state, const std::string& policy) {
  BM_WholeRun(state, "identical-submit-100k.json", policy);
}

BENCHMARK_CAPTURE(BM_WholeRun100k, fifo, std::string("fifo"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_WholeRun100k, first_fit, std::string("first-fit"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_ItpSaturated, backfill, std::string("backfill"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_ItpSaturated, constraint_aware, std::string("constraint-aware"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_Scale100k, fifo, std::string("fifo"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_Scale100k, constraint_aware, std::string("constraint-aware"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_IdenticalSubmit100k, fifo, std::string("fifo"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_IdenticalSubmit100k, first_fit, std::string("first-fit"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_IdenticalSubmit100k, backfill, std::string("backfill"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_IdenticalSubmit100k, fair_share, std::string("fair-share"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_IdenticalSubmit100k, constraint_aware, std::string("constraint-aware"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace
}  // namespace fleetsim
