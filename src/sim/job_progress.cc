// Progress and segment accounts of a job across placements, resizes and stops.
#include "fleetsim/sim/job_progress.h"

#include <algorithm>
#include <cmath>

#include "fleetsim/core/check.h"

namespace fleetsim {

SimDuration JobProgress::StartSegment(SimTime now, SimDuration full, SimDuration pause,
                                      PauseKind kind, const CheckpointPlan& plan) {
  FLEETSIM_CHECK(full > 0 && pause >= 0 && plan.interval >= 0 && plan.cost >= 0,
                 "a segment needs a positive run time and no negative pause or checkpoint");
  start_ = now;
  full_ = full;
  pause_ = pause;
  pause_kind_ = kind;
  plan_ = plan;
  // Computing left, rounded up to the millisecond, less a hair so that floating-point dust from
  // summing fractions (1/3 + 1/3 ...) does not add a millisecond.
  constexpr double kDust = 1e-6;
  const SimDuration left = std::max<SimDuration>(
      1, static_cast<SimDuration>(std::ceil((1.0 - done_) * static_cast<double>(full) - kDust)));
  const SimDuration checkpoints = plan.interval > 0 ? (left - 1) / plan.interval : 0;
  // Saturated at the end of time (absurd inputs: a 1 ms interval with a long cost and run).
  const double wall = static_cast<double>(pause) + static_cast<double>(left) +
                      static_cast<double>(checkpoints) * static_cast<double>(plan.cost);
  if (wall >= static_cast<double>(kTimeNever / 2)) {
    return kTimeNever / 2;
  }
  return pause + left + checkpoints * plan.cost;
}

JobProgress::Split JobProgress::SplitAt(SimTime now) const {
  FLEETSIM_CHECK(now >= start_, "job progress out of order");
  Split split;
  const SimDuration wall = now - start_;
  split.paused = std::min(wall, pause_);
  const SimDuration working = wall - split.paused;
  if (plan_.interval == 0) {
    split.computed = working;
    return split;
  }
  const SimDuration period = plan_.interval + plan_.cost;
  const SimDuration cycles = working / period;
  const SimDuration into_cycle = working % period;
  split.computed = cycles * plan_.interval + std::min(into_cycle, plan_.interval);
  split.saved = cycles * plan_.interval;
  split.checkpointing = cycles * plan_.cost + std::max<SimDuration>(0, into_cycle - plan_.interval);
  return split;
}

SegmentAccount JobProgress::EndSegment(SimTime now, Keep keep) {
  const Split split = SplitAt(now);
  const SimDuration kept = keep == Keep::kAll ? split.computed : split.saved;
  SegmentAccount account;
  account.useful = kept;
  account.lost = split.computed - kept;
  account.overhead = split.checkpointing;
  (pause_kind_ == PauseKind::kRestart ? account.overhead : account.reconfiguration) += split.paused;
  done_ = std::min(1.0, done_ + static_cast<double>(kept) / static_cast<double>(full_));
  return account;
}

}  // namespace fleetsim
