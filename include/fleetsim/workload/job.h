// Jobs, split the way a real scheduler sees them:
//  - JobRequest is what a user submits and a policy may read (id, submit time, size, priority);
//  - JobTruth is what only the simulator knows (how long the job really runs).
// The simulation hands policies requests only; the truth stays inside the engine.
// Value types; thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fleetsim/core/time.h"

namespace fleetsim {

// Position of a job in its workload (dense, 0-based); the engine's handle for a job.
using JobIndex = std::uint32_t;

struct JobRequest {
  std::string id;             // unique within a workload
  SimTime submit = 0;         // when the job enters the queue
  std::int64_t gpus = 1;      // whole GPUs, all held for the whole run
  std::int64_t priority = 1;  // larger is more important (visible to policies; reported per job)
};

struct JobTruth {
  SimDuration duration = 0;  // run time once started (> 0)
};

struct Job {
  JobRequest request;
  JobTruth truth;
};

// A workload: jobs sorted by (submit, id), indexed by JobIndex.
struct Workload {
  std::vector<Job> jobs;
};

// Sorts jobs by (submit time, id) — the order arrivals are scheduled in.
void SortBySubmit(Workload& workload);

}  // namespace fleetsim
