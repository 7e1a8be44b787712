// ClusterView: everything a policy may read, and nothing it may change. It shows the fleet's
// allocation state (FleetLedger: every grant, the whole-GPU view, the free-capacity index, the
// pools), the queue of submitted-but-not-started jobs (as requests), the running jobs and their
// placements, and what changed since the policy's previous call. Only submitted jobs can be looked
// up: a policy learns nothing of future arrivals, and a job's hidden truth (its real duration or
// work) is not reachable from here. The one thing a policy may use to plan is planner(): placements
// it holds there show in the view for the rest of the call and are undone by the engine after it.
// A view is valid only during the Policy::Decide call it is passed to.
#pragma once

#include <span>
#include <vector>

#include "fleetsim/core/check.h"
#include "fleetsim/core/time.h"
#include "fleetsim/fleet/fleet.h"
#include "fleetsim/fleet/fleet_state.h"
#include "fleetsim/fleet/topology.h"
#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/ledger/job_queue.h"
#include "fleetsim/policy/placement_choice.h"
#include "fleetsim/workload/job.h"
#include "fleetsim/workload/tenants.h"

namespace fleetsim {

struct RunningJob {
  JobIndex job = 0;
  SimTime start = 0;
  Allocation placement;
  // Taking an emergency checkpoint to leave a node announced for reclaim: it holds its placement
  // until it leaves; preempting it changes nothing and it cannot be resized.
  bool leaving = false;
};

// What happened since the policy was last called, in event order.
struct ChangesSinceLastCall {
  std::vector<JobIndex> submitted;
  std::vector<JobIndex> finished;
  std::vector<JobIndex> preempted;    // back in the queue (stopped by a policy, reclaim or failure)
  std::vector<NodeId> nodes_changed;  // announced for reclaim, gone down or come back
  // Every change of a running job, in event order: a start, a resize or the start of its leave
  // (the job as it then runs), or a release (finished or preempted: `placement` empty). Replaying them over
  // the running jobs of the previous call gives running(), so a policy can keep its own index
  // of the running work up to date without reading every running job at every call.
  std::vector<RunningJob> placements;

  // Every job that may have joined or left the queue since the last call (submitted, preempted,
  // or with a placement change), in that order, possibly repeated: what an index of the queue
  // kept between calls must look at again.
  std::vector<JobIndex> Touched() const {
    std::vector<JobIndex> jobs(submitted.begin(), submitted.end());
    jobs.insert(jobs.end(), preempted.begin(), preempted.end());
    for (const RunningJob& change : placements) {
      jobs.push_back(change.job);
    }
    return jobs;
  }
};

class ClusterView {
 public:
  // `submitted` holds the requests of the jobs submitted so far, indexed by JobIndex.
  ClusterView(SimTime now, const FleetLedger& ledger, PlacementPlanner& planner,
              std::span<const JobRequest> submitted, const JobQueue& queue,
              std::span<const RunningJob> running, const ChangesSinceLastCall& changes,
              const Organization& organization)
      : now_(now),
        ledger_(ledger),
        planner_(planner),
        requests_(submitted),
        queue_(queue),
        running_(running),
        changes_(changes),
        organization_(organization) {}

  SimTime now() const { return now_; }
  // GPUs that can be taken whole now (busy: held, partitioned by MIG, or shared).
  const AllocationState& fleet() const { return ledger_.whole(); }
  // NVLink domains, nodes and racks, for topology-aware placement (fleet/placement.h).
  const Topology& topology() const { return ledger_.topology(); }
  // Every resource: MIG instances, fractional shares, node CPU and memory.
  const FleetState& fleet_state() const { return ledger_.state(); }
  // All of the above, plus the free-capacity index and the pools.
  const FleetLedger& ledger() const { return ledger_; }
  // Finds placements for requests and holds them for the rest of this call.
  PlacementPlanner& planner() const { return planner_; }
  // Queued jobs, oldest submission first (ties by id).
  const JobQueue& queue() const { return queue_; }
  std::span<const RunningJob> running() const { return running_; }
  const ChangesSinceLastCall& changes() const { return changes_; }
  // The tenants jobs are accounted to (may be empty: every tenant then has the defaults).
  const Organization& organization() const { return organization_; }
  // The request of a submitted job (queued, running or finished). Asking for a job that has not
  // been submitted is a bug in the policy and aborts the run.
  const JobRequest& request(JobIndex job) const {
    FLEETSIM_CHECK(job < requests_.size(), "a policy looked up a job that was not submitted");
    return requests_[job];
  }

 private:
  SimTime now_;
  const FleetLedger& ledger_;
  PlacementPlanner& planner_;
  std::span<const JobRequest> requests_;
  const JobQueue& queue_;
  std::span<const RunningJob> running_;
  const ChangesSinceLastCall& changes_;
  const Organization& organization_;
};

}  // namespace fleetsim
