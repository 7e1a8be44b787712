// Waits over a group of a run's jobs (a plan's per-tenant and per-kind targets): the group of
// every job gives the fleet-wide figures, a one-tenant group gives that tenant's waits worked
// out by hand from the job rows, a group nobody started has no value; and the figures survive
// the journal (a record line read back).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "fleetsim/scenario/runner.h"
#include "fleetsim/scenario/scenario.h"
#include "fleetsim/sweep/sweep_metrics.h"
#include "fleetsim/sweep/sweep_store.h"
#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

class GroupMetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    LoadResult load = LoadScenarioFile(
        testing::SourcePath("scenarios/plans/bases/team-week-doubled.json"), registry_, {});
    ASSERT_TRUE(load.scenario) << load.diagnostics.Format("base") << load.file_status;
    scenario_ = std::move(*load.scenario);
    RunOutcome outcome = RunScenario(scenario_, registry_, scenario_.policy, {});
    ASSERT_TRUE(outcome.status.ok()) << outcome.status.message();
    report_ = std::move(outcome.report);
  }

  const PolicyRegistry registry_ = BuiltinPolicies();
  Scenario scenario_;
  RunReport report_;
};

TEST_F(GroupMetricsTest, EveryJobsGroupGivesTheFleetWideWaits) {
  const MetricsSummary& m = report_.metrics;
  EXPECT_EQ(GroupMetric(report_, "wait_mean_s", {}), m.wait_mean_s);
  EXPECT_EQ(GroupMetric(report_, "wait_p50_s", {}), m.wait_p50_s);
  EXPECT_EQ(GroupMetric(report_, "wait_p90_s", {}), m.wait_p90_s);
  EXPECT_EQ(GroupMetric(report_, "wait_p99_s", {}), m.wait_p99_s);
}

TEST_F(GroupMetricsTest, ATenantsGroupGivesItsOwnWaits) {
  std::vector<double> waits;
  for (const JobRecordRow& job : report_.jobs) {
    if (job.tenant == "research" && job.kind == JobKind::kPretraining && job.started) {
      waits.push_back(static_cast<double>(job.start - job.submit) / 1000);
    }
  }
  ASSERT_GE(waits.size(), 2U);
  const JobGroup group{.tenant = "research", .kind = JobKind::kPretraining};
  EXPECT_EQ(GroupMetric(report_, "wait_p99_s", group),
            *std::max_element(waits.begin(), waits.end()));
  double sum = 0;
  for (const double w : waits) {
    sum += w;
  }
  EXPECT_NEAR(*GroupMetric(report_, "wait_mean_s", group), sum / static_cast<double>(waits.size()),
              1e-9);
  EXPECT_EQ(GroupMetricName("wait_p99_s", group),
            R"(wait_p99_s{tenant="research",kind="pretraining"})");
}

TEST_F(GroupMetricsTest, AGroupWithNoStartedJobHasNoValue) {
  EXPECT_FALSE(GroupMetric(report_, "wait_p99_s", {.tenant = "nobody"}));
}

TEST_F(GroupMetricsTest, AGroupMetricSurvivesTheJournal) {
  SweepRecord record;
  record.id = "r1";
  record.metrics = SweepMetrics(report_);
  const std::optional<double> value = GroupMetric(report_, "wait_p90_s", {.tenant = "applied"});
  record.group_metrics.emplace_back(GroupMetricName("wait_p90_s", {.tenant = "applied"}),
                                    SweepMetric{.value = value, .text = MetricText(false, value)});
  const std::string dir = testing::FreshTempDir();
  std::filesystem::create_directories(dir + "/" + kSweepStateDir);
  std::ofstream(dir + "/" + kSweepStateDir + "/runs-1-of-1.jsonl") << RecordLine(record);
  std::vector<std::string> warnings;
  const auto read = ReadRecords(dir, warnings);
  ASSERT_EQ(read.count("r1"), 1U);
  ASSERT_EQ(read.at("r1").group_metrics.size(), 1U);
  EXPECT_EQ(read.at("r1").group_metrics[0].first, R"(wait_p90_s{tenant="applied"})");
  EXPECT_EQ(read.at("r1").group_metrics[0].second.value, value);
  EXPECT_EQ(read.at("r1").metrics.size(), record.metrics.size());
  EXPECT_TRUE(warnings.empty());
}

}  // namespace
}  // namespace fleetsim
