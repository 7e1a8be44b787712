// Full mode of the constraint-aware planner: a time-indexed mixed-integer model of the first
// steps of a PlanProblem, solved with COIN-OR CBC, proposes the order in which the list scheduler
// (horizon_plan.h) places the batch jobs; the caller keeps the plan of that order only if its
// objective beats the heuristic's (docs/policies.md, "Full mode").
//
// The model, over a window of W steps (at most the horizon): for every batch job j (g GPUs, its
// smallest size; estimated run of d steps; priority p), a binary x(j, s) per step s < W, "j
// starts at step s", at most one per job; per step t < W, the GPUs of the jobs running at t are
// at most the lanes left at t by the work the plan cannot move and by the real-time jobs'
// lanes in the heuristic's plan. Its objective is the planner's: p g sum of decay^t over the
// steps j runs inside the horizon (lane speeds taken as 1). It counts GPUs and knows no lane:
// accepted pools, domains and blocks are the list scheduler's to honour, so the model only
// proposes an order and every plan stays legal by construction. A node limit, not a time limit,
// bounds the search, so the same problem gives the same order on every run. Thread-safe.
#pragma once

#include <cstdint>
#include <optional>

#include "policy/horizon_plan.h"

namespace fleetsim {

struct WindowMilpOptions {
  std::int64_t window_steps = 6;
  std::int64_t max_nodes = 200;  // branch-and-bound nodes of CBC's search
};

// The order the window's optimum suggests: the real-time jobs where `heuristic` has them, then
// the reserved batch jobs (in heuristic's order, ahead of every other batch job: more than a
// reservation asks, so none it holds against comes first), then the batch jobs the model starts, by
// start step (ties: heuristic's order), then the rest in heuristic's order; sizes as in heuristic.
// nullopt when the model has nothing to decide (no batch job) or CBC returns no solution.
std::optional<PlanChoices> WindowMilpOrder(const PlanProblem& problem, const Plan& heuristic_plan,
                                           const PlanChoices& heuristic,
                                           const WindowMilpOptions& options);

}  // namespace fleetsim
