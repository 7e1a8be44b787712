// ClusterView: what a policy may know, as queries, and nothing it may change. It answers
//  - the fleet's static description: its NVLink domains, nodes and racks (topology()) and its
//    pools as a real scheduler's configuration declares them (PoolInfo: model, tier, price, MIG
//    mode, the advertised spot reclaim rate; not the simulator's interruption processes);
//  - free capacity now: whole GPUs by fleet, pool, NVLink domain and GPU (with a bitset for
//    fast scans), each GPU's use (whole, MIG instances, shares, compute and memory left), each
//    node's state and free host CPU and memory;
//  - the jobs: the queue of submitted-but-not-started jobs, the running jobs with their
//    placements, each submitted job's request, and what changed since the policy's last call;
//  - the placement helper: ChoosePlacement, the placement the engine would accept for a request
//    on what is free now (placement_choice.h has its rules).
// Only submitted jobs can be looked up: a policy learns nothing of future arrivals, and a job's
// hidden truth (its real duration or work) is not reachable from here. The one thing a policy
// can change during a call is its PlacementPlanner (the second argument of Policy::Decide): the
// placements it holds there show in this view as taken, for the rest of the call, and the engine
// undoes them after it. A view is valid only during the call it is passed to; every query is
// O(1) unless its comment says otherwise (ChoosePlacement: placement_choice.h gives its cost),
// and none copies the fleet. The fleet's engine-side
// state (FleetLedger, FleetState) is not reachable from here.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fleetsim/core/check.h"
#include "fleetsim/core/time.h"
#include "fleetsim/fleet/fleet_spec.h"
#include "fleetsim/fleet/fleet_state.h"
#include "fleetsim/fleet/topology.h"
#include "fleetsim/ledger/job_queue.h"
#include "fleetsim/workload/job.h"
#include "fleetsim/workload/tenants.h"

namespace fleetsim {

class FleetLedger;         // fleetsim/ledger/fleet_ledger.h: the engine's allocation state
struct PlacementStrategy;  // placement_strategy.h

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
  // (the job as it then runs), or a release (finished or preempted: `placement` empty). Replaying
  // them over the running jobs of the previous call gives running(), so a policy can keep its own
  // index of the running work up to date without reading every running job at every call.
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

// A pool as its configuration declares it: what a real scheduler knows of a partition or node
// group. GPUs [first_gpu, end_gpu) and nodes [first_node, end_node) are the pool's.
struct PoolInfo {
  std::string name;
  GpuModel gpu;  // the catalog's description of the model
  std::int64_t gpus_per_node = 0;
  GpuId first_gpu = 0;
  GpuId end_gpu = 0;
  NodeId first_node = 0;
  NodeId end_node = 0;
  PriceTier tier = PriceTier::kOnDemand;
  std::optional<double> price_per_gpu_hour;  // what the pool pays, if known
  MigMode mig = MigMode::kOff;
  // Spot reclaims per node-hour as the provider advertises them (PoolSpec's
  // AdvertisedReclaimsPerNodeHour); 0 for a pool that is not spot. When reclaims come is not
  // known ahead.
  double advertised_reclaims_per_node_hour = 0;
};

// The pools of a fleet as PoolInfo, in pool order (the engine builds them once per run).
// Every fleet with GPUs has at least one pool.
std::vector<PoolInfo> PoolInfosOf(const FleetLedger& ledger);

// One GPU's use now (holds of this call included).
struct GpuNow {
  bool whole = false;         // held whole by one job
  int mig_instances = 0;      // MIG instances placed on it
  int shares = 0;             // fractional shares placed on it
  int free_milli = 0;         // compute left for another share, in thousandths of the GPU
  double free_memory_gb = 0;  // GPU memory left for another share
  bool idle() const { return !whole && mig_instances == 0 && shares == 0; }
};

// One node now.
struct NodeNow {
  bool up = true;  // false: announced for reclaim, down, or not provisioned
  // When a node that is not up is expected back (kTimeNever: not known); `now` when up.
  SimTime back_at = 0;
  GpuId first_gpu = 0;  // the node's GPUs are [first_gpu, end_gpu)
  GpuId end_gpu = 0;
  // 0 on a node that is not up; infinite on an up node whose CPU is not modelled.
  double free_cpu_cores = 0;
  double free_memory_gb = 0;  // likewise
};

class ClusterView {
 public:
  // For the engine. `submitted` holds the requests of the jobs submitted so far, indexed by
  // JobIndex; `pools` is PoolInfosOf(ledger), kept by the caller for as long as the view.
  ClusterView(SimTime now, const FleetLedger& ledger, std::span<const PoolInfo> pools,
              std::span<const JobRequest> submitted, const JobQueue& queue,
              std::span<const RunningJob> running, const ChangesSinceLastCall& changes,
              const Organization& organization);
  // A temporary list of pools would be gone before the view is used.
  ClusterView(SimTime now, const FleetLedger& ledger, std::vector<PoolInfo>&& pools,
              std::span<const JobRequest> submitted, const JobQueue& queue,
              std::span<const RunningJob> running, const ChangesSinceLastCall& changes,
              const Organization& organization) = delete;

  SimTime now() const { return now_; }

  // --- The fleet as configured.
  // NVLink domains, nodes and racks, for topology-aware placement (fleet/placement.h).
  const Topology& topology() const { return topology_; }
  std::int64_t gpus() const { return topology_.gpus(); }
  // A bare {"gpus": N} fleet has one pool, named "", of no catalog model.
  std::span<const PoolInfo> pools() const { return pools_; }
  // O(log pools).
  PoolIndex PoolOfGpu(GpuId gpu) const;
  PoolIndex PoolOfNode(NodeId node) const;
  // The placement rules' pool test (placement_rules.h AcceptsPool): the job's GPU models and its
  // spot eligibility accept the pool.
  bool Accepts(const JobRequest& request, PoolIndex pool) const;

  // --- Capacity now.
  // GPUs that can be taken whole now (not held, partitioned by MIG, shared, or on a node that
  // is not up).
  std::int64_t FreeWholeGpus() const;
  std::int64_t FreeWholeIn(PoolIndex pool) const;
  // Whole GPUs free in an NVLink domain (topology().DomainOf(gpu) names a GPU's domain).
  std::int64_t FreeWholeInDomain(std::uint32_t domain) const;
  // The NVLink domains with at least `count` whole GPUs free, fewest free first (ties: lowest
  // domain). O(domains) at most.
  std::vector<std::uint32_t> DomainsWithFreeWhole(std::int64_t count) const;
  bool IsFreeWhole(GpuId gpu) const;
  // One bit per GPU (GPU g is bit g % 64 of word g / 64), set when it cannot be taken whole.
  std::span<const std::uint64_t> NotFreeWholeWords() const;
  GpuNow Gpu(GpuId gpu) const;
  NodeNow Node(NodeId node) const;
  bool IsUp(NodeId node) const;
  bool IsGpuUp(GpuId gpu) const;

  // --- The placement helper (placement_choice.h): a placement the engine accepts on what is
  // free now, or none. It holds nothing: PlacementPlanner::Place does the same and holds it.
  std::optional<Allocation> ChoosePlacement(const JobRequest& request) const;
  std::optional<Allocation> ChoosePlacement(
      const JobRequest& request, const PlacementStrategy& strategy,
      std::optional<std::int64_t> exact_gpus = std::nullopt) const;

  // --- The jobs.
  // Queued jobs, oldest submission first (ties by id).
  const JobQueue& queue() const { return queue_; }
  std::span<const RunningJob> running() const { return running_; }
  const ChangesSinceLastCall& changes() const { return changes_; }
  // The tenants jobs are accounted to (may be empty: every tenant then has the defaults).
  const Organization& organization() const { return organization_; }
  // Jobs submitted so far: JobIndex 0 .. submitted() - 1 (jobs are submitted in index order).
  std::size_t submitted() const { return requests_.size(); }
  // The request of a submitted job (queued, running or finished). Asking for a job that has not
  // been submitted is a bug in the policy and aborts the run.
  const JobRequest& request(JobIndex job) const {
    FLEETSIM_CHECK(job < requests_.size(), "a policy looked up a job that was not submitted");
    return requests_[job];
  }

 private:
  SimTime now_;
  const FleetLedger& ledger_;
  const Topology& topology_;
  std::span<const PoolInfo> pools_;
  std::span<const JobRequest> requests_;
  const JobQueue& queue_;
  std::span<const RunningJob> running_;
  const ChangesSinceLastCall& changes_;
  const Organization& organization_;
};

}  // namespace fleetsim
