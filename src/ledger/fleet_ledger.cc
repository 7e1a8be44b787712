// FleetLedger: the fleet state, its whole-GPU view and index, and the pool lookups, kept in step.
#include "fleetsim/ledger/fleet_ledger.h"

#include <algorithm>
#include <bit>
#include <optional>

#include "fleetsim/core/check.h"
#include "fleetsim/fleet/gpu_share_placement.h"

namespace fleetsim {

namespace {

// The pools of a fleet; a bare {"gpus": N} fleet as one anonymous pool of one node.
std::vector<PoolSpec> PoolsOf(const FleetSpec& spec) {
  if (!spec.pools.empty() || spec.gpus == 0) {
    return spec.pools;
  }
  PoolSpec pool;
  pool.nodes = 1;
  pool.node.gpus_per_node = static_cast<int>(spec.gpus);
  pool.node.nvlink_domain_gpus = static_cast<int>(spec.gpus);
  pool.node.nodes_per_rack = 1;
  return {pool};
}

// Position of the range [firsts[i], firsts[i + 1]) holding `id`.
PoolIndex RangeOf(const std::vector<std::uint32_t>& firsts, std::uint32_t id) {
  const auto it = std::upper_bound(firsts.begin(), firsts.end(), id);
  FLEETSIM_CHECK(it != firsts.begin() && it != firsts.end(), "id outside every pool");
  return static_cast<PoolIndex>(it - firsts.begin() - 1);
}

}  // namespace

FleetLedger::FleetLedger(const FleetSpec& spec)
    : pools_(PoolsOf(spec)),
      topology_(spec),
      state_(spec, topology_),
      whole_(spec),
      index_(topology_),
      free_whole_by_pool_(pools_.size(), 0),
      back_at_(static_cast<std::size_t>(topology_.nodes()), 0),
      pod_kinds_(static_cast<std::size_t>(topology_.nodes())),
      tally_(pools_) {
  first_gpu_.push_back(0);
  first_node_.push_back(0);
  for (const PoolSpec& pool : pools_) {
    first_gpu_.push_back(first_gpu_.back() + static_cast<GpuId>(pool.gpus()));
    first_node_.push_back(first_node_.back() + static_cast<NodeId>(pool.nodes));
  }
  FLEETSIM_CHECK(first_gpu_.back() == whole_.capacity() && first_node_.back() == topology_.nodes(),
                 "pools do not add up to the fleet");
  std::vector<GpuId> partitioned;  // static-MIG GPUs are never free to take whole
  for (GpuId gpu = 0; gpu < state_.gpus(); ++gpu) {
    if (!state_.CanTakeWhole(gpu)) {
      partitioned.push_back(gpu);
    }
  }
  for (PoolIndex p = 0; p < pools_.size(); ++p) {
    free_whole_by_pool_[p] = EndGpuOf(p) - FirstGpuOf(p);
  }
  MarkWhole(partitioned, false);
  wholeable_gpus_ = whole_.free_count();
}

PoolIndex FleetLedger::PoolOfGpu(GpuId gpu) const { return RangeOf(first_gpu_, gpu); }

PoolIndex FleetLedger::PoolOfNode(NodeId node) const { return RangeOf(first_node_, node); }

PoolIndex FleetLedger::PoolOfDomain(std::uint32_t domain) const {
  return PoolOfGpu(topology_.DomainGpus(domain).front());
}

void FleetLedger::Apply(const Allocation& allocation) {
  state_.Apply(allocation);
  SyncWholeView(allocation);
  CountPodKind(allocation, +1);
}

void FleetLedger::Release(const Allocation& allocation) {
  state_.Release(allocation);
  SyncWholeView(allocation);
  CountPodKind(allocation, -1);
}

void FleetLedger::Restore(const Allocation& allocation) {
  state_.Restore(allocation);
  SyncWholeView(allocation);
  CountPodKind(allocation, +1);
}

void FleetLedger::CountPodKind(const Allocation& allocation, int sign) {
  std::int64_t whole = 0;
  std::optional<int> fraction_milli;
  for (const Grant& grant : allocation.gpus) {
    whole += grant.kind == Grant::Kind::kWhole ? 1 : 0;
    if (grant.kind == Grant::Kind::kFraction) {
      fraction_milli = grant.milli;
    }
  }
  // The kind the scorers give the request (a 1000-milli fraction is a one-GPU job to them).
  const std::uint8_t kind = fraction_milli
                                ? PodKindOf(SharePod{.gpus = 1, .gpu_milli = *fraction_milli})
                                : PodKindOf(SharePod{.gpus = whole, .gpu_milli = kGpuMilli});
  if (kind == 0) {
    return;  // MIG instances or CPU only
  }
  const auto bit = static_cast<std::size_t>(std::countr_zero(kind));
  std::vector<NodeId> nodes;
  for (const Grant& grant : allocation.gpus) {
    nodes.push_back(state_.NodeOf(grant.gpu));
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  for (const NodeId node : nodes) {
    std::int32_t& count = pod_kinds_[node][bit];
    count += sign;
    FLEETSIM_CHECK(count >= 0, "released a holder kind the node does not have");
  }
}

std::uint8_t FleetLedger::PodKindsOn(NodeId node) const {
  FLEETSIM_CHECK(node < pod_kinds_.size(), "node id out of range");
  unsigned kinds = 0;
  for (std::size_t bit = 0; bit < kPodKinds; ++bit) {
    kinds |= pod_kinds_[node][bit] > 0 ? 1U << bit : 0U;
  }
  return static_cast<std::uint8_t>(kinds);
}

void FleetLedger::SetNodeAvailability(NodeId node, NodeAvailability availability, SimTime back_at) {
  state_.SetAvailability(node, availability);
  back_at_[node] = availability == NodeAvailability::kUp ? 0 : back_at;
  WholeViewChanges changes;
  for (GpuId gpu = state_.FirstGpuOfNode(node); gpu < state_.EndGpuOfNode(node); ++gpu) {
    changes.Note(gpu, state_.CanTakeWhole(gpu), whole_.IsFree(gpu));
  }
  Commit(changes);
}

SimTime FleetLedger::NodeBackAt(NodeId node) const {
  FLEETSIM_CHECK(node < back_at_.size(), "node id out of range");
  return back_at_[node];
}

void FleetLedger::SyncWholeView(const Allocation& allocation) {
  WholeViewChanges changes;
  for (const Grant& grant : allocation.gpus) {
    changes.Note(grant.gpu, state_.CanTakeWhole(grant.gpu), whole_.IsFree(grant.gpu));
  }
  Commit(changes);
}

void FleetLedger::Commit(WholeViewChanges& changes) {
  MarkWhole(changes.now_busy, false);
  MarkWhole(changes.now_free, true);
}

// Marks GPUs free or busy in the whole-GPU view, its index and the pool counts. A GPU may be
// listed more than once (several grants on one GPU); it changes once.
void FleetLedger::MarkWhole(std::vector<GpuId>& gpus, bool free) {
  if (gpus.empty()) {
    return;
  }
  if (!std::is_sorted(gpus.begin(), gpus.end())) {
    std::sort(gpus.begin(), gpus.end());
  }
  gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
  if (free) {
    index_.Release(whole_, gpus);
  } else {
    index_.Allocate(whole_, gpus);
  }
  for (const GpuId gpu : gpus) {
    free_whole_by_pool_[PoolOfGpu(gpu)] += free ? 1 : -1;
  }
}

}  // namespace fleetsim
