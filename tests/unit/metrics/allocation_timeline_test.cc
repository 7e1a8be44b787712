// AllocationTimeline, worked by hand on tiny fleets fed hand-made event sequences (in the order
// the engine publishes them): two batch jobs and their segments, bucketed over aligned and
// unaligned buckets; a real-time service holding more than its demand (busy only up to it,
// checked against CapacityAccounting fed the same events); the window opening at the first
// submission. Then real runs of a benchmark scenario: busy GPU-time equals the accounting's
// useful + lost + overhead + reconfiguration, no GPU is held by two jobs at once, and nothing is
// recorded unless asked for.
#include "fleetsim/metrics/allocation_timeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "fleetsim/metrics/capacity_accounting.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/runner.h"
#include "sim/nodes_at_start.h"
#include "testutil/fleets.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

constexpr SimTime kHour = 3'600'000;
constexpr double kTolerance = 1e-9;

PlacementSummary Holding(std::vector<GpuId> gpus, double share) {
  PlacementSummary summary;
  summary.gpus = std::move(gpus);
  summary.gpu_share = share;
  summary.share_by_pool = {{0, share}};
  return summary;
}

SegmentAccount Useful(SimDuration useful, SimDuration overhead = 0) {
  return {.useful = useful, .lost = 0, .overhead = overhead, .reconfiguration = 0};
}

// Feeds the same events to an AllocationTimeline and a CapacityAccounting.
class Feed {
 public:
  Feed(std::int64_t gpus, std::vector<JobRequest> jobs)
      : Feed(FleetSpec{.gpus = gpus}, std::move(jobs)) {}
  Feed(const FleetSpec& fleet, std::vector<JobRequest> jobs)
      : fleet_(fleet), nodes_(NodesAtStart(fleet_)), jobs_(std::move(jobs)) {
    for (SimulationObserver* o : Observers()) {
      o->OnRunStarted({0, fleet_.state().gpus(), jobs_, fleet_.pools(), nodes_});
    }
  }

  void Submit(SimTime t, JobIndex job) {
    for (SimulationObserver* o : Observers()) {
      o->OnJobSubmitted({t, job, jobs_[job]});
    }
  }
  void Start(SimTime t, JobIndex job, const PlacementSummary& summary) {
    for (SimulationObserver* o : Observers()) {
      o->OnJobStarted({t, job, jobs_[job], allocation_, summary});
    }
  }
  // The segment [start, t) ends with `how`, followed by its finish, stop or nothing (run end).
  void EndSegment(SimTime t, JobIndex job, SimTime start, const PlacementSummary& summary,
                  SegmentEnd how, const SegmentAccount& account) {
    ASSERT_EQ(account.total(), t - start) << "a segment's account covers it exactly";
    for (SimulationObserver* o : Observers()) {
      o->OnJobSegmentEnded({t, job, jobs_[job], start, summary, how, account});
      if (how == SegmentEnd::kFinished) {
        o->OnJobFinished({t, job, jobs_[job], start});
      } else if (how == SegmentEnd::kStopped) {
        o->OnJobPreempted({t, job, jobs_[job], start, account.lost, reason_, StopCause::kPolicy,
                           /*emergency_checkpoint=*/false});
      }
    }
  }
  void NodeDown(SimTime t, NodeId node, SimTime back_at,
                NodeDownCause cause = NodeDownCause::kHardwareFailure) {
    for (SimulationObserver* o : Observers()) {
      o->OnNodeWentDown({t, node, 0, cause, back_at});
    }
  }
  void NodeBack(SimTime t, NodeId node) {
    for (SimulationObserver* o : Observers()) {
      o->OnNodeCameBack({t, node, 0});
    }
  }
  void End(SimTime t) {
    for (SimulationObserver* o : Observers()) {
      o->OnRunEnded({t});
    }
  }

  const AllocationTimelineData& timeline() const { return timeline_.data(); }
  const AccountingSummary& accounting() const { return accounting_.summary(); }

 private:
  std::vector<SimulationObserver*> Observers() { return {&timeline_, &accounting_}; }

  FleetLedger fleet_;
  std::vector<NodeAtStart> nodes_;
  std::vector<JobRequest> jobs_;
  AllocationTimeline timeline_;
  CapacityAccounting accounting_;
  const Allocation allocation_{};
  const std::string reason_ = "test";
};

JobRequest Batch(const std::string& id, std::int64_t gpus, JobKind kind, std::int64_t priority) {
  JobRequest r;
  r.id = id;
  r.gpus = gpus;
  r.kind = kind;
  r.priority = priority;
  return r;
}

// Busy GPU-hours as CapacityAccounting counts them.
double AccountedBusy(const AccountingSummary& a) {
  return a.total.useful + a.total.lost + a.total.overhead + a.total.reconfiguration;
}

void ExpectBuckets(const std::vector<UtilizationBucket>& series,
                   const std::vector<UtilizationBucket>& expected) {
  ASSERT_EQ(series.size(), expected.size());
  for (std::size_t i = 0; i < series.size(); ++i) {
    EXPECT_EQ(series[i].start, expected[i].start) << "bucket " << i;
    EXPECT_EQ(series[i].end, expected[i].end) << "bucket " << i;
    EXPECT_NEAR(series[i].utilization, expected[i].utilization, kTolerance) << "bucket " << i;
  }
}

// Two jobs on 4 GPUs, all submitted at 0; the run ends at 4 h:
//  train (pretraining, priority 3) on GPUs 0-1, [0, 2 h), finished;
//  tune (fine-tuning, priority 1) on GPU 2, [1 h, 3 h), stopped; again on GPUs 0-3, [3 h, 4 h),
//  still running at the end (its first half hour a restart pause: overhead, still busy).
std::vector<JobRequest> TwoJobs() {
  return {Batch("train", 2, JobKind::kPretraining, 3), Batch("tune", 1, JobKind::kFineTuning, 1)};
}

void PlayTwoJobs(Feed& feed) {
  feed.Submit(0, 0);
  feed.Submit(0, 1);
  feed.Start(0, 0, Holding({0, 1}, 2));
  feed.Start(kHour, 1, Holding({2}, 1));
  feed.EndSegment(2 * kHour, 0, 0, Holding({0, 1}, 2), SegmentEnd::kFinished, Useful(2 * kHour));
  feed.EndSegment(3 * kHour, 1, kHour, Holding({2}, 1), SegmentEnd::kStopped,
                  {.useful = kHour, .lost = kHour, .overhead = 0, .reconfiguration = 0});
  feed.Start(3 * kHour, 1, Holding({0, 1, 2, 3}, 4));
  feed.EndSegment(4 * kHour, 1, 3 * kHour, Holding({0, 1, 2, 3}, 4), SegmentEnd::kRunEnded,
                  Useful(kHour / 2, kHour / 2));
  feed.End(4 * kHour);
}

TEST(AllocationTimelineTest, RecordsEverySegmentWithItsGpusKindAndPriority) {
  Feed feed(4, TwoJobs());
  PlayTwoJobs(feed);
  const AllocationTimelineData& t = feed.timeline();
  EXPECT_EQ(t.fleet_gpus, 4);
  EXPECT_EQ(t.window_start, 0);
  EXPECT_EQ(t.window_end, 4 * kHour);
  ASSERT_EQ(t.segments.size(), 3U);
  // In the order they ended.
  EXPECT_EQ(t.segments[0].job, 0U);
  EXPECT_EQ(t.segments[0].start, 0);
  EXPECT_EQ(t.segments[0].end, 2 * kHour);
  EXPECT_EQ(t.segments[0].gpus, (std::vector<GpuId>{0, 1}));
  EXPECT_EQ(t.segments[0].gpu_share, 2);
  EXPECT_EQ(t.segments[0].kind, JobKind::kPretraining);
  EXPECT_EQ(t.segments[0].priority, 3);
  EXPECT_FALSE(t.segments[0].realtime);
  EXPECT_EQ(t.segments[1].job, 1U);
  EXPECT_EQ(t.segments[1].start, kHour);
  EXPECT_EQ(t.segments[1].end, 3 * kHour);
  EXPECT_EQ(t.segments[1].gpus, (std::vector<GpuId>{2}));
  EXPECT_EQ(t.segments[1].kind, JobKind::kFineTuning);
  EXPECT_EQ(t.segments[1].priority, 1);
  EXPECT_EQ(t.segments[2].start, 3 * kHour);
  EXPECT_EQ(t.segments[2].end, 4 * kHour);
  EXPECT_EQ(t.segments[2].gpus, (std::vector<GpuId>{0, 1, 2, 3}));
  EXPECT_EQ(t.segments[2].gpu_share, 4);
}

TEST(AllocationTimelineTest, HourlyBucketsAreBusyGpusOverFleetGpus) {
  // [0, 1 h): train 2 -> 2/4; [1 h, 2 h): train 2 + tune 1 -> 3/4; [2 h, 3 h): tune 1 -> 1/4;
  // [3 h, 4 h): tune 4 (restart pause and work alike) -> 4/4.
  // Busy 2 x 2 + 1 x 2 + 4 x 1 = 10 GPU-h = 0.625 x 16: the accounting's useful 2 x 2 + 1 x 1 +
  // 4 x 0.5 = 7, lost 1, overhead 2.
  Feed feed(4, TwoJobs());
  PlayTwoJobs(feed);
  ExpectBuckets(UtilizationSeries(feed.timeline(), 4), {{0, kHour, 0, 0, 0.5},
                                                        {kHour, 2 * kHour, 0, 0, 0.75},
                                                        {2 * kHour, 3 * kHour, 0, 0, 0.25},
                                                        {3 * kHour, 4 * kHour, 0, 0, 1.0}});
  EXPECT_NEAR(BusyGpuHours(feed.timeline()), 10, kTolerance);
  EXPECT_NEAR(AccountedBusy(feed.accounting()), 10, kTolerance);
}

TEST(AllocationTimelineTest, BucketsNeedNotAlignWithSegments) {
  // Three buckets of 4/3 h: [0, 80 min), [80 min, 160 min), [160 min, 240 min).
  //  0: train 2 x 4/3 + tune 1 x 1/3 = 3 GPU-h over 4 x 4/3: 0.5625;
  //  1: train 2 x 2/3 + tune 1 x 4/3 = 8/3 over 16/3: 0.5;
  //  2: tune 1 x 1/3 + 4 x 1 = 13/3 over 16/3: 0.8125.
  // Their mean, 0.625, is the whole run's 10 / 16.
  Feed feed(4, TwoJobs());
  PlayTwoJobs(feed);
  const SimTime third = 4 * kHour / 3;
  ExpectBuckets(UtilizationSeries(feed.timeline(), 3), {{0, third, 0, 0, 0.5625},
                                                        {third, 2 * third, 0, 0, 0.5},
                                                        {2 * third, 4 * kHour, 0, 0, 0.8125}});
}

TEST(AllocationTimelineTest, AServiceIsBusyOnlyUpToItsDemand) {
  // As in CapacityAccountingTest.AServiceIsUsefulOnlyUpToItsDemand: 4 GPUs; a service with
  // demand 1 GPU in even hours and 4 in odd hours holds 3 GPUs from 0 until the run ends at 3 h;
  // its first half hour is a start-up pause (overhead: busy at its 3 GPUs).
  // Busy: [0, 0.5 h) 3; [0.5 h, 1 h) min(3, 1) = 1; [1 h, 2 h) min(3, 4) = 3; [2 h, 3 h) 1.
  // Hourly buckets: (3 x 0.5 + 1 x 0.5) / 4 = 0.5; 3 / 4; 1 / 4. Busy 1.5 + 0.5 + 3 + 1 = 6 GPU-h
  // = useful 4.5 + overhead 1.5 of the accounting; the 3 GPU-h held above demand do not count.
  JobRequest service = Batch("svc", 3, JobKind::kRealtimeInference, 5);
  service.demand = DemandCurve{.step = kHour, .gpus = {1, 4}, .swap_cap = 0};
  Feed feed(4, {service});
  feed.Submit(0, 0);
  feed.Start(0, 0, Holding({0, 1, 2}, 3));
  feed.EndSegment(3 * kHour, 0, 0, Holding({0, 1, 2}, 3), SegmentEnd::kRunEnded,
                  Useful(5 * kHour / 2, kHour / 2));
  feed.End(3 * kHour);

  const AllocationTimelineData& t = feed.timeline();
  ASSERT_EQ(t.segments.size(), 1U);
  EXPECT_TRUE(t.segments[0].realtime);
  EXPECT_EQ(t.segments[0].kind, JobKind::kRealtimeInference);
  ASSERT_EQ(t.busy.size(), 4U);
  EXPECT_EQ(t.busy[0].start, 0);
  EXPECT_EQ(t.busy[0].end, kHour / 2);
  EXPECT_EQ(t.busy[0].gpus, 3);
  EXPECT_EQ(t.busy[1].start, kHour / 2);
  EXPECT_EQ(t.busy[1].end, kHour);
  EXPECT_EQ(t.busy[1].gpus, 1);
  EXPECT_EQ(t.busy[3].gpus, 1);
  ExpectBuckets(
      UtilizationSeries(t, 3),
      {{0, kHour, 0, 0, 0.5}, {kHour, 2 * kHour, 0, 0, 0.75}, {2 * kHour, 3 * kHour, 0, 0, 0.25}});
  EXPECT_NEAR(BusyGpuHours(t), 6, kTolerance);
  EXPECT_NEAR(AccountedBusy(feed.accounting()), 6, kTolerance);
  EXPECT_NEAR(feed.accounting().total.allocated_idle, 3, kTolerance);
}

TEST(AllocationTimelineTest, StepsOfEqualServedDemandMergeIntoOnePiece) {
  // A service holding 3 GPUs with demand 2, 2, 5 (capped at 3), 2 per hour, useful for 4 h:
  // pieces [0, 2 h) at 2, [2 h, 3 h) at 3, [3 h, 4 h) at 2.
  JobRequest service = Batch("svc", 3, JobKind::kRealtimeInference, 1);
  service.max_gpus = 5;
  service.demand = DemandCurve{.step = kHour, .gpus = {2, 2, 5, 2}, .swap_cap = 0};
  Feed feed(4, {service});
  feed.Submit(0, 0);
  feed.Start(0, 0, Holding({0, 1, 2}, 3));
  feed.EndSegment(4 * kHour, 0, 0, Holding({0, 1, 2}, 3), SegmentEnd::kFinished, Useful(4 * kHour));
  feed.End(4 * kHour);
  const std::vector<BusyPiece>& busy = feed.timeline().busy;
  ASSERT_EQ(busy.size(), 3U);
  EXPECT_EQ(busy[0].end, 2 * kHour);
  EXPECT_EQ(busy[0].gpus, 2);
  EXPECT_EQ(busy[1].gpus, 3);
  EXPECT_EQ(busy[2].start, 3 * kHour);
  EXPECT_NEAR(BusyGpuHours(feed.timeline()), 9, kTolerance);
  EXPECT_NEAR(AccountedBusy(feed.accounting()), 9, kTolerance);
}

TEST(AllocationTimelineTest, TheWindowOpensAtTheFirstSubmission) {
  // 2 GPUs; one job submitted at 1 h runs on GPU 1 over [1 h, 2 h); the run ends at 3 h.
  // Window [1 h, 3 h): two hourly buckets, 1/2 then 0.
  Feed feed(2, {Batch("late", 1, JobKind::kBatchInference, 2)});
  feed.Submit(kHour, 0);
  feed.Start(kHour, 0, Holding({1}, 1));
  feed.EndSegment(2 * kHour, 0, kHour, Holding({1}, 1), SegmentEnd::kFinished, Useful(kHour));
  feed.End(3 * kHour);
  EXPECT_EQ(feed.timeline().window_start, kHour);
  ExpectBuckets(UtilizationSeries(feed.timeline(), 2),
                {{kHour, 2 * kHour, 0, 0, 0.5}, {2 * kHour, 3 * kHour, 0, 0, 0}});
}

TEST(AllocationTimelineTest, GpusOfDownNodesAreNotUp) {
  // Two nodes of 2 GPUs (node 0: GPUs 0-1, node 1: GPUs 2-3). A job holds GPUs 0-1 over
  // [0, 2 h). Node 1 is down over [1 h, 2 h), and again from 3 h to the end of the run at 4 h.
  // Hourly buckets, busy / up: 2 / 4 = 0.5; 2 / 2 = 1; 0 / 4 = 0; 0 / 2 = 0.
  // Σ busy / Σ up = 4 / 12: the accounting's utilization, working time over capacity 16 - down 4.
  PoolSpec pool = testing::CatalogPool("hgx-h100", 2);
  pool.node.gpus_per_node = 2;
  pool.node.nvlink_domain_gpus = 2;
  pool.node.nodes_per_rack = 1;
  Feed feed(testing::FleetOf({pool}), {Batch("a", 2, JobKind::kPretraining, 1)});
  feed.Submit(0, 0);
  feed.Start(0, 0, Holding({0, 1}, 2));
  feed.NodeDown(kHour, 1, 2 * kHour);
  feed.EndSegment(2 * kHour, 0, 0, Holding({0, 1}, 2), SegmentEnd::kFinished, Useful(2 * kHour));
  feed.NodeBack(2 * kHour, 1);
  feed.NodeDown(3 * kHour, 1, 5 * kHour, NodeDownCause::kSpotReclaim);
  feed.End(4 * kHour);

  const AllocationTimelineData& t = feed.timeline();
  ASSERT_EQ(t.down.size(), 2U);
  EXPECT_EQ(t.down[0].cause, NodeDownCause::kHardwareFailure);
  EXPECT_EQ(t.down[1].cause, NodeDownCause::kSpotReclaim);
  EXPECT_EQ(t.down[0].start, kHour);
  EXPECT_EQ(t.down[0].end, 2 * kHour);
  EXPECT_EQ(t.down[0].first_gpu, 2U);
  EXPECT_EQ(t.down[0].gpus, 2);
  EXPECT_EQ(t.down[1].start, 3 * kHour);
  EXPECT_EQ(t.down[1].end, 4 * kHour) << "still down at the end: closed there";
  const std::vector<UtilizationBucket> series = UtilizationSeries(t, 4);
  ExpectBuckets(series, {{0, kHour, 0, 0, 0.5},
                         {kHour, 2 * kHour, 0, 0, 1},
                         {2 * kHour, 3 * kHour, 0, 0, 0},
                         {3 * kHour, 4 * kHour, 0, 0, 0}});
  EXPECT_NEAR(series[1].busy_gpu_hours, 2, kTolerance);
  EXPECT_NEAR(series[1].up_gpu_hours, 2, kTolerance);
  EXPECT_NEAR(series[2].up_gpu_hours, 4, kTolerance);
  double busy = 0;
  double up = 0;
  for (const UtilizationBucket& b : series) {
    busy += b.busy_gpu_hours;
    up += b.up_gpu_hours;
  }
  EXPECT_NEAR(busy / up, 1.0 / 3, kTolerance);
  EXPECT_NEAR(feed.accounting().utilization, 1.0 / 3, kTolerance);
}

TEST(AllocationTimelineTest, NoBucketsForAnEmptyWindowOrNoBucketsAsked) {
  Feed feed(2, {Batch("never", 1, JobKind::kBatchInference, 1)});
  feed.End(0);
  EXPECT_TRUE(UtilizationSeries(feed.timeline(), 96).empty());
  Feed two(4, TwoJobs());
  PlayTwoJobs(two);
  EXPECT_TRUE(UtilizationSeries(two.timeline(), 0).empty());
  // More buckets than milliseconds in the window: the empty ones are dropped, the rest still
  // cover it.
  AllocationTimelineData tiny = two.timeline();
  tiny.window_end = 3;
  const std::vector<UtilizationBucket> series = UtilizationSeries(tiny, 5);
  ASSERT_EQ(series.size(), 3U);
  EXPECT_EQ(series.front().start, 0);
  EXPECT_EQ(series.back().end, 3);
}

TEST(AllocationTimelineTest, TakeDataLeavesAnEmptyTimeline) {
  AllocationTimeline timeline;
  const FleetLedger fleet(FleetSpec{.gpus = 2});
  const std::vector<JobRequest> jobs = {Batch("a", 1, JobKind::kBatchInference, 1)};
  const PlacementSummary one = Holding({0}, 1);
  timeline.OnRunStarted({0, 2, jobs, fleet.pools(), NodesAtStart(fleet)});
  timeline.OnJobSubmitted({0, 0, jobs[0]});
  timeline.OnJobSegmentEnded({kHour, 0, jobs[0], 0, one, SegmentEnd::kFinished, Useful(kHour)});
  timeline.OnRunEnded({kHour});
  const AllocationTimelineData data = timeline.TakeData();
  EXPECT_EQ(data.segments.size(), 1U);
  EXPECT_EQ(data.busy.size(), 1U);
  EXPECT_TRUE(timeline.data().segments.empty());
  EXPECT_TRUE(timeline.data().busy.empty());
}

// ---- Real runs ----------------------------------------------------------------------------------

class AllocationTimelineRunTest : public ::testing::TestWithParam<std::string> {};

TEST_P(AllocationTimelineRunTest, BusyTimeMatchesTheAccountingAndNoGpuIsHeldTwice) {
  const PolicyRegistry registry = BuiltinPolicies();
  const LoadResult loaded = LoadScenarioFile(
      testing::SourcePath("scenarios/benchmark/01-training-heavy.json"), registry, {});
  ASSERT_TRUE(loaded.scenario) << loaded.file_status << loaded.diagnostics.Format("scenario");
  const Scenario& scenario = *loaded.scenario;
  const PolicyChoice policy = ChoosePolicy(scenario, registry, GetParam());
  RunOptions options;
  options.seed = scenario.seed;
  options.record_timeline = true;
  const RunOutcome outcome = RunScenario(scenario, registry, policy, options);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.message();
  const RunReport& report = outcome.report;
  ASSERT_TRUE(report.timeline);
  const AllocationTimelineData& t = *report.timeline;
  EXPECT_EQ(t.fleet_gpus, 8);
  EXPECT_EQ(t.window_start, report.accounting.window_start);
  EXPECT_EQ(t.window_end, report.accounting.window_end);
  EXPECT_GE(t.segments.size(), static_cast<std::size_t>(report.metrics.jobs_completed));

  // Busy GPU-time is the accounting's working time, and the buckets add up to its utilization.
  const double busy = AccountedBusy(report.accounting);
  EXPECT_NEAR(BusyGpuHours(t), busy, 1e-6);
  const std::vector<UtilizationBucket> series = UtilizationSeries(t, 96);
  ASSERT_EQ(series.size(), 96U);
  EXPECT_EQ(series[1].end - series[1].start, 15 * 60 * 1000) << "15-minute buckets over 24 h";
  double busy_sum = 0;
  double up_sum = 0;
  double mean = 0;
  for (const UtilizationBucket& b : series) {
    EXPECT_GE(b.utilization, 0);
    EXPECT_LE(b.utilization, 1 + 1e-12);
    busy_sum += b.busy_gpu_hours;
    up_sum += b.up_gpu_hours;
    mean += b.utilization / 96;
  }
  EXPECT_NEAR(busy_sum, busy, 1e-6);
  EXPECT_NEAR(busy_sum / up_sum, report.accounting.utilization, 1e-9);
  EXPECT_NEAR(mean, report.accounting.utilization, 1e-9) << "no node down: the plain mean";

  // Whole-GPU jobs only: no GPU is in two segments at once.
  std::map<GpuId, std::vector<std::pair<SimTime, SimTime>>> by_gpu;
  for (const TimelineSegment& segment : t.segments) {
    EXPECT_LE(segment.start, segment.end) << "a job started at the last instant has an empty one";
    for (const GpuId gpu : segment.gpus) {
      ASSERT_LT(gpu, 8U);
      by_gpu[gpu].emplace_back(segment.start, segment.end);
    }
  }
  for (auto& [gpu, spans] : by_gpu) {
    std::sort(spans.begin(), spans.end());
    for (std::size_t i = 1; i < spans.size(); ++i) {
      EXPECT_LE(spans[i - 1].second, spans[i].first) << "GPU " << gpu << " held twice";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, AllocationTimelineRunTest,
                         ::testing::Values("fifo", "constraint-aware"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(AllocationTimelineTest, RunsRecordNoTimelineUnlessAsked) {
  const PolicyRegistry registry = BuiltinPolicies();
  const LoadResult loaded = LoadScenarioFile(
      testing::SourcePath("scenarios/benchmark/01-training-heavy.json"), registry, {});
  ASSERT_TRUE(loaded.scenario);
  const RunOutcome outcome =
      RunScenario(*loaded.scenario, registry, loaded.scenario->policy, RunOptions{});
  ASSERT_TRUE(outcome.status.ok());
  EXPECT_FALSE(outcome.report.timeline);
}

}  // namespace
}  // namespace fleetsim
