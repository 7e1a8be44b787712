// The typed events a simulation publishes to its observers. Observers (metrics, job logs,
// diagnostics) learn everything from these; the simulation knows nothing of them. References
// inside an event are valid only during the callback.
#pragma once

#include <span>
#include <string>

#include "fleetsim/core/time.h"
#include "fleetsim/fleet/fleet.h"
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

struct JobStarted {
  SimTime time;
  JobIndex job;
  const JobRequest& request;
  std::span<const GpuId> gpus;
};

struct JobFinished {
  SimTime time;
  JobIndex job;
  const JobRequest& request;
  SimTime start;
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
