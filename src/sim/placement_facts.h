// What the engine derives from a placement when a job starts: the summary observers get
// (GPUs, GPU-equivalents, NVLink domains, models) and the job's run time. A job given a duration
// runs exactly that long wherever it lands; a job given work in reference GPU-hours runs
// work / (GPUs x the slowest allocated GPU's speed x the cross-domain factor when its GPUs span
// more than one NVLink domain), rounded up to the millisecond and at least 1 ms (SpeedModel).
// A GPU's speed is SpeedModel::GpuSpeed for the job's bound (1 when the catalog lacks the figure
// or the GPU has no model), times MigShare for a MIG instance, times milli / 1000 for a share.
// Inference kinds (batch and real-time) are memory-bound; every other kind is compute-bound.
#pragma once

#include "fleetsim/fleet/speed_model.h"
#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/sim/events.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

PlacementSummary Summarize(const FleetLedger& ledger, const Allocation& placement);

WorkBound BoundOf(JobKind kind);

// Precondition (checked): exactly one of truth.duration and truth.work_gpu_hours is positive, and
// a job with work holds at least one GPU.
SimDuration RunTime(const SpeedModel& speed, const FleetLedger& ledger, const JobRequest& request,
                    const JobTruth& truth, const Allocation& placement,
                    const PlacementSummary& summary);

// PlacementSummary::work_rate of a job on a placement where it runs `run_time` (RunTime): the
// summary's gpu_share for a job given a duration, work / run time for a job given work.
double WorkRate(const JobTruth& truth, const PlacementSummary& summary, SimDuration run_time);

}  // namespace fleetsim
