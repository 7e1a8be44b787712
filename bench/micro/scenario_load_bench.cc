// Loading a scenario: ParseScenario on the text of a benchmark scenario file (JSON parse,
// validation, the catalog, the policy block and the jobs), the work every run, sweep point and
// fuzzed input starts with. Items per second = scenarios loaded.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/scenario.h"

namespace fleetsim {
namespace {

// The text of the file at `relative` to the source tree, or nullopt when it cannot be read.
std::optional<std::string> TextOf(const std::string& relative) {
  std::ifstream in(std::filesystem::path(FLEETSIM_SOURCE_DIR) / relative);
  if (!in) {
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void BM_ParseScenario(benchmark::State& state, const std::string& path) {
  const PolicyRegistry registry = BuiltinPolicies();
  const std::optional<std::string> read = TextOf(path);
  if (!read) {
    state.SkipWithError((path + ": cannot read it").c_str());
    return;
  }
  const std::string& text = *read;
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
