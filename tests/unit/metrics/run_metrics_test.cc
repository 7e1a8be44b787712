// RunMetrics on hand-computed cases: allocated share (whole GPUs, fractional shares, MIG
// instances, CPU-only jobs), wait and completion-time percentiles, bounded slowdown, makespan,
// end-of-run accounting, deadlines met, missed and undecided.
#include "fleetsim/metrics/run_metrics.h"

#include <gtest/gtest.h>

#include "fleetsim/policy/registry.h"
#include "fleetsim/sim/simulation.h"
#include "sim/nodes_at_start.h"
#include "testutil/fleets.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

using testing::AddJob;

MetricsSummary RunFifo(const Workload& w, std::int64_t gpus, SimTime until = kTimeNever) {
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* fifo = registry.Find("fifo");
  Simulation sim({.gpus = gpus}, w, fifo->make(DefaultParams(*fifo)), "fifo");
  RunMetrics metrics;
  sim.AddObserver(&metrics);
  EXPECT_TRUE(sim.RunUntil(until).ok());
  sim.Finish();
  return metrics.summary();
}

TEST(RunMetricsTest, HandComputedFifoRun) {
  // 8 GPUs. a: 4 GPUs [0, 3600); b: 8 GPUs [3600, 5400); c: 2 GPUs [5400, 6000).
  Workload w;
  AddJob(w, "a", 0, 4, 3600);
  AddJob(w, "b", 10, 8, 1800);
  AddJob(w, "c", 20, 2, 600);
  const MetricsSummary m = RunFifo(w, 8);
  EXPECT_EQ(m.jobs_completed, 3);
  EXPECT_DOUBLE_EQ(m.allocated_gpu_hours, (4 * 3600 + 8 * 1800 + 2 * 600) / 3600.0);
  EXPECT_DOUBLE_EQ(m.available_gpu_hours, 8 * 6000 / 3600.0);
  EXPECT_DOUBLE_EQ(m.allocated_share, (4 * 3600 + 8 * 1800 + 2 * 600) / (8.0 * 6000));
  EXPECT_DOUBLE_EQ(m.wait_mean_s, (0 + 3590 + 5380) / 3.0);
  EXPECT_DOUBLE_EQ(m.wait_p50_s, 3590);  // nearest rank: ceil(0.5 x 3) = 2nd of 0, 3590, 5380
  EXPECT_DOUBLE_EQ(m.wait_p90_s, 5380);
  EXPECT_DOUBLE_EQ(m.wait_p99_s, 5380);
  // Completion times: a 3600, b 5400 - 10 = 5390, c 6000 - 20 = 5980.
  EXPECT_EQ(m.batch_jobs_completed, 3);
  EXPECT_DOUBLE_EQ(m.jct_mean_s, (3600 + 5390 + 5980) / 3.0);
  EXPECT_DOUBLE_EQ(m.jct_p50_s, 5390);
  EXPECT_DOUBLE_EQ(m.jct_p90_s, 5980);
  EXPECT_DOUBLE_EQ(m.jct_p99_s, 5980);
  // Bounded slowdown: a 3600 / 3600 = 1, b 5390 / 1800, c 5980 / 600.
  EXPECT_DOUBLE_EQ(m.bounded_slowdown_mean, (1 + 5390.0 / 1800 + 5980.0 / 600) / 3);
  EXPECT_DOUBLE_EQ(m.makespan_s, 6000);
}

TEST(RunMetricsTest, SlowdownIsBoundedBelowByOneAndShortJobsByTenSeconds) {
  // 1 GPU. a runs [0, 2 s); b waits 2 s and runs [2 s, 3 s): JCT 3 s over max(1 s, 10 s) = 0.3,
  // bounded to 1; a: 2 s / 10 s = 0.2 -> 1. The mean is 1.
  Workload w;
  AddJob(w, "a", 0, 1, 2);
  AddJob(w, "b", 0, 1, 1);
  const MetricsSummary m = RunFifo(w, 1);
  EXPECT_DOUBLE_EQ(m.bounded_slowdown_mean, 1.0);
  EXPECT_DOUBLE_EQ(m.jct_p99_s, 3);
}

TEST(RunMetricsTest, WindowStartsAtFirstSubmission) {
  Workload w;
  AddJob(w, "a", 1000, 2, 100);
  const MetricsSummary m = RunFifo(w, 2);
  EXPECT_EQ(m.window_start, 1'000'000);
  EXPECT_DOUBLE_EQ(m.allocated_share, 1.0);
  EXPECT_DOUBLE_EQ(m.makespan_s, 100);
}

TEST(RunMetricsTest, RunStoppedEarlyCountsRunningQueuedAndUnsubmittedJobs) {
  Workload w;
  AddJob(w, "a", 0, 4, 100);
  AddJob(w, "b", 0, 4, 100);
  AddJob(w, "c", 500, 1, 1);
  const MetricsSummary m = RunFifo(w, 4, SecondsToTime(50));
  EXPECT_EQ(m.jobs_completed, 0);
  EXPECT_EQ(m.jobs_running_at_end, 1);
  EXPECT_EQ(m.jobs_queued_at_end, 1);
  EXPECT_EQ(m.jobs_never_submitted, 1);
  EXPECT_DOUBLE_EQ(m.allocated_share, 1.0);  // a holds all 4 GPUs for the whole 50 s window
  EXPECT_DOUBLE_EQ(m.makespan_s, 0);
}

TEST(RunMetricsTest, ADeadlineIsMissedLateRejectedOrPassedUnfinishedAndUndecidedBeyondTheEnd) {
  // 4 GPUs, the run stopped at 250 s. a [0, 100) meets 100; b [100, 200) misses 150; c started at
  // 200 is unfinished at the end, past its deadline 240: missed; d, queued, has its deadline
  // beyond the end: undecided; e asks for more GPUs than the fleet has and is rejected: missed;
  // f has no deadline.
  Workload w;
  AddJob(w, "a", 0, 4, 100).request.deadline = SecondsToTime(100);
  AddJob(w, "b", 0, 4, 100).request.deadline = SecondsToTime(150);
  AddJob(w, "c", 0, 4, 100).request.deadline = SecondsToTime(240);
  AddJob(w, "d", 0, 4, 100).request.deadline = SecondsToTime(1000);
  AddJob(w, "e", 0, 8, 100).request.deadline = SecondsToTime(5000);
  AddJob(w, "f", 0, 4, 10);
  const MetricsSummary m = RunFifo(w, 4, SecondsToTime(250));
  EXPECT_EQ(m.jobs_rejected, 1);
  EXPECT_EQ(m.deadline_jobs, 4);
  EXPECT_EQ(m.deadline_misses, 3);
}

TEST(RunMetricsTest, SharesCountAsTheirFractionAndMigInstancesAsTheirComputeSlices) {
  // One dynamic-MIG HGX H100 node (8 GPUs). Over [0, 100 s]: a 500 milli-GPU share, a 3g.40gb
  // instance (3 of 7 compute slices), a whole GPU, and a CPU-only job that holds no GPU.
  PoolSpec pool = testing::CatalogPool("hgx-h100", 1);
  pool.mig = MigMode::kDynamic;
  Workload w;
  JobRequest& share = testing::AddJob(w, "a-share", 0, 1, 100).request;
  share.sharing = GpuSharing::kFraction;
  share.gpu_milli = 500;
  JobRequest& mig = testing::AddJob(w, "b-mig", 0, 1, 100).request;
  mig.sharing = GpuSharing::kMig;
  mig.gpu_memory_gb = 40;
  testing::AddJob(w, "c-whole", 0, 1, 100);
  JobRequest& cpu = testing::AddJob(w, "d-cpu", 0, 0, 100).request;
  cpu.cpu_milli = 2000;
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* fifo = registry.Find("fifo");
  Simulation sim(testing::FleetOf({pool}), w, fifo->make(DefaultParams(*fifo)), "fifo");
  RunMetrics metrics;
  sim.AddObserver(&metrics);
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  sim.Finish();
  const MetricsSummary& m = metrics.summary();
  EXPECT_EQ(m.jobs_completed, 4);
  EXPECT_DOUBLE_EQ(m.allocated_gpu_hours, (0.5 + 3.0 / 7 + 1) * 100 / 3600);
  EXPECT_DOUBLE_EQ(m.allocated_share, (0.5 + 3.0 / 7 + 1) / 8);
}

TEST(RunMetricsTest, CompletionTimesLeaveOutServicesByKindOrCurve) {
  // 4 GPUs. "svc" is a realtime-inference job without a demand curve, "train" a batch job; both
  // run [0, 1000 s). Only train's completion time counts.
  Workload w;
  AddJob(w, "svc", 0, 2, 1000).request.kind = JobKind::kRealtimeInference;
  AddJob(w, "train", 0, 2, 1000);
  const MetricsSummary m = RunFifo(w, 4);
  EXPECT_EQ(m.jobs_completed, 2);
  EXPECT_EQ(m.batch_jobs_completed, 1);
  EXPECT_DOUBLE_EQ(m.jct_mean_s, 1000);
}

TEST(RunMetricsTest, SlowdownOfAPreemptedJobUsesItsKeptComputingNotItsHeldTime) {
  // One job, submitted at 0: [0, 2 h) computing, stopped at 2 h losing its last 0.5 h; waits;
  // [3 h, 4.5 h) computing to the end. Kept computing 1.5 h + 1.5 h = 3 h; held 3.5 h; JCT 4.5 h.
  // Bounded slowdown = 4.5 / 3 = 1.5 (held time would give 4.5 / 3.5).
  constexpr SimTime kHour = 3'600'000;
  const FleetLedger fleet(FleetSpec{.gpus = 2});
  JobRequest request;
  request.id = "train";
  request.gpus = 2;
  const std::vector<JobRequest> jobs = {request};
  const Allocation allocation{};
  PlacementSummary two;
  two.gpu_share = 2;
  const std::string reason = "test";
  RunMetrics metrics;
  metrics.OnRunStarted({0, 2, jobs, fleet.pools(), NodesAtStart(fleet)});
  metrics.OnJobSubmitted({0, 0, jobs[0]});
  metrics.OnJobStarted({0, 0, jobs[0], allocation, two});
  metrics.OnJobSegmentEnded({2 * kHour,
                             0,
                             jobs[0],
                             0,
                             two,
                             SegmentEnd::kStopped,
                             {.useful = 3 * kHour / 2, .lost = kHour / 2}});
  metrics.OnJobPreempted({2 * kHour, 0, jobs[0], 0, kHour / 2, reason, StopCause::kPolicy});
  metrics.OnJobStarted({3 * kHour, 0, jobs[0], allocation, two});
  metrics.OnJobSegmentEnded({9 * kHour / 2,
                             0,
                             jobs[0],
                             3 * kHour,
                             two,
                             SegmentEnd::kFinished,
                             {.useful = 3 * kHour / 2}});
  metrics.OnJobFinished({9 * kHour / 2, 0, jobs[0], 3 * kHour});
  metrics.OnRunEnded({9 * kHour / 2});
  const MetricsSummary& m = metrics.summary();
  EXPECT_DOUBLE_EQ(m.jct_mean_s, 4.5 * 3600);
  EXPECT_DOUBLE_EQ(m.bounded_slowdown_mean, 1.5);
  EXPECT_EQ(m.preemptions, 1);
}

TEST(NearestRankPercentileTest, MatchesTheTextbookDefinition) {
  EXPECT_EQ(NearestRankPercentile({}, 99), 0);
  EXPECT_EQ(NearestRankPercentile({5}, 99), 5);
  std::vector<SimDuration> hundred;
  for (int i = 100; i >= 1; --i) {
    hundred.push_back(i);
  }
  EXPECT_EQ(NearestRankPercentile(hundred, 99), 99);
  EXPECT_EQ(NearestRankPercentile(hundred, 50), 50);
  EXPECT_EQ(NearestRankPercentile({1, 2, 3}, 99), 3);
}

}  // namespace
}  // namespace fleetsim
