// FleetLedger: the allocation state of one fleet, as the engine keeps it and policies read it.
// It holds, in step:
//  - the FleetState: every grant (whole GPUs, MIG instances, fractional shares, node CPU/memory);
//  - the whole-GPU view (AllocationState): a GPU is free in it exactly when FleetState says it can
//    be taken whole now (GPUs of static-MIG pools, and GPUs with MIG instances or shares in use,
//    are busy in it), with the per-domain FreeCapacityIndex the placement primitives need;
//  - the pools, and which pool each GPU, node and NVLink domain belongs to, with each pool's
//    count of GPUs free to take whole.
// Nodes may be cordoned or down (FleetState availability, set by the engine when spot capacity is
// reclaimed or hardware fails); a node that is not up has an expected time it is back.
// A bare {"gpus": N} fleet reads as one pool named "" of N GPUs on one node with no catalog model.
// Apply and Release change all of them together, with the kinds of GPU holders each node has
// (PodKindsOn: shares and whole-GPU holders by size, which the GPU-clustering placement rule
// reads). For the FGD placement rule the ledger also keeps the TypicalTaskTally of the jobs the
// engine has admitted so far (NoteSubmitted; typical_task_tally.h) — the one thing here that is
// not allocation state. The engine owns one ledger per simulation;
// policies do not see it: ClusterView answers their queries from it, and they change it only
// through PlacementPlanner holds, which the engine takes over or undoes after every policy call.
// Not copyable or movable (the state and index refer to the topology it owns). Not thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fleetsim/core/time.h"
#include "fleetsim/fleet/fleet.h"
#include "fleetsim/fleet/fleet_spec.h"
#include "fleetsim/fleet/fleet_state.h"
#include "fleetsim/fleet/placement.h"
#include "fleetsim/fleet/topology.h"
#include "fleetsim/ledger/typical_task_tally.h"

namespace fleetsim {

class FleetLedger {
  static constexpr std::size_t kPodKinds = 6;  // the PodKindBit values

 public:
  explicit FleetLedger(const FleetSpec& spec);
  FleetLedger(const FleetLedger&) = delete;
  FleetLedger& operator=(const FleetLedger&) = delete;

  const Topology& topology() const { return topology_; }
  const FleetState& state() const { return state_; }
  // GPUs that can be taken whole now.
  const AllocationState& whole() const { return whole_; }
  const FreeCapacityIndex& index() const { return index_; }

  // The pools, in fleet order (GPUs and nodes are numbered pool by pool).
  std::span<const PoolSpec> pools() const { return pools_; }
  PoolIndex PoolOfGpu(GpuId gpu) const;
  PoolIndex PoolOfNode(NodeId node) const;
  PoolIndex PoolOfDomain(std::uint32_t domain) const;
  // GPUs [first, end) of a pool.
  GpuId FirstGpuOf(PoolIndex pool) const { return first_gpu_[pool]; }
  GpuId EndGpuOf(PoolIndex pool) const { return first_gpu_[pool + 1]; }
  // Nodes [first, end) of a pool.
  NodeId FirstNodeOf(PoolIndex pool) const { return first_node_[pool]; }
  NodeId EndNodeOf(PoolIndex pool) const { return first_node_[pool + 1]; }
  // GPUs of the pool that can be taken whole now.
  std::int64_t FreeWholeIn(PoolIndex pool) const { return free_whole_by_pool_[pool]; }
  // GPUs that can ever be taken whole: every GPU outside static-MIG pools.
  std::int64_t wholeable_gpus() const { return wholeable_gpus_; }

  // OK when the allocation can be taken now, else why not: FleetState::CheckAllocation.
  Status CheckAllocation(const Allocation& allocation) const {
    return state_.CheckAllocation(allocation);
  }
  // Preconditions (checked): CheckAllocation(allocation) is OK / the allocation is held.
  void Apply(const Allocation& allocation);
  void Release(const Allocation& allocation);
  // FleetState::Restore: takes back an allocation just released.
  void Restore(const Allocation& allocation);

  // The engine's: the node's availability changes; `back_at` is when a cordoned or down node is
  // expected up again (known from the replacement delay or repair time, not from the future).
  // Precondition (checked): going down, nothing is held on the node.
  void SetNodeAvailability(NodeId node, NodeAvailability availability, SimTime back_at);
  // When a node that is not up is expected back; 0 for an up node.
  SimTime NodeBackAt(NodeId node) const;

  // The kinds of GPU holders on the node now, as PodKindBit bits (gpu_share_placement.h): a
  // fractional share; whole GPUs by the holder's GPU count in all (1, 2, 4, 8, other). MIG
  // instances and CPU-only holders have no kind.
  std::uint8_t PodKindsOn(NodeId node) const;

  // The engine's: counts an admitted job's request in the typical tasks.
  void NoteSubmitted(const JobRequest& request) { tally_.Note(request); }
  const TypicalTaskTally& typical_tasks() const { return tally_; }

 private:
  // Brings the whole-GPU view, the index and the pool counts in step with the state for the GPUs
  // of `allocation`.
  void SyncWholeView(const Allocation& allocation);
  // GPUs whose whole-GPU view must flip to match the state.
  struct WholeViewChanges {
    std::vector<GpuId> now_busy{};
    std::vector<GpuId> now_free{};
    void Note(GpuId gpu, bool can_take, bool shown_free) {
      if (can_take != shown_free) {
        (can_take ? now_free : now_busy).push_back(gpu);
      }
    }
  };
  void Commit(WholeViewChanges& changes);
  void MarkWhole(std::vector<GpuId>& gpus, bool free);
  // Adds (+1) or removes (-1) the allocation's holder kind on the nodes of its GPUs.
  void CountPodKind(const Allocation& allocation, int sign);

  std::vector<PoolSpec> pools_;
  std::vector<GpuId> first_gpu_;    // by pool, plus the fleet's GPU count at the end
  std::vector<NodeId> first_node_;  // by pool, plus the fleet's node count at the end
  Topology topology_;
  FleetState state_;
  AllocationState whole_;
  FreeCapacityIndex index_;
  std::vector<std::int64_t> free_whole_by_pool_;
  std::int64_t wholeable_gpus_ = 0;
  std::vector<SimTime> back_at_;  // by node
  // By node, holders of each PodKindBit (indexed by the bit's position).
  std::vector<std::array<std::int32_t, kPodKinds>> pod_kinds_;
  TypicalTaskTally tally_;
};

}  // namespace fleetsim
