// Plan specs: the sweep part checked as in sweeps, the targets and the objective checked with
// their JSON pointers and "did you mean", and every problem reported at once. Plans written by a
// test are in a MemoryFileSystem ("work/", beside a copy of the worked plan's base and trace).
#include "fleetsim/plan/plan_spec.h"

#include <gtest/gtest.h>

#include "fleetsim/core/file_system.h"
#include "fleetsim/plan/plan_search.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

class PlanSpecTest : public ::testing::Test {
 protected:
  // Copies the worked plan's base, and the trace it replays, beside the plans written here.
  void SetUp() override {
    for (const std::string file :
         {"plans/bases/team-week-doubled.json", "examples/traces/team-week.jsonl"}) {
      std::string text;
      ASSERT_TRUE(DiskFileSystem().ReadFile(testing::SourcePath("scenarios/" + file), text).ok());
      const std::string copy = dir_ + "/" + file;
      ASSERT_TRUE(files_.CreateDirectories(copy.substr(0, copy.rfind('/'))).ok());
      ASSERT_TRUE(files_.WriteFile(copy, text).ok());
    }
  }

  // Writes work/plan.json.
  std::string WritePlan(const std::string& text) {
    const std::string path = dir_ + "/plan.json";
    EXPECT_TRUE(files_.WriteFile(path, text).ok());
    return path;
  }

  // A plan over the first worked plan's base with these members after "kind".
  PlanLoad Load(const std::string& members) {
    const std::string path = WritePlan(R"({"format_version": 1, "kind": "plan", "name": "t", )"
                                       R"("base": "plans/bases/team-week-doubled.json", )" +
                                       members + "}");
    return LoadPlanSpec(files_, path, registry_, false);
  }

  // Candidates of a plan written here, from its expansion.
  PlanCandidates CandidatesOf(const PlanLoad& load, SweepExpansion& expansion) const {
    expansion = ExpandSweep(load.spec->runs, registry_, {});  // reads the bases from files_
    return BuildCandidates(*load.spec, expansion);
  }

  std::string Messages(const PlanLoad& load) {
    return load.diagnostics.Format("plan.json") + load.file_status.message();
  }

  MemoryFileSystem files_;
  std::string dir_ = "work";
  const PolicyRegistry registry_ = BuiltinPolicies();
};

TEST_F(PlanSpecTest, AWorkedPlanLoads) {
  const PlanLoad load =
      LoadPlanSpec(DiskFileSystem(), testing::SourcePath("scenarios/plans/team-week-doubled.json"),
                   registry_, true);
  ASSERT_TRUE(load.spec) << Messages(load);
  EXPECT_EQ(load.spec->targets.size(), 3U);
  EXPECT_EQ(load.spec->targets[1].rule, SeedRule::kWorst);
  EXPECT_EQ(load.spec->objective, PlanObjective::kCostPerDay);
  EXPECT_EQ(load.spec->runs.axes.size(), 5U);
}

TEST_F(PlanSpecTest, EveryProblemAtOnceWithItsPointer) {
  const PlanLoad load = Load(R"(
      "axes": [{"name": "h100_nodes", "pointer": "/fleet/pools/0/nodes",
                "values": {"first": 4, "last": 2}},
               {"name": "seed", "values": [1, 2]}],
      "targets": [{"metric": "wait_p99", "at_most": 7200},
                  {"metric": "jobs_rejected", "at_most": 0, "at_least": 1},
                  {"metric": "utilization", "at_least": 0.5, "seeds": {"at_least": 3}},
                  {"metric": "wait_p50_s", "at_most": 60, "seeds": "best"}],
      "objective": "cheapest")");
  EXPECT_FALSE(load.spec);
  const std::string m = Messages(load);
  EXPECT_NE(m.find("/axes/0/values: error: expected first <= last"), std::string::npos) << m;
  EXPECT_NE(m.find("/targets/0/metric: error: expected a metric (docs/sweeps.md#metrics), found "
                   "'wait_p99', did you mean 'wait_p99_s'?"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("/targets/1: error: expected exactly one of \"at_most\" and \"at_least\""),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("/targets/2/seeds/at_least: error: expected at most the 2 seeds each fleet is "
                   "run on, found 3"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("/targets/3/seeds: error: expected \"mean\", \"worst\" or {\"at_least\": K}"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("/objective: error: expected one of 'cost_per_day', 'gpus', 'power_per_day', "
                   "'output_per_dollar', found 'cheapest'"),
            std::string::npos)
      << m;
}

TEST_F(PlanSpecTest, TargetsAreRequiredAndTheKindIsChecked) {
  const std::string path =
      WritePlan(R"({"format_version": 1, "kind": "sweep", "name": "t", "base": "x.json"})");
  const PlanLoad load = LoadPlanSpec(files_, path, registry_, false);
  const std::string m = Messages(load);
  EXPECT_NE(m.find("/kind: error: expected \"plan\", found \"sweep\""), std::string::npos) << m;
  EXPECT_NE(m.find("missing required key 'targets'"), std::string::npos) << m;
  EXPECT_NE(m.find("/base: error: expected a scenario file, found no file"), std::string::npos)
      << m;
}

TEST_F(PlanSpecTest, AFleetWithoutAPriceIsRefusedWithTheFix) {
  const PlanLoad load = Load(R"(
      "axes": [{"name": "gpus", "variants": [{"name": "bare", "patch": {"fleet": {"pools": null,
                "gpus": 8}}}]}],
      "targets": [{"metric": "wait_p99_s", "at_most": 7200}])");
  ASSERT_TRUE(load.spec) << Messages(load);
  SweepExpansion expansion;
  const PlanCandidates c = CandidatesOf(load, expansion);
  ASSERT_EQ(c.errors.size(), 1U);
  EXPECT_NE(c.errors[0].find("the cost_per_day of gpus=bare is unknown: the fleet is given as "
                             "{\"gpus\": N}, which has no GPU model or price: give it pools"),
            std::string::npos)
      << c.errors[0];

  const PlanLoad priced = Load(R"(
      "axes": [{"name": "price", "pointer": "/fleet/pools/0/price_per_gpu_hour", "values": [2.5]}],
      "targets": [{"metric": "wait_p99_s", "at_most": 7200}])");
  SweepExpansion e2;
  const PlanCandidates ok = CandidatesOf(priced, e2);
  ASSERT_TRUE(ok.errors.empty()) << ok.errors[0];
  ASSERT_EQ(ok.candidates.size(), 1U);
  // 4 H100 nodes at 2.5 plus one H200 node at the catalog's on-demand price, per day.
  EXPECT_GT(ok.candidates[0].objective, 32 * 2.5 * 24);
}

// The multi-year view: its fields checked at load, its prices once the fleets are known.
TEST_F(PlanSpecTest, AHorizonIsCheckedAtLoadAndPricedForEveryCandidate) {
  const std::string axes = R"("axes": [{"name": "b200_nodes", "pointer": "/fleet/pools/3/nodes",
                                         "values": [0, 1]}],
      "targets": [{"metric": "jobs_rejected", "at_most": 0}],)";
  const PlanLoad bad = Load(axes + R"("horizon": {"months": 24, "replan_every_months": 36,
      "yearly_price_change": {"H100-SXM": -1.5}, "reserve": 1})");
  EXPECT_FALSE(bad.spec);
  const std::string m = Messages(bad);
  EXPECT_NE(m.find("/horizon/replan_every_months: error: expected at most the horizon's 24 "
                   "months, found 36"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("/horizon/yearly_price_change/H100-SXM: error:"), std::string::npos) << m;
  EXPECT_NE(m.find("/horizon/reserve: warning:"), std::string::npos) << m;

  const PlanLoad unpriced = Load(axes + R"("horizon": {"months": 36})");
  ASSERT_TRUE(unpriced.spec) << Messages(unpriced);
  EXPECT_EQ(unpriced.spec->horizon->replan_every_months, 12);
  SweepExpansion expansion;
  const PlanCandidates c = CandidatesOf(unpriced, expansion);
  ASSERT_EQ(c.errors.size(), 1U);
  EXPECT_NE(c.errors[0].find("plan.json: /horizon: the catalog gives B200 no reserved price"),
            std::string::npos)
      << c.errors[0];
}

TEST_F(PlanSpecTest, AGridWithNoValidFleetSaysSoWithTheFirstReason) {
  const PlanLoad load = Load(R"(
      "axes": [{"name": "h100_nodes", "pointer": "/fleet/pools/0/nodes", "values": [0]},
               {"name": "h200_nodes", "pointer": "/fleet/pools/2/nodes", "values": [0]}],
      "targets": [{"metric": "wait_p99_s", "at_most": 7200}])");
  ASSERT_TRUE(load.spec) << Messages(load);
  SweepExpansion expansion;
  const PlanCandidates c = CandidatesOf(load, expansion);
  ASSERT_EQ(c.errors.size(), 1U);
  EXPECT_NE(c.errors[0].find("no candidate fleet is a valid scenario (1 tried); the first: "
                             "h100_nodes=0, h200_nodes=0: "),
            std::string::npos)
      << c.errors[0];
  EXPECT_NE(c.errors[0].find("/fleet/pools: error: expected at least one pool with nodes"),
            std::string::npos)
      << c.errors[0];
}

TEST_F(PlanSpecTest, AGridWhosePointsAreAllExcludedSaysSo) {
  const PlanLoad load = Load(R"(
      "axes": [{"name": "h100_nodes", "pointer": "/fleet/pools/0/nodes", "values": [1, 2]}],
      "exclude": [{"h100_nodes": [1, 2]}],
      "targets": [{"metric": "wait_p99_s", "at_most": 7200}])");
  ASSERT_TRUE(load.spec) << Messages(load);
  SweepExpansion expansion;
  const PlanCandidates c = CandidatesOf(load, expansion);
  ASSERT_EQ(c.errors.size(), 1U);
  EXPECT_NE(c.errors[0].find("the grid holds no candidate fleet (every point excluded)"),
            std::string::npos)
      << c.errors[0];
}

// A target on a tenant or kind takes a wait metric and a known kind, and its group must have
// jobs in the workload: a misspelt tenant would be a target that no run has a value for.
TEST_F(PlanSpecTest, AGroupTargetIsAWaitOnAKnownKindAndATenantWithJobs) {
  const PlanLoad bad = Load(R"(
      "axes": [{"name": "h100_nodes", "pointer": "/fleet/pools/0/nodes", "values": [4]}],
      "targets": [{"metric": "jobs_completed", "at_least": 1, "tenant": "research"},
                  {"metric": "wait_p99_s", "at_most": 7200, "kind": "pretrainng"},
                  {"metric": "wait_p90_s", "at_most": 7200, "tenant": ""}])");
  EXPECT_FALSE(bad.spec);
  const std::string m = Messages(bad);
  EXPECT_NE(m.find("/targets/0/metric: error: expected a wait metric (wait_mean_s, wait_p50_s, "
                   "wait_p90_s, wait_p99_s) for a target on a tenant or kind, found "
                   "'jobs_completed'"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("/targets/1/kind: error: expected a job kind ("), std::string::npos) << m;
  EXPECT_NE(m.find("found 'pretrainng', did you mean 'pretraining'?"), std::string::npos) << m;
  EXPECT_NE(m.find("/targets/2/tenant: error: expected a tenant's name"), std::string::npos) << m;

  const PlanLoad load = Load(R"(
      "axes": [{"name": "h100_nodes", "pointer": "/fleet/pools/0/nodes", "values": [4]}],
      "targets": [{"metric": "wait_p99_s", "at_most": 7200, "tenant": "research",
                   "kind": "pretraining"},
                  {"metric": "wait_p99_s", "at_most": 7200, "tenant": "reserch"}])");
  ASSERT_TRUE(load.spec) << Messages(load);
  EXPECT_EQ(TargetMetricName(load.spec->targets[0]),
            R"(wait_p99_s{tenant="research",kind="pretraining"})");
  SweepExpansion expansion;
  const PlanCandidates c = CandidatesOf(load, expansion);
  ASSERT_EQ(c.errors.size(), 1U);
  EXPECT_NE(
      c.errors[0].find(R"(/targets/1: no job of the workload is in wait_p99_s{tenant="reserch"}'s )"
                       "group (its 3 tenants: applied, product, research), did you mean "
                       "'research'?"),
      std::string::npos)
      << c.errors[0];
}

TEST(PlanMetricsTest, CapacityTrendsAreTheDocumentedOnes) {
  EXPECT_EQ(CapacityTrend("wait_p99_s"), -1);
  EXPECT_EQ(CapacityTrend("realtime_unmet_share"), -1);
  EXPECT_EQ(CapacityTrend("jobs_completed"), +1);
  EXPECT_EQ(CapacityTrend("utilization"), 0) << "more nodes can also let more work finish";
  for (const std::string& name : PlanMetricNames()) {
    EXPECT_GE(CapacityTrend(name), -1);  // every name is known to the table or unknown (0)
  }
}

}  // namespace
}  // namespace fleetsim
