// How far a started job has got, and how each stretch of its life was spent. A segment is a
// stretch on one placement: it begins when the job starts (or resumes from the queue) or is
// resized, and ends when it finishes, is resized, is stopped (preempted, reclaimed, failed) or
// the run ends.
//
// Within a segment the job first pauses for `pause` (its restart cost when it resumes from a
// checkpoint — overhead — or after a resize — reconfiguration), then computes. With a checkpoint
// interval c and cost k it computes c, pauses k to checkpoint, computes c, ... and takes no
// checkpoint once its work is done. Progress is the fraction of the job done, in [0, 1]: on a
// placement where the whole job computes in F, computing d adds d / F (a job given work has the
// speed model's F for each placement, so progress carries over at the new speed).
//
// When a segment ends, its wall time splits exactly into useful computing, lost computing,
// overhead (restart pause, checkpoint pauses) and reconfiguration (SegmentAccount). What is kept:
//  - finished, resized, run ended, or stopped with everything saved (an emergency checkpoint, or a
//    stateless real-time service): all the computing;
//  - stopped otherwise: only the computing saved by the segment's completed checkpoints; the
//    rest is lost (all of it without checkpoints).
// docs/interruptions.md has the model with worked examples.
#pragma once

#include <cstdint>

#include "fleetsim/core/time.h"
#include "fleetsim/sim/events.h"

namespace fleetsim {

struct CheckpointPlan {
  SimDuration interval = 0;  // computing between checkpoints; 0 = never checkpoints
  SimDuration cost = 0;      // pause per checkpoint
};

enum class PauseKind : std::uint8_t { kRestart, kReconfiguration };

enum class Keep : std::uint8_t { kAll, kSaved };

class JobProgress {
 public:
  // A segment begins at `now` on a placement where the whole job computes in `full`. Returns the
  // wall time until the job would finish on it (pause, computing left, checkpoints on the way).
  SimDuration StartSegment(SimTime now, SimDuration full, SimDuration pause, PauseKind kind,
                           const CheckpointPlan& plan);
  // The segment ends at `now`, keeping what `keep` says; progress is updated. Returns its account.
  SegmentAccount EndSegment(SimTime now, Keep keep);

  double done() const { return done_; }
  SimTime segment_start() const { return start_; }

 private:
  struct Split {
    SimDuration paused = 0;
    SimDuration computed = 0;
    SimDuration saved = 0;  // computing covered by a completed checkpoint
    SimDuration checkpointing = 0;
  };
  Split SplitAt(SimTime now) const;

  double done_ = 0;  // fraction done (and kept) at the start of the current segment
  SimTime start_ = 0;
  SimDuration full_ = 1;
  SimDuration pause_ = 0;
  PauseKind pause_kind_ = PauseKind::kRestart;
  CheckpointPlan plan_{};
};

}  // namespace fleetsim
