// The rolling-horizon planner behind the constraint-aware policy: a pure algorithm on a grid of
// `steps` timesteps x `lanes` whole GPUs, with no engine dependency, so it can be tested on
// hand-made problems. Given the work that cannot move (running jobs, pinned to their lanes until
// their estimated end), the queued batch-like jobs and the real-time services, it builds a plan
// that is legal by construction:
//  1. a lane serves at most one job per step (an occupancy bitset per step);
//  2. every job stays within its size range [min_gpus, max_gpus]; running work is inherited;
//  3. block jobs get an aligned power-of-two block of consecutive lanes inside one NVLink domain,
//     one-domain jobs lanes of one domain, every job only the lanes it accepts;
//  4. a real-time job's count changes by at most swap_cap between consecutive steps;
//  5. no preemption: a batch job holds its lanes from its start step to its estimated end.
// Objective (higher is better), with d = decay^step:
//   sum over batch jobs of priority x sum over planned steps of d x (sum of its lanes' speeds)
//   - realtime_penalty x sum over real-time jobs of priority x sum over steps of d x unmet GPUs.
// BuildPlan (the fast heuristic) places jobs one by one in an order (real-time jobs by priority x
// penalty, then batch jobs by priority x rank_factor, descending; ties: reserved jobs first, then
// input position, except that the jobs with an estimate take their places widest, then longest,
// first; then each reserved job moves ahead of the jobs it holds against);
// each batch job takes
// the earliest step at which it fits, at the largest size that fits there, on the lanes that keep
// the most useful free shapes (fragmentation-aware best fit). ImprovePlan is the improvement
// phase: a deterministic first-improvement local search over the placement order (move a job
// earlier, swap two jobs; never one that puts a job a reservation holds against before the
// reserved job) and over elastic jobs' size choice,
// re-running the list scheduler for
// each candidate and keeping only strict improvements, within an evaluation budget.
// Value types and free functions; thread-safe (no shared state).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

namespace fleetsim {

// One whole GPU the plan may hand out.
struct PlanLane {
  std::uint32_t domain = 0;  // NVLink domain; a domain's lanes are consecutive in lane order
  std::uint32_t slot = 0;    // position inside its domain (block alignment is slot % size == 0)
  double speed = 1;          // relative throughput; a job's value per step sums its lanes' speeds
};

// A set of lanes as a bitset: lane i is bit i % 64 of word i / 64.
using LaneMask = std::vector<std::uint64_t>;

// A lane taken by work the plan cannot move, over steps [first_step, end_step).
struct PlanBusy {
  std::uint32_t lane = 0;
  std::int64_t first_step = 0;
  std::int64_t end_step = 0;
};

struct PlanBatchJob {
  double priority = 1;
  std::int64_t min_gpus = 1;
  std::int64_t max_gpus = 1;
  bool block = false;       // aligned power-of-two block in one domain (sizes: powers of two)
  bool one_domain = false;  // all lanes in one NVLink domain
  std::int64_t steps = 1;   // estimated run length in steps (>= 1); may exceed the horizon
  bool estimated = true;    // `steps` comes from the job's walltime estimate, not a default
  LaneMask allowed{};       // lanes it accepts; empty: every lane
  // A reservation: placed before every other batch job of the same or a lower priority that
  // takes at most reserved_against_gpus GPUs (min_gpus), at the earliest step it fits around the
  // work placed before it, and the local search never moves such a job ahead of it; work started
  // now around the plan never delays its planned start. So no job it holds against can delay it
  // (the constraint-aware policy's guarantee against starvation; higher priorities, and wider
  // jobs while it holds against fewer GPUs, may still go first).
  bool reserved = false;
  std::int64_t reserved_against_gpus = std::numeric_limits<std::int64_t>::max();
  // The default order ranks batch jobs by priority x rank_factor (the caller's weighting, e.g. of
  // width; 1: by priority alone). Reservations and the backfill rules read `priority`.
  double rank_factor = 1;
};

struct PlanRealtimeJob {
  double priority = 1;
  std::int64_t min_gpus = 1;
  std::int64_t max_gpus = 1;
  std::int64_t swap_cap = 0;           // most change in count between steps; 0: no cap
  std::vector<std::int64_t> demand{};  // GPUs wanted per step (size: the plan's steps)
  std::int64_t end_step = 0;           // it is gone from this step on (estimate)
  std::vector<std::uint32_t> lanes{};  // running: the lanes it holds now; queued: empty
  // Running only: whether its step-0 count may differ from what it holds now (by <= swap_cap).
  bool can_resize_now = false;
  // Whether it may change lanes at the same count to leave a larger free block (a move); not when
  // a resize pauses it (restart_cost), which the plan does not weigh.
  bool can_move = true;
  LaneMask allowed{};
};

// The fleet's shape as the planner sees it: the lanes grouped into their NVLink domains.
struct PlanShape;

// The shape of `lanes` (O(lanes)), for a caller that plans on the same lanes many times.
std::shared_ptr<const PlanShape> MakePlanShape(const std::vector<PlanLane>& lanes);

struct PlanProblem {
  std::int64_t steps = 24;
  double decay = 0.95;
  double realtime_penalty = 8;
  std::vector<PlanLane> lanes{};
  // MakePlanShape(lanes), or null: then each plan derives it (a caller re-planning the same
  // fleet at every call keeps one, so that a call costs nothing per lane).
  std::shared_ptr<const PlanShape> shape{};
  std::vector<PlanBusy> busy{};
  // Work that cannot move as bitsets, the form in which a caller keeps it between calls: empty,
  // or per step (step after step) the lanes taken at that step, ceil(lanes / 64) words each;
  // a lane bit set here is taken just as a `busy` entry takes it (both apply).
  std::vector<std::uint64_t> pinned{};
  std::vector<PlanBatchJob> batch{};
  std::vector<PlanRealtimeJob> realtime{};
};

inline constexpr std::int64_t kNotPlanned = -1;

struct BatchPlacement {
  std::int64_t start_step = kNotPlanned;
  std::vector<std::uint32_t> lanes{};  // ascending
};

struct Plan {
  std::vector<BatchPlacement> batch{};                              // by batch job
  std::vector<std::vector<std::vector<std::uint32_t>>> realtime{};  // [job][step] lanes, ascending
  double objective = 0;
};

// How the heuristic was steered: the placement order and, per batch job, whether it takes the
// smallest size of its range (the improvement phase's two knobs).
struct PlanChoices {
  std::vector<std::uint32_t> order{};  // real-time jobs as index, batch jobs as realtime + index
  std::vector<bool> smallest_size{};   // by batch job
};

// The heuristic's own choices: the order described above (priority x rank_factor, ties, then
// each reservation), largest sizes.
PlanChoices DefaultChoices(const PlanProblem& problem);

// The list scheduler under `choices`; the plan's objective is filled in.
Plan BuildPlan(const PlanProblem& problem, const PlanChoices& choices);

// BuildPlan's step 0, for a caller that commits only step 0 after BackfillFirstStep with
// `protected_jobs`: once no real-time job is left in the order and either no lane is free at
// step 0, or fewer lanes are free there than any batch job left needs, the reserved job and the
// first `protected_jobs` jobs planned later have been placed and no job left has a higher
// priority, or a higher priority x rank_factor, than a job placed after step 0 (or not at all),
// the batch jobs left are not placed
// (kNotPlanned: none of them could start at step 0, and neither the step-0 starts nor what
// BackfillFirstStep then starts depend on where they go). Every batch job that BuildPlan starts
// at step 0 starts here on the same lanes, every real-time job gets the same lanes at every
// step, and BackfillFirstStep starts the same jobs on the same lanes after either. The
// objective is not computed (0).
Plan PlanFirstStep(const PlanProblem& problem, const PlanChoices& choices,
                   std::int64_t protected_jobs);

// Backfill on a plan, as EASY backfill does on a queue: every batch job the plan does not start
// at step 0 (planned later, or not at all) starts at step 0 if it fits there, by priority (highest
// first) and in the plan's order among equals, around what the plan starts at step 0, its real-time
// jobs, and the planned starts it may not delay: those of the first `protected_jobs` jobs the plan
// starts later (in its order), of every reserved job, and of every job of a higher priority. It may
// delay the planned starts of the others (of its priority or lower), but one of a job ranked above
// it (a higher priority x rank_factor) only if the plan gains by it: the objective of the plan with
// it started now (what backfill started before it fixed too, the rest placed again under
// `choices`) is at least that of the plan without it; a job with a size range that fits around
// them only at a smaller size starts at that size, unchecked. With protected_jobs at least the
// number of jobs, nothing starts that the plan does not. Only step 0 of the result is meaningful
// (the later starts are not re-planned, and may overlap what starts now).
void BackfillFirstStep(const PlanProblem& problem, const PlanChoices& choices,
                       std::int64_t protected_jobs, Plan& plan);

// The objective of a plan (as described above).
double PlanObjective(const PlanProblem& problem, const Plan& plan);

struct ImproveResult {
  Plan plan;
  PlanChoices choices;
  std::int64_t evaluations = 0;  // list schedules built
};

// Local search from `start` (BuildPlan of `start` is evaluation 1): at most `max_evaluations`
// list schedules; returns the best plan found (never worse than the start's).
ImproveResult ImprovePlan(const PlanProblem& problem, const PlanChoices& start,
                          std::int64_t max_evaluations);

}  // namespace fleetsim
