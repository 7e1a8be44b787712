// The rolling-horizon planner on hand-made grids: legality over many random problems (no lane
// used twice in a step, blocks aligned inside one domain, one-domain jobs, size ranges, accepted
// lanes, swap cap, running work pinned), priority order, a block that survives because free space
// is kept in useful shapes, a real-time ramp that meets a rising demand within the cap, services
// that move only to leave a larger free block, and an improvement phase that never lowers the
// objective and is deterministic.
#include "policy/horizon_plan.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <utility>

#include "fleetsim/core/random.h"

namespace fleetsim {
namespace {

// `domains` NVLink domains of `per_domain` lanes, all of speed 1.
std::vector<PlanLane> Lanes(std::uint32_t domains, std::uint32_t per_domain) {
  std::vector<PlanLane> lanes;
  for (std::uint32_t d = 0; d < domains; ++d) {
    for (std::uint32_t s = 0; s < per_domain; ++s) {
      lanes.push_back({.domain = d, .slot = s, .speed = 1});
    }
  }
  return lanes;
}

PlanBatchJob Batch(double priority, std::int64_t gpus, std::int64_t steps, bool block = false) {
  return {.priority = priority,
          .min_gpus = gpus,
          .max_gpus = gpus,
          .block = block,
          .one_domain = false,
          .steps = steps,
          .allowed = {}};
}

bool Allowed(const LaneMask& mask, std::uint32_t lane) {
  return mask.empty() || ((mask[lane / 64] >> (lane % 64)) & 1U) != 0;
}

// Checks every rule of a plan; returns the first broken one ("" when legal).
std::string Illegal(const PlanProblem& p, const Plan& plan) {
  std::vector<std::set<std::uint32_t>> used(static_cast<std::size_t>(p.steps));
  const auto use = [&](std::uint32_t lane, std::int64_t step) {
    return used[static_cast<std::size_t>(step)].insert(lane).second;
  };
  for (const PlanBusy& b : p.busy) {
    for (std::int64_t t = b.first_step; t < std::min(b.end_step, p.steps); ++t) {
      use(b.lane, t);
    }
  }
  for (std::size_t j = 0; j < p.batch.size(); ++j) {
    const PlanBatchJob& job = p.batch[j];
    const BatchPlacement& placed = plan.batch[j];
    if (placed.start_step == kNotPlanned) {
      continue;
    }
    const auto n = static_cast<std::int64_t>(placed.lanes.size());
    if (n < job.min_gpus || n > job.max_gpus) {
      return "batch size out of range";
    }
    std::set<std::uint32_t> domains;
    for (const std::uint32_t lane : placed.lanes) {
      domains.insert(p.lanes[lane].domain);
      if (!Allowed(job.allowed, lane)) {
        return "batch job on a lane it does not accept";
      }
      for (std::int64_t t = placed.start_step; t < std::min(placed.start_step + job.steps, p.steps);
           ++t) {
        if (!use(lane, t)) {
          return "lane used twice";
        }
      }
    }
    if ((job.block || job.one_domain) && domains.size() != 1) {
      return "one-domain job spans domains";
    }
    if (job.block && (!std::has_single_bit(static_cast<std::uint64_t>(n)) ||
                      placed.lanes.back() - placed.lanes.front() + 1 != n ||
                      p.lanes[placed.lanes.front()].slot % n != 0)) {
      return "block not aligned, contiguous and a power of two";
    }
  }
  for (std::size_t k = 0; k < p.realtime.size(); ++k) {
    const PlanRealtimeJob& job = p.realtime[k];
    const std::int64_t cap = job.swap_cap > 0 ? job.swap_cap : 1'000'000;
    std::int64_t previous = -1;
    for (std::int64_t t = 0; t < p.steps; ++t) {
      const auto& lanes = plan.realtime[k][static_cast<std::size_t>(t)];
      const auto n = static_cast<std::int64_t>(lanes.size());
      if (t >= job.end_step) {
        if (n != 0) {
          return "service planned after its end";
        }
        continue;
      }
      if (n == 0 && previous < 0) {
        continue;  // not started yet
      }
      if (n < job.min_gpus || n > job.max_gpus) {
        return "service size out of range";
      }
      if (previous >= 0 && std::abs(n - previous) > cap) {
        return "swap cap broken";
      }
      if (t == 0 && !job.lanes.empty() && !job.can_resize_now && lanes != job.lanes) {
        return "running service changed when it may not";
      }
      if (t == 0 && !job.lanes.empty() &&
          std::abs(n - static_cast<std::int64_t>(job.lanes.size())) > cap) {
        return "running service resized beyond the cap";
      }
      for (const std::uint32_t lane : lanes) {
        if (!Allowed(job.allowed, lane) || !use(lane, t)) {
          return "service lane used twice or not accepted";
        }
      }
      previous = n;
    }
    if (!job.lanes.empty() && previous < 0) {
      return "running service stopped";
    }
  }
  return "";
}

PlanProblem RandomProblem(std::uint64_t seed) {
  Rng rng(seed);
  PlanProblem p;
  p.steps = UniformInt(rng, 1, 12);
  const auto domains = static_cast<std::uint32_t>(UniformInt(rng, 1, 4));
  const std::uint32_t per_domain = UniformInt(rng, 0, 1) == 0 ? 8 : 4;
  p.lanes = Lanes(domains, per_domain);
  const auto lanes = static_cast<std::int64_t>(p.lanes.size());
  std::set<std::uint32_t> pinned;
  for (std::int64_t i = UniformInt(rng, 0, lanes / 2); i > 0; --i) {
    const auto lane = static_cast<std::uint32_t>(UniformInt(rng, 0, lanes - 1));
    if (pinned.insert(lane).second) {
      p.busy.push_back({lane, 0, UniformInt(rng, 1, p.steps + 2)});
    }
  }
  for (std::int64_t i = UniformInt(rng, 0, 2); i > 0; --i) {
    PlanRealtimeJob job;
    job.priority = static_cast<double>(UniformInt(rng, 1, 5));
    job.min_gpus = UniformInt(rng, 1, 2);
    job.max_gpus = job.min_gpus + UniformInt(rng, 0, 6);
    job.swap_cap = UniformInt(rng, 0, 2);
    job.end_step = UniformInt(rng, 1, p.steps + 3);
    for (std::int64_t t = 0; t < p.steps; ++t) {
      job.demand.push_back(UniformInt(rng, 0, 8));
    }
    if (UniformInt(rng, 0, 1) == 0) {  // running, on free lanes
      for (std::uint32_t lane = 0;
           lane < p.lanes.size() && static_cast<std::int64_t>(job.lanes.size()) < job.min_gpus;
           ++lane) {
        if (pinned.insert(lane).second) {
          job.lanes.push_back(lane);
        }
      }
      job.can_resize_now = UniformInt(rng, 0, 1) == 0;
      if (static_cast<std::int64_t>(job.lanes.size()) < job.min_gpus) {
        job.lanes.clear();
      }
    }
    p.realtime.push_back(job);
  }
  for (std::int64_t i = UniformInt(rng, 0, 12); i > 0; --i) {
    const bool block = UniformInt(rng, 0, 2) == 0;
    const std::int64_t size =
        block ? std::int64_t{1} << UniformInt(rng, 0, 3) : UniformInt(rng, 1, 10);
    PlanBatchJob job = Batch(static_cast<double>(UniformInt(rng, 1, 9)), size,
                             UniformInt(rng, 1, p.steps + 4), block);
    job.max_gpus =
        block ? size * (std::int64_t{1} << UniformInt(rng, 0, 1)) : size + UniformInt(rng, 0, 3);
    job.one_domain = UniformInt(rng, 0, 3) == 0;
    if (UniformInt(rng, 0, 3) == 0) {  // accepts only even lanes
      job.allowed.assign((p.lanes.size() + 63) / 64, 0);
      for (std::uint32_t lane = 0; lane < p.lanes.size(); lane += 2) {
        job.allowed[lane / 64] |= std::uint64_t{1} << (lane % 64);
      }
    }
    job.estimated = UniformInt(rng, 0, 2) != 0;  // a third keep their queue places among equals
    if (UniformInt(rng, 0, 2) == 0) {  // a third weighted, so priorities may come out of order
      job.rank_factor = 1 + static_cast<double>(UniformInt(rng, 1, 6)) / 2;
    }
    p.batch.push_back(job);
  }
  return p;
}

// The plan of `improved` backfilled with `protected_jobs` protected starts, reduced to what it
// starts at step 0 (and its real-time jobs); every job it started at step 0 still starts there, on
// the same lanes.
Plan StartsNow(const PlanProblem& p, const ImproveResult& improved, std::int64_t protected_jobs) {
  Plan plan = improved.plan;
  BackfillFirstStep(p, improved.choices, protected_jobs, plan);
  for (std::size_t j = 0; j < p.batch.size(); ++j) {
    if (improved.plan.batch[j].start_step == 0) {
      EXPECT_EQ(plan.batch[j].start_step, 0);
      EXPECT_EQ(plan.batch[j].lanes, improved.plan.batch[j].lanes);
    }
    if (plan.batch[j].start_step != 0) {
      plan.batch[j] = {};
    }
  }
  return plan;
}

TEST(HorizonPlanTest, EveryPlanIsLegalOnRandomProblems) {
  std::int64_t planned = 0;
  std::int64_t service_steps = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    const PlanProblem p = RandomProblem(seed);
    const Plan fast = BuildPlan(p, DefaultChoices(p));
    for (const BatchPlacement& placed : fast.batch) {
      planned += placed.start_step == kNotPlanned ? 0 : 1;
    }
    for (const auto& steps : fast.realtime) {
      service_steps += std::count_if(steps.begin(), steps.end(),
                                     [](const auto& lanes) { return !lanes.empty(); });
    }
    EXPECT_EQ(Illegal(p, fast), "") << "seed " << seed;
    const ImproveResult improved = ImprovePlan(p, DefaultChoices(p), 30);
    EXPECT_EQ(Illegal(p, improved.plan), "") << "seed " << seed << " (improved)";
    EXPECT_GE(improved.plan.objective, fast.objective - 1e-9 * std::abs(fast.objective))
        << "seed " << seed;
    EXPECT_DOUBLE_EQ(improved.plan.objective, PlanObjective(p, improved.plan));
    for (const std::int64_t protected_jobs : {0, 1, 3}) {
      EXPECT_EQ(Illegal(p, StartsNow(p, improved, protected_jobs)), "")
          << "seed " << seed << " (backfilled, " << protected_jobs << " protected)";
    }
  }
  EXPECT_GT(planned, 1000);  // the problems are not trivially empty
  EXPECT_GT(service_steps, 500);
}

// PlanFirstStep commits what BuildPlan commits: the same step-0 starts on the same lanes, and the
// same lanes for every real-time job at every step, on the random problems, with the default
// order, with one where a batch job comes before a real-time job and with one where the last
// batch job (of the lowest priority) comes first, as the local search may move it; and so do both
// once backfilled with the number of protected jobs PlanFirstStep was told of. It also places fewer
// jobs than BuildPlan on some problems (it stops early), or it would prove nothing.
TEST(HorizonPlanTest, PlanFirstStepStartsWhatTheFullPlanStarts) {
  std::int64_t started = 0;
  std::int64_t backfilled = 0;  // jobs the backfill starts at step 0 that the plan does not
  std::int64_t left_out = 0;    // jobs BuildPlan places that PlanFirstStep does not
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    const PlanProblem p = RandomProblem(seed);
    std::vector<PlanChoices> orders = {DefaultChoices(p)};
    if (!p.realtime.empty() && !p.batch.empty()) {
      PlanChoices mixed = orders.front();
      std::rotate(mixed.order.begin(), mixed.order.begin() + 1,
                  mixed.order.begin() + static_cast<std::ptrdiff_t>(p.realtime.size()) + 1);
      orders.push_back(mixed);
    }
    if (p.batch.size() > 1) {  // as the local search moves it: the last batch job first
      PlanChoices moved = orders.front();
      std::rotate(moved.order.begin() + static_cast<std::ptrdiff_t>(p.realtime.size()),
                  moved.order.end() - 1, moved.order.end());
      orders.push_back(moved);
    }
    for (const PlanChoices& choices : orders) {
      const Plan full = BuildPlan(p, choices);
      for (const std::int64_t protected_jobs : {0, 1, 3}) {
        const std::string where = fmt::format("seed {}, {} protected", seed, protected_jobs);
        const Plan first = PlanFirstStep(p, choices, protected_jobs);
        for (std::size_t j = 0; j < p.batch.size(); ++j) {
          const bool at_zero = full.batch[j].start_step == 0;
          started += at_zero ? 1 : 0;
          left_out +=
              full.batch[j].start_step != kNotPlanned && first.batch[j].start_step == kNotPlanned
                  ? 1
                  : 0;
          EXPECT_EQ(first.batch[j].start_step == 0, at_zero) << where << " job " << j;
          if (at_zero) {
            EXPECT_EQ(first.batch[j].lanes, full.batch[j].lanes) << where;
          }
        }
        EXPECT_EQ(first.realtime, full.realtime) << where;
        Plan full_backfilled = full;
        Plan first_backfilled = first;
        BackfillFirstStep(p, choices, protected_jobs, full_backfilled);
        BackfillFirstStep(p, choices, protected_jobs, first_backfilled);
        for (std::size_t j = 0; j < p.batch.size(); ++j) {
          const bool at_zero = full_backfilled.batch[j].start_step == 0;
          backfilled += at_zero && full.batch[j].start_step != 0 ? 1 : 0;
          EXPECT_EQ(first_backfilled.batch[j].start_step == 0, at_zero) << where << " job " << j;
          if (at_zero) {
            EXPECT_EQ(first_backfilled.batch[j].lanes, full_backfilled.batch[j].lanes) << where;
          }
        }
      }
    }
  }
  EXPECT_GT(started, 200);
  EXPECT_GT(backfilled, 5);
  EXPECT_GT(left_out, 100);
}

TEST(HorizonPlanTest, HigherPriorityClaimsFirst) {
  PlanProblem p;
  p.steps = 4;
  p.lanes = Lanes(1, 4);
  p.batch = {Batch(1, 4, 2), Batch(5, 4, 2)};
  const Plan plan = BuildPlan(p, DefaultChoices(p));
  EXPECT_EQ(plan.batch[1].start_step, 0);
  EXPECT_EQ(plan.batch[0].start_step, 2);
}

TEST(HorizonPlanTest, RunningWorkIsPinnedAndWaitedFor) {
  PlanProblem p;
  p.steps = 6;
  p.lanes = Lanes(1, 4);
  p.busy = {{0, 0, 3}, {1, 0, 3}};
  p.batch = {Batch(1, 4, 1), Batch(1, 2, 2)};
  const Plan plan = BuildPlan(p, DefaultChoices(p));
  EXPECT_EQ(plan.batch[0].start_step, 3);  // needs the pinned lanes
  EXPECT_EQ(plan.batch[1].start_step, 0);
  EXPECT_EQ(plan.batch[1].lanes, (std::vector<std::uint32_t>{2, 3}));
}

// One domain of 8 lanes, lanes 0 and 5 busy for the whole horizon: lanes 1-4 and 6-7 are free,
// and of the aligned pairs only 2-3 and 6-7 are whole. Lowest-first placement of the two 1-GPU
// jobs would take lanes 1 and 2 and leave one whole pair for two 2-GPU blocks; the
// fragmentation-aware choice takes lanes 1 and 4 (each alone in its pair), so both blocks start
// at once.
TEST(HorizonPlanTest, KeepsFreeSpaceInShapesLaterJobsCanUse) {
  PlanProblem p;
  p.steps = 3;
  p.lanes = Lanes(1, 8);
  p.busy = {{0, 0, 3}, {5, 0, 3}};
  p.batch = {Batch(9, 1, 3), Batch(8, 1, 3), Batch(7, 2, 3, true), Batch(6, 2, 3, true)};
  const Plan plan = BuildPlan(p, DefaultChoices(p));
  EXPECT_EQ(Illegal(p, plan), "");
  for (std::size_t j = 0; j < 4; ++j) {
    EXPECT_EQ(plan.batch[j].start_step, 0) << j;
  }
  EXPECT_EQ(plan.batch[2].lanes, (std::vector<std::uint32_t>{2, 3}));
  EXPECT_EQ(plan.batch[3].lanes, (std::vector<std::uint32_t>{6, 7}));
}

TEST(HorizonPlanTest, RealtimeRampsAheadOfRisingDemandWithinTheCap) {
  PlanProblem p;
  p.steps = 6;
  p.lanes = Lanes(1, 8);
  PlanRealtimeJob service;
  service.min_gpus = 1;
  service.max_gpus = 8;
  service.swap_cap = 2;
  service.demand = {1, 1, 1, 7, 7, 2};
  service.end_step = 6;
  service.lanes = {0};
  service.can_resize_now = true;
  p.realtime = {service};
  const Plan plan = BuildPlan(p, DefaultChoices(p));
  EXPECT_EQ(Illegal(p, plan), "");
  std::vector<std::size_t> counts;
  for (const auto& lanes : plan.realtime[0]) {
    counts.push_back(lanes.size());
  }
  // Backwards from the peak of 7 at step 3 with a cap of 2: 1, 3, 5, 7; down by 2 after it.
  EXPECT_EQ(counts, (std::vector<std::size_t>{1, 3, 5, 7, 7, 5}));
  EXPECT_EQ(plan.realtime[0][0], (std::vector<std::uint32_t>{0}));
}

// A service that grew into the second 8-lane block while the first was full (random family
// rf-s1-196: it held lanes 0, 1, 6 and 8 for hours with 12 lanes free and 8-GPU jobs waiting)
// moves back into the first block once that has room, so a wide job fits in the second.
TEST(HorizonPlanTest, AServiceMovesToLeaveABlockWholeForAWideJob) {
  PlanProblem p;
  p.steps = 4;
  p.lanes = Lanes(1, 16);
  PlanRealtimeJob service;
  service.min_gpus = 2;
  service.max_gpus = 5;
  service.swap_cap = 1;
  service.demand = {4, 4, 4, 4};
  service.end_step = 4;
  service.lanes = {0, 1, 6, 8};
  service.can_resize_now = true;
  p.realtime = {service};
  p.batch = {Batch(5, 8, 4, true)};
  const Plan plan = BuildPlan(p, DefaultChoices(p));
  EXPECT_EQ(Illegal(p, plan), "");
  EXPECT_EQ(plan.realtime[0][0], (std::vector<std::uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(plan.batch[0].start_step, 0);
  EXPECT_EQ(plan.batch[0].lanes, (std::vector<std::uint32_t>{8, 9, 10, 11, 12, 13, 14, 15}));
}

// The same on a 72-lane domain (an NVL72 rack: the domain spans two words of the lane masks). The
// service's two lanes in the middle of the first 64 leave at most a 32-lane block; on the last 8
// lanes they leave the 64-lane block whole.
TEST(HorizonPlanTest, AServiceMovesOnADomainOfSeventyTwoLanes) {
  PlanProblem p;
  p.steps = 2;
  p.lanes = Lanes(1, 72);
  PlanRealtimeJob service;
  service.min_gpus = 2;
  service.max_gpus = 2;
  service.demand = {2, 2};
  service.end_step = 2;
  service.lanes = {36, 40};
  service.can_resize_now = true;
  p.realtime = {service};
  const Plan moved = BuildPlan(p, DefaultChoices(p));
  EXPECT_EQ(Illegal(p, moved), "");
  EXPECT_EQ(moved.realtime[0][0], (std::vector<std::uint32_t>{64, 65}));
  // A service that a resize pauses (restart_cost) is not moved: the plan does not weigh the pause.
  p.realtime[0].can_move = false;
  const Plan kept = BuildPlan(p, DefaultChoices(p));
  EXPECT_EQ(kept.realtime[0][0], (std::vector<std::uint32_t>{36, 40}));
}

// A service moves only to make room: where the lowest lanes would leave no larger free block
// than its own, it keeps its own.
TEST(HorizonPlanTest, AServiceStaysWhereMovingMakesNoRoom) {
  PlanProblem p;
  p.steps = 3;
  p.lanes = Lanes(1, 8);
  PlanRealtimeJob service;
  service.min_gpus = 2;
  service.max_gpus = 2;
  service.demand = {2, 2, 2};
  service.end_step = 3;
  service.lanes = {2, 3};
  service.can_resize_now = true;
  p.realtime = {service};
  const Plan plan = BuildPlan(p, DefaultChoices(p));
  EXPECT_EQ(Illegal(p, plan), "");
  for (const std::vector<std::uint32_t>& lanes : plan.realtime[0]) {
    EXPECT_EQ(lanes, (std::vector<std::uint32_t>{2, 3}));
  }
}

TEST(HorizonPlanTest, UnmetRealtimeDemandOutweighsBatchWork) {
  PlanProblem p;
  p.steps = 2;
  p.lanes = Lanes(1, 4);
  PlanRealtimeJob service;
  service.min_gpus = 1;
  service.max_gpus = 4;
  service.demand = {3, 3};
  service.end_step = 2;
  p.realtime = {service};
  p.batch = {Batch(2, 4, 2)};  // priority 2 < penalty 8 x priority 1
  const Plan plan = BuildPlan(p, DefaultChoices(p));
  EXPECT_EQ(plan.realtime[0][0].size(), 3U);
  EXPECT_EQ(plan.batch[0].start_step, kNotPlanned);
  EXPECT_DOUBLE_EQ(plan.objective, 0);
}

TEST(HorizonPlanTest, ImprovementFindsABetterOrderAndIsDeterministic) {
  // Priority order starts the long 3-lane job first, which blocks the 4-lane job (higher value
  // per step in total) until step 6; the local search finds the order that starts the big job
  // first.
  PlanProblem p;
  p.steps = 8;
  p.decay = 0.9;
  p.lanes = Lanes(1, 4);
  p.batch = {Batch(3, 3, 6), Batch(2.5, 4, 8), Batch(1, 1, 8)};
  const Plan fast = BuildPlan(p, DefaultChoices(p));
  const ImproveResult a = ImprovePlan(p, DefaultChoices(p), 50);
  const ImproveResult b = ImprovePlan(p, DefaultChoices(p), 50);
  EXPECT_GT(a.plan.objective, fast.objective);
  EXPECT_EQ(a.choices.order, b.choices.order);
  EXPECT_EQ(a.evaluations, b.evaluations);
  EXPECT_DOUBLE_EQ(a.plan.objective, b.plan.objective);
  EXPECT_LE(a.evaluations, 50);
}

// Lane 3 is busy for two steps, so the 4-lane job (first in input order) can start at step 2 at
// the earliest. The local search finds that a later 3-lane job of the same priority is worth more
// started now, for three steps, pushing the wide job to step 3 (and the horizon cuts off its
// loss): the pattern that starved wide jobs. Reserved, the wide job keeps step 2; a job of a
// higher priority still goes first.
// Four lanes, lane 3 busy for two steps: a 4-GPU 6-step job, a 3-GPU 3-step job (both of
// priority 3) and a 1-GPU 3-step job of priority 1. Unreserved, the 3-GPU job goes first.
PlanProblem ReservationCase() {
  PlanProblem p;
  p.steps = 8;
  p.decay = 0.9;
  p.lanes = Lanes(1, 4);
  p.busy = {{3, 0, 2}};
  p.batch = {Batch(3, 4, 6), Batch(3, 3, 3), Batch(1, 1, 3)};
  return p;
}

TEST(HorizonPlanTest, NoJobOfTheSameOrALowerPriorityOvertakesAReservation) {
  PlanProblem p = ReservationCase();
  const ImproveResult free_search = ImprovePlan(p, DefaultChoices(p), 200);
  EXPECT_EQ(free_search.plan.batch[1].start_step, 0);
  EXPECT_EQ(free_search.plan.batch[0].start_step, 3);
  p.batch[0].reserved = true;
  const ImproveResult reserved = ImprovePlan(p, DefaultChoices(p), 200);
  EXPECT_EQ(Illegal(p, reserved.plan), "");
  EXPECT_EQ(reserved.plan.batch[0].start_step, 2);
  EXPECT_EQ(reserved.choices.order.front(), 0U);
  p.batch[1].priority = 4;
  const ImproveResult higher = ImprovePlan(p, DefaultChoices(p), 200);
  EXPECT_EQ(higher.plan.batch[1].start_step, 0);
  EXPECT_EQ(higher.plan.batch[0].start_step, 3);
}

// Backfill on a plan. Four lanes, lanes 0 and 1 busy until step 2. A (2 GPUs, 1 step, only lanes
// 0-1) is planned at step 2; B (4 GPUs, 2 steps) at step 3; C (2 GPUs, 4 steps) fits on lanes
// 2-3 now but would delay B, so the plan puts it after B. All of priority 1, in that order (none
// has an estimate, so the default order keeps the queue's among equals).
// Four lanes in one domain, lanes 0 and 1 busy for the first two steps, and `batch` queued.
PlanProblem TwoOfFourLanesBusy(std::int64_t steps, std::vector<PlanBatchJob> batch) {
  PlanProblem p;
  p.steps = steps;
  p.lanes = Lanes(1, 4);
  p.busy = {{0, 0, 2}, {1, 0, 2}};
  p.batch = std::move(batch);
  return p;
}

PlanProblem BackfillCase() {
  PlanBatchJob a = Batch(1, 2, 1);
  a.allowed = {0b0011};
  PlanProblem p = TwoOfFourLanesBusy(8, {a, Batch(1, 4, 2), Batch(1, 2, 4)});
  for (PlanBatchJob& job : p.batch) {
    job.estimated = false;
  }
  return p;
}

std::int64_t StartAfterBackfill(const PlanProblem& p, std::int64_t protected_jobs,
                                std::size_t job) {
  const PlanChoices choices = DefaultChoices(p);
  Plan plan = BuildPlan(p, choices);
  BackfillFirstStep(p, choices, protected_jobs, plan);
  return plan.batch[job].start_step;
}

TEST(HorizonPlanTest, BackfillStartsAJobThatDelaysOnlyUnprotectedStarts) {
  PlanProblem p = BackfillCase();
  const Plan plan = BuildPlan(p, DefaultChoices(p));
  ASSERT_EQ(plan.batch[0].start_step, 2);
  ASSERT_EQ(plan.batch[1].start_step, 3);
  ASSERT_EQ(plan.batch[2].start_step, 5);
  EXPECT_EQ(StartAfterBackfill(p, 1000000, 2), 5);  // every planned start held: conservative
  EXPECT_EQ(StartAfterBackfill(p, 2, 2), 5);        // A and B protected
  EXPECT_EQ(StartAfterBackfill(p, 1, 2), 0);        // only A (EASY): C delays B, not A
  EXPECT_EQ(StartAfterBackfill(p, 0, 2), 0);
  // When A takes all four lanes at step 2, C would delay A too: with A protected it waits.
  p.batch[0] = Batch(1, 4, 1);
  p.batch[0].estimated = false;
  EXPECT_EQ(StartAfterBackfill(p, 1, 2), 5);
  EXPECT_EQ(StartAfterBackfill(p, 0, 2), 0);
}

TEST(HorizonPlanTest, BackfillNeverDelaysAHigherPriorityOrAReservation) {
  PlanProblem p = BackfillCase();
  p.batch[1].priority = 2;  // B first, at step 2; A after it
  EXPECT_NE(StartAfterBackfill(p, 0, 2), 0);
  p.batch[1].priority = 1;
  p.batch[1].reserved = true;  // B first among its equals, and no one may delay it
  EXPECT_NE(StartAfterBackfill(p, 0, 2), 0);
}

// The jobs are tried by priority, not in the plan's order: four lanes, two busy for two steps; a
// 4-GPU 2-step job of priority 1 weighted 4 ranks ahead of a 2-GPU 4-step job of priority 2, and
// the plan starts them at steps 2 and 4. Unprotected, the wider job's planned start does not hold
// the priority-2 job back, which starts now on the two free lanes; protected, it does.
TEST(HorizonPlanTest, BackfillTriesAHigherPriorityFirstWhereverThePlanRanksIt) {
  PlanProblem p = TwoOfFourLanesBusy(8, {Batch(1, 4, 2), Batch(2, 2, 4)});
  p.batch[0].rank_factor = 4;
  const Plan plan = BuildPlan(p, DefaultChoices(p));
  ASSERT_EQ(plan.batch[0].start_step, 2);
  ASSERT_EQ(plan.batch[1].start_step, 4);
  EXPECT_EQ(StartAfterBackfill(p, 0, 1), 0);
  EXPECT_EQ(StartAfterBackfill(p, 1, 1), 4);
}

// PlanFirstStep places every job ranked above a waiting one (found in review): three lanes, two
// busy for 3 and 6 steps. The reservation puts J3 ahead of J2, which ranks above it by its rank
// factor; BuildPlan plans J2 at step 3, so backfill keeps J0 (which would hold a lane over it)
// waiting. PlanFirstStep stopped after J3, leaving J2 unplaced, and backfill then started J0.
TEST(HorizonPlanTest, PlanFirstStepPlacesTheJobsRankedAboveAWaitingOne) {
  PlanProblem p;
  p.lanes = Lanes(1, 3);
  p.busy = {{0, 0, 3}, {1, 0, 6}};
  PlanBatchJob elastic = Batch(2, 1, 13);
  elastic.max_gpus = 3;
  p.batch = {elastic, Batch(2, 3, 12), Batch(1, 2, 2), Batch(1, 3, 6)};
  p.batch[2].rank_factor = 3;
  p.batch[3].rank_factor = 1.5;
  p.batch[3].reserved = true;
  p.batch[3].reserved_against_gpus = 3;
  const PlanChoices choices = DefaultChoices(p);
  ASSERT_EQ(choices.order, (std::vector<std::uint32_t>{1, 0, 3, 2}));
  Plan full = BuildPlan(p, choices);
  Plan first = PlanFirstStep(p, choices, 0);
  BackfillFirstStep(p, choices, 0, full);
  BackfillFirstStep(p, choices, 0, first);
  for (std::size_t j = 0; j < p.batch.size(); ++j) {
    EXPECT_EQ(first.batch[j].start_step == 0, full.batch[j].start_step == 0) << "job " << j;
  }
}

// A job that would delay the planned start of a job ranked above it (by priority x rank factor)
// starts now only if the plan gains by it. Four lanes, two busy for two steps; a 4-GPU 3-step job
// W of priority 1 ranked by 2 (its width) starts at step 2, and a 1-GPU job N of priority 1 after
// it. N fits on a free lane now. A 20-step N there would hold one of W's lanes for 20 steps
// (random family rf-s2-150: a 14-hour 1-GPU job kept a 32-GPU job out all day): the plan's
// objective falls (12.83 + 4.09 against 10.30 + 9.64), so N waits, unprotected as W is. A 3-step
// N delays W by one step and adds more than that costs (2.85 + 9.78 against 10.30 + 2.21): it
// starts. Ranked equal, the old rule: N starts, whatever it delays.
TEST(HorizonPlanTest, BackfillDelaysAJobRankedAboveOnlyWhereThePlanGains) {
  PlanProblem p = TwoOfFourLanesBusy(24, {Batch(1, 4, 3), Batch(1, 1, 20)});
  p.batch[0].rank_factor = 2;
  const Plan plan = BuildPlan(p, DefaultChoices(p));
  ASSERT_EQ(plan.batch[0].start_step, 2);
  ASSERT_EQ(plan.batch[1].start_step, 5);
  EXPECT_EQ(StartAfterBackfill(p, 0, 1), 5);
  p.batch[1].steps = 3;
  EXPECT_EQ(StartAfterBackfill(p, 0, 1), 0);
  p.batch[1].steps = 20;
  p.batch[0].rank_factor = 1;
  EXPECT_EQ(StartAfterBackfill(p, 0, 1), 0);
}

// Ties in priority: a reserved job is placed first, whatever the input order.
TEST(HorizonPlanTest, AReservedJobGoesFirstAmongItsPriority) {
  PlanProblem p;
  p.lanes = Lanes(1, 4);
  p.batch = {Batch(2, 1, 1), Batch(1, 1, 1), Batch(1, 1, 1), Batch(3, 1, 1)};
  p.batch[2].reserved = true;
  EXPECT_EQ(DefaultChoices(p).order, (std::vector<std::uint32_t>{3, 0, 2, 1}));
}

// Ties in priority and reservation: the jobs with an estimate widest first, then longest first,
// among their own places; jobs without one keep theirs; a reserved job stays ahead of its equals.
TEST(HorizonPlanTest, AmongEqualsTheWidestThenLongestEstimatedJobGoesFirst) {
  PlanProblem p;
  p.lanes = Lanes(1, 8);
  p.batch = {Batch(1, 2, 1), Batch(1, 2, 5), Batch(1, 8, 1), Batch(1, 4, 3),
             Batch(1, 8, 2), Batch(2, 1, 1), Batch(1, 4, 5), Batch(1, 2, 2)};
  p.batch[0].estimated = false;
  p.batch[4].estimated = false;
  p.batch[7].reserved = true;
  EXPECT_EQ(DefaultChoices(p).order, (std::vector<std::uint32_t>{5, 7, 0, 2, 6, 3, 4, 1}));
}

// The caller's rank_factor weighs the order: priority x rank_factor, highest first. A reserved
// job still goes ahead of every job it holds against (without a width limit, every job of its
// priority or lower), whatever their weight; a job it passes that it does not hold against (of a
// higher priority, or wider than the limit) moves ahead with it, so none comes after it that did
// not.
TEST(HorizonPlanTest, TheRankFactorOrdersAndAReservationStillGoesFirstAmongItsPriority) {
  PlanProblem p;
  p.lanes = Lanes(1, 8);
  p.batch = {Batch(1, 1, 1), Batch(1, 8, 1), Batch(2, 1, 1), Batch(2, 4, 1), Batch(1, 1, 1)};
  p.batch[1].rank_factor = 8;  // 8
  p.batch[2].rank_factor = 1;  // 2
  p.batch[3].rank_factor = 2;  // 4
  p.batch[4].rank_factor = 3;  // 3
  EXPECT_EQ(DefaultChoices(p).order, (std::vector<std::uint32_t>{1, 3, 4, 2, 0}));
  p.batch[0].reserved = true;
  EXPECT_EQ(DefaultChoices(p).order, (std::vector<std::uint32_t>{3, 2, 0, 1, 4}));
  p.batch[0].reserved = false;
  p.batch[2].reserved = true;
  EXPECT_EQ(DefaultChoices(p).order, (std::vector<std::uint32_t>{2, 1, 3, 4, 0}));
  p.batch[2].reserved = false;
  p.batch[0].reserved = true;
  p.batch[0].reserved_against_gpus = 1;  // the 8-GPU job of its priority stays ahead
  EXPECT_EQ(DefaultChoices(p).order, (std::vector<std::uint32_t>{1, 3, 2, 0, 4}));
}

// A reservation with a width limit holds against the narrower jobs only: in ReservationCase, the
// 4-GPU reserved job holds the 3-GPU job back when the limit is 3 GPUs, and lets the local search
// start it first when the limit is 2.
TEST(HorizonPlanTest, AReservationHoldsAgainstNoJobWiderThanItsLimit) {
  PlanProblem p = ReservationCase();
  p.batch[0].reserved = true;
  p.batch[0].reserved_against_gpus = 3;
  const ImproveResult held = ImprovePlan(p, DefaultChoices(p), 200);
  EXPECT_EQ(held.plan.batch[0].start_step, 2);
  p.batch[0].reserved_against_gpus = 2;
  const ImproveResult passed = ImprovePlan(p, DefaultChoices(p), 200);
  EXPECT_EQ(Illegal(p, passed.plan), "");
  EXPECT_EQ(passed.plan.batch[1].start_step, 0);
  EXPECT_EQ(passed.plan.batch[0].start_step, 3);
}

TEST(HorizonPlanTest, FasterLanesPreferred) {
  PlanProblem p;
  p.steps = 2;
  p.lanes = Lanes(2, 2);
  p.lanes[2].speed = p.lanes[3].speed = 2;
  p.batch = {Batch(1, 2, 2)};
  const Plan plan = BuildPlan(p, DefaultChoices(p));
  EXPECT_EQ(plan.batch[0].lanes, (std::vector<std::uint32_t>{2, 3}));
}

}  // namespace
}  // namespace fleetsim
