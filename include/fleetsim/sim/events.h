// The typed events a simulation publishes to its observers. Observers (metrics, job logs,
// diagnostics) learn everything from these; the simulation knows nothing of them. References
// inside an event are valid only during the callback, except RunStarted::jobs (the whole run).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "fleetsim/core/time.h"
#include "fleetsim/fleet/fleet.h"
#include "fleetsim/fleet/fleet_spec.h"
#include "fleetsim/fleet/fleet_state.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

// A node of the fleet as the run starts with it. Nodes, their pools and GPUs are fixed for a run;
// only whether a node is up changes (NodeWentDown, NodeCameBack).
struct NodeAtStart {
  PoolIndex pool = 0;
  GpuId first_gpu = 0;
  GpuId end_gpu = 0;  // its GPUs are [first_gpu, end_gpu)
  bool down = false;
};

// The run's shape: observers copy what they keep of the pools and nodes, and never see the
// engine's allocation state.
struct RunStarted {
  SimTime time;
  std::int64_t fleet_gpus;
  // The whole workload, indexed by JobIndex: the one reference valid for the whole run (the
  // requests never change during it).
  std::span<const JobRequest> jobs;
  std::span<const PoolSpec> pools;     // in fleet order
  std::span<const NodeAtStart> nodes;  // indexed by NodeId
};

struct JobSubmitted {
  SimTime time;
  JobIndex job;
  const JobRequest& request;
};

// What a started job holds, summarized by the engine.
struct PlacementSummary {
  std::vector<GpuId> gpus{};  // the GPUs it holds whole or in part, distinct, ascending
  // GPU-equivalents: 1 per whole GPU, milli / 1000 per fractional share, compute slices / 7 per
  // MIG instance (docs/metrics.md).
  double gpu_share = 0;
  std::int64_t domains = 0;  // NVLink domains its GPUs span
  std::string gpu_models{};  // catalog models of its GPUs, distinct, '|'-joined in name order
  // gpu_share split by pool, ascending by pool (pools with no share left out).
  std::vector<std::pair<PoolIndex, double>> share_by_pool{};
  // The job's work done per unit of running time on this placement, in reference GPUs (work in
  // reference GPU-hours per hour): gpu_share for a job given a duration (its truth is GPU-time);
  // for a job given work, the work over its run time here (GPUs x the slowest GPU's speed, times
  // its share for a MIG instance or a fraction, x the cross-domain factor). Set by the engine
  // when the segment begins (WorkRate).
  double work_rate = 0;
};

struct JobStarted {
  SimTime time;
  JobIndex job;
  const JobRequest& request;
  const Allocation& placement;
  const PlacementSummary& summary;
};

struct JobFinished {
  SimTime time;
  JobIndex job;
  const JobRequest& request;
  SimTime start;
};

// Why a run stopped before the job finished.
enum class StopCause : std::uint8_t { kPolicy, kSpotReclaim, kHardwareFailure };
const char* StopCauseName(StopCause cause);  // "policy", "spot-reclaim", "hardware-failure"

// A running job was stopped and put back in the queue: preempted by its policy, or its node was
// reclaimed (spot) or failed.
struct JobPreempted {
  SimTime time;
  JobIndex job;
  const JobRequest& request;
  SimTime start;              // when the stopped run began
  SimDuration lost_run_time;  // computing done since the last checkpoint, now lost
  const std::string& reason;
  StopCause cause = StopCause::kPolicy;
  bool emergency_checkpoint = false;  // saved everything within a spot notice
};

// How the wall time of one segment of a job's life (a stretch on one placement, from a start or
// resize to its finish, resize, stop or the end of the run) was spent. The parts sum to the
// segment's length (sim/job_progress.h has the model).
struct SegmentAccount {
  SimDuration useful = 0;    // computing whose result was kept (finished, saved by a checkpoint,
                             // or still in progress when the run ended)
  SimDuration lost = 0;      // computing thrown away: done since the last checkpoint at a stop
  SimDuration overhead = 0;  // restart pause, checkpoint pauses, the emergency checkpoint
  SimDuration reconfiguration = 0;  // the pause after a resize

  SimDuration total() const { return useful + lost + overhead + reconfiguration; }
};

enum class SegmentEnd : std::uint8_t { kFinished, kResized, kStopped, kRunEnded };

// Published just before the JobFinished, JobResized or JobPreempted it belongs to, and for every
// running job just before RunEnded.
struct JobSegmentEnded {
  SimTime time;
  JobIndex job;
  const JobRequest& request;
  SimTime start;                    // when the segment began
  const PlacementSummary& summary;  // what the job held during it
  SegmentEnd how;
  SegmentAccount account;
};

// kReleased: an autoscaled pool's node not wanted (at the start, or idle); it holds nothing.
enum class NodeDownCause : std::uint8_t { kSpotReclaim, kHardwareFailure, kReleased };

// A spot reclaim was announced: the node is cordoned until it goes at `reclaim_at`.
struct NodeNoticed {
  SimTime time;
  NodeId node;
  PoolIndex pool;
  SimTime reclaim_at;
  bool wave = false;  // part of a correlated reclaim wave
};

// A node went down (its jobs were stopped first); it is back at `back_at` (kTimeNever: a
// released node, back only if the autoscaler provisions it).
struct NodeWentDown {
  SimTime time;
  NodeId node;
  PoolIndex pool;
  NodeDownCause cause;
  SimTime back_at;
};

struct NodeCameBack {
  SimTime time;
  NodeId node;
  PoolIndex pool;
};

// A running job's placement was replaced (it keeps running on the new one).
struct JobResized {
  SimTime time;
  JobIndex job;
  const JobRequest& request;
  const Allocation& placement;
  const PlacementSummary& summary;
};

enum class RejectedBy { kAdmission, kPolicy };

struct JobRejected {
  SimTime time;
  JobIndex job;
  const JobRequest& request;
  RejectedBy by;
  const std::string& reason;
};

struct PolicyCalled {
  SimTime time;
  std::size_t queued;
  std::size_t decisions;
};

struct RunEnded {
  SimTime time;  // the simulated time the run stopped at
};

}  // namespace fleetsim
