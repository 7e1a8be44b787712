// Progress of a job across placements, resizes and preemptions.
#include "fleetsim/sim/job_progress.h"

#include <algorithm>
#include <cmath>

#include "fleetsim/core/check.h"

namespace fleetsim {

SimDuration JobProgress::StartRun(SimTime now, SimDuration full) {
  done_at_run_start_ = done_;
  run_start_ = now;
  segment_start_ = now;
  segment_full_ = full;
  return Left(full);
}

SimDuration JobProgress::Resize(SimTime now, SimDuration full) {
  done_ = std::min(1.0, done_ + SegmentProgress(now));
  segment_start_ = now;
  segment_full_ = full;
  return Left(full);
}

SimDuration JobProgress::Preempt(SimTime now, SimDuration checkpoint_interval) {
  const double reached = std::min(1.0, done_ + SegmentProgress(now));
  const SimDuration elapsed = now - run_start_;
  double kept = done_at_run_start_;
  if (checkpoint_interval > 0 && elapsed > 0) {
    const SimDuration saved = elapsed / checkpoint_interval * checkpoint_interval;
    kept +=
        (reached - done_at_run_start_) * static_cast<double>(saved) / static_cast<double>(elapsed);
  }
  const SimDuration lost = elapsed - (checkpoint_interval > 0 && elapsed > 0
                                          ? elapsed / checkpoint_interval * checkpoint_interval
                                          : 0);
  done_ = kept;
  return lost;
}

double JobProgress::SegmentProgress(SimTime now) const {
  FLEETSIM_CHECK(now >= segment_start_ && segment_full_ > 0, "job progress out of order");
  return static_cast<double>(now - segment_start_) / static_cast<double>(segment_full_);
}

SimDuration JobProgress::Left(SimDuration full) const {
  // Rounded up to the millisecond, less a hair so that floating-point dust from summing segment
  // fractions (1/3 + 1/3 ...) does not add a millisecond.
  constexpr double kDust = 1e-6;
  const auto left =
      static_cast<SimDuration>(std::ceil((1.0 - done_) * static_cast<double>(full) - kDust));
  return std::max<SimDuration>(1, left);
}

}  // namespace fleetsim
