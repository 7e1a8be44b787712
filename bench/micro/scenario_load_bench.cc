// Loading a scenario: ParseScenario on the text of a benchmark scenario file (JSON parse,
// validation, the catalog, the policy block and the jobs), the work every run, sweep point and
// fuzzed input starts with. Items per second = scenarios loaded.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "fleetsim/core/file_system.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/scenario.h"

namespace fleetsim {
namespace {

void BM_ParseScenario(benchmark::State& state, const std::string& relative) {
  const PolicyRegistry registry = BuiltinPolicies();
  const std::string path = (std::filesystem::path(FLEETSIM_SOURCE_DIR) / relative).string();
  std::string text;
  if (const Status status = DiskFileSystem().ReadFile(path, text); !status.ok()) {
    state.SkipWithError(status.message().c_str());
    return;
  }
  if (!ParseScenario(text, path, registry, {}).scenario) {
    state.SkipWithError((path + " does not load").c_str());
    return;
  }
  for (auto _ : state) {
    LoadResult result = ParseScenario(text, path, registry, {});
    benchmark::DoNotOptimize(result.scenario);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_ParseScenario, training_heavy,
                  std::string("scenarios/benchmark/01-training-heavy.json"))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ParseScenario, scale_test,
                  std::string("scenarios/benchmark/06-scale-test.json"))
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace fleetsim
