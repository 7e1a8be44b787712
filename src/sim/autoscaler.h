// Autoscaler: when the on-demand pools that autoscale (PoolSpec::autoscale) add and release
// nodes. A pool starts with its first `min_nodes` nodes up and the rest released. After every
// policy call it looks at the queue: the GPUs queued jobs ask for that the pool's GPU model can
// serve, beyond the pool's free whole GPUs and the nodes already on their way, bring that many
// released nodes' worth up (the lowest first) after the provisioning delay. A node up and holding
// nothing is idle from that moment; once it has been idle for `idle_release`, and no job the pool
// could serve is queued, it is released (the highest first) while more than `min_nodes` are kept.
// A released node is down: not billed (docs/metrics.md#cost), not seen by policies. This class
// only decides; the engine applies what it decides. docs/scenario-format.md#autoscaling.
// Not thread-safe; owned by one simulation.
#pragma once

#include <span>
#include <vector>

#include "fleetsim/core/time.h"
#include "fleetsim/policy/fleet_ledger.h"
#include "fleetsim/policy/job_queue.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

class Autoscaler {
 public:
  explicit Autoscaler(const FleetLedger& ledger);

  bool any() const { return !pools_.empty(); }

  // The nodes released as the run begins: each autoscaled pool's beyond its min_nodes.
  std::vector<NodeId> InitialReleases();

  struct Moves {
    std::vector<NodeId> provision{};  // to bring up after the pool's provisioning delay
    std::vector<NodeId> release{};    // to release now (each holds nothing)
    SimTime next_check = kTimeNever;  // when an idle node's release falls due
  };
  // What to do at `now`, after a policy call or at a check, given the queued jobs.
  Moves Decide(SimTime now, const JobQueue& queue, std::span<const JobRequest> requests);

  // A provisioned node came up.
  void CameUp(NodeId node);

 private:
  enum class NodeState : std::uint8_t { kKept, kReleased, kProvisioning };
  struct ScaledPool {
    PoolIndex pool = 0;
    std::vector<NodeId> nodes{};  // ascending
  };

  std::int64_t QueuedGpusFor(const ScaledPool& scaled, const JobQueue& queue,
                             std::span<const JobRequest> requests) const;
  void ScaleUp(const ScaledPool& scaled, std::int64_t queued, Moves& moves);
  void TrackIdle(const ScaledPool& scaled, SimTime now);
  void ScaleDown(const ScaledPool& scaled, SimTime now, Moves& moves);

  const FleetLedger& ledger_;
  std::vector<ScaledPool> pools_;
  std::vector<NodeState> state_;     // by node (kKept for nodes of pools that do not scale)
  std::vector<SimTime> idle_since_;  // by node: kTimeNever when not idle (or not kept and up)
};

}  // namespace fleetsim
