// The interruption conformance suite every registered policy must pass, on the scenarios that
// take nodes away:
//  - reproducers of illegal decisions found after interruptions (tests/data/repro/): each policy
//    runs each of them on the seeds it failed on, and must end ok;
//  - a chaos test: every scenario with interruptions (the examples, the extended suite and the
//    reproducers) is run under a storm — spot reclaims ten times as frequent (at least one per
//    node every 20 hours), four reclaim waves a day taking half of each spot pool, and hardware
//    failures on every pool, and every on-demand pool of single-node domains autoscaled between
//    half its nodes and all of them (10-minute provisioning, released after 15 idle minutes) —
//    over seeds 1-6, for every policy. Every run must end ok (no
//    illegal decision) and its capacity accounting must close: the categories add up to the
//    fleet's capacity over the window (docs/metrics.md#capacity-accounting), with no GPU-time
//    negative.
//  - the view's placement changes (ChangesSinceLastCall::placements), replayed call after call
//    over what the previous call saw, give exactly the running jobs the next call sees, under the
//    same storms, for every policy (policies keep indexes of the running work from them).
// Bounded for CI: the largest example is cut at two days of simulated time.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "fleetsim/policy/policy.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/runner.h"
#include "fleetsim/scenario/scenario.h"
#include "testutil/paths.h"
#include "testutil/policies.h"

namespace fleetsim {
namespace {

Scenario Load(const std::string& path) {
  const PolicyRegistry& registry = testing::EveryPolicy();
  LoadResult loaded = LoadScenarioFile(path, registry, {});
  EXPECT_TRUE(loaded.scenario.has_value())
      << path << ": " << loaded.file_status << " " << loaded.diagnostics.Format(path);
  return loaded.scenario ? std::move(*loaded.scenario) : Scenario{};
}

std::vector<std::string> PolicyNames() {
  const PolicyRegistry& registry = testing::EveryPolicy();
  std::vector<std::string> names;
  for (const PolicyInfo& info : registry.policies()) {
    names.push_back(info.name);
  }
  return names;
}

// Runs `scenario` under `policy` (defaults) with `seed`; checks the run and its accounting.
void ExpectLegalAndAccounted(const Scenario& scenario, const std::string& policy,
                             std::uint64_t seed) {
  const PolicyRegistry& registry = testing::EveryPolicy();
  const RunOutcome outcome =
      RunScenario(scenario, registry, ChoosePolicy(scenario, registry, policy),
                  {.seed = seed,
                   .measure_wall_time = false,
                   .logger = nullptr,
                   .record_timeline = false,
                   .check_invariants = true});  // in the release build too
  const std::string where = fmt::format("{} / {} / seed {}", scenario.name, policy, seed);
  ASSERT_TRUE(outcome.status.ok()) << where << ": " << outcome.status.message();
  const AccountingSummary& a = outcome.report.accounting;
  const double capacity_s = a.total.capacity * 3600;
  EXPECT_LE(std::abs(a.identity_gap_gpu_seconds), 1e-6 * std::max(1.0, capacity_s)) << where;
  EXPECT_NEAR(a.total.Accounted(), a.total.capacity, 1e-6 * std::max(1.0, a.total.capacity))
      << where;
  for (const double hours :
       {a.total.useful, a.total.lost, a.total.overhead, a.total.reconfiguration,
        a.total.allocated_idle, a.total.idle, a.total.down}) {
    EXPECT_GE(hours, -1e-9) << where;
  }
}

struct ReproCase {
  std::string policy;
  std::uint64_t seed;
};

void PrintTo(const ReproCase& c, std::ostream* out) { *out << c.policy << " seed " << c.seed; }

class ReclaimReproTest : public ::testing::TestWithParam<ReproCase> {};

// Two real-time chat services on spot H100s: a reclaim restarts both on other GPUs, and at the
// next demand step one grows onto a GPU the other gives up in the same step. A policy must order
// such resizes (or not make them); constraint-aware once resized the growing one first (exit 3).
TEST_P(ReclaimReproTest, ServicesResizedAfterAReclaimStayLegal) {
  const Scenario scenario = Load(testing::DataPath("repro/ca-illegal-resize/scenario.json"));
  ExpectLegalAndAccounted(scenario, GetParam().policy, GetParam().seed);
}

std::vector<ReproCase> ReproCases() {
  std::vector<ReproCase> cases;
  for (const std::string& policy : PolicyNames()) {
    for (const std::uint64_t seed : {1U, 2U, 3U}) {
      cases.push_back({policy, seed});
    }
  }
  return cases;
}

std::string Identifier(std::string name) {
  std::replace_if(
      name.begin(), name.end(), [](char ch) { return std::isalnum(ch) == 0; }, '_');
  return name;
}

std::string ReproName(const ::testing::TestParamInfo<ReproCase>& param) {
  return fmt::format("{}_seed{}", Identifier(param.param.policy), param.param.seed);
}

INSTANTIATE_TEST_SUITE_P(AllPolicies, ReclaimReproTest, ::testing::ValuesIn(ReproCases()),
                         ReproName);

// ---- The chaos test. ----

// The scenarios with interruptions, relative to the source tree.
const std::vector<std::string>& StormScenarios() {
  static const std::vector<std::string> paths = {
      "scenarios/examples/spot-heavy.json",
      "scenarios/examples/team-trace.json",
      "scenarios/examples/mixed-fleet.json",
      "scenarios/benchmark/extended/spot-heavy-training.json",
      "tests/data/repro/ca-illegal-resize/scenario.json",
  };
  return paths;
}

constexpr SimDuration kHour = 3600 * kMillisPerSecond;

// The scenario under a storm of reclaims and failures (see the file comment).
Scenario WithStorm(Scenario scenario) {
  for (PoolSpec& pool : scenario.fleet.pools) {
    if (pool.tier == PriceTier::kSpot) {
      SpotInterruptions& spot = pool.spot;
      spot.per_node_hour = std::max(10 * spot.per_node_hour, 0.05);
      spot.waves_per_day = 4;
      spot.wave_nodes = std::max<std::int64_t>(1, pool.nodes / 2);
      spot.notice = spot.notice > 0 ? spot.notice : 120 * kMillisPerSecond;
      spot.replacement_delay = spot.replacement_delay > 0 ? spot.replacement_delay : kHour / 12;
    }
    pool.failures.per_gpu_hour = std::max(pool.failures.per_gpu_hour, 0.001);
    pool.failures.repair = pool.failures.repair > 0 ? pool.failures.repair : 2 * kHour;
    if (pool.tier == PriceTier::kOnDemand && pool.node.nodes_per_domain() == 1) {
      pool.autoscale = {.enabled = true,
                        .min_nodes = pool.nodes / 2,
                        .provisioning_delay = kHour / 6,
                        .idle_release = kHour / 4};
    }
  }
  scenario.until = std::min(scenario.until, 48 * kHour);
  return scenario;
}

struct ChaosCase {
  std::string scenario;  // relative path
  std::string policy;
};

void PrintTo(const ChaosCase& c, std::ostream* out) { *out << c.scenario << " " << c.policy; }

class InterruptionChaosTest : public ::testing::TestWithParam<ChaosCase> {};

TEST_P(InterruptionChaosTest, NoIllegalDecisionAndTheAccountingCloses) {
  const Scenario scenario = WithStorm(Load(testing::SourcePath(GetParam().scenario)));
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    ExpectLegalAndAccounted(scenario, GetParam().policy, seed);
  }
}

std::vector<ChaosCase> ChaosCases() {
  std::vector<ChaosCase> cases;
  for (const std::string& path : StormScenarios()) {
    for (const std::string& policy : PolicyNames()) {
      cases.push_back({path, policy});
    }
  }
  return cases;
}

std::string ChaosName(const ::testing::TestParamInfo<ChaosCase>& param) {
  std::string file = param.param.scenario;
  file = file.substr(file.rfind('/') + 1);
  file = file.substr(0, file.rfind('.'));
  return Identifier(file + "_" + param.param.policy);
}

INSTANTIATE_TEST_SUITE_P(EveryInterruptedScenario, InterruptionChaosTest,
                         ::testing::ValuesIn(ChaosCases()), ChaosName);

// ---- Placement changes. ----

bool SameRunning(const RunningJob& a, const RunningJob& b) {
  return a.job == b.job && a.start == b.start && a.leaving == b.leaving &&
         DescribeAllocation(a.placement) == DescribeAllocation(b.placement);
}

// Wraps a policy: at every call, replays the view's placement changes over the running jobs of
// the previous call (in the engine's order: a start appends, a release moves the last job into
// the released slot) and counts the calls at which the result differs from view.running().
class PlacementReplay final : public Policy {
 public:
  PlacementReplay(std::unique_ptr<Policy> inner, std::int64_t& calls, std::int64_t& mismatches)
      : inner_(std::move(inner)), calls_(calls), mismatches_(mismatches) {}

  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& planner) override {
    for (const RunningJob& change : view.changes().placements) {
      const auto at = std::find_if(running_.begin(), running_.end(),
                                   [&](const RunningJob& r) { return r.job == change.job; });
      if (change.placement.gpus.empty() && change.placement.nodes.empty()) {
        if (at != running_.end()) {
          *at = running_.back();
          running_.pop_back();
        }
      } else if (at != running_.end()) {
        *at = change;
      } else {
        running_.push_back(change);
      }
    }
    ++calls_;
    if (!std::equal(running_.begin(), running_.end(), view.running().begin(), view.running().end(),
                    SameRunning)) {
      ++mismatches_;
      running_.assign(view.running().begin(), view.running().end());
    }
    return inner_->Decide(view, planner);
  }
  Status TakeFailure() override { return inner_->TakeFailure(); }

 private:
  std::unique_ptr<Policy> inner_;
  std::vector<RunningJob> running_;
  std::int64_t& calls_;
  std::int64_t& mismatches_;
};

class PlacementChangesTest : public ::testing::TestWithParam<ChaosCase> {};

TEST_P(PlacementChangesTest, ReplayedTheyGiveTheRunningJobs) {
  const Scenario scenario = WithStorm(Load(testing::SourcePath(GetParam().scenario)));
  PolicyRegistry registry = testing::EveryPolicy();
  const PolicyInfo inner = *registry.Find(GetParam().policy);
  std::int64_t calls = 0;
  std::int64_t mismatches = 0;
  registry.Add({.name = "placement-replay",
                .summary = "test wrapper",
                .params = {},
                .make = [&](const PolicyParams&) {
                  return std::make_unique<PlacementReplay>(inner.make(DefaultParams(inner)), calls,
                                                           mismatches);
                }});
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const RunOutcome outcome =
        RunScenario(scenario, registry, ChoosePolicy(scenario, registry, "placement-replay"),
                    {.seed = seed, .measure_wall_time = false, .logger = nullptr});
    ASSERT_TRUE(outcome.status.ok()) << outcome.status.message();
  }
  EXPECT_GT(calls, 0);
  EXPECT_EQ(mismatches, 0) << "of " << calls << " calls";
}

INSTANTIATE_TEST_SUITE_P(EveryInterruptedScenario, PlacementChangesTest,
                         ::testing::ValuesIn(ChaosCases()), ChaosName);

}  // namespace
}  // namespace fleetsim
