// The clairvoyant upper bound on a scenario's priority-weighted output: a time-indexed
// mixed-integer model of the source post's problem, built with every job's true run time and
// every arrival known in advance, and solved with COIN-OR CBC. Its optimum is at least the
// priority-weighted output (docs/metrics.md#priority-weighted-output) of any schedule the engine
// accepts — of any policy, online or not — on a scenario BoundProblemFromScenario accepts.
//
// The model (docs/benchmark.md#measured-against-the-optimum has the argument in full). Steps m
// of length Δ (the last one ends at the window's end T); Σ below is in GPU-hours.
//  - A fixed-size job j (g GPUs, run time d, submitted at r, priority p) starts at one instant
//    s >= r or never. Its GPU-hours in step m, o_m(s) = g |[s, s + d) ∩ step m|, and its output,
//    p Σ_m o_m(s), are piecewise linear in s, with kinks only where s or s + d crosses a step
//    boundary or T. Between consecutive kinks ("segments") the model takes s exactly: a binary
//    z (the job starts in this segment) and a continuous λ <= z (how far into it). So a job's
//    GPU-hours per step and its output are exact for every start, mid-step starts included;
//    at most one segment per job.
//  - Constraint 1, a GPU serves one job at a time, is kept per step integrated: the GPU-hours
//    of every job and service in step m are at most G Δ. This is the relaxation: every
//    schedule meets it (integrate the per-instant capacity over the step), but a solution may
//    pack work within a step in a way no schedule can.
//  - At the instant just before each step boundary, where the model knows a count exactly, the
//    per-instant constraints are kept: the services' GPUs plus the jobs surely running then
//    (started in a segment that ends before it and lasting past it) fit in G, and aligned
//    blocks (constraint 3) fit: for each block size b, jobs of blocks >= b take whole aligned
//    b-blocks, and every other GPU in use spoils at least ceil((X - L) / b) more (L: GPUs outside
//    any b-block), all within the fleet's b-blocks. (When every domain's size is a multiple of
//    b, as in the benchmark's fleets, this follows from the capacity and is left out: at one
//    instant, power-of-two blocks always pack. What alignment costs a real schedule is that
//    jobs keep their GPUs while others come and go — fragmentation over time — which a model
//    of counts, not of GPU identities, does not see: a relaxation.)
//  - A service holds A_m GPU-hours in step m and serves σ_m <= min(A_m, its demand's GPU-hours
//    in the step) (min(held, demand) integrated is at most both integrals). Its count just before
//    each boundary, b_m, is an integer, with u_m whether it runs then; while it runs, b and A
//    stay in [min_gpus, max_gpus] (constraint 2) and within its swap cap (constraint 4) as the
//    engine enforces it: every count held during a demand step is within the cap of the count
//    the step began with (or the service started with), so, for the grid steps m and
//    boundaries k inside a demand step that begins at boundary f and ends at boundary e,
//    A_m / Δ and b_k lie in [b_f - cap, b_f + cap], and A_m / Δ <= b_e + 2 cap. (The grid step
//    must divide the demand step for this; otherwise the cap is left out, a looser bound.)
//  - No preemption (constraint 5): one start per job, one run of its full length.
// The objective is Σ priority × (jobs' GPU-hours inside the window + services' served
// GPU-hours): the metric itself, not the constraint-aware planner's decayed objective.
// Thread-safe (each call owns its solver model).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fleetsim/bound/bound_problem.h"

namespace fleetsim {

struct BoundOptions {
  double time_limit_s = 60;  // CBC stops here and reports its best solution and bound
  int threads = 1;           // CBC's threads (1: the same search on every run)
  // More CBC parameters (name, value), e.g. {"cuts", "off"}: another search of the same model,
  // which must reach the same optimum (the tests use it to cross-check the solver).
  std::vector<std::pair<std::string, std::string>> solver_parameters{};
};

// A job the best solution starts.
struct BoundStart {
  std::string id{};
  std::int64_t priority = 1;
  std::int64_t gpus = 0;
  SimTime start = 0;  // rounded to the millisecond
  SimTime end = 0;    // start + run time (may be after the window's end)
  double output = 0;  // priority × GPU-hours inside the window
};

// A service in the best solution, step by step.
struct BoundServicePlan {
  std::string id{};
  std::int64_t priority = 1;
  std::vector<double> held_gpu_hours{};     // A_m
  std::vector<double> served_gpu_hours{};   // σ_m
  std::vector<double> demand_gpu_hours{};   // the demand inside the step (after submission)
  std::vector<std::int64_t> gpus_at_end{};  // b_{m+1}: GPUs held just before the step's end
  double output = 0;                        // priority × served
};

struct BoundModelSize {
  std::int64_t columns = 0;
  std::int64_t integer_columns = 0;
  std::int64_t rows = 0;
  std::int64_t nonzeros = 0;
};

struct BoundResult {
  std::string scenario{};
  std::uint64_t seed = 0;
  std::int64_t steps = 0;
  SimDuration step = 0;
  SimTime window_end = 0;
  BoundModelSize size{};
  bool has_solution = false;
  bool proven_optimal = false;  // the search closed: bound == objective
  bool time_limit = false;      // the search was stopped by the time limit
  double objective = 0;  // the best solution's priority-weighted output (a solution of the model)
  double bound = 0;      // the upper bound: the best bound the search proved (>= objective)
  double gap = 0;        // (bound - objective) / bound; 0 when proven optimal
  double lp_bound = 0;   // the LP relaxation's optimum: a weaker bound, >= bound
  double seconds = 0;    // solve time, wall clock
  std::int64_t nodes = 0;
  // CBC's outcome in words; when its solution broke the model, says so, and the bound falls back
  // to the LP relaxation's.
  std::string status{};
  std::vector<BoundStart> starts{};          // by start time, then id
  std::vector<BoundServicePlan> services{};  // in workload order
  std::vector<std::string> left_out{};       // from the problem
};

// Builds the model of `problem` and solves it.
BoundResult SolveBound(const BoundProblem& problem, const BoundOptions& options);

// Whether CBC takes a parameter of this name that sets a value, not one of its actions such as
// export or stop (BoundOptions::solver_parameters): CBC itself only prints "No match" for one it
// does not know, and runs its default search.
bool IsSolverParameter(const std::string& name);

}  // namespace fleetsim
