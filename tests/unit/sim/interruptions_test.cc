// Interruptions in the engine: the checkpoint/restart model of JobProgress worked by hand, spot
// notices with and without an emergency checkpoint, reclaims, hardware failures and repairs,
// that a spot rate of zero changes nothing, determinism, and the statistics of the processes:
// over many seeds the counts match the configured rates within confidence bounds, and no stop
// loses more than one checkpoint interval plus the notice.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>

#include "fleetsim/policy/registry.h"
#include "fleetsim/sim/job_progress.h"
#include "fleetsim/sim/simulation.h"
#include "testutil/fleets.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

using testing::AddJob;
using testing::CatalogPool;
using testing::FleetOf;

constexpr SimDuration kSecond = 1000;
constexpr SimDuration kHour = 3'600'000;

// ---- The progress model, by hand. ----

TEST(JobProgressTest, CheckpointsLengthenTheRunAndEveryMillisecondIsAccounted) {
  JobProgress progress;
  // 35 s of computing, a 2 s checkpoint every 10 s: checkpoints after 10, 20 and 30 s of
  // computing, none at the end: 35 + 3 x 2 = 41 s.
  EXPECT_EQ(
      progress.StartSegment(0, 35 * kSecond, 0, PauseKind::kRestart, {10 * kSecond, 2 * kSecond}),
      41 * kSecond);
  // Stopped at 25 s of wall time: two whole cycles (computing 20 s, checkpoints 4 s) and 1 s of
  // computing since the last checkpoint, which is lost.
  const SegmentAccount stopped = progress.EndSegment(25 * kSecond, Keep::kSaved);
  EXPECT_EQ(stopped.useful, 20 * kSecond);
  EXPECT_EQ(stopped.lost, 1 * kSecond);
  EXPECT_EQ(stopped.overhead, 4 * kSecond);
  EXPECT_EQ(stopped.total(), 25 * kSecond);
  EXPECT_NEAR(progress.done(), 20.0 / 35, 1e-12);
  // It resumes after a 3 s restart pause: 15 s left, one checkpoint on the way: 3 + 15 + 2.
  EXPECT_EQ(progress.StartSegment(100 * kSecond, 35 * kSecond, 3 * kSecond, PauseKind::kRestart,
                                  {10 * kSecond, 2 * kSecond}),
            20 * kSecond);
  const SegmentAccount finished = progress.EndSegment(120 * kSecond, Keep::kAll);
  EXPECT_EQ(finished.useful, 15 * kSecond);
  EXPECT_EQ(finished.lost, 0);
  EXPECT_EQ(finished.overhead, 5 * kSecond);  // 3 s restart + one 2 s checkpoint
  EXPECT_NEAR(progress.done(), 1.0, 1e-12);
}

TEST(JobProgressTest, ACheckpointInProgressSavesNothingAndAResizeIsReconfiguration) {
  JobProgress progress;
  progress.StartSegment(0, 100 * kSecond, 0, PauseKind::kRestart, {10 * kSecond, 4 * kSecond});
  // At 12 s it is 2 s into its first checkpoint: 10 s computed, none saved yet.
  const SegmentAccount stopped = progress.EndSegment(12 * kSecond, Keep::kSaved);
  EXPECT_EQ(stopped.useful, 0);
  EXPECT_EQ(stopped.lost, 10 * kSecond);
  EXPECT_EQ(stopped.overhead, 2 * kSecond);
  progress.StartSegment(20 * kSecond, 100 * kSecond, 5 * kSecond, PauseKind::kReconfiguration, {});
  const SegmentAccount resized = progress.EndSegment(30 * kSecond, Keep::kAll);
  EXPECT_EQ(resized.reconfiguration, 5 * kSecond);
  EXPECT_EQ(resized.useful, 5 * kSecond);
  EXPECT_EQ(resized.overhead, 0);
}

// ---- Runs. ----

// Records every event as a line of text, and keeps the stops and node events for checks.
class Recorder final : public SimulationObserver {
 public:
  struct Stop {
    JobIndex job;
    StopCause cause;
    SimDuration lost;
    bool emergency;
  };

  void OnJobStarted(const JobStarted& e) override {
    Line("start {} {} gpus={}", e.time, e.request.id, fmt::join(e.summary.gpus, ","));
  }
  void OnJobFinished(const JobFinished& e) override { Line("finish {} {}", e.time, e.request.id); }
  void OnJobPreempted(const JobPreempted& e) override {
    Line("stop {} {} {} lost={} emergency={}", e.time, e.request.id, StopCauseName(e.cause),
         e.lost_run_time, e.emergency_checkpoint);
    stops.push_back({e.job, e.cause, e.lost_run_time, e.emergency_checkpoint});
  }
  void OnJobSegmentEnded(const JobSegmentEnded& e) override {
    Line("segment {} {} useful={} lost={} overhead={} reconf={}", e.time, e.request.id,
         e.account.useful, e.account.lost, e.account.overhead, e.account.reconfiguration);
    useful[e.job] += e.account.useful;
    EXPECT_EQ(e.account.total(), e.time - e.start);
  }
  void OnNodeNoticed(const NodeNoticed& e) override {
    Line("notice {} node={} at={} wave={}", e.time, e.node, e.reclaim_at, e.wave);
    ++notices;
    waves += e.wave ? 1 : 0;
  }
  void OnNodeWentDown(const NodeWentDown& e) override {
    Line("down {} node={} back={}", e.time, e.node, e.back_at);
    ++(e.cause == NodeDownCause::kSpotReclaim ? reclaims : failures);
    down_since[e.node] = e.time;
  }
  void OnNodeCameBack(const NodeCameBack& e) override {
    Line("up {} node={}", e.time, e.node);
    down_time += e.time - down_since[e.node];
    down_since.erase(e.node);
  }
  void OnRunEnded(const RunEnded& e) override {
    for (const auto& [node, since] : down_since) {
      down_time += e.time - since;
    }
    Line("end {}", e.time);
  }

  std::string log;
  std::vector<Stop> stops;
  std::map<JobIndex, SimDuration> useful;
  std::int64_t notices = 0;
  std::int64_t waves = 0;
  std::int64_t reclaims = 0;
  std::int64_t failures = 0;
  SimDuration down_time = 0;  // node-milliseconds

 private:
  template <typename... Args>
  void Line(fmt::format_string<Args...> format, Args&&... args) {
    log += fmt::format(format, std::forward<Args>(args)...);
    log += '\n';
  }
  std::map<NodeId, SimTime> down_since;
};

PoolSpec SpotPool(std::int64_t nodes, double per_node_hour, SimDuration notice,
                  SimDuration replacement) {
  PoolSpec pool = CatalogPool("hgx-h100", nodes, "spot");
  pool.tier = PriceTier::kSpot;
  pool.spot.per_node_hour = per_node_hour;
  pool.spot.notice = notice;
  pool.spot.replacement_delay = replacement;
  return pool;
}

struct RunResult {
  Status status;
  Recorder recorder;
};

// Runs `workload` under `policy` until `limit` (or until no job is left).
void RunOn(const FleetSpec& fleet, const Workload& workload, std::uint64_t seed, RunResult& run,
           SimTime limit = kTimeNever, const std::string& policy = "fifo") {
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* info = registry.Find(policy);
  SimulationOptions options;
  options.seed = seed;
  Simulation sim(fleet, workload, info->make(DefaultParams(*info)), policy, options);
  sim.AddObserver(&run.recorder);
  run.status = sim.RunUntil(limit);
  sim.Finish();
}

Workload CheckpointingJobs(int count, SimDuration cost) {
  Workload w;
  for (int i = 0; i < count; ++i) {
    Job& job = AddJob(w, fmt::format("train-{:02}", i), i * 60.0, 8, 6 * 3600.0);
    job.request.checkpoint_interval = 1800 * kSecond;
    job.request.checkpoint_cost = cost;
  }
  return w;
}

TEST(InterruptionTest, AnEmergencyCheckpointWithinTheNoticeSavesEverything) {
  // Four spot nodes reclaimed about every 5 hours each with AWS's 120 s notice; 30 s checkpoints.
  const FleetSpec fleet = FleetOf({SpotPool(4, 0.2, 120 * kSecond, 600 * kSecond)});
  RunResult run;
  RunOn(fleet, CheckpointingJobs(8, 30 * kSecond), 7, run);
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  ASSERT_GT(run.recorder.stops.size(), 0U) << "the seed gives no reclaim; pick another";
  for (const Recorder::Stop& stop : run.recorder.stops) {
    EXPECT_EQ(stop.cause, StopCause::kSpotReclaim);
    EXPECT_EQ(stop.lost, 0);
    EXPECT_TRUE(stop.emergency);
  }
  for (const auto& [job, useful] : run.recorder.useful) {  // every job's work, done exactly once
    EXPECT_NEAR(static_cast<double>(useful), 6.0 * kHour, 10) << job;
  }
}

TEST(InterruptionTest, WithoutTimeToSaveTheWorkSinceTheLastCheckpointIsLost) {
  // GCP's 30 s notice is shorter than the 60 s checkpoint: each reclaim loses up to an interval.
  const FleetSpec fleet = FleetOf({SpotPool(4, 0.2, 30 * kSecond, 600 * kSecond)});
  RunResult run;
  RunOn(fleet, CheckpointingJobs(8, 60 * kSecond), 7, run);
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  ASSERT_GT(run.recorder.stops.size(), 0U);
  SimDuration lost = 0;
  for (const Recorder::Stop& stop : run.recorder.stops) {
    EXPECT_FALSE(stop.emergency);
    EXPECT_LE(stop.lost, 1800 * kSecond);
    lost += stop.lost;
  }
  EXPECT_GT(lost, 0);
}

TEST(InterruptionTest, AFailureStopsItsJobsAtOnceAndTheNodeIsRepaired) {
  PoolSpec pool = CatalogPool("hgx-h100", 2);
  pool.failures = {.per_gpu_hour = 0.01, .repair = 4 * kHour};  // a node fails every ~12.5 h
  Workload w;
  for (int i = 0; i < 6; ++i) {
    AddJob(w, fmt::format("job-{}", i), i * 3600.0, 8, 10 * 3600.0);
  }
  RunResult run;
  RunOn(FleetOf({pool}), w, 3, run);
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  ASSERT_GT(run.recorder.failures, 0);
  EXPECT_EQ(run.recorder.reclaims, 0);
  EXPECT_EQ(run.recorder.notices, 0);
  for (const Recorder::Stop& stop : run.recorder.stops) {
    EXPECT_EQ(stop.cause, StopCause::kHardwareFailure);
    EXPECT_FALSE(stop.emergency);
  }
  EXPECT_NE(run.recorder.log.find("hardware-failure"), std::string::npos);
}

TEST(InterruptionTest, ASpotRateOfZeroChangesNothing) {
  // The same fleet with failures on its reserved pool: once with a spot pool that has no spot
  // block, once with one whose rates are zero. Every pool draws from its own streams.
  const Workload w = testing::RichWorkload(5, 300, true);
  PoolSpec failing = CatalogPool("hgx-b200", 2, "reserved");
  failing.failures = {.per_gpu_hour = 0.005, .repair = kHour};
  PoolSpec no_block = SpotPool(4, 0, 0, 0);
  const PoolSpec zero_rate = SpotPool(4, 0, 120 * kSecond, 600 * kSecond);
  RunResult a;
  RunResult b;
  RunOn(FleetOf({failing, no_block}), w, 1, a);
  RunOn(FleetOf({failing, zero_rate}), w, 1, b);
  ASSERT_TRUE(a.status.ok()) << a.status.message();
  EXPECT_EQ(a.recorder.log, b.recorder.log);
  EXPECT_GT(b.recorder.failures, 0);
  EXPECT_EQ(b.recorder.notices, 0);
}

FleetSpec StormyFleet() {
  PoolSpec spot = SpotPool(6, 0.05, 120 * kSecond, 900 * kSecond);
  spot.spot.waves_per_day = 1;
  spot.spot.wave_nodes = 3;
  PoolSpec reserved = CatalogPool("hgx-b200", 2, "reserved");
  reserved.tier = PriceTier::kReserved;
  reserved.failures = {.per_gpu_hour = 0.002, .repair = 2 * kHour};
  return FleetOf({reserved, spot});
}

TEST(InterruptionTest, RunsWithInterruptionsAreDeterministic) {
  const Workload w = testing::RichWorkload(11, 400, true);
  for (const char* policy : {"fifo", "backfill", "fair-share", "constraint-aware"}) {
    RunResult a;
    RunResult b;
    RunOn(StormyFleet(), w, 42, a, kTimeNever, policy);
    RunOn(StormyFleet(), w, 42, b, kTimeNever, policy);
    ASSERT_TRUE(a.status.ok()) << policy << ": " << a.status.message();
    EXPECT_EQ(a.recorder.log, b.recorder.log) << policy;
    EXPECT_GT(a.recorder.notices + a.recorder.failures, 0) << policy;
  }
}

TEST(InterruptionTest, NoStopLosesMoreThanAnIntervalPlusTheNotice) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Workload w = testing::RichWorkload(seed, 300, true);
    RunResult run;
    RunOn(StormyFleet(), w, seed, run, kTimeNever, "first-fit");
    ASSERT_TRUE(run.status.ok()) << run.status.message();
    for (const Recorder::Stop& stop : run.recorder.stops) {
      const JobRequest& r = w.jobs[stop.job].request;
      if (r.checkpoint_interval > 0) {
        EXPECT_LE(stop.lost, r.checkpoint_interval + 120 * kSecond) << r.id;
      }
      if (r.demand) {
        EXPECT_EQ(stop.lost, 0) << r.id;  // a real-time service keeps no state to lose
      }
    }
  }
}

// ---- The processes' statistics, on an idle fleet observed for a long time. ----

// |observed - expected| within 4.5 standard deviations of a Poisson count (a false alarm about
// once in 150,000 checks).
void ExpectPoissonCount(std::int64_t observed, double expected, const std::string& what) {
  EXPECT_LE(std::abs(static_cast<double>(observed) - expected), 4.5 * std::sqrt(expected))
      << what << ": observed " << observed << ", expected " << expected;
}

TEST(InterruptionStatisticsTest, ReclaimsComeAtTheConfiguredRatePerNodeHourUp) {
  constexpr double kRate = 0.02;  // per node-hour
  constexpr std::int64_t kNodes = 20;
  constexpr SimTime kHorizon = 2000 * kHour;
  std::int64_t total = 0;
  double up_hours_total = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    // Notice and replacement delay take nodes out of the process while they last.
    RunResult run;
    RunOn(FleetOf({SpotPool(kNodes, kRate, 120 * kSecond, 6 * kHour)}), Workload{}, seed, run,
          kHorizon);
    ASSERT_TRUE(run.status.ok());
    EXPECT_LE(run.recorder.notices - run.recorder.reclaims, kNodes);  // the last ones may be due
    // Up time: all node-hours less those down and those under notice.
    const double up_hours = static_cast<double>(kNodes * kHorizon - run.recorder.down_time -
                                                run.recorder.notices * 120 * kSecond) /
                            kHour;
    ExpectPoissonCount(run.recorder.notices, kRate * up_hours, fmt::format("seed {}", seed));
    total += run.recorder.notices;
    up_hours_total += up_hours;
  }
  ExpectPoissonCount(total, kRate * up_hours_total, "20 seeds together");
}

TEST(InterruptionStatisticsTest, WavesAndFailuresComeAtTheirRates) {
  PoolSpec spot = SpotPool(10, 0, 30 * kSecond, 0);
  spot.spot.waves_per_day = 2;
  spot.spot.wave_nodes = 4;
  PoolSpec failing = CatalogPool("hgx-b200", 10, "reserved");
  failing.failures = {.per_gpu_hour = 1e-4, .repair = 1};  // 8e-4 per node-hour, back in 1 ms
  constexpr SimTime kHorizon = 5000 * kHour;
  std::int64_t waves = 0;
  std::int64_t failures = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    RunResult run;
    RunOn(FleetOf({spot, failing}), Workload{}, seed, run, kHorizon);
    ASSERT_TRUE(run.status.ok());
    // A wave comes with replacement 0: all four nodes are up again 30 s after its notice.
    EXPECT_EQ(run.recorder.waves % 4, 0);
    waves += run.recorder.waves / 4;
    failures += run.recorder.failures;
  }
  ExpectPoissonCount(waves, 20 * 2.0 * 5000 / 24, "waves");
  ExpectPoissonCount(failures, 20 * 10 * 8e-4 * 5000, "failures");
}

}  // namespace
}  // namespace fleetsim

namespace fleetsim {
namespace {

// ---- Edge cases: what a policy may do around a notice, and when a run ends. ----

class Scripted final : public Policy {
 public:
  using Script = std::function<std::vector<Decision>(const ClusterView&)>;
  explicit Scripted(Script script) : script_(std::move(script)) {}
  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& /*planner*/) override {
    return script_(view);
  }

 private:
  Script script_;
};

Allocation Whole(GpuId first, GpuId count) {
  Allocation a;
  for (GpuId g = first; g < first + count; ++g) {
    a.gpus.push_back(Grant::Whole(g));
  }
  return a;
}

// One spot HGX node announced within minutes (10 reclaims per node-hour) with an hour's notice.
FleetSpec NoticedSoon() { return FleetOf({SpotPool(1, 10, kHour, kHour)}); }

TEST(InterruptionEdgeTest, AResizeOntoACordonedNodeIsRefusedAndTheJobKeepsItsGpus) {
  Workload w;
  Job& svc = AddJob(w, "svc", 0, 2, 10 * 3600.0);
  svc.request.max_gpus = 8;
  bool resized = false;
  Simulation sim(NoticedSoon(), w, std::make_unique<Scripted>([&](const ClusterView& view) {
                   std::vector<Decision> d;
                   if (view.now() == 0) {
                     d.push_back(StartJob{0, Whole(0, 8)});
                   } else if (!view.changes().nodes_changed.empty() && !resized) {
                     resized = true;
                     d.push_back(ResizeJob{0, Whole(0, 4)});  // shrink in place
                   }
                   return d;
                 }),
                 "scripted");
  const Status status = sim.RunUntilIdle();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("resize job 'svc'"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("is cordoned"), std::string::npos) << status.message();
  EXPECT_EQ(sim.fleet_state().IsHeldWhole(7), true);  // the old placement is back
}

TEST(InterruptionEdgeTest, PreemptingAJobThatIsLeavingChangesNothing) {
  Workload w;
  Job& job = AddJob(w, "train", 0, 8, 10 * 3600.0);
  job.request.preemptible = true;
  job.request.checkpoint_interval = kHour;
  job.request.checkpoint_cost = 60 * kSecond;
  Simulation sim(NoticedSoon(), w, std::make_unique<Scripted>([](const ClusterView& view) {
                   std::vector<Decision> d;
                   if (!view.queue().empty() && view.FreeWholeGpus() == 8) {
                     d.push_back(StartJob{0, Whole(0, 8)});
                   }
                   for (const RunningJob& running : view.running()) {
                     if (running.leaving) {
                       d.push_back(PreemptJob{running.job, "make room"});
                     }
                   }
                   return d;
                 }),
                 "scripted");
  Recorder recorder;
  sim.AddObserver(&recorder);
  const Status status = sim.RunUntil(30 * kHour);
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_FALSE(recorder.stops.empty());
  EXPECT_EQ(recorder.stops[0].cause, StopCause::kSpotReclaim);
  EXPECT_TRUE(recorder.stops[0].emergency);
}

TEST(InterruptionEdgeTest, APolicyThatNeverStartsIsADeadlockEvenWhileNodesKeepFailing) {
  PoolSpec pool = CatalogPool("hgx-h100", 2);
  pool.failures = {.per_gpu_hour = 0.01, .repair = kHour};
  Workload w;
  AddJob(w, "a", 0, 1, 60);
  Simulation sim(FleetOf({pool}), w, std::make_unique<Scripted>([](const ClusterView&) {
                   return std::vector<Decision>{};
                 }),
                 "idle");
  const Status status = sim.RunUntilIdle();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("(deadlock)"), std::string::npos) << status.message();
  EXPECT_LT(sim.now(), 30 * 24 * kHour);  // found at once, not after days of failures
}

TEST(InterruptionEdgeTest, TheRunEndsWithTheLastJobNotAtAStaleCompletion) {
  Workload w;
  Job& a = testing::AddWorkJob(w, "a", 0, 2, 8.0);  // 4 h on 2 GPUs
  a.request.max_gpus = 8;
  Simulation sim({.gpus = 8}, w, std::make_unique<Scripted>([](const ClusterView& view) {
                   std::vector<Decision> d;
                   if (view.now() == 0) {
                     d.push_back(StartJob{0, Whole(0, 2)});
                     d.push_back(WakeAt{kHour});
                   } else if (view.now() == kHour) {
                     d.push_back(ResizeJob{0, Whole(0, 8)});  // 6 GPU-h left: 45 min more
                   }
                   return d;
                 }),
                 "scripted");
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  EXPECT_EQ(sim.now(), kHour + 45 * 60 * kSecond);  // not 4 h, the first placement's finish
}

}  // namespace
}  // namespace fleetsim
