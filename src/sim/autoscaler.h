// Autoscaler: when the on-demand pools that autoscale (PoolSpec::autoscale) add and release
// nodes. A pool starts with its first `min_nodes` nodes up and the rest released. After every
// policy call, and when an idle node's release falls due, it looks at the queue, pool by pool in
// fleet order: the queued jobs a pool accepts (AcceptsPool), oldest first, are counted against
// the pool's free whole GPUs and the nodes on their way, then against its released nodes, which
// are brought up (the lowest first) after the provisioning delay; jobs a pool counts are not
// counted again by a later pool; jobs still queued though what the pool has would cover their
// GPUs (spread over nodes, or none needed) bring one node when none is on its way. A node up and
// holding nothing is idle from that moment; once it has been idle for `idle_release`, and no
// queued job accepts the pool, it is released (the highest first) while more than `min_nodes`
// are kept.
// A released node is down: not billed (docs/metrics.md#cost), not seen by policies. This class
// only decides; the engine applies what it decides. docs/scenario-format.md#autoscaling.
// Not thread-safe; owned by one simulation.
#pragma once

#include <span>
#include <vector>

#include "fleetsim/core/time.h"
#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/ledger/job_queue.h"
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

  bool ScaleUp(const ScaledPool& scaled, std::vector<JobIndex>& waiting,
               std::span<const JobRequest> requests, Moves& moves);
  void TrackIdle(const ScaledPool& scaled, SimTime now);
  void ScaleDown(const ScaledPool& scaled, SimTime now, Moves& moves);

  const FleetLedger& ledger_;
  std::vector<ScaledPool> pools_;
  std::vector<NodeState> state_;     // by node (kKept for nodes of pools that do not scale)
  std::vector<SimTime> idle_since_;  // by node: kTimeNever when not idle (or not kept and up)
};

}  // namespace fleetsim
