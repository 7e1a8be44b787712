// The backfill policy on hand-checked schedules (walltime estimates equal to the run times, a
// 60 s resolution that the times below are multiples of): a job that ends before the head job's
// reservation backfills, one that would delay it waits, one that fits in GPUs the reservation
// leaves starts, conservative mode protects a second reservation that EASY does not, the window
// and max_job_test limits; reservation_boundary (a job ending exactly when a reservation begins,
// which Slurm refuses); a randomized check that EASY never starts a job later than the shadow
// time it had when it reached the head of the queue; and parameter validation by the scenario
// loader.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "fleetsim/core/random.h"
#include "fleetsim/metrics/job_log.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/scenario.h"
#include "fleetsim/sim/simulation.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

using testing::AddJob;

std::unique_ptr<Policy> MakePolicy(const std::string& name, const PolicyParams& overrides = {}) {
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* info = registry.Find(name);
  PolicyParams params = DefaultParams(*info);
  for (const auto& [key, value] : overrides) {
    params[key] = value;
  }
  return info->make(params);
}

// Adds a job whose walltime estimate is its run time.
void AddEstimatedJob(Workload& w, const std::string& id, double submit_s, std::int64_t gpus,
                     double duration_s) {
  Job& job = AddJob(w, id, submit_s, gpus, duration_s);
  job.request.walltime_estimate = job.truth.duration;
}

// Start times in seconds, by job id.
std::map<std::string, double> StartTimes(std::int64_t gpus, const Workload& w,
                                         std::unique_ptr<Policy> policy) {
  Simulation sim({.gpus = gpus}, w, std::move(policy), "backfill");
  JobLog log;
  sim.AddObserver(&log);
  EXPECT_TRUE(sim.RunUntilIdle().ok());
  sim.Finish();
  std::map<std::string, double> starts;
  for (const JobRecordRow& row : log.rows()) {
    starts[row.id] = TimeToSeconds(row.start);
  }
  return starts;
}

TEST(BackfillTest, AJobThatEndsBeforeTheReservationBackfillsAndOneThatWouldNotWaits) {
  Workload w;
  AddEstimatedJob(w, "a", 0, 6, 600);
  AddEstimatedJob(w, "head", 10, 8, 600);   // reserved at 600, when a ends
  AddEstimatedJob(w, "short", 20, 2, 300);  // ends at 320: backfills
  AddEstimatedJob(w, "long", 20, 2, 900);   // would hold 2 of head's 8 GPUs past 600
  const auto starts = StartTimes(8, w, MakePolicy("backfill"));
  EXPECT_EQ(starts.at("a"), 0);
  EXPECT_EQ(starts.at("head"), 600);
  EXPECT_EQ(starts.at("short"), 20);
  EXPECT_EQ(starts.at("long"), 1200);
  // first-fit starts "long" at 320, when "short" ends, and so delays the head job.
  const auto first_fit = StartTimes(8, w, MakePolicy("first-fit"));
  EXPECT_EQ(first_fit.at("long"), 320);
  EXPECT_EQ(first_fit.at("head"), 1220);
}

TEST(BackfillTest, AJobFitsInGpusTheReservationLeaves) {
  Workload w;
  AddEstimatedJob(w, "a", 0, 6, 600);
  AddEstimatedJob(w, "head", 10, 8, 600);    // at 600 10 GPUs are free: 2 to spare
  AddEstimatedJob(w, "spare", 20, 2, 3000);  // takes the 2 spare GPUs
  AddEstimatedJob(w, "more", 30, 2, 3000);   // 2 more would leave the head 6 at 600
  const auto starts = StartTimes(10, w, MakePolicy("backfill"));
  EXPECT_EQ(starts.at("head"), 600);
  EXPECT_EQ(starts.at("spare"), 20);
  EXPECT_EQ(starts.at("more"), 1200);
}

// H1 is reserved at 600; H2 (the whole fleet) only by conservative backfill, at 1200. X fits
// around H1 but would delay H2.
Workload SecondReservationWorkload() {
  Workload w;
  AddEstimatedJob(w, "a", 0, 4, 600);
  AddEstimatedJob(w, "a2", 0, 2, 1200);
  AddEstimatedJob(w, "h1", 10, 4, 600);
  AddEstimatedJob(w, "h2", 20, 8, 600);
  AddEstimatedJob(w, "x", 30, 2, 1800);
  return w;
}

TEST(BackfillTest, ConservativeProtectsTheSecondReservationWhereEasyDoesNot) {
  const Workload w = SecondReservationWorkload();
  const auto easy = StartTimes(8, w, MakePolicy("backfill"));
  EXPECT_EQ(easy.at("h1"), 600);
  EXPECT_EQ(easy.at("x"), 30);
  EXPECT_EQ(easy.at("h2"), 1830);
  const auto conservative =
      StartTimes(8, w, MakePolicy("backfill", {{"mode", std::string("conservative")}}));
  EXPECT_EQ(conservative.at("h1"), 600);
  EXPECT_EQ(conservative.at("h2"), 1200);
  EXPECT_EQ(conservative.at("x"), 1800);
}

TEST(BackfillTest, MaxJobTestLimitsTheJobsExaminedPerCall) {
  Workload w;
  AddEstimatedJob(w, "a", 0, 8, 600);
  AddEstimatedJob(w, "b", 10, 4, 60);
  AddEstimatedJob(w, "c", 20, 4, 60);
  const auto all = StartTimes(8, w, MakePolicy("backfill"));
  EXPECT_EQ(all.at("b"), 600);
  EXPECT_EQ(all.at("c"), 600);
  const auto one = StartTimes(8, w, MakePolicy("backfill", {{"max_job_test", std::int64_t{1}}}));
  EXPECT_EQ(one.at("b"), 600);
  EXPECT_EQ(one.at("c"), 660);  // examined at the next call, when b ends
}

TEST(BackfillTest, AJobWhoseEarliestStartIsBeyondTheWindowGetsNoReservation) {
  Workload w;
  AddEstimatedJob(w, "a", 0, 6, 7200);
  AddEstimatedJob(w, "head", 10, 8, 600);     // earliest start 7200
  AddEstimatedJob(w, "small", 20, 2, 10000);  // would delay it
  const auto day = StartTimes(8, w, MakePolicy("backfill"));
  EXPECT_EQ(day.at("head"), 7200);
  EXPECT_EQ(day.at("small"), 7800);
  const auto hour = StartTimes(8, w, MakePolicy("backfill", {{"window_s", std::int64_t{3600}}}));
  EXPECT_EQ(hour.at("small"), 20);
  EXPECT_EQ(hour.at("head"), 10020);
}

TEST(BackfillTest, JobsWithoutEstimatesGetTheDefaultWalltime) {
  Workload w;
  AddEstimatedJob(w, "a", 0, 6, 600);
  AddEstimatedJob(w, "head", 10, 8, 600);
  AddJob(w, "unestimated", 20, 2, 300);  // 300 s in truth, taken for 3600 s: waits
  const auto hour = StartTimes(8, w, MakePolicy("backfill"));
  EXPECT_EQ(hour.at("unestimated"), 1200);
  const auto short_default =
      StartTimes(8, w, MakePolicy("backfill", {{"default_walltime_s", std::int64_t{300}}}));
  EXPECT_EQ(short_default.at("unestimated"), 20);
}

TEST(BackfillTest, EndTimesAreRoundedUpToTheResolution) {
  Workload w;
  AddEstimatedJob(w, "a", 0, 6, 590);       // expected to end at 600 with a 60 s resolution
  AddEstimatedJob(w, "head", 10, 8, 600);   // reserved at 600
  AddEstimatedJob(w, "short", 20, 2, 575);  // ends at 595, rounded up to 600: fits
  const auto coarse = StartTimes(8, w, MakePolicy("backfill"));
  EXPECT_EQ(coarse.at("short"), 20);
  EXPECT_EQ(coarse.at("head"), 595);
  // With a 1 s resolution the head is reserved at 590, which "short" would overrun.
  const auto fine = StartTimes(8, w, MakePolicy("backfill", {{"resolution_s", std::int64_t{1}}}));
  EXPECT_EQ(fine.at("head"), 590);
  EXPECT_EQ(fine.at("short"), 1190);
}

// Slurm's backfill.c counts a reservation that begins exactly at a job's expected end as an
// overlap (begin_time <= end_time); reservation_boundary "slurm" does the same, "half-open" not.
TEST(BackfillTest, AJobEndingExactlyAtAReservationBackfillsOnlyWithHalfOpenBoundaries) {
  for (const bool conservative : {false, true}) {
    Workload w;
    AddEstimatedJob(w, "a", 0, 6, 600);
    AddEstimatedJob(w, "head", 10, 8, 600);   // reserved at 600, when a ends
    AddEstimatedJob(w, "edge", 20, 2, 580);   // would end at 600, exactly then
    AddEstimatedJob(w, "inner", 30, 2, 569);  // would end at 599
    const PolicyParams mode{{"mode", std::string(conservative ? "conservative" : "easy")},
                            {"resolution_s", std::int64_t{1}}};
    PolicyParams slurm = mode;
    slurm["reservation_boundary"] = std::string("slurm");
    const auto half_open = StartTimes(8, w, MakePolicy("backfill", mode));
    EXPECT_EQ(half_open.at("edge"), 20);
    EXPECT_EQ(half_open.at("head"), 600);
    const auto closed = StartTimes(8, w, MakePolicy("backfill", slurm));
    EXPECT_EQ(closed.at("inner"), 30) << "ending a second before the reservation still backfills";
    EXPECT_EQ(closed.at("head"), 600);
    EXPECT_EQ(closed.at("edge"), 1200);
  }
}

// Slurm compares a job's exact end with the reservation's start; fleetsim's estimated end, rounded
// up to the resolution, may equal it without the exact end touching it.
TEST(BackfillTest, TheSlurmBoundaryComparesTheUnroundedEnd) {
  Workload w;
  AddEstimatedJob(w, "a", 0, 6, 600);
  AddEstimatedJob(w, "head", 10, 8, 600);  // reserved at 600
  AddEstimatedJob(w, "edge", 20, 2, 570);  // ends at 590, estimated (rounded up to 60 s) at 600
  const auto starts =
      StartTimes(8, w,
                 MakePolicy("backfill", {{"mode", std::string("conservative")},
                                         {"reservation_boundary", std::string("slurm")}}));
  EXPECT_EQ(starts.at("edge"), 20);
  EXPECT_EQ(starts.at("head"), 600);
}

// Wraps a policy and records, for each job, the EASY shadow time it had at the first call that
// found it at the head of the queue: when enough GPUs of the (one-pool) fleet are free, counting
// the running jobs' ends by their exact estimates (the workloads here have a 1 s resolution).
class ShadowRecorder final : public Policy {
 public:
  ShadowRecorder(std::unique_ptr<Policy> inner, std::int64_t fleet_gpus)
      : inner_(std::move(inner)), fleet_gpus_(fleet_gpus) {}

  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& planner) override {
    if (!view.queue().empty() && !shadow.contains(view.queue().front())) {
      const JobIndex head = view.queue().front();
      shadow[head] = ShadowTime(view, view.request(head).gpus);
    }
    return inner_->Decide(view, planner);
  }

  std::map<JobIndex, SimTime> shadow;

 private:
  SimTime ShadowTime(const ClusterView& view, std::int64_t gpus) const {
    std::vector<std::pair<SimTime, std::int64_t>> ends;
    std::int64_t free = fleet_gpus_;
    for (const RunningJob& running : view.running()) {
      const auto held = static_cast<std::int64_t>(running.placement.gpus.size());
      ends.emplace_back(running.start + view.request(running.job).walltime_estimate, held);
      free -= held;
    }
    std::sort(ends.begin(), ends.end());
    SimTime at = view.now();
    for (const auto& [end, held] : ends) {
      if (free >= gpus) {
        break;
      }
      at = end;
      free += held;
    }
    return at;
  }

  std::unique_ptr<Policy> inner_;
  std::int64_t fleet_gpus_;
};

// How many jobs of a random workload start later than their shadow time at the head.
int LateHeadStarts(const std::string& policy, std::uint64_t seed) {
  constexpr std::int64_t kGpus = 16;
  Rng rng(seed);
  Workload w;
  for (int i = 0; i < 60; ++i) {
    const double submit = static_cast<double>(UniformInt(rng, 0, 3000));
    const std::int64_t gpus =
        UniformInt(rng, 0, 3) == 0 ? UniformInt(rng, 9, kGpus) : UniformInt(rng, 1, 4);
    AddEstimatedJob(w, fmt::format("j{:02}", i), submit, gpus,
                    static_cast<double>(UniformInt(rng, 1, 900)));
  }
  SortBySubmit(w);
  auto recorder = std::make_unique<ShadowRecorder>(
      MakePolicy(policy, {{"resolution_s", std::int64_t{1}}}), kGpus);
  ShadowRecorder* shadows = recorder.get();
  Simulation sim({.gpus = kGpus}, w, std::move(recorder), policy);
  JobLog log;
  sim.AddObserver(&log);
  EXPECT_TRUE(sim.RunUntilIdle().ok());
  sim.Finish();
  int late = 0;
  for (const auto& [job, at] : shadows->shadow) {
    late += log.rows()[job].start > at ? 1 : 0;
  }
  return late;
}

TEST(BackfillTest, EasyNeverStartsAHeadJobAfterItsShadowTime) {
  int first_fit_late = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    EXPECT_EQ(LateHeadStarts("backfill", seed), 0) << "seed " << seed;
    first_fit_late += LateHeadStarts("first-fit", seed);
  }
  EXPECT_GT(first_fit_late, 0);  // the property has teeth: without reservations heads slip
}

TEST(BackfillTest, TheScenarioLoaderChecksTheMode) {
  const LoadResult r = ParseScenario(
      R"({"format_version": 1, "name": "t", "fleet": {"gpus": 8},
          "policy": {"name": "backfill", "params": {"mode": "eazy", "window_s": 10}},
          "jobs": [{"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 1}]})",
      "s.json", BuiltinPolicies(), {});
  EXPECT_FALSE(r.scenario);
  EXPECT_EQ(r.diagnostics.Format("s.json"),
            "s.json: /policy/params/mode: error: expected one of 'easy', 'conservative', found "
            "'eazy', did you mean 'easy'?\n"
            "s.json: /policy/params/window_s: error: expected an integer ≥ 60, found 10\n");
}

}  // namespace
}  // namespace fleetsim
