// What `fleetsim bound` prints and writes: per scenario, the best solution's objective, the best
// bound, the gap, whether the bound is proven optimal, the solve time, the schedule (the jobs
// the best solution starts, and the services step by step) and what that schedule earns when the
// simulator replays it (bound_replay.h); and the bounds file (`--json`,
// docs/outputs.md#bounds-json), which `fleetsim bench` reads back to show each policy's share of
// the bound (report/bound_figures.h). Pure functions of their inputs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fleetsim/bound/bound_replay.h"
#include "fleetsim/bound/milp_bound.h"

namespace fleetsim {

inline constexpr int kBoundsFormatVersion = 1;

// One scenario's bound and its best solution replayed in the simulator.
struct BoundReport {
  BoundResult bound;
  std::optional<ReplayOutcome> replay;  // when the bound has a solution
};

// The human-readable report of one scenario's bound (several are separated by a blank line).
std::string BoundText(const BoundReport& report);

// {"format_version", "fleetsim_version", "time_limit_s", "threads", "bounds": [{"scenario",
// "seed", "bound", "objective", "gap", "proven_optimal", ...}]} — docs/outputs.md#bounds-json.
std::string BoundsJson(const std::vector<BoundReport>& reports, const BoundOptions& options);

}  // namespace fleetsim
