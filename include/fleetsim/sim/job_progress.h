// How far a started job has got, across the segments of its life: a segment is a stretch on one
// placement, ended by completion, a resize (the job keeps going on the new placement) or a
// preemption (the job goes back to the queue and loses what it did since its last checkpoint).
// Progress is the fraction of the job done, in [0, 1]: on a placement where the whole job would
// take T, a segment of length d adds d / T. A job given a duration has the same T everywhere; a
// job given work has the speed model's T for each placement, so work done on one placement
// carries over to the next at the new speed.
// Checkpoints: a job with a checkpoint interval c saves its progress every c of run time since it
// (re)started from the queue; a preemption keeps what was saved at the last one, in proportion to
// the run time elapsed (floor(elapsed / c) x c of it). Without checkpoints a preemption loses the
// whole run. (Checkpoint costs and interruption notice are issue 6's model.)
#pragma once

#include "fleetsim/core/time.h"

namespace fleetsim {

class JobProgress {
 public:
  // A run starts (from the queue) at `now` on a placement where the whole job takes `full`.
  // Returns the run time left on it.
  SimDuration StartRun(SimTime now, SimDuration full);
  // The placement changes at `now`; the whole job takes `full` on the new one. Returns the run
  // time left on it.
  SimDuration Resize(SimTime now, SimDuration full);
  // The run is stopped at `now`. Returns the run time lost (done but not saved).
  SimDuration Preempt(SimTime now, SimDuration checkpoint_interval);

  double done() const { return done_; }

 private:
  // Progress made in the current segment up to `now`.
  double SegmentProgress(SimTime now) const;
  SimDuration Left(SimDuration full) const;

  double done_ = 0;  // fraction done at the start of the current segment
  double done_at_run_start_ = 0;
  SimTime run_start_ = 0;
  SimTime segment_start_ = 0;
  SimDuration segment_full_ = 1;  // T on the current placement
};

}  // namespace fleetsim
