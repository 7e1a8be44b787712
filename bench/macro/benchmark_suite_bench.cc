// Whole-run timing of the benchmark suite (`fleetsim bench`): the seven scenarios of
// scenarios/benchmark, loaded once, then per iteration every scenario run under one policy (with
// the allocation timeline the HTML report needs, as `bench --html` records it). Reports time per
// suite; the per-scenario counter is the mean time of one scenario run.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/runner.h"
#include "fleetsim/scenario/scenario.h"

namespace fleetsim {
namespace {

std::vector<Scenario> LoadSuite(const PolicyRegistry& registry, std::string& error) {
  const std::filesystem::path dir =
      std::filesystem::path(FLEETSIM_SOURCE_DIR) / "scenarios" / "benchmark";
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".json" &&
        entry.path().filename() != "published-figures.json") {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<Scenario> suite;
  for (const std::string& file : files) {
    LoadResult loaded = LoadScenarioFile(file, registry, {.strict = true});
    if (!loaded.scenario) {
      error = file + ": " + loaded.file_status.message() + loaded.diagnostics.Format("");
      return {};
    }
    suite.push_back(std::move(*loaded.scenario));
  }
  return suite;
}

void BM_SevenScenarios(benchmark::State& state, const std::string& policy_name) {
  const PolicyRegistry registry = BuiltinPolicies();
  std::string error;
  const std::vector<Scenario> suite = LoadSuite(registry, error);
  if (suite.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  std::int64_t runs = 0;
  for (auto _ : state) {
    for (const Scenario& scenario : suite) {
      RunOptions options;
      options.seed = scenario.seed;
      options.record_timeline = true;
      const RunOutcome outcome =
          RunScenario(scenario, registry, ChoosePolicy(scenario, registry, policy_name), options);
      benchmark::DoNotOptimize(outcome.report.accounting.priority_weighted_output);
      ++runs;
    }
  }
  state.counters["scenario_runs_per_s"] =
      benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_SevenScenarios, fifo, std::string("fifo"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SevenScenarios, backfill, std::string("backfill"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SevenScenarios, fair_share, std::string("fair-share"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SevenScenarios, constraint_aware, std::string("constraint-aware"))
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace fleetsim
