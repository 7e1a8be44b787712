// The typed events a simulation publishes to its observers. Observers (metrics, job logs,
// diagnostics) learn everything from these; the simulation knows nothing of them. References
// inside an event are valid only during the callback.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "fleetsim/core/time.h"
#include "fleetsim/fleet/fleet.h"
#include "fleetsim/fleet/fleet_state.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

struct RunStarted {
  SimTime time;
  std::int64_t fleet_gpus;
  std::span<const JobRequest> jobs;  // the whole workload, indexed by JobIndex
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

// A running job was stopped by its policy and put back in the queue.
struct JobPreempted {
  SimTime time;
  JobIndex job;
  const JobRequest& request;
  SimTime start;              // when the stopped run began
  SimDuration lost_run_time;  // run time done since the last checkpoint, now lost
  const std::string& reason;
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
