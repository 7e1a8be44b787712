// Loading a scenario: ParseScenario on the text of a benchmark scenario file (JSON parse,
// validation, the catalog, the policy block and the jobs), the work every run, sweep point and
// fuzzed input starts with. Items per second = scenarios loaded.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>

#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/scenario.h"

namespace fleetsim {
namespace {

std::string TextOf(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void BM_ParseScenario(benchmark::State& state, const std::string& path) {
  const PolicyRegistry registry = BuiltinPolicies();
  const std::string text = TextOf(path);
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
