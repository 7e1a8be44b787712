// The simulation loop: job life cycle, same-instant ordering, admission rejection, stopping at a
// time, two simulations in one process, and loud failure on illegal policy decisions.
#include "fleetsim/sim/simulation.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "fleetsim/metrics/job_log.h"
#include "fleetsim/metrics/run_metrics.h"
#include "fleetsim/policy/registry.h"
#include "testutil/fleets.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

using testing::AddJob;

std::unique_ptr<Policy> Fifo() {
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* info = registry.Find("fifo");
  return info->make(DefaultParams(*info));
}

StartJob Start(JobIndex job, const std::vector<GpuId>& gpus) { return {job, WholeGpus(gpus)}; }

// The GPUs each job started on, by job index.
class PlacementRecorder final : public SimulationObserver {
 public:
  void OnJobStarted(const JobStarted& event) override { gpus[event.job] = event.summary.gpus; }
  std::map<JobIndex, std::vector<GpuId>> gpus;
};

// A policy whose decisions a test scripts, with or without the call's placement planner.
class ScriptedPolicy final : public Policy {
 public:
  using Script = std::function<std::vector<Decision>(const ClusterView&)>;
  using PlanningScript =
      std::function<std::vector<Decision>(const ClusterView&, PlacementPlanner&)>;
  explicit ScriptedPolicy(Script script)
      : script_([script = std::move(script)](const ClusterView& view, PlacementPlanner&) {
          return script(view);
        }) {}
  explicit ScriptedPolicy(PlanningScript script) : script_(std::move(script)) {}
  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& planner) override {
    return script_(view, planner);
  }

 private:
  PlanningScript script_;
};

// The `count` lowest-numbered GPUs free to take whole (fewer if the fleet has fewer).
std::vector<GpuId> LowestFreeWhole(const ClusterView& view, std::int64_t count) {
  std::vector<GpuId> gpus;
  for (GpuId g = 0; g < view.gpus() && static_cast<std::int64_t>(gpus.size()) < count; ++g) {
    if (view.IsFreeWhole(g)) {
      gpus.push_back(g);
    }
  }
  return gpus;
}

// Rejects every queued job (so a scripted run that starts nothing still ends without a deadlock).
std::vector<Decision> RejectAll(const ClusterView& view) {
  std::vector<Decision> decisions;
  for (const JobIndex job : view.queue()) {
    decisions.push_back(RejectJob{job, "test over"});
  }
  return decisions;
}

TEST(SimulationTest, FifoRunsJobsToCompletionInOrder) {
  Workload w;
  AddJob(w, "a", 0, 4, 100);
  AddJob(w, "b", 10, 8, 50);
  AddJob(w, "c", 20, 2, 10);
  Simulation sim({.gpus = 8}, w, Fifo(), "fifo");
  JobLog log;
  sim.AddObserver(&log);
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  sim.Finish();
  const auto& rows = log.rows();
  ASSERT_EQ(rows.size(), 3U);
  EXPECT_EQ(rows[0].start, 0);
  EXPECT_EQ(rows[1].start, 100'000);  // waits for a: head-of-line blocking holds c back too
  EXPECT_EQ(rows[2].start, 150'000);
  EXPECT_EQ(rows[2].end, 160'000);
  EXPECT_EQ(sim.now(), 160'000);
  for (const auto& row : rows) {
    EXPECT_EQ(row.state, FinalState::kCompleted);
  }
}

TEST(SimulationTest, CapacityReleasedAtAnInstantIsVisibleToArrivalsAtThatInstant) {
  Workload w;
  AddJob(w, "a", 0, 8, 100);
  AddJob(w, "b", 100, 8, 10);  // arrives exactly when a finishes
  Simulation sim({.gpus = 8}, w, Fifo(), "fifo");
  JobLog log;
  sim.AddObserver(&log);
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  sim.Finish();
  EXPECT_EQ(log.rows()[1].start, 100'000);
}

TEST(SimulationTest, PolicyIsCalledOncePerInstantAfterAllArrivals) {
  Workload w;
  AddJob(w, "a", 5, 1, 1);
  AddJob(w, "b", 5, 1, 1);
  AddJob(w, "c", 5, 1, 1);
  std::vector<std::size_t> queue_sizes;
  auto policy = std::make_unique<ScriptedPolicy>([&](const ClusterView& view) {
    queue_sizes.push_back(view.queue().size());
    return RejectAll(view);
  });
  Simulation sim({.gpus = 8}, w, std::move(policy), "scripted");
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  EXPECT_EQ(queue_sizes, (std::vector<std::size_t>{3}));
}

TEST(SimulationTest, JobLargerThanFleetIsRejectedAtAdmissionWithReason) {
  Workload w;
  AddJob(w, "big", 0, 16, 10);
  AddJob(w, "ok", 0, 8, 10);
  Simulation sim({.gpus = 8}, w, Fifo(), "fifo");
  JobLog log;
  sim.AddObserver(&log);
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  sim.Finish();
  EXPECT_EQ(log.rows()[0].state, FinalState::kRejected);
  EXPECT_EQ(log.rows()[0].reason, "needs 16 GPUs; the whole fleet has 8");
  EXPECT_EQ(log.rows()[1].state, FinalState::kCompleted);
}

TEST(SimulationTest, RunUntilStopsAndCanContinue) {
  Workload w;
  AddJob(w, "a", 0, 8, 100);
  AddJob(w, "b", 50, 8, 100);
  AddJob(w, "c", 500, 1, 1);
  Simulation sim({.gpus = 8}, w, Fifo(), "fifo");
  ASSERT_TRUE(sim.RunUntil(SecondsToTime(150)).ok());
  EXPECT_EQ(sim.now(), 150'000);
  EXPECT_EQ(sim.state(0), JobState::kCompleted);
  EXPECT_EQ(sim.state(1), JobState::kRunning);
  EXPECT_EQ(sim.state(2), JobState::kPending);
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  EXPECT_EQ(sim.state(2), JobState::kCompleted);
  EXPECT_EQ(sim.now(), 501'000);
}

TEST(SimulationTest, WakeAtCallsThePolicyAgain) {
  Workload w;
  AddJob(w, "a", 0, 1, 10);
  std::vector<SimTime> calls;
  auto policy = std::make_unique<ScriptedPolicy>([&](const ClusterView& view) {
    calls.push_back(view.now());
    std::vector<Decision> d;
    if (view.now() == 0) {
      d.push_back(WakeAt{SecondsToTime(30)});
    } else if (!view.queue().empty()) {
      d.push_back(StartJob{view.queue().front(), WholeGpus(LowestFreeWhole(view, 1))});
    }
    return d;
  });
  Simulation sim({.gpus = 2}, w, std::move(policy), "scripted");
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  EXPECT_EQ(calls, (std::vector<SimTime>{0, 30'000, 40'000}));
  EXPECT_EQ(sim.state(0), JobState::kCompleted);
}

// A wake-up asked for while a job waited, due after the last job finished: the run (and so the
// metrics window) ends at the last completion, not at the wake-up.
TEST(SimulationTest, AWakeUpDueAfterTheLastJobDoesNotExtendTheRun) {
  Workload w;
  AddJob(w, "a", 0, 2, 10);
  AddJob(w, "b", 5, 2, 10);  // waits for a
  std::vector<SimTime> calls;
  auto policy = std::make_unique<ScriptedPolicy>([&](const ClusterView& view) {
    calls.push_back(view.now());
    std::vector<Decision> d;
    if (!view.queue().empty() && view.IsFreeWhole(0)) {
      d.push_back(Start(view.queue().front(), {0, 1}));
    }
    if (!view.queue().empty()) {
      d.push_back(WakeAt{view.now() + SecondsToTime(3600)});
    }
    return d;
  });
  Simulation sim({.gpus = 2}, w, std::move(policy), "scripted");
  RunMetrics metrics;
  sim.AddObserver(&metrics);
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  sim.Finish();
  EXPECT_EQ(sim.state(1), JobState::kCompleted);
  EXPECT_EQ(sim.now(), 20'000);
  EXPECT_EQ(metrics.summary().window_end, 20'000);
  EXPECT_EQ(calls, (std::vector<SimTime>{0, 5'000, 10'000, 20'000}));  // the last call: at 20 s
}

TEST(SimulationTest, WakeUpAtAnInstantAlreadySeenDoesNotCallAgain) {
  Workload w;
  AddJob(w, "a", 0, 1, 10);
  AddJob(w, "b", 30, 1, 10);
  std::vector<SimTime> calls;
  auto policy = std::make_unique<ScriptedPolicy>([&](const ClusterView& view) {
    calls.push_back(view.now());
    std::vector<Decision> d;
    if (view.now() == 0) {
      d.push_back(WakeAt{SecondsToTime(30)});  // coincides with b's arrival
      d.push_back(WakeAt{SecondsToTime(30)});
      return d;
    }
    return RejectAll(view);
  });
  Simulation sim({.gpus = 2}, w, std::move(policy), "scripted");
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  EXPECT_EQ(calls, (std::vector<SimTime>{0, 30'000}));
}

TEST(SimulationTest, PoliciesSeeOnlySubmittedJobs) {
  Workload w;
  AddJob(w, "now", 0, 1, 10);
  AddJob(w, "later", 100, 1, 10);
  auto policy = std::make_unique<ScriptedPolicy>([](const ClusterView& view) {
    EXPECT_EQ(view.request(0).id, "now");
    if (view.now() == 0) {
      EXPECT_DEATH(view.request(1), "a policy looked up a job that was not submitted");
      return std::vector<Decision>{};
    }
    return RejectAll(view);
  });
  Simulation sim({.gpus = 2}, w, std::move(policy), "scripted");
  ASSERT_TRUE(sim.RunUntilIdle().ok());
}

TEST(SimulationTest, RunUntilObservesTheFleetUntilTheStopTimeEvenWhenIdle) {
  Workload w;
  AddJob(w, "a", 0, 1, 10);
  Simulation sim({.gpus = 2}, w, Fifo(), "fifo");
  ASSERT_TRUE(sim.RunUntil(SecondsToTime(100)).ok());
  EXPECT_EQ(sim.now(), 100'000);
}

TEST(SimulationTest, StaticMigGpusAreNeverGivenWholeAndAdmissionCountsOnlyWholeGpus) {
  PoolSpec mig = testing::CatalogPool("hgx-h100", 1, "mig");
  mig.mig = MigMode::kStatic;
  mig.mig_layout = {{"3g.40gb", 2}};
  const FleetSpec fleet = testing::FleetOf({testing::CatalogPool("hgx-h100", 1, "plain"), mig});
  Workload w;
  AddJob(w, "a", 0, 8, 10);
  AddJob(w, "b", 0, 8, 10);
  AddJob(w, "c", 0, 9, 10);
  Simulation sim(fleet, w, Fifo(), "fifo");
  JobLog log;
  PlacementRecorder placements;
  sim.AddObserver(&log);
  sim.AddObserver(&placements);
  EXPECT_EQ(sim.fleet().free_count(), 8);
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  sim.Finish();
  EXPECT_EQ(placements.gpus[0], (std::vector<GpuId>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(log.rows()[1].start, 10'000);  // waits for the plain node: the MIG node is not whole
  EXPECT_EQ(log.rows()[2].reason,
            "needs 9 GPUs; the fleet has 8 that can be allocated whole (8 more are "
            "MIG-partitioned)");
}

TEST(SimulationTest, TwoSimulationsInOneProcessAreIndependent) {
  Workload w;
  AddJob(w, "a", 0, 4, 100);
  Simulation first({.gpus = 4}, w, Fifo(), "fifo");
  Simulation second({.gpus = 8}, w, Fifo(), "fifo");
  ASSERT_TRUE(first.RunUntil(SecondsToTime(50)).ok());
  EXPECT_EQ(first.fleet().free_count(), 0);
  EXPECT_EQ(second.fleet().free_count(), 8);
  ASSERT_TRUE(second.RunUntilIdle().ok());
  EXPECT_EQ(first.state(0), JobState::kRunning);
  EXPECT_EQ(second.state(0), JobState::kCompleted);
}

struct IllegalCase {
  const char* name;
  std::function<std::vector<Decision>(const ClusterView&)> decide;
  const char* message;
};

class IllegalDecisionTest : public ::testing::TestWithParam<IllegalCase> {};

TEST_P(IllegalDecisionTest, StopsTheRunNamingPolicyAndDecision) {
  Workload w;
  AddJob(w, "a", 0, 2, 100);
  AddJob(w, "b", 0, 1, 100);
  Simulation sim({.gpus = 4}, w, std::make_unique<ScriptedPolicy>(GetParam().decide), "bad");
  const Status status = sim.RunUntilIdle();
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.message(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Decisions, IllegalDecisionTest,
    ::testing::Values(
        IllegalCase{"WrongGpuCount",
                    [](const ClusterView&) { return std::vector<Decision>{Start(0, {0})}; },
                    "policy 'bad' made an illegal decision at 0d 00:00:00.000 (decision 1 of "
                    "this call): start job 'a' on GPUs [0]: the job needs 2 GPUs, the placement "
                    "has 1"},
        IllegalCase{"BusyGpu",
                    [](const ClusterView&) {
                      return std::vector<Decision>{Start(0, {0, 1}), Start(1, {1})};
                    },
                    "policy 'bad' made an illegal decision at 0d 00:00:00.000 (decision 2 of "
                    "this call): start job 'b' on GPUs [1]: GPU 1 is busy"},
        IllegalCase{"DuplicateGpu",
                    [](const ClusterView&) {
                      return std::vector<Decision>{Start(0, {3, 3})};
                    },
                    "policy 'bad' made an illegal decision at 0d 00:00:00.000 (decision 1 of "
                    "this call): start job 'a' on GPUs [3, 3]: GPU 3 is listed twice"},
        IllegalCase{"NoSuchGpu",
                    [](const ClusterView&) { return std::vector<Decision>{Start(1, {4})}; },
                    "policy 'bad' made an illegal decision at 0d 00:00:00.000 (decision 1 of "
                    "this call): start job 'b' on GPUs [4]: GPU 4 does not exist (the fleet has "
                    "GPUs 0..3)"},
        IllegalCase{"NoSuchJob",
                    [](const ClusterView&) { return std::vector<Decision>{Start(7, {0})}; },
                    "policy 'bad' made an illegal decision at 0d 00:00:00.000 (decision 1 of "
                    "this call): start job #7 (no such job) on GPUs [0]: no such job"},
        IllegalCase{"StartTwice",
                    [](const ClusterView&) {
                      return std::vector<Decision>{Start(1, {0}), Start(1, {1})};
                    },
                    "policy 'bad' made an illegal decision at 0d 00:00:00.000 (decision 2 of "
                    "this call): start job 'b' on GPUs [1]: the job is already running"},
        IllegalCase{"RejectWithoutReason",
                    [](const ClusterView&) {
                      return std::vector<Decision>{RejectJob{0, ""}};
                    },
                    "policy 'bad' made an illegal decision at 0d 00:00:00.000 (decision 1 of "
                    "this call): reject job 'a' (''): a rejection needs a reason"},
        IllegalCase{
            "WakeInThePast",
            [](const ClusterView& view) { return std::vector<Decision>{WakeAt{view.now()}}; },
            "policy 'bad' made an illegal decision at 0d 00:00:00.000 (decision 1 of "
            "this call): wake at 0d 00:00:00.000: the wake-up time is not in the "
            "future"}),
    [](const ::testing::TestParamInfo<IllegalCase>& param_info) { return param_info.param.name; });

TEST(SimulationTest, HoldsThePolicyDoesNotStartAreReleasedAfterTheCall) {
  Workload w;
  AddJob(w, "a", 0, 2, 10);
  std::vector<std::int64_t> free_at_call;
  auto policy =
      std::make_unique<ScriptedPolicy>([&](const ClusterView& view, PlacementPlanner& planner) {
        free_at_call.push_back(view.FreeWholeGpus());
        EXPECT_TRUE(planner.Place(view.request(0)));
        EXPECT_EQ(view.FreeWholeGpus(), 2);  // the hold shows in the view
        return std::vector<Decision>{WakeAt{view.now() + 1}};
      });
  Simulation sim({.gpus = 4}, w, std::move(policy), "planner");
  ASSERT_TRUE(sim.RunUntil(SecondsToTime(0.001)).ok());
  EXPECT_EQ(free_at_call, (std::vector<std::int64_t>{4, 4}));
  EXPECT_EQ(sim.fleet().free_count(), 4);
}

TEST(SimulationTest, StartsInAnotherOrderThanTheirHoldsAreCheckedAfresh) {
  Workload w;
  AddJob(w, "a", 0, 2, 10);
  AddJob(w, "b", 0, 2, 10);
  auto policy =
      std::make_unique<ScriptedPolicy>([](const ClusterView& view, PlacementPlanner& planner) {
        std::vector<Decision> d;
        if (view.now() == 0) {
          const Allocation a = *planner.Place(view.request(0));
          const Allocation b = *planner.Place(view.request(1));
          d = {StartJob{1, b}, StartJob{0, a}};
        }
        return d;
      });
  Simulation sim({.gpus = 4}, w, std::move(policy), "swapped");
  PlacementRecorder placements;
  sim.AddObserver(&placements);
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  EXPECT_EQ(placements.gpus[0], (std::vector<GpuId>{0, 1}));
  EXPECT_EQ(placements.gpus[1], (std::vector<GpuId>{2, 3}));
}

TEST(SimulationTest, AHeldPlacementThatBreaksTheRequestIsRefusedAndReleased) {
  Workload w;
  AddJob(w, "a", 0, 2, 10);
  auto policy =
      std::make_unique<ScriptedPolicy>([](const ClusterView& /*view*/, PlacementPlanner& planner) {
        const Allocation one = WholeGpus(std::vector<GpuId>{3});
        EXPECT_EQ(planner.Hold(one).message(), "");
        return std::vector<Decision>{StartJob{0, one}};
      });
  Simulation sim({.gpus = 4}, w, std::move(policy), "bad");
  const Status status = sim.RunUntilIdle();
  EXPECT_EQ(status.message(),
            "policy 'bad' made an illegal decision at 0d 00:00:00.000 (decision 1 of this call): "
            "start job 'a' on GPUs [3]: the job needs 2 GPUs, the placement has 1");
  EXPECT_EQ(sim.fleet().free_count(), 4);
}

TEST(SimulationTest, PolicyRejectionIsRecordedWithItsReason) {
  Workload w;
  AddJob(w, "a", 0, 1, 10);
  auto policy = std::make_unique<ScriptedPolicy>([](const ClusterView& view) {
    std::vector<Decision> d;
    for (const JobIndex job : view.queue()) {
      d.push_back(RejectJob{job, "quota exhausted"});
    }
    return d;
  });
  Simulation sim({.gpus = 2}, w, std::move(policy), "scripted");
  JobLog log;
  sim.AddObserver(&log);
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  sim.Finish();
  EXPECT_EQ(log.rows()[0].state, FinalState::kRejected);
  EXPECT_EQ(log.rows()[0].reason, "quota exhausted");
}

}  // namespace
}  // namespace fleetsim
