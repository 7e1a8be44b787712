// Constraint-aware's full mode (full_mode_steps > 0: a MILP of the next steps, solved with CBC,
// proposes the plan's order) end to end, on the four scenarios of the random family where it
// used to kill the process: CBC's feasibility pump failed an assertion inside Clp (SIGABRT), at
// the first window model of that shape (tests/data/repro/full-mode-cbc-abort). Each must now run
// to its end with every decision legal, the engine's invariants checked after every event, and
// every GPU-hour accounted for.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <variant>

#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/runner.h"
#include "fleetsim/scenario/scenario.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

class FullModeReproTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FullModeReproTest, RunsToTheEndLegallyAndAccounted) {
  const PolicyRegistry registry = BuiltinPolicies();
  const std::string path = testing::DataPath("repro/full-mode-cbc-abort/" + GetParam() + ".json");
  LoadResult loaded = LoadScenarioFile(path, registry, {.strict = true});
  ASSERT_TRUE(loaded.scenario) << path << loaded.file_status << loaded.diagnostics.Format(path);
  const Scenario& scenario = *loaded.scenario;
  const PolicyChoice policy = ChoosePolicy(scenario, registry, "");
  ASSERT_EQ(policy.name, "constraint-aware");
  ASSERT_EQ(std::get<std::int64_t>(policy.params.at("full_mode_steps")), 6);

  RunOptions options;
  options.seed = scenario.seed;
  options.check_invariants = true;  // in the release build too
  const RunOutcome run = RunScenario(scenario, registry, policy, options);
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  const AccountingSummary& a = run.report.accounting;
  EXPECT_LE(std::abs(a.identity_gap_gpu_seconds), 1e-6 * std::max(1.0, a.total.capacity * 3600));
  EXPECT_NEAR(a.total.Accounted(), a.total.capacity, 1e-6 * std::max(1.0, a.total.capacity));
  EXPECT_GT(a.priority_weighted_output, 0);
}

INSTANTIATE_TEST_SUITE_P(RandomFamily, FullModeReproTest,
                         ::testing::Values("rf-s4-135", "rf-s6-168", "rf-s7-139", "rf-s10-122"),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace fleetsim
