// The engine's PreemptJob and ResizeJob decisions (progress kept across placements, checkpoints,
// the swap cap, illegal uses named), what observers see of them, and the deadlock check: a policy
// that leaves admitted jobs queued on an idle fleet with nothing left to happen ends the run with
// an error.
#include <gtest/gtest.h>

#include <functional>

#include "fleetsim/metrics/job_log.h"
#include "fleetsim/metrics/realtime_demand.h"
#include "fleetsim/metrics/run_metrics.h"
#include "fleetsim/sim/simulation.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

using testing::AddJob;
using testing::AddWorkJob;

// A policy whose every call a test scripts; it sees the call number (from 1).
class ScriptedPolicy final : public Policy {
 public:
  using Script = std::function<std::vector<Decision>(const ClusterView&, int)>;
  explicit ScriptedPolicy(Script script) : script_(std::move(script)) {}
  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& /*planner*/) override {
    return script_(view, ++calls_);
  }

 private:
  Script script_;
  int calls_ = 0;
};

std::vector<GpuId> Gpus(GpuId first, GpuId count) {
  std::vector<GpuId> gpus;
  for (GpuId g = first; g < first + count; ++g) {
    gpus.push_back(g);
  }
  return gpus;
}

struct Outcome {
  Status status;
  std::vector<JobRecordRow> rows;
  MetricsSummary metrics;
  RealtimeSummary realtime;
};

Outcome RunScripted(const Workload& w, ScriptedPolicy::Script script, std::int64_t gpus = 8) {
  Simulation sim({.gpus = gpus}, w, std::make_unique<ScriptedPolicy>(std::move(script)),
                 "scripted");
  JobLog log;
  RunMetrics metrics;
  RealtimeDemand realtime;
  sim.AddObserver(&log);
  sim.AddObserver(&metrics);
  sim.AddObserver(&realtime);
  Outcome out;
  out.status = sim.RunUntilIdle();
  sim.Finish();
  out.rows = log.rows();
  out.metrics = metrics.summary();
  out.realtime = realtime.summary();
  return out;
}

bool Queued(const ClusterView& view, JobIndex job) {
  return std::find(view.queue().begin(), view.queue().end(), job) != view.queue().end();
}

// Starts job 0 on GPUs 0-3 whenever it is queued; at its first call asks to wake at 40 s, and
// then preempts it.
ScriptedPolicy::Script PreemptAt40s() {
  return [](const ClusterView& view, int call) -> std::vector<Decision> {
    if (call == 1) {
      return {StartJob{0, WholeGpus(Gpus(0, 4))}, WakeAt{SecondsToTime(40)}};
    }
    if (view.now() == SecondsToTime(40) && view.changes().preempted.empty()) {
      return {PreemptJob{0, "make room"}};
    }
    if (Queued(view, 0)) {
      return {StartJob{0, WholeGpus(Gpus(4, 4))}};
    }
    return {};
  };
}

TEST(PreemptTest, WithoutCheckpointsTheRunIsLostAndTheJobRestartsFromTheQueue) {
  Workload w;
  AddJob(w, "a", 0, 4, 100).request.preemptible = true;
  const Outcome out = RunScripted(w, PreemptAt40s());
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_EQ(out.rows[0].start, 0);                 // the first start
  EXPECT_EQ(out.rows[0].end, SecondsToTime(140));  // restarted at 40 s, all 100 s again
  EXPECT_EQ(out.rows[0].preemptions, 1);
  EXPECT_EQ(out.metrics.preemptions, 1);
  // 4 GPUs x 40 s before the preemption + 4 GPUs x 100 s after.
  EXPECT_NEAR(out.metrics.allocated_gpu_hours, 4.0 * 140 / 3600, 1e-12);
}

TEST(PreemptTest, ACheckpointKeepsTheWorkSavedBeforeThePreemption) {
  Workload w;
  Job& a = AddJob(w, "a", 0, 4, 100);
  a.request.preemptible = true;
  a.request.checkpoint_interval = SecondsToTime(30);  // saved at 30 s; 30..40 s is lost
  const Outcome out = RunScripted(w, PreemptAt40s());
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_EQ(out.rows[0].end, SecondsToTime(40 + 70));
}

TEST(PreemptTest, TheEngineNamesIllegalPreemptions) {
  Workload w;
  AddJob(w, "a", 0, 4, 100);  // not preemptible
  const Outcome out = RunScripted(w, PreemptAt40s());
  ASSERT_FALSE(out.status.ok());
  EXPECT_EQ(
      out.status.message(),
      "policy 'scripted' made an illegal decision at 0d 00:00:40.000 (decision 1 of this call): "
      "preempt job 'a' ('make room'): the job is not preemptible");
}

TEST(ResizeTest, WorkLeftRunsAtTheSpeedOfTheNewPlacement) {
  Workload w;
  Job& a = AddWorkJob(w, "a", 0, 2, 8.0);  // 8 GPU-hours: 4 h on 2 GPUs
  a.request.max_gpus = 8;
  const Outcome out =
      RunScripted(w, [](const ClusterView& view, int call) -> std::vector<Decision> {
        if (call == 1) {
          return {StartJob{0, WholeGpus(Gpus(0, 2))}, WakeAt{SecondsToTime(3600)}};
        }
        if (view.now() == SecondsToTime(3600)) {
          return {ResizeJob{0, WholeGpus(Gpus(0, 8))}};
        }
        return {};
      });
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  // A quarter done after 1 h on 2 GPUs; the other 6 GPU-hours take 45 min on 8.
  EXPECT_EQ(out.rows[0].end, SecondsToTime(3600 + 2700));
  EXPECT_EQ(out.rows[0].gpus_allocated, 8);
  EXPECT_NEAR(out.metrics.allocated_gpu_hours, 2.0 * 1 + 8.0 * 0.75, 1e-9);
}

TEST(ResizeTest, OnlyElasticWholeGpuJobsCanBeResized) {
  Workload w;
  AddJob(w, "fixed", 0, 2, 100);
  const Outcome out = RunScripted(w, [](const ClusterView&, int call) -> std::vector<Decision> {
    if (call == 1) {
      return {StartJob{0, WholeGpus(Gpus(0, 2))}, ResizeJob{0, WholeGpus(Gpus(0, 4))}};
    }
    return {};
  });
  ASSERT_FALSE(out.status.ok());
  EXPECT_NE(out.status.message().find("resize job 'fixed' to GPUs [0, 1, 2, 3]: only jobs with a "
                                      "range of whole GPUs (gpus < max_gpus) can be resized"),
            std::string::npos)
      << out.status.message();
}

TEST(ResizeTest, ANewPlacementIsCheckedLikeAStartAndTheOldOneKeptWhenIllegal) {
  Workload w;
  AddJob(w, "a", 0, 2, 100).request.max_gpus = 4;
  AddJob(w, "b", 0, 2, 100);
  const Outcome out = RunScripted(w, [](const ClusterView&, int call) -> std::vector<Decision> {
    if (call == 1) {
      return {StartJob{0, WholeGpus(Gpus(0, 2))}, StartJob{1, WholeGpus(Gpus(2, 2))},
              ResizeJob{0, WholeGpus(Gpus(0, 4))}};  // GPUs 2 and 3 are b's
    }
    return {};
  });
  ASSERT_FALSE(out.status.ok());
  EXPECT_NE(out.status.message().find("decision 3 of this call): resize job 'a'"),
            std::string::npos)
      << out.status.message();
}

// A real-time service: demand 2 GPUs in hour 0, 6 in hour 1, swap cap 2.
Workload Service() {
  Workload w;
  Job& s = AddJob(w, "svc", 0, 1, 3 * 3600.0);
  s.request.kind = JobKind::kRealtimeInference;
  s.request.max_gpus = 8;
  s.request.demand = DemandCurve{.step = SecondsToTime(3600), .gpus = {2, 6, 6}, .swap_cap = 2};
  return w;
}

TEST(ResizeTest, TheSwapCapBoundsTheChangeWithinOneDemandStep) {
  const Outcome out =
      RunScripted(Service(), [](const ClusterView& view, int call) -> std::vector<Decision> {
        if (call == 1) {
          return {StartJob{0, WholeGpus(Gpus(0, 2))}, WakeAt{SecondsToTime(3600)}};
        }
        if (view.now() == SecondsToTime(3600)) {  // 2 -> 4 is within the cap; then 4 -> 5 is not
          return {ResizeJob{0, WholeGpus(Gpus(0, 4))}, ResizeJob{0, WholeGpus(Gpus(0, 5))}};
        }
        return {};
      });
  ASSERT_FALSE(out.status.ok());
  EXPECT_NE(
      out.status.message().find("decision 2 of this call): resize job 'svc' to GPUs [0, 1, 2, 3, "
                                "4]: the job held 2 GPUs when its demand step began and may "
                                "change by at most swap_cap = 2 GPUs per step, so 5 GPUs is out "
                                "of reach"),
      std::string::npos)
      << out.status.message();
}

TEST(ResizeTest, ServedRealtimeDemandFollowsTheResizes) {
  const Outcome out =
      RunScripted(Service(), [](const ClusterView& view, int call) -> std::vector<Decision> {
        if (call == 1) {
          return {StartJob{0, WholeGpus(Gpus(0, 2))}, WakeAt{SecondsToTime(3600)}};
        }
        if (view.now() == SecondsToTime(3600)) {
          return {ResizeJob{0, WholeGpus(Gpus(0, 4))}, WakeAt{SecondsToTime(7200)}};
        }
        if (view.now() == SecondsToTime(7200)) {
          return {ResizeJob{0, WholeGpus(Gpus(0, 6))}};
        }
        return {};
      });
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_NEAR(out.realtime.demand_gpu_hours, 2 + 6 + 6, 1e-9);
  EXPECT_NEAR(out.realtime.served_gpu_hours, 2 + 4 + 6, 1e-9);
  EXPECT_NEAR(out.metrics.allocated_gpu_hours, 2 + 4 + 6, 1e-9);
}

// A move: a resize to other GPUs at the same count (what constraint-aware does to leave a free
// block whole for a wide job). It frees the GPUs left at once, for a start later in the same
// call, uses none of the step's swap cap, and serves the demand as before.
TEST(ResizeTest, AServiceMovesAtTheSameCountAndItsOldGpusAreFreeAtOnce) {
  Workload w = Service();
  AddJob(w, "wide", 0, 4, 3600);
  const Outcome out =
      RunScripted(w, [](const ClusterView& view, int call) -> std::vector<Decision> {
        if (call == 1) {
          return {StartJob{0, WholeGpus(std::vector<GpuId>{0, 4})}, WakeAt{SecondsToTime(3600)}};
        }
        if (view.now() == SecondsToTime(3600) && Queued(view, 1)) {
          // Move off GPU 0 (the block 0-3 becomes whole), start the wide job there, then grow
          // 2 -> 4: the step began at 2 GPUs, so the move took none of the cap of 2.
          return {ResizeJob{0, WholeGpus(std::vector<GpuId>{4, 5})},
                  StartJob{1, WholeGpus(Gpus(0, 4))}, ResizeJob{0, WholeGpus(Gpus(4, 4))}};
        }
        return {};
      });
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_EQ(out.rows[1].start, SecondsToTime(3600));
  EXPECT_EQ(out.rows[1].end, SecondsToTime(7200));
  EXPECT_EQ(out.rows[0].gpus_allocated, 4);
  EXPECT_NEAR(out.realtime.served_gpu_hours, 2 + 4 + 4, 1e-9);
  EXPECT_NEAR(out.metrics.allocated_gpu_hours, (2 + 4 + 4) + 4, 1e-9);
}

TEST(DeadlockTest, APolicyThatNeverStartsAnythingIsReported) {
  Workload w;
  AddJob(w, "a", 0, 4, 100);
  AddJob(w, "b", 10, 2, 100);
  const Outcome out =
      RunScripted(w, [](const ClusterView&, int) { return std::vector<Decision>{}; });
  ASSERT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.message(),
            "policy 'scripted' left 2 admitted job(s) queued ('a', 'b') on an idle fleet at "
            "0d 00:00:10.000 "
            "with nothing left to happen: no arrival, completion, wake-up or node coming back "
            "is pending, so they would wait forever (deadlock). Every admitted job fits the "
            "empty fleet; a policy must start it or reject it");
}

}  // namespace
}  // namespace fleetsim
