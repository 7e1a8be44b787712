// How close the bound is to what can really be earned: the bound's best solution replayed in the
// simulator as a schedule the engine accepts, which brackets the true clairvoyant optimum between
// this replay's output (and the best policy's) below and the bound above.
//
// The replay is an oracle policy (it knows the plan, so every job's true run time and every
// arrival) and is not one of the built-in policies. At each call it: resizes each running
// service once per demand step toward the count the plan serves in that step (rounded up, within
// its size range and swap cap, growing onto free GPUs from the highest GPU id down, shrinking by
// giving up its lowest ones); starts a queued service on that count; and starts every job whose
// planned start has come, in planned order, on the lowest aligned free block (pow2_block) or the
// lowest free GPUs — later than planned if its GPUs are not free yet (the plan packs work within
// a step as a fluid, and knows counts, not GPUs). Jobs the plan does not start are never started.
// It asks to be called at every planned start and every step boundary. Stateless functions; each
// call runs its own simulation.
#pragma once

#include <string>

#include "fleetsim/bound/milp_bound.h"
#include "fleetsim/core/status.h"
#include "fleetsim/scenario/scenario.h"

namespace fleetsim {

struct ReplayOutcome {
  Status status{};                      // an illegal decision (a bug in the replay) when not OK
  double output = 0;                    // the run's priority-weighted output
  std::int64_t jobs_started_late = 0;   // jobs that started after their planned start
  std::int64_t jobs_started_early = 0;  // and before it
};

// Replays `result` (a bound solved for `scenario`'s problem, with a solution) in the simulator.
ReplayOutcome ReplayBound(const Scenario& scenario, const BoundResult& result);

}  // namespace fleetsim
