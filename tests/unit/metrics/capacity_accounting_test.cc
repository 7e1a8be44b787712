// CapacityAccounting, worked by hand on tiny fleets fed hand-made event sequences (in the order
// the engine publishes them): a job with useful, lost, overhead and reconfiguration time; a
// real-time service holding more than its demand; nodes down and back, clipped to the window;
// fractional and MIG shares across two pools. In every case the categories add up to the capacity.
// Then the same identity on real runs of the engine, with spot reclaims and hardware failures,
// against RunMetrics' allocated GPU-hours.
#include "fleetsim/metrics/capacity_accounting.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/metrics/run_metrics.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/sim/simulation.h"
#include "sim/nodes_at_start.h"
#include "testutil/fleets.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

constexpr SimTime kHour = 3'600'000;
constexpr double kTolerance = 1e-9;  // GPU-hours

// A pool of `nodes` nodes of 2 GPUs (H100-SXM) each, one NVLink domain per node.
PoolSpec TwoGpuNodes(const std::string& name, std::int64_t nodes) {
  PoolSpec pool = testing::CatalogPool("hgx-h100", nodes, name);
  pool.node.gpus_per_node = 2;
  pool.node.nvlink_domain_gpus = 2;
  pool.node.nodes_per_rack = 1;
  return pool;
}

// A placement of a job given a duration: its work rate is its GPU share.
PlacementSummary Holding(std::vector<std::pair<PoolIndex, double>> share_by_pool) {
  PlacementSummary summary;
  for (const auto& [pool, share] : share_by_pool) {
    summary.gpu_share += share;
  }
  summary.share_by_pool = std::move(share_by_pool);
  summary.work_rate = summary.gpu_share;
  return summary;
}

SegmentAccount Account(SimDuration useful, SimDuration lost, SimDuration overhead,
                       SimDuration reconfiguration) {
  return {.useful = useful, .lost = lost, .overhead = overhead, .reconfiguration = reconfiguration};
}

// Feeds events to one CapacityAccounting the way the engine publishes them.
class Feed {
 public:
  Feed(const FleetLedger& fleet, std::vector<JobRequest> jobs) : jobs_(std::move(jobs)) {
    accounting_.OnRunStarted({0, fleet.state().gpus(), jobs_, fleet.pools(), NodesAtStart(fleet)});
  }

  void Submit(SimTime t, JobIndex job) { accounting_.OnJobSubmitted({t, job, jobs_[job]}); }
  void Start(SimTime t, JobIndex job, const PlacementSummary& summary) {
    accounting_.OnJobStarted({t, job, jobs_[job], allocation_, summary});
  }
  void Resize(SimTime t, JobIndex job, SimTime start, const PlacementSummary& old_summary,
              const SegmentAccount& account, const PlacementSummary& summary) {
    Segment(t, job, start, old_summary, SegmentEnd::kResized, account);
    accounting_.OnJobResized({t, job, jobs_[job], allocation_, summary});
  }
  void Finish(SimTime t, JobIndex job, SimTime start, const PlacementSummary& summary,
              const SegmentAccount& account) {
    Segment(t, job, start, summary, SegmentEnd::kFinished, account);
    accounting_.OnJobFinished({t, job, jobs_[job], start});
  }
  void Stop(SimTime t, JobIndex job, SimTime start, const PlacementSummary& summary,
            const SegmentAccount& account, StopCause cause) {
    Segment(t, job, start, summary, SegmentEnd::kStopped, account);
    accounting_.OnJobPreempted(
        {t, job, jobs_[job], start, account.lost, reason_, cause, /*emergency_checkpoint=*/false});
  }
  void EndWhileRunning(SimTime t, JobIndex job, SimTime start, const PlacementSummary& summary,
                       const SegmentAccount& account) {
    Segment(t, job, start, summary, SegmentEnd::kRunEnded, account);
  }
  AccountingSummary End(SimTime t) {
    accounting_.OnRunEnded({t});
    return accounting_.summary();
  }
  CapacityAccounting& accounting() { return accounting_; }

 private:
  void Segment(SimTime t, JobIndex job, SimTime start, const PlacementSummary& summary,
               SegmentEnd how, const SegmentAccount& account) {
    ASSERT_EQ(account.total(), t - start) << "a segment's account covers it exactly";
    accounting_.OnJobSegmentEnded({t, job, jobs_[job], start, summary, how, account});
  }

  std::vector<JobRequest> jobs_;
  CapacityAccounting accounting_;
  const Allocation allocation_{};
  const std::string reason_ = "test";
};

JobRequest Batch(const std::string& id, std::int64_t gpus) {
  JobRequest r;
  r.id = id;
  r.gpus = gpus;
  return r;
}

void ExpectSplit(const GpuTimeSplit& h, const GpuTimeSplit& expected) {
  EXPECT_NEAR(h.capacity, expected.capacity, kTolerance);
  EXPECT_NEAR(h.useful, expected.useful, kTolerance);
  EXPECT_NEAR(h.allocated_idle, expected.allocated_idle, kTolerance);
  EXPECT_NEAR(h.lost, expected.lost, kTolerance);
  EXPECT_NEAR(h.overhead, expected.overhead, kTolerance);
  EXPECT_NEAR(h.reconfiguration, expected.reconfiguration, kTolerance);
  EXPECT_NEAR(h.idle, expected.idle, kTolerance);
  EXPECT_NEAR(h.down, expected.down, kTolerance);
}

TEST(CapacityAccountingTest, SplitsAJobsTimeIntoUsefulLostOverheadAndReconfiguration) {
  // One node of 4 GPUs; one job, submitted at 0:
  //  [1 h, 3 h) on 2 GPUs, then preempted: useful 1 h, lost 0.5 h, overhead 0.5 h;
  //  [4 h, 5 h) on 2 GPUs, then resized: useful 1 h;
  //  [5 h, 6 h) on 4 GPUs, then finished: reconfiguration 0.25 h, useful 0.75 h.
  // The run ends at 8 h: capacity 4 x 8 = 32 GPU-h.
  // useful 2 x 1 + 2 x 1 + 4 x 0.75 = 7; lost 2 x 0.5 = 1; overhead 2 x 0.5 = 1;
  // reconfiguration 4 x 0.25 = 1; allocated 2 x 2 + 2 x 1 + 4 x 1 = 10, so idle 32 - 10 = 22.
  const FleetLedger fleet(FleetSpec{.gpus = 4});
  JobRequest train = Batch("train", 2);
  train.priority = 4;  // priority-weighted output: 4 x 7 useful GPU-h = 28
  Feed feed(fleet, {train});
  const PlacementSummary two = Holding({{0, 2}});
  const PlacementSummary four = Holding({{0, 4}});
  feed.Submit(0, 0);
  feed.Start(1 * kHour, 0, two);
  feed.Stop(3 * kHour, 0, 1 * kHour, two, Account(kHour, kHour / 2, kHour / 2, 0),
            StopCause::kPolicy);
  feed.Start(4 * kHour, 0, two);
  feed.Resize(5 * kHour, 0, 4 * kHour, two, Account(kHour, 0, 0, 0), four);
  feed.Finish(6 * kHour, 0, 5 * kHour, four, Account(3 * kHour / 4, 0, 0, kHour / 4));
  const AccountingSummary s = feed.End(8 * kHour);

  ExpectSplit(s.total, {.useful = 7,
                        .lost = 1,
                        .overhead = 1,
                        .reconfiguration = 1,
                        .allocated_idle = 0,
                        .idle = 22,
                        .down = 0,
                        .capacity = 32});
  EXPECT_NEAR(s.identity_gap_gpu_seconds, 0, 1e-6);
  EXPECT_DOUBLE_EQ(s.goodput, 7.0 / 32);
  EXPECT_NEAR(s.utilization, 10.0 / 32, 1e-12);  // useful + lost + overhead + reconfiguration
  EXPECT_NEAR(s.priority_weighted_output, 28, 1e-9);
  EXPECT_NEAR(feed.accounting().UsefulGpuHours(0), 7, 1e-9);
  // Queued [0, 1 h) with 4 idle GPUs and [3 h, 4 h) with 4 idle: 8 GPU-h idle while it waited.
  EXPECT_NEAR(s.idle_while_queued_gpu_hours, 8, 1e-9);
  EXPECT_NEAR(s.idle_while_queued, 8.0 / 32, 1e-12);
  EXPECT_EQ(s.window_start, 0);
  EXPECT_EQ(s.window_end, 8 * kHour);
  EXPECT_EQ(s.counts.policy_preemptions, 1);
  EXPECT_EQ(s.counts.jobs_interrupted, 0);
  ASSERT_EQ(s.pools.size(), 1U);
  EXPECT_EQ(s.pools[0].name, "");
  EXPECT_EQ(s.pools[0].gpus, 4);
  ExpectSplit(s.pools[0].hours, s.total);
}

TEST(CapacityAccountingTest, AServiceIsUsefulOnlyUpToItsDemand) {
  // One node of 4 GPUs. A service with demand 1 GPU in even hours and 4 in odd hours (1-hour
  // steps from time 0) holds 3 GPUs from 0 until the run ends at 3 h; its first half hour is a
  // start-up pause (overhead), so its useful time is [0.5 h, 3 h).
  // Served min(3, demand): [0.5 h, 1 h) 1 x 0.5 = 0.5; [1 h, 2 h) min(3, 4) x 1 = 3;
  // [2 h, 3 h) 1 x 1 = 1. useful = 4.5 GPU-h; allocated idle = 3 x 2.5 - 4.5 = 3;
  // overhead = 3 x 0.5 = 1.5; idle = 4 x 3 - 3 x 3 = 3. Capacity 12 = 4.5 + 3 + 1.5 + 3.
  JobRequest service = Batch("svc", 3);
  service.kind = JobKind::kRealtimeInference;
  service.demand = DemandCurve{.step = kHour, .gpus = {1, 4}, .swap_cap = 0};
  service.priority = 3;  // priority-weighted output: 3 x 4.5 served GPU-h = 13.5
  const FleetLedger fleet(FleetSpec{.gpus = 4});
  Feed feed(fleet, {service});
  const PlacementSummary three = Holding({{0, 3}});
  feed.Submit(0, 0);
  feed.Start(0, 0, three);
  feed.EndWhileRunning(3 * kHour, 0, 0, three, Account(5 * kHour / 2, 0, kHour / 2, 0));
  const AccountingSummary s = feed.End(3 * kHour);

  ExpectSplit(s.total, {.useful = 4.5,
                        .lost = 0,
                        .overhead = 1.5,
                        .reconfiguration = 0,
                        .allocated_idle = 3,
                        .idle = 3,
                        .down = 0,
                        .capacity = 12});
  EXPECT_NEAR(s.identity_gap_gpu_seconds, 0, 1e-6);
  EXPECT_DOUBLE_EQ(s.goodput, 4.5 / 12);
  // Held but idle above demand (3 GPU-h) does not count: (4.5 + 1.5) / 12.
  EXPECT_NEAR(s.utilization, 6.0 / 12, 1e-12);
  EXPECT_NEAR(s.priority_weighted_output, 13.5, 1e-9);
  EXPECT_NEAR(feed.accounting().UsefulGpuHours(0), 4.5, 1e-9);
  EXPECT_NEAR(s.idle_while_queued_gpu_hours, 0, 1e-12);  // it started when submitted
}

TEST(CapacityAccountingTest, IdleWhileQueuedCountsOnlyUpGpusNotHeldWhileAJobWaits) {
  // Two nodes of 2 GPUs. a (2 GPUs) runs [0, 2 h). b (4 GPUs) is submitted at 1 h and waits until
  // a finishes, runs [2 h, 3 h); c (1 GPU) is submitted at 4 h and rejected at once; the run ends
  // at 5 h. While b waits, [1 h, 2 h): 2 GPUs idle -> 2 GPU-h. Nothing else waits with GPUs idle.
  // Node 1 (not a's) is down over [1.5 h, 2 h) in a second run below: then the idle GPUs while b
  // waits are 2 over [1 h, 1.5 h) and 0 after, 1 GPU-h, and the window's up GPU-time is
  // 20 - 2 x 0.5 = 19 GPU-h.
  const FleetLedger fleet(testing::FleetOf({TwoGpuNodes("p", 2)}));
  const std::vector<JobRequest> jobs = {Batch("a", 2), Batch("b", 4), Batch("c", 1)};
  for (const bool node_down : {false, true}) {
    SCOPED_TRACE(node_down ? "with node 1 down for half an hour" : "all nodes up");
    Feed feed(fleet, jobs);
    CapacityAccounting& accounting = feed.accounting();
    const PlacementSummary two = Holding({{0, 2}});
    const PlacementSummary four = Holding({{0, 4}});
    feed.Submit(0, 0);
    feed.Start(0, 0, two);
    feed.Submit(1 * kHour, 1);
    if (node_down) {
      accounting.OnNodeWentDown({3 * kHour / 2, 1, 0, NodeDownCause::kHardwareFailure, 2 * kHour});
      accounting.OnNodeCameBack({2 * kHour, 1, 0});
    }
    feed.Finish(2 * kHour, 0, 0, two, Account(2 * kHour, 0, 0, 0));
    feed.Start(2 * kHour, 1, four);
    feed.Finish(3 * kHour, 1, 2 * kHour, four, Account(kHour, 0, 0, 0));
    feed.Submit(4 * kHour, 2);
    accounting.OnJobRejected({4 * kHour, 2, jobs[2], RejectedBy::kPolicy, "never fits"});
    const AccountingSummary s = feed.End(5 * kHour);
    const double up = node_down ? 19 : 20;
    const double idle_while_queued = node_down ? 1 : 2;
    EXPECT_NEAR(s.idle_while_queued_gpu_hours, idle_while_queued, 1e-9);
    EXPECT_NEAR(s.idle_while_queued, idle_while_queued / up, 1e-12);
    EXPECT_NEAR(s.utilization, 8 / up, 1e-12);  // a: 2 x 2, b: 4 x 1
  }
}

TEST(CapacityAccountingTest, DownNodesAreClippedToTheWindowAndInterruptionsCounted) {
  // Two nodes of 2 GPUs (node 0: GPUs 0-1, node 1: GPUs 2-3).
  //  0 h: node 1 gets a reclaim notice in a wave; 0.5 h: it is reclaimed; back at 3 h.
  //  1 h: the first (only) submission opens the window; the job starts on node 0.
  //  5 h: node 0 fails; its job is stopped first (useful 3 h, lost 1 h on 2 GPUs); back at 6 h.
  //  8 h: the run ends. Window [1 h, 8 h]: capacity 4 x 7 = 28 GPU-h.
  // down: node 1 [1 h, 3 h) (clipped from 0.5 h) 2 x 2 = 4, node 0 [5 h, 6 h) 2 x 1 = 2: 6.
  // up: node 0 [1 h, 5 h) + [6 h, 8 h) = 6 h, node 1 [3 h, 8 h) = 5 h: 2 x 11 = 22 GPU-h;
  // held 2 x 4 = 8, so idle = 22 - 8 = 14. useful 2 x 3 = 6, lost 2 x 1 = 2. 6 + 2 + 14 + 6 = 28.
  const FleetLedger fleet(testing::FleetOf({TwoGpuNodes("spot", 2)}));
  Feed feed(fleet, {Batch("train", 2)});
  CapacityAccounting& a = feed.accounting();
  a.OnNodeNoticed({0, 1, 0, kHour / 2, /*wave=*/true});
  a.OnNodeWentDown({kHour / 2, 1, 0, NodeDownCause::kSpotReclaim, 3 * kHour});
  feed.Submit(kHour, 0);
  const PlacementSummary two = Holding({{0, 2}});
  feed.Start(kHour, 0, two);
  a.OnNodeCameBack({3 * kHour, 1, 0});
  feed.Stop(5 * kHour, 0, kHour, two, Account(3 * kHour, kHour, 0, 0), StopCause::kHardwareFailure);
  a.OnNodeWentDown({5 * kHour, 0, 0, NodeDownCause::kHardwareFailure, 6 * kHour});
  a.OnNodeCameBack({6 * kHour, 0, 0});
  const AccountingSummary s = feed.End(8 * kHour);

  ExpectSplit(s.total, {.useful = 6,
                        .lost = 2,
                        .overhead = 0,
                        .reconfiguration = 0,
                        .allocated_idle = 0,
                        .idle = 14,
                        .down = 6,
                        .capacity = 28});
  EXPECT_NEAR(s.identity_gap_gpu_seconds, 0, 1e-6);
  const InterruptionCounts& c = s.counts;
  EXPECT_EQ(c.spot_notices, 1);
  EXPECT_EQ(c.reclaim_waves, 1);
  EXPECT_EQ(c.spot_reclaims, 1);
  EXPECT_EQ(c.hardware_failures, 1);
  EXPECT_EQ(c.jobs_interrupted, 1);
  EXPECT_EQ(c.policy_preemptions, 0);
  EXPECT_EQ(c.emergency_checkpoints, 0);
}

TEST(CapacityAccountingTest, ANodeStillDownAtTheEndCountsUntilTheEnd) {
  // One pool of two 2-GPU nodes; node 0 fails at 2 h and is not back when the run ends at 4 h.
  // Window [0, 4 h] (submission at 0): capacity 16; down 2 x 2 = 4; idle 16 - 4 = 12.
  const FleetLedger fleet(testing::FleetOf({TwoGpuNodes("a", 2)}));
  Feed feed(fleet, {Batch("late", 1)});
  feed.Submit(0, 0);
  feed.accounting().OnNodeWentDown({2 * kHour, 0, 0, NodeDownCause::kHardwareFailure, 9 * kHour});
  const AccountingSummary s = feed.End(4 * kHour);
  EXPECT_NEAR(s.total.down, 4, kTolerance);
  EXPECT_NEAR(s.total.idle, 12, kTolerance);
  EXPECT_NEAR(s.identity_gap_gpu_seconds, 0, 1e-6);
  EXPECT_DOUBLE_EQ(s.goodput, 0);
}

TEST(CapacityAccountingTest, FractionalAndMigSharesLeaveTheRestOfTheirGpusIdle) {
  // Pool 0 "mig" and pool 1 "frac", one 2-GPU node each. Window [0, 7 h]: capacity 2 x 7 = 14
  // GPU-h per pool.
  //  A: a 3g MIG instance (3/7 of a GPU) in pool 0, [0, 7 h), all useful: 3/7 x 7 = 3 GPU-h;
  //  B: a 500 milli-GPU share (0.5) in pool 1, [0, 2 h), useful: 0.5 x 2 = 1 GPU-h;
  //  C: 2 whole GPUs, one in each pool, [1 h, 2 h), useful: 1 GPU-h in each pool.
  // Pool 0: useful 3 + 1 = 4, idle 14 - 4 = 10. Pool 1: useful 1 + 1 = 2, idle 14 - 2 = 12.
  const FleetLedger fleet(testing::FleetOf({TwoGpuNodes("mig", 1), TwoGpuNodes("frac", 1)}));
  Feed feed(fleet, {Batch("a", 1), Batch("b", 1), Batch("c", 2)});
  const PlacementSummary mig = Holding({{0, 3.0 / 7}});
  const PlacementSummary half = Holding({{1, 0.5}});
  const PlacementSummary spread = Holding({{0, 1}, {1, 1}});
  feed.Submit(0, 0);
  feed.Submit(0, 1);
  feed.Submit(0, 2);
  feed.Start(0, 0, mig);
  feed.Start(0, 1, half);
  feed.Start(kHour, 2, spread);
  feed.Finish(2 * kHour, 1, 0, half, Account(2 * kHour, 0, 0, 0));
  feed.Finish(2 * kHour, 2, kHour, spread, Account(kHour, 0, 0, 0));
  feed.EndWhileRunning(7 * kHour, 0, 0, mig, Account(7 * kHour, 0, 0, 0));
  const AccountingSummary s = feed.End(7 * kHour);

  ASSERT_EQ(s.pools.size(), 2U);
  EXPECT_EQ(s.pools[0].name, "mig");
  EXPECT_EQ(s.pools[1].name, "frac");
  ExpectSplit(s.pools[0].hours, {.useful = 4, .idle = 10, .capacity = 14});
  ExpectSplit(s.pools[1].hours, {.useful = 2, .idle = 12, .capacity = 14});
  ExpectSplit(s.total, {.useful = 6, .idle = 22, .capacity = 28});
  EXPECT_NEAR(s.identity_gap_gpu_seconds, 0, 1e-6);
}

// Four pools: dynamic-MIG H100 (on-demand), a spot H200 pool with reclaims and waves, B200
// (reserved) with hardware failures, and GB200.
FleetSpec InterruptedFleet() {
  PoolSpec h100 = testing::CatalogPool("hgx-h100", 2, "h100");
  h100.mig = MigMode::kDynamic;
  PoolSpec h200 = testing::CatalogPool("hgx-h200", 3, "h200-spot");
  h200.tier = PriceTier::kSpot;
  h200.spot = {.per_node_hour = 0.05,
               .advisor_bucket = "",
               .notice = 120'000,
               .replacement_delay = 1'800'000,
               .waves_per_day = 1,
               .wave_nodes = 2};
  PoolSpec b200 = testing::CatalogPool("hgx-b200", 2, "b200");
  b200.tier = PriceTier::kReserved;
  b200.failures = {.per_gpu_hour = 0.005, .repair = 7'200'000};
  return testing::FleetOf({h100, h200, b200, testing::CatalogPool("gb200-nvl72", 9, "gb200")});
}

// RichWorkload's jobs with checkpoints, given checkpoint and restart pauses.
Workload WithPauses(Workload w) {
  for (Job& job : w.jobs) {
    if (job.request.checkpoint_interval > 0) {
      job.request.checkpoint_cost = 30'000;
      job.request.restart_cost = 60'000;
    }
  }
  return w;
}

// A job given work earns its work, not the GPU-time it took: output counts what was done.
TEST(CapacityAccountingTest, OutputCountsWorkWhereTheGpuTimeDependsOnThePlacement) {
  // 2 GPUs for 1 h at twice the reference speed: 2 useful GPU-h, 4 reference GPU-h of work.
  const FleetLedger fleet(FleetSpec{.gpus = 4});
  JobRequest train = Batch("train", 2);
  train.priority = 3;
  Feed feed(fleet, {train});
  PlacementSummary fast = Holding({{0, 2}});
  fast.work_rate = 4;
  feed.Submit(0, 0);
  feed.Start(0, 0, fast);
  feed.Finish(kHour, 0, 0, fast, Account(kHour, 0, 0, 0));
  const AccountingSummary s = feed.End(2 * kHour);
  EXPECT_NEAR(feed.accounting().UsefulGpuHours(0), 2, kTolerance);
  EXPECT_NEAR(feed.accounting().UsefulWorkGpuHours(0), 4, kTolerance);
  EXPECT_NEAR(s.priority_weighted_output, 3 * 4, kTolerance);
  EXPECT_NEAR(s.utilization, 2.0 / 8, kTolerance);  // utilization stays GPU-time
}

// The engine's work rates: the same 8 reference GPU-hours of training earn the same output on
// an H100 node, on a B200 node (2.28x faster, fewer GPU-hours) and spread over two nodes (the
// cross-domain factor 0.8: more GPU-hours).
TEST(CapacityAccountingTest, TheEngineCreditsAJobGivenWorkWithItsWorkWhereverItRan) {
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* fifo = registry.Find("fifo");
  struct Case {
    const char* name;
    FleetSpec fleet;
    std::int64_t gpus;
    double useful_gpu_hours;
  };
  const double b200 = 2250.0 / 989.0;
  for (const Case& c :
       {Case{"h100", testing::FleetOf({testing::CatalogPool("hgx-h100", 1)}), 8, 8.0},
        Case{"b200", testing::FleetOf({testing::CatalogPool("hgx-b200", 1)}), 8, 8.0 / b200},
        Case{"two h100 nodes", testing::FleetOf({testing::CatalogPool("hgx-h100", 2)}), 16,
             8.0 / 0.8}}) {
    SCOPED_TRACE(c.name);
    Workload w;
    Job& train = testing::AddWorkJob(w, "train", 0, c.gpus, 8.0);
    train.request.kind = JobKind::kPretraining;
    train.request.priority = 2;
    Simulation sim(c.fleet, w, fifo->make(DefaultParams(*fifo)), "fifo",
                   {.reference_gpu = *BuiltinCatalog().FindGpu("H100-SXM"), .speed = {}});
    CapacityAccounting accounting;
    sim.AddObserver(&accounting);
    ASSERT_TRUE(sim.RunUntilIdle().ok());
    sim.Finish();
    EXPECT_NEAR(accounting.UsefulGpuHours(0), c.useful_gpu_hours, 1e-5);
    EXPECT_NEAR(accounting.UsefulWorkGpuHours(0), 8, 1e-5);
    EXPECT_NEAR(accounting.summary().priority_weighted_output, 2 * 8, 1e-5);
  }
}

class EngineAccountingTest : public ::testing::TestWithParam<std::string> {};

TEST_P(EngineAccountingTest, CategoriesAddUpAndHeldTimeMatchesUtilization) {
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* info = registry.Find(GetParam());
  const Workload w = WithPauses(testing::RichWorkload(3, 300, /*lifecycle=*/true));
  Simulation sim(InterruptedFleet(), w, info->make(DefaultParams(*info)), GetParam(),
                 {.reference_gpu = *BuiltinCatalog().FindGpu("H100-SXM"), .speed = {}});
  CapacityAccounting accounting;
  RunMetrics metrics;
  sim.AddObserver(&accounting);
  sim.AddObserver(&metrics);
  ASSERT_TRUE(sim.RunUntil(SecondsToTime(2 * 24 * 3600)).ok());
  sim.Finish();

  const AccountingSummary& s = accounting.summary();
  const MetricsSummary& m = metrics.summary();
  EXPECT_LT(std::abs(s.identity_gap_gpu_seconds), 1.0);
  EXPECT_NEAR(s.total.capacity, m.available_gpu_hours, 1e-6);
  const GpuTimeSplit& t = s.total;
  const double held = t.useful + t.allocated_idle + t.lost + t.overhead + t.reconfiguration;
  EXPECT_NEAR(held, m.allocated_gpu_hours, 1e-6);
  EXPECT_GE(t.idle, -1e-6);
  EXPECT_EQ(s.counts.policy_preemptions, m.preemptions);
  EXPECT_DOUBLE_EQ(s.goodput, t.useful / t.capacity);
  // The processes did take nodes away, and jobs with them.
  EXPECT_GT(s.counts.spot_reclaims, 0);
  EXPECT_GT(s.counts.hardware_failures, 0);
  EXPECT_GT(s.counts.jobs_interrupted, 0);
  EXPECT_GT(t.down, 0);
  EXPECT_GT(t.lost + t.overhead, 0);
  EXPECT_GT(t.allocated_idle, 0);
}

INSTANTIATE_TEST_SUITE_P(Policies, EngineAccountingTest,
                         ::testing::Values("fifo", "backfill", "fair-share", "constraint-aware"),
                         [](const auto& test) {
                           std::string name = test.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace fleetsim
