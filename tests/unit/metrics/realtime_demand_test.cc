// Served and unmet real-time demand, worked by hand on one job: a two-step curve, a wait, a run
// holding fewer GPUs than the peak, and the run's end.
#include "fleetsim/metrics/realtime_demand.h"

#include <gtest/gtest.h>

#include "sim/nodes_at_start.h"

namespace fleetsim {
namespace {

const FleetLedger& EightGpuLedger() {
  static const FleetLedger ledger(FleetSpec{.gpus = 8});
  return ledger;
}

constexpr SimTime kHour = 3'600'000;

JobRequest Service() {
  JobRequest r;
  r.id = "svc";
  r.kind = JobKind::kRealtimeInference;
  r.gpus = 2;
  r.max_gpus = 4;
  r.demand = DemandCurve{.step = kHour, .gpus = {2, 4}, .swap_cap = 0};
  return r;
}

TEST(RealtimeDemandTest, IntegratesDemandServedAndUnmetPerStep) {
  const std::vector<JobRequest> jobs = {Service()};
  RealtimeDemand observer;
  observer.OnRunStarted({0, 8, jobs, EightGpuLedger().pools(), NodesAtStart(EightGpuLedger())});
  observer.OnJobSubmitted({kHour / 2, 0, jobs[0]});
  const Allocation allocation;
  const PlacementSummary three_gpus{
      .gpus = {0, 1, 2}, .gpu_share = 3, .domains = 1, .gpu_models = ""};
  observer.OnJobStarted({3 * kHour / 2, 0, jobs[0], allocation, three_gpus});
  observer.OnJobFinished({3 * kHour, 0, jobs[0], 3 * kHour / 2});
  observer.OnRunEnded({5 * kHour});

  const std::vector<RealtimeStepRow>& rows = observer.rows();
  ASSERT_EQ(rows.size(), 3u);
  // [0.5 h, 1 h): demand 2, waiting.
  EXPECT_EQ(rows[0].start, kHour / 2);
  EXPECT_EQ(rows[0].end, kHour);
  EXPECT_DOUBLE_EQ(rows[0].demand_gpu_hours, 1.0);
  EXPECT_DOUBLE_EQ(rows[0].served_gpu_hours, 0.0);
  // [1 h, 2 h): demand 4, served 3 GPUs from 1.5 h.
  EXPECT_EQ(rows[1].demand_gpus, 4);
  EXPECT_DOUBLE_EQ(rows[1].demand_gpu_hours, 4.0);
  EXPECT_DOUBLE_EQ(rows[1].served_gpu_hours, 1.5);
  EXPECT_DOUBLE_EQ(rows[1].unmet_gpu_hours, 2.5);
  // [2 h, 3 h): the curve repeats (demand 2), all served; the job ends at 3 h.
  EXPECT_EQ(rows[2].demand_gpus, 2);
  EXPECT_DOUBLE_EQ(rows[2].served_gpu_hours, 2.0);
  EXPECT_DOUBLE_EQ(rows[2].unmet_gpu_hours, 0.0);

  const RealtimeSummary& s = observer.summary();
  EXPECT_EQ(s.jobs, 1);
  EXPECT_DOUBLE_EQ(s.demand_gpu_hours, 7.0);
  EXPECT_DOUBLE_EQ(s.served_gpu_hours, 3.5);
  EXPECT_DOUBLE_EQ(s.unmet_gpu_hours, 3.5);
  EXPECT_DOUBLE_EQ(s.served_fraction, 0.5);
}

TEST(RealtimeDemandTest, AJobThatNeverStartsIsUnmetUntilTheRunEnds) {
  const std::vector<JobRequest> jobs = {Service()};
  RealtimeDemand observer;
  observer.OnRunStarted({0, 8, jobs, EightGpuLedger().pools(), NodesAtStart(EightGpuLedger())});
  observer.OnJobSubmitted({0, 0, jobs[0]});
  observer.OnRunEnded({2 * kHour});
  EXPECT_DOUBLE_EQ(observer.summary().demand_gpu_hours, 6.0);
  EXPECT_DOUBLE_EQ(observer.summary().unmet_gpu_hours, 6.0);
  EXPECT_DOUBLE_EQ(observer.summary().served_fraction, 0.0);
}

TEST(RealtimeDemandTest, JobsWithoutACurveAreIgnored) {
  JobRequest batch;
  batch.id = "batch";
  const std::vector<JobRequest> jobs = {batch};
  RealtimeDemand observer;
  observer.OnRunStarted({0, 8, jobs, EightGpuLedger().pools(), NodesAtStart(EightGpuLedger())});
  observer.OnJobSubmitted({0, 0, jobs[0]});
  observer.OnRunEnded({kHour});
  EXPECT_TRUE(observer.rows().empty());
  EXPECT_EQ(observer.summary().jobs, 0);
  EXPECT_DOUBLE_EQ(observer.summary().served_fraction, 1.0);
}

}  // namespace
}  // namespace fleetsim
