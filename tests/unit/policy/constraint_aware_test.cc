// The constraint-aware policy end to end (Simulation with the registry): it beats fifo on
// priority-weighted output on a small contended 8-GPU day with a real-time service, training and
// batch work; its service follows the demand curve within the swap cap; a job longer than the
// horizon still starts; every job of a mixed queue runs; and a job without checkpoints stays off
// spot capacity that would likely lose its run, unless nothing else could ever hold it.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "fleetsim/metrics/job_log.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/sim/simulation.h"
#include "testutil/fleets.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

using testing::AddJob;

constexpr double kHour = 3600;
constexpr SimTime kHourMs = 3'600'000;

std::unique_ptr<Policy> Make(const std::string& name) {
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* info = registry.Find(name);
  return info->make(DefaultParams(*info));
}

// Priority-weighted output, computed independently of the metrics module: sum of priority x
// GPU-hours of batch jobs completed in the window, plus priority x served real-time GPU-hours
// (min(held, demand) at every instant the service runs). Also records the services' GPU counts.
class OutputMeter final : public SimulationObserver {
 public:
  void OnJobStarted(const JobStarted& e) override { Change(e.job, e.request, e.time, e.placement); }
  void OnJobResized(const JobResized& e) override { Change(e.job, e.request, e.time, e.placement); }
  void OnJobFinished(const JobFinished& e) override {
    Held& held = held_[e.job];
    if (e.request.demand) {
      Serve(*held.request, held.since, e.time, held.gpus);
    } else {
      output += static_cast<double>(e.request.priority * held.gpus) *
                static_cast<double>(e.time - held.since) / static_cast<double>(kHourMs);
    }
    held_.erase(e.job);
  }
  void Close(SimTime end) {
    for (auto& [job, held] : held_) {
      if (held.request->demand) {
        Serve(*held.request, held.since, end, held.gpus);
      }
    }
  }

  double output = 0;
  std::vector<std::pair<SimTime, std::int64_t>> service_counts;  // (time, GPUs) at each change

 private:
  struct Held {
    const JobRequest* request = nullptr;
    SimTime since = 0;
    std::int64_t gpus = 0;
    SimTime first_start = 0;
  };

  void Change(JobIndex job, const JobRequest& request, SimTime time, const Allocation& placement) {
    auto it = held_.find(job);
    if (it != held_.end() && request.demand) {
      Serve(request, it->second.since, time, it->second.gpus);
    }
    held_[job] = {&request, time, static_cast<std::int64_t>(placement.gpus.size()), time};
    if (request.demand) {
      service_counts.emplace_back(time, static_cast<std::int64_t>(placement.gpus.size()));
    }
  }
  void Serve(const JobRequest& r, SimTime from, SimTime to, std::int64_t gpus) {
    for (SimTime t = from; t < to;) {
      const SimTime step_end = (t / r.demand->step + 1) * r.demand->step;
      const SimTime until = std::min(to, step_end);
      output += static_cast<double>(r.priority * std::min(gpus, r.demand->At(t))) *
                static_cast<double>(until - t) / static_cast<double>(kHourMs);
      t = until;
    }
  }

  std::map<JobIndex, Held> held_;
};

// An 8-GPU day: a service wanting 2 GPUs at night and 6 by day (cap 2 per hour), a 4-GPU and a
// 2-GPU training job, and eight 1-GPU batch jobs.
Workload ContendedDay() {
  Workload w;
  Job& service = AddJob(w, "svc", 0, 1, 30 * kHour, 4);
  service.request.kind = JobKind::kRealtimeInference;
  service.request.max_gpus = 8;
  service.request.demand = DemandCurve{.step = kHourMs, .gpus = {}, .swap_cap = 2};
  for (int h = 0; h < 24; ++h) {
    service.request.demand->gpus.push_back(h >= 8 && h < 18 ? 6 : 2);
  }
  Job& big = AddJob(w, "train-a", 10, 4, 6 * kHour, 3);
  big.request.pow2_block = true;
  big.request.walltime_estimate = 6 * kHourMs;
  Job& small = AddJob(w, "train-b", 20, 2, 4 * kHour, 2);
  small.request.pow2_block = true;
  small.request.walltime_estimate = 4 * kHourMs;
  for (int i = 0; i < 8; ++i) {
    Job& batch = AddJob(w, "batch-" + std::to_string(i), 30 + i, 1, 2 * kHour, 1);
    batch.request.walltime_estimate = 2 * kHourMs;
  }
  SortBySubmit(w);
  return w;
}

struct Outcome {
  double output = 0;
  std::vector<std::pair<SimTime, std::int64_t>> service_counts;
  std::vector<JobRecordRow> rows;
};

Outcome RunDay(const std::string& policy, const Workload& w) {
  Simulation sim({.gpus = 8}, w, Make(policy), policy);
  OutputMeter meter;
  JobLog log;
  sim.AddObserver(&meter);
  sim.AddObserver(&log);
  const Status status = sim.RunUntil(24 * kHourMs);
  EXPECT_TRUE(status.ok()) << status.message();
  sim.Finish();
  meter.Close(24 * kHourMs);
  return {meter.output, meter.service_counts, log.rows()};
}

TEST(ConstraintAwareTest, BeatsFifoOnPriorityWeightedOutputOnAContendedDay) {
  const Workload w = ContendedDay();
  const Outcome fifo = RunDay("fifo", w);
  const Outcome planned = RunDay("constraint-aware", w);
  // fifo reserves the service's peak (6 GPUs) all day; the 4-GPU training job then blocks the
  // queue: only the service's demand is served, 14 h x 2 + 10 h x 6 = 88 GPU-hours x priority 4.
  // The planner follows the demand and runs every training and batch job within the day.
  for (const JobRecordRow& row : planned.rows) {
    if (row.id != "svc") {
      EXPECT_EQ(row.state, FinalState::kCompleted) << row.id;
    }
  }
  EXPECT_GT(planned.output, fifo.output + 4 * 6 * 3 + 2 * 4 * 2);
}

TEST(ConstraintAwareTest, ServiceFollowsItsDemandWithinTheSwapCap) {
  const Outcome planned = RunDay("constraint-aware", ContendedDay());
  ASSERT_FALSE(planned.service_counts.empty());
  EXPECT_EQ(planned.service_counts.front().second, 2);
  std::int64_t most = 0;
  for (std::size_t i = 1; i < planned.service_counts.size(); ++i) {
    const auto& [time, gpus] = planned.service_counts[i];
    EXPECT_EQ(time % kHourMs, 0) << "resized off a step boundary";
    EXPECT_LE(std::abs(gpus - planned.service_counts[i - 1].second), 2);
    most = std::max(most, gpus);
  }
  EXPECT_EQ(most, 6);
}

TEST(ConstraintAwareTest, JobLongerThanTheHorizonStillRuns) {
  Workload w;
  AddJob(w, "long", 0, 8, 40 * kHour).request.walltime_estimate = 40 * kHourMs;
  AddJob(w, "after", 5, 8, kHour);
  Simulation sim({.gpus = 8}, w, Make("constraint-aware"), "constraint-aware");
  JobLog log;
  sim.AddObserver(&log);
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  sim.Finish();
  EXPECT_EQ(log.rows()[0].start, 0);
  EXPECT_EQ(log.rows()[1].start, 40 * kHourMs);
}

TEST(ConstraintAwareTest, HigherPriorityJobJumpsTheQueue) {
  Workload w;
  AddJob(w, "running", 0, 8, kHour);
  AddJob(w, "low", 1, 8, kHour, 1);
  AddJob(w, "high", 2, 8, kHour, 9);
  Simulation sim({.gpus = 8}, w, Make("constraint-aware"), "constraint-aware");
  JobLog log;
  sim.AddObserver(&log);
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  sim.Finish();
  EXPECT_EQ(log.rows()[2].start, kHourMs);
  EXPECT_EQ(log.rows()[1].start, 2 * kHourMs);
}

// When job `id` starts when constraint-aware, with its default parameters but `overrides`, runs
// `w` on 8 GPUs until no job is left (kTimeNever: it never starts).
SimTime StartUnderConstraintAware(const Workload& w, const PolicyParams& overrides,
                                  const std::string& id) {
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* info = registry.Find("constraint-aware");
  PolicyParams params = DefaultParams(*info);
  for (const auto& [name, value] : overrides) {
    params[name] = value;
  }
  Simulation sim({.gpus = 8}, w, info->make(params), "constraint-aware");
  JobLog log;
  sim.AddObserver(&log);
  EXPECT_TRUE(sim.RunUntilIdle().ok());
  sim.Finish();
  for (const JobRecordRow& row : log.rows()) {
    if (row.id == id) {
      return row.start;
    }
  }
  return kTimeNever;
}

constexpr std::int64_t kYearS = std::int64_t{365} * 24 * 3600;

// A hand-made starvation case: on 8 GPUs, a stream of 2-GPU 3-hour jobs arrives every 45 minutes
// for two days (enough to keep the fleet full), all of priority 1 like an 8-GPU 4-hour job
// submitted at 00:30. fifo starts the wide job at 03:00. Without a reservation the planner keeps
// filling the GPUs it waits for with stream jobs that arrived after it (an earlier start of small
// work is worth more to the discounted plan than the wide job's later one, whatever the order it
// starts from), and it only starts once the stream ends; with the default reservation (after 6
// hours of waiting, against jobs no wider than it: all of them here) it starts by the time the
// jobs running at the reservation end.
SimTime WideJobStart(const PolicyParams& overrides) {
  Workload w;
  for (int i = 0; i * 45 * 60 < 48 * 3600; ++i) {
    AddJob(w, "small-" + std::to_string(i), i * 45 * 60, 2, 3 * kHour).request.walltime_estimate =
        3 * kHourMs;
  }
  AddJob(w, "wide", 1800, 8, 4 * kHour).request.walltime_estimate = 4 * kHourMs;
  SortBySubmit(w);
  return StartUnderConstraintAware(w, overrides, "wide");
}

TEST(ConstraintAwareTest, AWideJobStarvedByLaterSmallJobsWithoutAReservation) {
  EXPECT_GT(WideJobStart({{"reserve_after_s", kYearS}}), 48 * kHourMs);
  EXPECT_GT(WideJobStart({{"reserve_after_s", kYearS}, {"width_exponent", 0.0}}), 48 * kHourMs);
}

TEST(ConstraintAwareTest, TheReservationStartsALongWaitingWideJob) {
  const SimTime start = WideJobStart({});
  EXPECT_GE(start, 6 * kHourMs + kHourMs / 2);  // not reserved before its wait reaches 6 hours
  EXPECT_LE(start, 6 * kHourMs + kHourMs / 2 + 3 * kHourMs);  // then the running jobs end
}

// The other side of the width order: on 8 GPUs, a stream of 8-GPU jobs estimated (and running)
// 3 h 10 min arrives every 3 hours for two days, all of priority 1 like a 1-GPU 4-hour job
// submitted at 00:30. Each time the GPUs free, a wide job is waiting and ranks first (by width,
// and among equals widest first). The narrow job's reservation after 6 hours holds against jobs
// no wider than it (none here); after a day it holds against every job, and the narrow job starts
// when the wide job running then ends (25:20). Holding wider jobs back from 6 hours on (as the
// reservation did before 2026-12-06) starts it at 09:30.
SimTime NarrowJobAmongWideStart(const PolicyParams& overrides) {
  Workload w;
  for (int i = 0; i * 3 < 48; ++i) {
    AddJob(w, "wide-" + std::to_string(i), i * 3 * 3600, 8, 3 * kHour + 600)
        .request.walltime_estimate = 3 * kHourMs + 600'000;
  }
  AddJob(w, "narrow", 1800, 1, 4 * kHour).request.walltime_estimate = 4 * kHourMs;
  SortBySubmit(w);
  return StartUnderConstraintAware(w, overrides, "narrow");
}

TEST(ConstraintAwareTest, ANarrowJobStarvedByWiderJobsWithoutTheFullReservation) {
  EXPECT_GT(NarrowJobAmongWideStart({{"reserve_wider_after_s", kYearS}}), 48 * kHourMs);
}

TEST(ConstraintAwareTest, TheFullReservationAfterADayStartsANarrowJobAheadOfWiderOnes) {
  const SimTime start = NarrowJobAmongWideStart({});
  EXPECT_GE(start, 24 * kHourMs + kHourMs / 2);  // not held against wider jobs before a day
  EXPECT_LE(start, 24 * kHourMs + kHourMs / 2 + 3 * kHourMs + 600'000);  // then the wide job ends
  const SimTime sooner = NarrowJobAmongWideStart({{"reserve_wider_after_s", 6 * 3600}});
  EXPECT_GE(sooner, 6 * kHourMs + kHourMs / 2);
  EXPECT_LE(sooner, 6 * kHourMs + kHourMs / 2 + 3 * kHourMs + 600'000);
}

// Backfill on the plan (protected_starts), the mixed-fleet case in miniature: on 8 GPUs a 6-GPU
// job without an estimate runs for 10 hours, but the plan expects it to end within the hour (the
// default run time, then "within the current step" once it overruns). Queued behind it, all of
// priority 1: a 6-GPU job, an 8-GPU job, and a 2-GPU job estimated at 3 hours. Holding every
// planned start (as conservative backfill does), the two free GPUs wait for the 8-GPU job's start,
// planned a step later again and again; with the first waiting job's start protected (EASY), the
// 2-GPU job starts at once, on GPUs the 6-GPU job's planned start does not need. (Without the
// local search, which here finds the early start too, at its next run; and ranked by priority
// alone, as the other jobs have no estimate: by width, the 2-GPU job would go first anyway.)
SimTime NarrowJobStart(std::int64_t protected_starts) {
  Workload w;
  AddJob(w, "running", 0, 6, 10 * kHour);
  AddJob(w, "six", 60, 6, kHour);
  AddJob(w, "eight", 120, 8, kHour);
  AddJob(w, "narrow", 180, 2, 2 * kHour).request.walltime_estimate = 3 * kHourMs;
  SortBySubmit(w);
  PolicyParams overrides;
  overrides["protected_starts"] = protected_starts;
  overrides["improve_evaluations"] = std::int64_t{1};  // the list scheduler's plan alone
  overrides["width_exponent"] = 0.0;
  return StartUnderConstraintAware(w, overrides, "narrow");
}

TEST(ConstraintAwareTest, HoldingEveryPlannedStartLeavesGpusIdleOnGuessedRunTimes) {
  EXPECT_GE(NarrowJobStart(1000000), kHourMs);
}

TEST(ConstraintAwareTest, BackfillStartsWhatDelaysOnlyUnprotectedStarts) {
  EXPECT_EQ(NarrowJobStart(1), 180 * 1000);
}

}  // namespace
}  // namespace fleetsim

namespace fleetsim {
namespace {

// Records the pool each job starts on (the first of its pools).
class StartPools final : public SimulationObserver {
 public:
  void OnRunStarted(const RunStarted& e) override {
    for (const PoolSpec& spec : e.pools) {
      pool_names_.push_back(spec.name);
    }
  }
  void OnJobStarted(const JobStarted& e) override {
    pool[e.request.id] = pool_names_[e.summary.share_by_pool.front().first];
  }
  std::map<std::string, std::string> pool;

 private:
  std::vector<std::string> pool_names_;
};

// One spot HGX node reclaimed about every 2.5 hours, one reserved node; a 24-hour job without
// checkpoints, a 24-hour job with them, and a 30-minute job without.
std::map<std::string, std::string> PoolsChosen(double spot_risk_limit, bool reserved_busy,
                                               bool with_reserved = true) {
  PoolSpec spot = testing::CatalogPool("hgx-h100", 1, "spot");
  spot.tier = PriceTier::kSpot;
  spot.spot = {.per_node_hour = 0.4, .notice = 120'000, .replacement_delay = 600'000};
  PoolSpec reserved = testing::CatalogPool("hgx-h100", 1, "reserved");
  reserved.tier = PriceTier::kReserved;
  Workload w;
  if (reserved_busy) {
    AddJob(w, "blocker", 0, 8, 48 * kHour).request.spot_eligible = false;
  }
  AddJob(w, "long-bare", 1, 4, 24 * kHour).request.walltime_estimate = 24 * kHourMs;
  Job& saved = AddJob(w, "long-saved", 2, 4, 24 * kHour);
  saved.request.walltime_estimate = 24 * kHourMs;
  saved.request.checkpoint_interval = kHourMs / 2;
  AddJob(w, "short-bare", 3, 4, 0.5 * kHour).request.walltime_estimate = kHourMs / 2;
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* info = registry.Find("constraint-aware");
  PolicyParams params = DefaultParams(*info);
  params["spot_risk_limit"] = spot_risk_limit;
  const FleetSpec fleet =
      with_reserved ? testing::FleetOf({spot, reserved}) : testing::FleetOf({spot});
  Simulation sim(fleet, w, info->make(params), "constraint-aware");
  StartPools pools;
  sim.AddObserver(&pools);
  EXPECT_TRUE(sim.RunUntil(5 * 1000).ok());  // the first starts only
  return pools.pool;
}

TEST(ConstraintAwareTest, KeepsJobsWithoutCheckpointsOffRiskySpotCapacity) {
  // P(reclaim during 24 h) = 1 - exp(-0.4 x 24) > 0.5: the bare long job goes to the reserved
  // node although the spot node comes first; the short one (P = 0.18) may take spot.
  const auto pools = PoolsChosen(0.5, false);
  EXPECT_EQ(pools.at("long-bare"), "reserved");
  EXPECT_EQ(pools.size(), 3U);
  // With the rule off it takes the first lanes, on the spot node.
  EXPECT_EQ(PoolsChosen(1.0, false).at("long-bare"), "spot");
}

TEST(ConstraintAwareTest, WaitsForSafeCapacityRatherThanRiskALongRunOnSpot) {
  // The reserved node is held for two days: the bare long job, which would almost surely lose
  // its run on spot (a reclaim every ~2.5 h), waits for it; the checkpointing job runs on spot.
  const auto pools = PoolsChosen(0.5, true);
  EXPECT_EQ(pools.at("blocker"), "reserved");
  EXPECT_EQ(pools.count("long-bare"), 0U);
  EXPECT_EQ(pools.at("long-saved"), "spot");
}

// A 3-hour job without checkpoints and a spot node reclaimed about every 2.5 hours (λ = 0.4 per
// hour): a reclaim during its run is likely (P = 0.70 > 0.5), and on spot it is expected to finish
// after (e^{1.2} - 1) / 0.4 = 5.8 hours. The reserved node is held by a job estimated to end after
// `blocker_hours`: waiting for it finishes the job after blocker_hours + 3.
std::string PoolOfAThreeHourBareJob(double blocker_hours) {
  PoolSpec spot = testing::CatalogPool("hgx-h100", 1, "spot");
  spot.tier = PriceTier::kSpot;
  spot.spot = {.per_node_hour = 0.4, .notice = 120'000, .replacement_delay = 600'000};
  PoolSpec reserved = testing::CatalogPool("hgx-h100", 1, "reserved");
  reserved.tier = PriceTier::kReserved;
  Workload w;
  Job& blocker = AddJob(w, "blocker", 0, 8, blocker_hours * kHour);
  blocker.request.spot_eligible = false;
  blocker.request.walltime_estimate = static_cast<SimDuration>(blocker_hours * kHourMs);
  AddJob(w, "bare", 1, 4, 3 * kHour).request.walltime_estimate = 3 * kHourMs;
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* info = registry.Find("constraint-aware");
  Simulation sim(testing::FleetOf({spot, reserved}), w, info->make(DefaultParams(*info)),
                 "constraint-aware");
  StartPools pools;
  sim.AddObserver(&pools);
  EXPECT_TRUE(sim.RunUntil(static_cast<SimTime>((blocker_hours + 0.5) * kHourMs)).ok());
  return pools.pool.contains("bare") ? pools.pool.at("bare") : "";
}

TEST(ConstraintAwareTest, TakesRiskySpotWhenSafeCapacityIsFurtherAwayThanTheExpectedLoss) {
  EXPECT_EQ(PoolOfAThreeHourBareJob(48), "spot");     // 51 h against 5.8 h
  EXPECT_EQ(PoolOfAThreeHourBareJob(1), "reserved");  // 4 h against 5.8 h: it waits
}

TEST(ConstraintAwareTest, RunsOnRiskySpotCapacityWhenNothingElseIsAccepted) {
  EXPECT_EQ(PoolsChosen(0.5, false, /*with_reserved=*/false).at("long-bare"), "spot");
}

}  // namespace
}  // namespace fleetsim
