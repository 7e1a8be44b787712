// The planner's search against the whole grid: on a grid small enough to run whole
// (tests/data/plans/small-grid.json, 448 fleets x 2 seeds) it finds the same answer and
// runners-up with at most a fifth of the runs, and the same under output per dollar with fewer
// runs; and every run the search makes is one the exhaustive pass makes too (the same run ids).
#include "fleetsim/plan/plan_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "fleetsim/sweep/sweep_metrics.h"
#include "fleetsim/sweep/sweep_runner.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

struct Searched {
  PlanOutcome outcome;
  std::set<std::string> ran;
};

class PlanSearchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    load_ =
        LoadPlanSpec(DiskFileSystem(), testing::DataPath("plans/small-grid.json"), registry_, true);
    ASSERT_TRUE(load_.spec) << load_.diagnostics.Format("small-grid") << load_.file_status;
    expansion_ = ExpandSweep(load_.spec->runs, registry_, {});
    candidates_ = BuildCandidates(*load_.spec, expansion_);
    ASSERT_TRUE(candidates_.errors.empty()) << candidates_.errors[0];
  }

  // Runs each point once, remembering its record (as `fleetsim plan` does through its journal).
  Searched Search(bool exhaustive) { return Search(*load_.spec, exhaustive); }

  Searched Search(const PlanSpec& plan, bool exhaustive) {
    Searched s;
    const PlanRunner runner = [&](const std::vector<const SweepPoint*>& points) {
      std::vector<SweepRecord> records;
      for (const SweepPoint* p : points) {
        EXPECT_TRUE(s.ran.insert(p->id).second) << "run twice: " << p->id;
        auto [it, inserted] = cache_.try_emplace(p->id);
        if (inserted) {
          it->second = RunSweepPoint(*p, registry_, {}, nullptr);
        }
        records.push_back(it->second);
      }
      return records;
    };
    s.outcome = SearchPlan(plan, candidates_, runner, {.exhaustive = exhaustive, .batch = 2});
    return s;
  }

  const PolicyRegistry registry_ = BuiltinPolicies();
  PlanLoad load_;
  SweepExpansion expansion_;
  PlanCandidates candidates_;
  std::map<std::string, SweepRecord> cache_;
};

// The whole grid is 894 runs of a week's workload under constraint-aware: 28 s in the release
// build, over half an hour under AddressSanitizer (a Debug build, about 2 s a run), which would
// hold the whole sanitizer suite up. The search's code runs under the sanitizers in
// AnImpossibleTargetLeavesNoAnswerAndTheClosestFleets below and in PlanCliTest's searches end to
// end (tools/run-tests leaves the other test below to the release build too, for its time); the
// agreement is checked in the release build.
#if !defined(FLEETSIM_SANITIZED)
// A recorded run's value of a sweep metric.
double Metric(const SweepRecord& record, const std::string& name) {
  const std::vector<std::string>& names = SweepMetricNames();
  const auto at =
      static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  return record.metrics.at(at).value.value();
}

TEST_F(PlanSearchTest, FindsTheExhaustiveAnswerWithAtMostAFifthOfTheRuns) {
  const Searched all = Search(true);
  const Searched found = Search(false);
  ASSERT_EQ(candidates_.candidates.size(), 447U) << "448 fleets less the one with no nodes";
  EXPECT_EQ(all.outcome.runs_asked, 447U * 2);
  ASSERT_TRUE(all.outcome.answer);
  ASSERT_TRUE(found.outcome.answer);
  EXPECT_EQ(*found.outcome.answer, *all.outcome.answer)
      << DescribeCandidate(*load_.spec, candidates_.candidates[*found.outcome.answer]) << " vs "
      << DescribeCandidate(*load_.spec, candidates_.candidates[*all.outcome.answer]);
  EXPECT_EQ(found.outcome.runners_up, all.outcome.runners_up);
  EXPECT_LE(found.outcome.runs_asked * 5, all.outcome.runs_asked)
      << found.outcome.runs_asked << " runs against " << all.outcome.runs_asked;
  for (const std::string& id : found.ran) {
    EXPECT_EQ(all.ran.count(id), 1U) << id;
  }
}

// Output per dollar is known only once a fleet has run: the search runs every fleet it cannot
// prove infeasible, and must choose what the whole grid chooses, by the seeds' pooled figure.
TEST_F(PlanSearchTest, OutputPerDollarFindsTheExhaustiveAnswerFromThePooledSeeds) {
  PlanSpec plan = *load_.spec;
  plan.objective = PlanObjective::kOutputPerDollar;
  const Searched all = Search(plan, true);
  const Searched found = Search(plan, false);
  ASSERT_TRUE(all.outcome.answer);
  ASSERT_TRUE(found.outcome.answer);
  EXPECT_EQ(*found.outcome.answer, *all.outcome.answer);
  EXPECT_EQ(found.outcome.runners_up, all.outcome.runners_up);
  EXPECT_LT(found.outcome.runs_asked, all.outcome.runs_asked);
  const std::size_t answer = *found.outcome.answer;
  double output = 0;
  double cost = 0;
  for (const SweepPoint* run : candidates_.candidates[answer].runs) {
    const SweepRecord& record = cache_.at(run->id);
    output += Metric(record, "priority_weighted_output");
    cost += Metric(record, "cost_usd");
  }
  EXPECT_DOUBLE_EQ(*found.outcome.results[answer].measured, output / cost);
  for (std::size_t i = 0; i < candidates_.candidates.size(); ++i) {
    const CandidateResult& r = all.outcome.results[i];
    if (r.status == CandidateStatus::kFeasible) {
      EXPECT_LE(*r.measured, *found.outcome.results[answer].measured) << i;
    }
  }
}
#endif

TEST_F(PlanSearchTest, TheAnswerMeetsEveryTargetOnItsSeedsAndCheaperRunFleetsMissOne) {
  const Searched found = Search(false);
  ASSERT_TRUE(found.outcome.answer);
  const std::size_t answer = *found.outcome.answer;
  const CandidateResult& r = found.outcome.results[answer];
  EXPECT_EQ(r.status, CandidateStatus::kFeasible);
  EXPECT_EQ(r.seeds_run, 2U);
  for (const TargetOutcome& o : r.targets) {
    EXPECT_TRUE(o.decided && o.met);
  }
  for (std::size_t i = 0; i < candidates_.candidates.size(); ++i) {
    if (candidates_.candidates[i].objective < candidates_.candidates[answer].objective) {
      EXPECT_NE(found.outcome.results[i].status, CandidateStatus::kFeasible) << i;
    }
  }
}

// A target no fleet can meet: the plan says so and shows the closest fleets with their misses.
TEST_F(PlanSearchTest, AnImpossibleTargetLeavesNoAnswerAndTheClosestFleets) {
  PlanSpec impossible = *load_.spec;
  impossible.targets.push_back({.metric = "jobs_completed", .at_most = false, .bound = 1e9});
  const PlanRunner runner = [&](const std::vector<const SweepPoint*>& points) {
    std::vector<SweepRecord> records;
    for (const SweepPoint* p : points) {
      records.push_back(RunSweepPoint(*p, registry_, {}, nullptr));
    }
    return records;
  };
  const PlanOutcome outcome = SearchPlan(impossible, candidates_, runner, {.batch = 2});
  EXPECT_FALSE(outcome.answer);
  EXPECT_FALSE(outcome.closest_infeasible.empty());
  EXPECT_LE(outcome.runs_asked * 5, outcome.grid_runs)
      << "each group's largest fleet proves every smaller one misses it";
}

}  // namespace
}  // namespace fleetsim
