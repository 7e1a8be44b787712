// ClusterView: everything a policy may read, and nothing it may change. It shows the fleet's
// allocation state, the queue of submitted-but-not-started jobs (as requests), the running jobs,
// and what changed since the policy's previous call. Only submitted jobs can be looked up: a
// policy learns nothing of future arrivals, and a job's hidden truth (its real duration) is not
// reachable from here. A view is valid only during the Policy::Decide call it is passed to.
#pragma once

#include <deque>
#include <span>
#include <vector>

#include "fleetsim/core/check.h"
#include "fleetsim/core/time.h"
#include "fleetsim/fleet/fleet.h"
#include "fleetsim/fleet/fleet_state.h"
#include "fleetsim/fleet/topology.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

struct RunningJob {
  JobIndex job = 0;
  SimTime start = 0;
  std::vector<GpuId> gpus;
};

// What happened since the policy was last called, in event order.
struct ChangesSinceLastCall {
  std::vector<JobIndex> submitted;
  std::vector<JobIndex> finished;
};

class ClusterView {
 public:
  // `submitted` holds the requests of the jobs submitted so far, indexed by JobIndex.
  ClusterView(SimTime now, const AllocationState& fleet, const Topology& topology,
              const FleetState& fleet_state, std::span<const JobRequest> submitted,
              const std::deque<JobIndex>& queue, std::span<const RunningJob> running,
              const ChangesSinceLastCall& changes)
      : now_(now),
        fleet_(fleet),
        topology_(topology),
        fleet_state_(fleet_state),
        requests_(submitted),
        queue_(queue),
        running_(running),
        changes_(changes) {}

  SimTime now() const { return now_; }
  // GPUs that can be taken whole now (busy: held, or in a static MIG layout).
  const AllocationState& fleet() const { return fleet_; }
  // NVLink domains, nodes and racks, for topology-aware placement (fleet/placement.h).
  const Topology& topology() const { return topology_; }
  // Every resource: MIG instances, fractional shares, node CPU and memory.
  const FleetState& fleet_state() const { return fleet_state_; }
  // Queued jobs, oldest submission first (ties by id).
  const std::deque<JobIndex>& queue() const { return queue_; }
  std::span<const RunningJob> running() const { return running_; }
  const ChangesSinceLastCall& changes() const { return changes_; }
  // The request of a submitted job (queued, running or finished). Asking for a job that has not
  // been submitted is a bug in the policy and aborts the run.
  const JobRequest& request(JobIndex job) const {
    FLEETSIM_CHECK(job < requests_.size(), "a policy looked up a job that was not submitted");
    return requests_[job];
  }

 private:
  SimTime now_;
  const AllocationState& fleet_;
  const Topology& topology_;
  const FleetState& fleet_state_;
  std::span<const JobRequest> requests_;
  const std::deque<JobIndex>& queue_;
  std::span<const RunningJob> running_;
  const ChangesSinceLastCall& changes_;
};

}  // namespace fleetsim
