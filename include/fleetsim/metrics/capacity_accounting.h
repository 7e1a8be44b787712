// CapacityAccounting: where every GPU-hour of the fleet went. Over the measurement window (first
// submission to the end of the run, as RunMetrics defines it) the fleet's capacity, GPUs x window,
// splits exactly into
//  - useful: computing whose result was kept (segment accounts), except that a real-time service
//    is useful only up to its demand: min(GPUs held, demand(t)) over the useful part of a segment;
//  - allocated_idle: the rest of a real-time service's useful time (held for demand that did not
//    come);
//  - lost: computing thrown away at a stop (work since the last checkpoint);
//  - overhead: restart pauses, checkpoint pauses and emergency checkpoints;
//  - reconfiguration: the pause after a resize;
//  - idle: GPUs of up nodes not held by any job (integrated from start/resize/stop/finish and
//    node events, independently of the segment accounts);
//  - down: GPUs of nodes that were down (spot reclaims, hardware failures).
// Each job's share is its GPU-equivalents (PlacementSummary::gpu_share), split by pool. The
// categories are kept per pool and in total, in GPU-hours; the identity gap (capacity minus the
// categories) checks the bookkeeping. It also counts spot notices, reclaims, waves, hardware
// failures and the job stops they caused. From the same events it derives the headline
// utilization (GPU-time spent working — useful, lost, overhead, reconfiguration — over the GPU-time
// of up nodes: a real-time reservation held above demand does not count), each job's useful
// GPU-hours and useful work (a job given work earns its work in reference GPU-hours, not the time
// its GPUs took; other jobs their useful GPU-hours), the priority-weighted output (priority x
// useful work), and the idle GPU-time of up nodes while jobs were waiting in the queue.
// docs/metrics.md#capacity-accounting defines every figure. An observer; not thread-safe; one per
// simulation.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "fleetsim/sim/observer.h"

namespace fleetsim {

// How GPU-time was spent (in GPU-hours in an AccountingSummary).
struct GpuTimeSplit {
  double useful = 0;
  double lost = 0;
  double overhead = 0;
  double reconfiguration = 0;
  double allocated_idle = 0;
  double idle = 0;
  double down = 0;
  double capacity = 0;  // GPUs x window; the categories above add up to it

  double Accounted() const {
    return useful + lost + overhead + reconfiguration + allocated_idle + idle + down;
  }
};

struct PoolAccounting {
  std::string name{};  // "" for a bare {"gpus": N} fleet
  PriceTier tier = PriceTier::kOnDemand;
  std::int64_t gpus = 0;
  GpuTimeSplit hours{};
};

// Counted over the whole run (node events before the first submission included).
struct InterruptionCounts {
  std::int64_t spot_notices = 0;           // nodes given a reclaim notice
  std::int64_t reclaim_waves = 0;          // distinct (instant, pool) with a wave notice
  std::int64_t spot_reclaims = 0;          // nodes that went down reclaimed
  std::int64_t hardware_failures = 0;      // nodes that went down failed
  std::int64_t jobs_interrupted = 0;       // job stops by a reclaim or a failure
  std::int64_t emergency_checkpoints = 0;  // of those, stops that saved everything in the notice
  std::int64_t policy_preemptions = 0;     // job stops by the policy
};

struct AccountingSummary {
  SimTime window_start = 0;
  SimTime window_end = 0;
  GpuTimeSplit total{};                 // GPU-hours, summed over pools
  std::vector<PoolAccounting> pools{};  // in fleet order
  double identity_gap_gpu_seconds = 0;  // capacity - the categories; ~0
  double goodput = 0;                   // useful / capacity; 0 when the window is empty
  // (useful + lost + overhead + reconfiguration) / (capacity - down); 0 when nothing was up.
  double utilization = 0;
  // GPU-hours of up nodes held by no job while at least one submitted job waited in the queue.
  double idle_while_queued_gpu_hours = 0;
  // idle_while_queued_gpu_hours / (capacity - down); 0 when nothing was up.
  double idle_while_queued = 0;
  // Σ over jobs of priority x their useful work (UsefulWorkGpuHours; served GPU-hours for
  // real-time services): the priority-weighted output of docs/metrics.md.
  double priority_weighted_output = 0;
  InterruptionCounts counts{};
};

class CapacityAccounting final : public SimulationObserver {
 public:
  void OnRunStarted(const RunStarted& event) override;
  void OnJobSubmitted(const JobSubmitted& event) override;
  void OnJobStarted(const JobStarted& event) override;
  void OnJobFinished(const JobFinished& event) override;
  void OnJobPreempted(const JobPreempted& event) override;
  void OnJobResized(const JobResized& event) override;
  void OnJobRejected(const JobRejected& event) override;
  void OnJobSegmentEnded(const JobSegmentEnded& event) override;
  void OnNodeNoticed(const NodeNoticed& event) override;
  void OnNodeWentDown(const NodeWentDown& event) override;
  void OnNodeCameBack(const NodeCameBack& event) override;
  void OnRunEnded(const RunEnded& event) override;

  // Valid after RunEnded.
  const AccountingSummary& summary() const { return summary_; }
  // A job's useful GPU-hours (served GPU-hours for a real-time service), by job index.
  double UsefulGpuHours(JobIndex job) const;
  // A job's useful work, by job index: its useful time x PlacementSummary::work_rate summed over
  // segments (reference GPU-hours for a job given work, GPU-hours for one given a duration,
  // served GPU-hours for a real-time service).
  double UsefulWorkGpuHours(JobIndex job) const;

 private:
  using ShareByPool = std::vector<std::pair<PoolIndex, double>>;

  // What a running job holds, since when.
  struct Holding {
    ShareByPool share_by_pool{};
    SimTime since = 0;
  };

  // Adds the holding's GPU-time up to `time` to the pools' allocated time and empties it.
  void Release(JobIndex job, SimTime time);
  void Hold(JobIndex job, SimTime time, const PlacementSummary& summary);
  // Integrates up and down GPUs per pool, and idle GPUs while jobs wait, up to `time`.
  void AdvanceNodes(SimTime time);
  void SetQueued(JobIndex job, bool queued);
  std::int64_t GpusOfNode(NodeId node) const;
  // A real-time service's useful segment time: GPU-ms of min(held, demand) in
  // [time - useful, time), the rest of its useful share allocated idle.
  void SplitServiceUseful(const JobSegmentEnded& event);

  std::vector<PoolSpec> pools_;     // the run's pools, fleet order
  std::vector<NodeAtStart> nodes_;  // the run's nodes, by NodeId
  bool any_submitted_ = false;
  SimTime nodes_integrated_to_ = 0;
  std::vector<GpuTimeSplit> pool_ms_;    // by pool, GPU-ms (idle, capacity: at RunEnded)
  std::vector<double> allocated_ms_;     // by pool: GPU-ms held by jobs (closed holdings)
  std::vector<double> up_gpu_ms_;        // by pool: GPU-ms of up nodes in the window
  std::vector<std::int64_t> up_gpus_;    // by pool, now
  std::vector<std::int64_t> down_gpus_;  // by pool, now
  std::vector<bool> node_down_;          // by node
  std::vector<Holding> holdings_;        // by job; empty share while not running
  double held_share_ = 0;                // GPU-equivalents held by running jobs, now
  std::vector<bool> queued_;             // by job: submitted and waiting, now
  std::int64_t queued_count_ = 0;
  double idle_while_queued_ms_ = 0;
  std::vector<double> useful_ms_;       // by job
  std::vector<double> useful_work_ms_;  // by job: work kept, reference GPU-ms
  double weighted_work_ms_ = 0;         // Σ priority x useful work (served GPU-ms for services)
  std::set<std::pair<SimTime, PoolIndex>> wave_instants_;
  AccountingSummary summary_;
};

}  // namespace fleetsim
