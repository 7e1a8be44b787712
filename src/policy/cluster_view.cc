// ClusterView's queries, answered from the engine's ledger (which the view does not expose).
#include "fleetsim/policy/cluster_view.h"

#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/ledger/placement_rules.h"
#include "fleetsim/policy/placement_choice.h"

namespace fleetsim {

std::vector<PoolInfo> PoolInfosOf(const FleetLedger& ledger) {
  std::vector<PoolInfo> pools;
  for (PoolIndex p = 0; p < ledger.pools().size(); ++p) {
    const PoolSpec& spec = ledger.pools()[p];
    pools.push_back({.name = spec.name,
                     .gpu = spec.gpu,
                     .gpus_per_node = spec.node.gpus_per_node,
                     .first_gpu = ledger.FirstGpuOf(p),
                     .end_gpu = ledger.EndGpuOf(p),
                     .first_node = ledger.FirstNodeOf(p),
                     .end_node = ledger.EndNodeOf(p),
                     .tier = spec.tier,
                     .price_per_gpu_hour = spec.EffectivePrice(),
                     .mig = spec.mig,
                     .advertised_reclaims_per_node_hour = spec.AdvertisedReclaimsPerNodeHour()});
  }
  return pools;
}

ClusterView::ClusterView(SimTime now, const FleetLedger& ledger, std::span<const PoolInfo> pools,
                         std::span<const JobRequest> submitted, const JobQueue& queue,
                         std::span<const RunningJob> running, const ChangesSinceLastCall& changes,
                         const Organization& organization)
    : now_(now),
      ledger_(ledger),
      topology_(ledger.topology()),
      pools_(pools),
      requests_(submitted),
      queue_(queue),
      running_(running),
      changes_(changes),
      organization_(organization) {}

PoolIndex ClusterView::PoolOfGpu(GpuId gpu) const { return ledger_.PoolOfGpu(gpu); }

PoolIndex ClusterView::PoolOfNode(NodeId node) const { return ledger_.PoolOfNode(node); }

bool ClusterView::Accepts(const JobRequest& request, PoolIndex pool) const {
  FLEETSIM_CHECK(pool < pools_.size(), "pool index out of range");
  return AcceptsPool(request, ledger_.pools()[pool]);
}

std::int64_t ClusterView::FreeWholeGpus() const { return ledger_.whole().free_count(); }

std::int64_t ClusterView::FreeWholeIn(PoolIndex pool) const {
  FLEETSIM_CHECK(pool < pools_.size(), "pool index out of range");
  return ledger_.FreeWholeIn(pool);
}

std::int64_t ClusterView::FreeWholeInDomain(std::uint32_t domain) const {
  return ledger_.index().FreeIn(domain);
}

std::vector<std::uint32_t> ClusterView::DomainsWithFreeWhole(std::int64_t count) const {
  return ledger_.index().DomainsWithAtLeast(count);
}

bool ClusterView::IsFreeWhole(GpuId gpu) const { return ledger_.whole().IsFree(gpu); }

std::span<const std::uint64_t> ClusterView::NotFreeWholeWords() const {
  return ledger_.whole().busy_words();
}

GpuNow ClusterView::Gpu(GpuId gpu) const {
  const FleetState& state = ledger_.state();
  return {.whole = state.IsHeldWhole(gpu),
          .mig_instances = state.Mig(gpu).instances(),
          .shares = state.Fractions(gpu),
          .free_milli = state.FreeMilli(gpu),
          .free_memory_gb = state.FreeGpuMemoryGb(gpu)};
}

NodeNow ClusterView::Node(NodeId node) const {
  const FleetState& state = ledger_.state();
  const bool up = state.IsUp(node);
  return {.up = up,
          .back_at = up ? now_ : ledger_.NodeBackAt(node),
          .first_gpu = state.FirstGpuOfNode(node),
          .end_gpu = state.EndGpuOfNode(node),
          .free_cpu_cores = state.FreeCpuCores(node),
          .free_memory_gb = state.FreeMemoryGb(node)};
}

bool ClusterView::IsUp(NodeId node) const { return ledger_.state().IsUp(node); }

bool ClusterView::IsGpuUp(GpuId gpu) const { return ledger_.state().IsGpuUp(gpu); }

std::optional<Allocation> ClusterView::ChoosePlacement(const JobRequest& request) const {
  return fleetsim::ChoosePlacement(ledger_, request);
}

std::optional<Allocation> ClusterView::ChoosePlacement(
    const JobRequest& request, const PlacementStrategy& strategy,
    std::optional<std::int64_t> exact_gpus) const {
  return fleetsim::ChoosePlacement(ledger_, request, strategy, exact_gpus);
}

}  // namespace fleetsim
